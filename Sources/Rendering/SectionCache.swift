import Foundation

/// Rendered sections kept from one build to the next by a process that builds one site
/// again and again (`marsgen watch`, `marsgen serve`), by object stamp (see
/// `FeedObject.stamp`: an object's identity and content).
///
/// A section's HTML depends on its object, the templates, the configuration and the crew;
/// the cache is kept under a key made of the last three, and a build with another key
/// finds it empty. It keeps only the sections its last build showed, so it never
/// outgrows the pages a rebuild renders.
public final class SectionCache: @unchecked Sendable {
    private let lock = NSLock()
    private var key = ""
    private var sections: [UInt64: String] = [:]

    /// Creates an empty cache.
    public init() {}

    /// The sections kept under `key`, by object stamp.
    public func sections(key: String) -> [UInt64: String] {
        lock.withLock { self.key == key ? sections : [:] }
    }

    /// Replaces the sections kept with `sections`, under `key`.
    public func keep(_ sections: [UInt64: String], key: String) {
        lock.withLock {
            self.key = key
            self.sections = sections
        }
    }
}
