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
    /// One list's rows as last rendered, in the list's order: each row's key, and the rows'
    /// HTML as the page inserts it, one block of bytes with a newline between each two rows.
    ///
    /// Bytes, not a string per row: the sol index's 3,333 rows are read back, put together
    /// and written out by every build that changes one of them (an append), and as one block
    /// they are copied, not made and freed one by one.
    public struct RenderedList: Sendable, Equatable {
        /// Each row's key (see ``RowCache``), in order.
        public private(set) var keys: [UInt64] = []
        /// The rows' HTML, a newline between each two.
        public private(set) var html: [UInt8] = []
        /// Where each row's HTML ends in ``html``.
        public private(set) var ends: [Int] = []

        /// An empty list.
        public init() {}

        /// A list of `rows`, in their order.
        public init(_ rows: some Sequence<(key: UInt64, html: String)>) {
            for (key, html) in rows { append(key: key, html: Array(html.utf8)) }
        }

        /// A list read back as its parts; nil when they do not fit together (as many ends
        /// as keys, each after the one before, with a newline between each two rows and none
        /// after the last).
        public init?(keys: [UInt64], html: [UInt8], ends: [Int]) {
            guard keys.count == ends.count, ends.last ?? 0 == html.count else { return nil }
            var start = 0
            for end in ends {
                guard end >= start, end <= html.count, end == html.count || html[end] == UInt8(ascii: "\n") else { return nil }
                start = end + 1
            }
            (self.keys, self.html, self.ends) = (keys, html, ends)
        }

        /// How many rows it holds.
        public var count: Int { keys.count }

        /// Whether it holds no row.
        public var isEmpty: Bool { keys.isEmpty }

        /// Where row `index`'s HTML is in ``html``.
        public func range(of index: Int) -> Range<Int> {
            (index == 0 ? 0 : ends[index - 1] + 1)..<ends[index]
        }

        /// Row `index`'s HTML.
        public func text(of index: Int) -> String {
            String(decoding: html[range(of: index)], as: UTF8.self)
        }

        /// Each row's HTML by key.
        public var byKey: [UInt64: String] {
            Dictionary(keys.indices.map { (keys[$0], text(of: $0)) }, uniquingKeysWith: { first, _ in first })
        }

        /// Adds a row at the end.
        mutating func append(key: UInt64, html row: some Collection<UInt8>) {
            if !keys.isEmpty { html.append(UInt8(ascii: "\n")) }
            html.append(contentsOf: row)
            keys.append(key)
            ends.append(html.count)
        }

        /// Replaces row `index` with a row of `key` and `html`, in place.
        mutating func replace(row index: Int, key: UInt64, html row: some Collection<UInt8>) {
            let range = range(of: index)
            let growth = row.count - range.count
            html.replaceSubrange(range, with: row)
            keys[index] = key
            if growth != 0 {
                for position in index..<ends.count { ends[position] += growth }
            }
        }

        /// Adds row `index` of `list` at the end.
        mutating func append(row index: Int, of list: RenderedList) {
            append(key: list.keys[index], html: list.html[list.range(of: index)])
        }

        /// Makes room for `rows` rows of `bytes` bytes in all.
        mutating func reserveCapacity(rows: Int, bytes: Int) {
            keys.reserveCapacity(rows)
            ends.reserveCapacity(rows)
            html.reserveCapacity(bytes)
        }
    }

    /// What the cache keeps of a list: its rows, and each row's values with the HTML as
    /// `html` when this process made them (a row read back from a file has its values made
    /// again when a template asks for them, which is cheap; rendering is not).
    struct Kept {
        var rows: RenderedList
        var values: [UInt64: TemplateContext] = [:]
    }

    private let lock = NSLock()
    private var lists: [String: Kept] = [:]
    /// Reads the rows kept by an earlier process, at the first list asked for.
    private var loader: (@Sendable () -> [String: RenderedList])?
    /// Whether a list was asked for yet.
    private var used = false
    private var changed = false

    /// Creates an empty cache.
    public init() {}

    /// Has `load` read the rows an earlier process kept (each list's rows) when the cache is
    /// first asked for a list, so a build that renders no list never reads them; `nil`
    /// reads none. Once a list was asked for, this does nothing.
    public func loadOnFirstUse(_ load: (@Sendable () -> [String: RenderedList])?) {
        lock.withLock { if !used { loader = load } }
    }

    /// Every list's rows when a list was rendered differently since the cache was made,
    /// loaded or last asked; nil when there is nothing new to save.
    public func takeChanges() -> [String: RenderedList]? {
        lock.withLock {
            guard changed else { return nil }
            changed = false
            return lists.mapValues(\.rows)
        }
    }

    /// What is kept of `list` (a page's output path and the list's name) as last rendered,
    /// taken out of the cache until ``keep(_:of:changed:)`` puts it back: its rows are then
    /// the caller's alone, to change in place.
    func take(_ list: String) -> Kept? {
        lock.withLock {
            used = true
            if let load = loader {
                loader = nil
                for (name, rows) in load() where lists[name] == nil {
                    lists[name] = Kept(rows: rows)
                }
            }
            return lists.removeValue(forKey: list)
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

    /// Keeps `kept` for `list`; `changed` says whether its rows differ from those taken.
    func keep(_ kept: Kept, of list: String, changed: Bool) {
        lock.withLock {
            if changed { self.changed = true }
            lists[list] = kept
        }
    }
}
