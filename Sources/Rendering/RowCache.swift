import Feed
import Foundation

/// Rendered rows (see ``Page/Rows``) kept from one build to the next: in memory by a process
/// that builds one site again and again (`marsgen watch`, `marsgen serve`), and as HTML only
/// in a file beside the build state for the next process (see ``loadOnFirstUse(_:)``).
///
/// Each list keeps only the rows its last rendering produced, by a hash of everything a row
/// depends on, so the cache never outgrows the site and a stale row can never be found:
/// changed inputs, templates or configuration make a different key.
public final class RowCache: @unchecked Sendable {
    /// One row as rendered: its HTML, and its values with the HTML as `html` when this
    /// process made them (a row read back from a file has its values made again, which is
    /// cheap; rendering is not).
    struct Row {
        var html: String
        var context: TemplateContext?
    }

    private let lock = NSLock()
    private var lists: [String: [UInt64: Row]] = [:]
    /// Reads the rows kept by an earlier process, at the first list asked for.
    private var loader: (@Sendable () -> [String: [UInt64: String]])?
    /// Whether a list was asked for yet.
    private var used = false
    private var changed = false

    /// Creates an empty cache.
    public init() {}

    /// Has `load` read the rows an earlier process kept (each list's rows' HTML by key) when
    /// the cache is first asked for a list, so a build that renders no list never reads
    /// them; `nil` reads none. Once a list was asked for, this does nothing.
    public func loadOnFirstUse(_ load: (@Sendable () -> [String: [UInt64: String]])?) {
        lock.withLock { if !used { loader = load } }
    }

    /// Every list's rows' HTML by key when a list was rendered differently since the cache
    /// was made, loaded or last asked; nil when there is nothing new to save.
    public func takeChanges() -> [String: [UInt64: String]]? {
        lock.withLock {
            guard changed else { return nil }
            changed = false
            return lists.mapValues { $0.mapValues(\.html) }
        }
    }

    /// The rows of `list` (a page's output path and the list's name) last rendered.
    func rows(of list: String) -> [UInt64: Row] {
        lock.withLock {
            used = true
            if let load = loader {
                loader = nil
                for (name, rows) in load() where lists[name] == nil {
                    lists[name] = rows.mapValues { Row(html: $0) }
                }
            }
            return lists[list] ?? [:]
        }
    }

    /// Forgets every row, and any an earlier process kept (for a build that must trust
    /// nothing rendered before it: see `SiteBuilder.build()`).
    public func removeAll() {
        lock.withLock {
            lists = [:]
            loader = nil
            changed = false
        }
    }

    /// Replaces the rows kept for `list`; `renderedAny` says whether any was rendered anew.
    func keep(_ rows: [UInt64: Row], of list: String, renderedAny: Bool) {
        lock.withLock {
            if renderedAny || lists[list]?.count != rows.count { changed = true }
            lists[list] = rows
        }
    }
}
