import Foundation
import MarsTime

extension Instant {
    /// This moment, to the millisecond: what `sol` converts and `new` dates by default.
    static var now: Instant { Instant(unixMillis: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }
}
