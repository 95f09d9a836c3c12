import Feed
import Foundation

/// Rendered rows (see ``Page/Rows``) kept from one build to the next by a process that
/// builds one site again and again (`marsgen watch`, `marsgen serve`).
///
/// Each list keeps only the rows its last rendering produced (their values and HTML), by a
/// hash of everything a row depends on, so the cache never outgrows the site and a stale
/// row can never be found: changed inputs, templates or configuration make a different key.
public final class RowCache: @unchecked Sendable {
    private let lock = NSLock()
    private var lists: [String: [UInt64: TemplateContext]] = [:]

    /// Creates an empty cache.
    public init() {}

    /// The rows of `list` (a page's output path and the list's name) last rendered.
    func rows(of list: String) -> [UInt64: TemplateContext] {
        lock.withLock { lists[list] ?? [:] }
    }

    /// Replaces the rows kept for `list`.
    func keep(_ rows: [UInt64: TemplateContext], of list: String) {
        lock.withLock { lists[list] = rows }
    }
}
