/// A build state's records by path (its pages, its sources), as a table that remembers which
/// paths were set since it was made from the state's chunks.
///
/// A save writes the records sorted by path, chunk by chunk. Looking every path up again to
/// put the records in that order cost 3-5 ms on each of the save's two lanes (19,600 pages
/// and 13,400 sources, each path hashed) after a one-file edit. A table made from a list of
/// chunks (see ``ChunkedList/table()``) knows that every path it did not set since still
/// holds the chunk's record, so the save takes those from the chunks as they are, and looks
/// up only the paths set.
public struct RecordTable<Record: Sendable & Equatable>: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: Record)

    private var table: [String: Record]
    /// The version of the list of chunks the table was made from (see ``ChunkedList/version``),
    /// nil for a table made otherwise.
    private(set) var origin: ChunkedListVersion?
    /// The paths set (or removed) since the table was made from ``origin``.
    private var touched: Set<String> = []

    /// A table of `records`, made from no chunks.
    public init(_ records: [String: Record] = [:]) {
        table = records
    }

    public init(dictionaryLiteral elements: (String, Record)...) {
        self.init(Dictionary(uniqueKeysWithValues: elements))
    }

    /// The records of a list of chunks, in a table made from them.
    init(_ records: [String: Record], madeFrom origin: ChunkedListVersion) {
        (table, self.origin) = (records, origin)
    }

    /// The record at `path`; set to nil, the record goes.
    public subscript(path: String) -> Record? {
        get { table[path] }
        set {
            table[path] = newValue
            if origin != nil { touched.insert(path) }
        }
    }

    /// Sets the record at `path`, returning the one it replaced (as a dictionary's does).
    @discardableResult
    public mutating func updateValue(_ record: Record, forKey path: String) -> Record? {
        if origin != nil { touched.insert(path) }
        return table.updateValue(record, forKey: path)
    }

    /// How many records there are.
    public var count: Int { table.count }
    public var isEmpty: Bool { table.isEmpty }
    public var keys: Dictionary<String, Record>.Keys { table.keys }
    public var values: Dictionary<String, Record>.Values { table.values }
    /// The records as a dictionary (shared, not copied).
    var dictionary: [String: Record] { table }

    public func makeIterator() -> Dictionary<String, Record>.Iterator { table.makeIterator() }

    public mutating func reserveCapacity(_ count: Int) {
        table.reserveCapacity(count)
    }

    /// What the table holds; which paths it set, and what it was made from, are not part of it.
    public static func == (lhs: RecordTable, rhs: RecordTable) -> Bool {
        lhs.table == rhs.table
    }

    /// The paths and records in increasing path order, taken from `chunks` for every path not
    /// set since the table was made from them (only the paths set are looked up). Nil when
    /// the table was not made from `chunks` as they are now, or their keys are out of order.
    func sortedRecords(takingUnchangedFrom chunks: ChunkedList<Record>) -> (keys: [String], values: [Record])? {
        guard let origin, origin === chunks.version else { return nil }
        let set = touched.sorted()
        var keys: [String] = []
        var values: [Record] = []
        keys.reserveCapacity(table.count)
        values.reserveCapacity(table.count)
        var next = 0
        /// Adds the records of the paths set that sort before `key` (all of them when nil):
        /// new paths, as the chunks do not hold them.
        func addSet(before key: String?) {
            while next < set.count, key.map({ set[next] < $0 }) ?? true {
                if let record = table[set[next]] {
                    keys.append(set[next])
                    values.append(record)
                }
                next += 1
            }
        }
        for chunk in chunks.chunks {
            let chunkKeys = chunk.keys
            guard let first = chunkKeys.first, let last = chunkKeys.last else { continue }
            addSet(before: first)
            // No path set among the chunk's: all of it, as it is.
            if next == set.count || last < set[next] {
                keys.append(contentsOf: chunkKeys)
                values.append(contentsOf: chunk.items)
                continue
            }
            for (key, record) in zip(chunkKeys, chunk.items) {
                addSet(before: key)
                if next < set.count, set[next] == key {
                    // Set since: as the table has it now, or gone.
                    if let now = table[key] {
                        keys.append(key)
                        values.append(now)
                    }
                    next += 1
                } else {
                    keys.append(key)
                    values.append(record)
                }
            }
        }
        addSet(before: nil)
        // The chunks of a state as saved hold their keys in order; any others (a damaged
        // state that still decodes) leave the lookups to sort the paths anew.
        guard zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        return (keys, values)
    }

    /// Marks the table as made from `chunks`, which hold every record it holds (it was just
    /// saved as them).
    mutating func rebase(on chunks: ChunkedList<Record>) {
        (origin, touched) = (chunks.version, [])
    }
}

/// One version of a ``ChunkedList``'s chunks: a new one each time a chunk is added, so that
/// a ``RecordTable`` can tell whether the chunks are still those it was made from.
final class ChunkedListVersion: Sendable {}
