/// A build state's records by path (its pages, its sources): the chunks the state was loaded
/// from (or last saved as), and the paths set since.
///
/// A loaded state's 19,600 page records and 13,400 source records were put in two
/// dictionaries on every load (each path hashed, each key and record retained: 4.7 ms of
/// processor time after a one-file edit), and the first change to a table shared with the
/// state copied it whole. The chunks hold their keys sorted, so a table made from them (see
/// ``ChunkedList/table()``) finds a record there by binary search, and keeps only the paths
/// set since in a dictionary of its own: a rebuild's handful. A save takes every path not
/// set since from the chunks as they are (see ``sortedRecords(takingUnchangedFrom:)``).
///
/// A table made otherwise (a full build's) is a dictionary alone. Iterating a table made
/// from chunks gives the paths in increasing order; any other table, in no set order.
public struct RecordTable<Record: Sendable & Equatable>: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: Record)

    /// The chunks the table was made from, nil for a table made otherwise.
    private var base: ChunkedList<Record>?
    /// The records set since the table was made from ``base`` (every record, without one).
    private var changed: [String: Record]
    /// The paths of ``base`` removed since.
    private var removed: Set<String> = []
    /// How many records the table holds.
    public private(set) var count: Int

    /// A table of `records`, made from no chunks.
    public init(_ records: [String: Record] = [:]) {
        (changed, count) = (records, records.count)
    }

    public init(dictionaryLiteral elements: (String, Record)...) {
        self.init(Dictionary(uniqueKeysWithValues: elements))
    }

    /// The records of `chunks`, whose keys are unique and in increasing order.
    init(madeFrom chunks: ChunkedList<Record>) {
        (base, changed, count) = (chunks, [:], chunks.itemCount)
    }

    /// The version of the chunks the table was made from (see ``ChunkedList/version``), nil
    /// for a table made otherwise.
    var origin: ChunkedListVersion? { base?.version }

    /// The record at `path`; set to nil, the record goes.
    public subscript(path: String) -> Record? {
        get {
            if !changed.isEmpty, let record = changed[path] { return record }
            guard let base, removed.isEmpty || !removed.contains(path) else { return nil }
            return base.item(at: path)
        }
        set { update(newValue, at: path) }
    }

    /// Sets the record at `path`, returning the one it replaced (as a dictionary's does).
    @discardableResult
    public mutating func updateValue(_ record: Record, forKey path: String) -> Record? {
        update(record, at: path)
    }

    @discardableResult
    private mutating func update(_ record: Record?, at path: String) -> Record? {
        guard let base else {
            defer { count = changed.count }
            if let record { return changed.updateValue(record, forKey: path) }
            return changed.removeValue(forKey: path)
        }
        let inBase = base.item(at: path)
        let old = changed[path] ?? (removed.contains(path) ? nil : inBase)
        if let record {
            changed[path] = record
            if inBase != nil { removed.remove(path) }
        } else {
            changed[path] = nil
            if inBase != nil { removed.insert(path) }
        }
        count += (record == nil ? 0 : 1) - (old == nil ? 0 : 1)
        return old
    }

    public var isEmpty: Bool { count == 0 }

    /// Every path (in increasing order for a table made from chunks).
    public var keys: [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        forEach { keys.append($0.key) }
        return keys
    }

    /// Every record, in the order of ``keys``.
    public var values: [Record] {
        var values: [Record] = []
        values.reserveCapacity(count)
        forEach { values.append($0.value) }
        return values
    }

    /// Calls `body` with each path and its record, in the order of iteration. Hands each
    /// straight from the chunks' arrays: an iterator returns its own reference to each key
    /// and record, which cost a retain and a release of every one of 13,400 records (scattered
    /// in memory) where a look at each was all a rebuild needed.
    @inline(__always)
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        try walk(wholeChunk: { _, keys, items in
            for index in keys.indices { try body((keys[index], items[index])) }
        }, each: body)
    }

    /// Goes over the records in order: `wholeChunk` with the position, keys and items of each
    /// chunk no path was set in since, `each` with every other path and record.
    @inline(__always)
    private func walk(wholeChunk: (Int, [String], [Record]) throws -> Void, each: (Element) throws -> Void) rethrows {
        guard let base else { return try changed.forEach(each) }
        let touched = changed.isEmpty && removed.isEmpty ? [] : self.touched
        var next = 0
        /// Gives the records of the paths set that sort before `key` (all of them when nil):
        /// new paths, as the chunks do not hold them.
        func giveSet(before key: String?) throws {
            while next < touched.count, key.map({ touched[next] < $0 }) ?? true {
                if let record = changed[touched[next]] { try each((touched[next], record)) }
                next += 1
            }
        }
        for (position, chunk) in base.chunks.enumerated() {
            let (keys, items) = (chunk.keys, chunk.items)
            guard let first = keys.first, let last = keys.last else { continue }
            try giveSet(before: first)
            if next == touched.count || last < touched[next] {
                try wholeChunk(position, keys, items)
                continue
            }
            for index in keys.indices {
                try giveSet(before: keys[index])
                if next < touched.count, touched[next] == keys[index] {
                    // Set since: as the table has it now, or gone.
                    if let record = changed[keys[index]] { try each((keys[index], record)) }
                    next += 1
                } else {
                    try each((keys[index], items[index]))
                }
            }
        }
        try giveSet(before: nil)
    }

    /// Makes room for `count` records set, for a table about to be filled one at a time.
    public mutating func reserveCapacity(_ count: Int) {
        if base == nil { changed.reserveCapacity(count) }
    }

    /// What the table holds; which paths it set, and what it was made from, are not part of it.
    public static func == (lhs: RecordTable, rhs: RecordTable) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// The paths and records, as ``forEach(_:)`` gives them (gathered first: the build's
    /// own loops over a whole table use that).
    public func makeIterator() -> IndexingIterator<[Element]> {
        var elements: [Element] = []
        elements.reserveCapacity(count)
        forEach { elements.append($0) }
        return elements.makeIterator()
    }

    /// The paths set or removed since the table was made from its chunks, sorted.
    private var touched: [String] {
        removed.isEmpty ? changed.keys.sorted() : Array(removed.union(changed.keys)).sorted()
    }

    /// The paths and records in increasing path order, taken from `chunks` for every path not
    /// set since the table was made from them (only the paths set are looked up), and where
    /// each chunk taken whole is among them: `kept[start]` is the position in `chunks` of the
    /// chunk whose keys and items are those from `start` on. Nil when the table was not made
    /// from `chunks` as they are now.
    func sortedRecords(takingUnchangedFrom chunks: ChunkedList<Record>)
        -> (keys: [String], values: [Record], kept: [Int: Int])? {
        guard let origin, origin === chunks.version else { return nil }
        var keys: [String] = [], values: [Record] = []
        var kept: [Int: Int] = [:]
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        walk(wholeChunk: { position, chunkKeys, items in
            kept[keys.count] = position
            keys.append(contentsOf: chunkKeys)
            values.append(contentsOf: items)
        }, each: { key, value in
            keys.append(key)
            values.append(value)
        })
        return (keys, values, kept)
    }

    /// Makes the table the records of `chunks`, which hold every record it holds (it was just
    /// saved as them): what it set since goes.
    mutating func rebase(on chunks: ChunkedList<Record>) {
        assert(chunks.itemCount == count && RecordTable(madeFrom: chunks) == self, "a table rebased on chunks that do not hold its records")
        self = RecordTable(madeFrom: chunks)
    }
}

/// One version of a ``ChunkedList``'s chunks: a new one each time a chunk is added, so that
/// a ``RecordTable`` can tell whether the chunks are still those it was made from.
final class ChunkedListVersion: Sendable {}
