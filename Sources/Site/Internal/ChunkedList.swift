import Content
import Foundation

/// One of the build state's long lists (the sources, the pages, the object list), as it is
/// stored: in chunks, each a file named by the hash of its bytes.
///
/// The list is cut after a key whose hash has its low bits zero (``cutMask``), so adding or
/// removing an item moves only its own chunk's boundaries, and after ``maximumItems`` at
/// most. An item can weigh more than one (``weight``): a cut after it is then as many times
/// as likely, so that chunks of heavy items (a log of a hundred messages) stay about as
/// large in bytes as chunks of light ones. A save encodes and writes only the chunks whose
/// items changed; the others are the files the state was loaded from (or last saved as),
/// kept mapped. One edit changes a chunk or two of each list instead of the 5 MB a single
/// file took.
///
/// A value holds the chunks as they were last loaded or saved. It is not part of what a
/// state says (see ``BuildState/==(_:_:)``).
struct ChunkedList<Item: Equatable & Sendable>: Sendable {
    /// One chunk: its keys and items (in order), its bytes and the name of its file.
    struct Chunk: Sendable {
        /// Its keys as strings, or found in its file and made strings only once asked for.
        private enum Keys: Sendable {
            case decoded([String])
            case later(LaterKeys)
        }

        private let storedKeys: Keys
        /// Its first key, by which ``ChunkedList/encoding(keys:items:sharedEnds:write:)`` finds it.
        let firstKey: String
        private(set) var items: [Item]
        let bytes: EncodedBytes
        let name: String
        /// Whether it ends where the list is cut, rather than only where the list ended.
        let endsAtCut: Bool

        /// Its keys, as many as its items.
        var keys: [String] {
            switch storedKeys {
            case .decoded(let keys): keys
            case .later(let keys): keys.keys
            }
        }

        init(keys: [String], items: [Item], bytes: EncodedBytes, name: String, endsAtCut: Bool) {
            (storedKeys, firstKey) = (.decoded(keys), keys.first ?? "")
            (self.items, self.bytes, self.name, self.endsAtCut) = (items, bytes, name, endsAtCut)
        }

        init(laterKeys: LaterKeys, firstKey: String, items: [Item], bytes: EncodedBytes, name: String, endsAtCut: Bool) {
            (storedKeys, self.firstKey) = (.later(laterKeys), firstKey)
            (self.items, self.bytes, self.name, self.endsAtCut) = (items, bytes, name, endsAtCut)
        }

        /// This chunk, its keys as they are, with `items` (equal to its own).
        func with(items: [Item]) -> Chunk {
            var chunk = self
            chunk.items = items
            return chunk
        }
    }

    /// A key whose hash has these bits zero ends a chunk: about one key in `cutMask + 1`.
    let cutMask: UInt64
    /// No chunk holds more items.
    let maximumItems: Int
    /// How many items each item counts for, for where the list is cut (at least one).
    let weight: @Sendable (Item) -> Int

    /// The chunks in order, as last loaded or saved. A save compares its items with theirs in
    /// place: items carried over from the loaded state share their storage with them, which
    /// makes that immediate.
    private(set) var chunks: [Chunk] = []
    /// Where each chunk is in ``chunks``, by its first key.
    private var positions: [String: Int] = [:]
    /// Where each chunk starts in the list (its first item's index), in chunk order.
    private var starts: [Int] = []
    /// How many items the chunks hold.
    private(set) var itemCount = 0
    /// Names these chunks as they are: a new version with each chunk added.
    private(set) var version = ChunkedListVersion()

    /// An empty list whose chunks hold about `averageItems` items (a power of two), each
    /// item counting for `weight` of them.
    init(averageItems: Int, weight: @escaping @Sendable (Item) -> Int = { _ in 1 }) {
        cutMask = UInt64(averageItems - 1)
        maximumItems = averageItems * 8
        self.weight = weight
    }

    /// How many chunks there are.
    var count: Int { chunks.count }

    /// Every key, in order: for sources and pages, their paths sorted, as a save writes them.
    var keys: [String] { chunks.flatMap(\.keys) }

    /// Each key's item, in a table made from these chunks (see ``RecordTable``); nil when the
    /// keys are not unique and in increasing order (a damaged state), as a table made from
    /// chunks finds its records by binary search.
    func table() -> RecordTable<Item>? {
        var previous: String?
        for chunk in chunks {
            let keys = chunk.keys
            guard let first = keys.first, previous.map({ $0 < first }) ?? true,
                  zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
            previous = keys.last
        }
        return RecordTable(madeFrom: self)
    }

    /// The item of `key`, found by binary search in chunks whose keys are sorted (a list
    /// ``table()`` accepted).
    func item(at key: String) -> Item? {
        guard let holding = Self.chunk(holding: key, in: chunks) else { return nil }
        let keys = chunks[holding].keys
        let position = keys.sortedInsertionIndex(of: key)
        return position < keys.count && keys[position] == key ? chunks[holding].items[position] : nil
    }

    private mutating func append(_ chunk: Chunk) {
        version = ChunkedListVersion()
        positions[chunk.firstKey] = chunks.count
        starts.append(itemCount)
        itemCount += chunk.items.count
        chunks.append(chunk)
    }

    /// The chunk that starts at item `index` of this list, if one does.
    private func chunk(startingAt index: Int) -> Chunk? {
        let position = starts.sortedInsertionIndex(of: index)
        return position < starts.count && starts[position] == index ? chunks[position] : nil
    }

    /// Whether a chunk `length` items long, ending with `key` and its `item`, ends there.
    private func isCut(after key: String, item: Item, length: Int) -> Bool {
        var key = key
        return key.withUTF8 { isCut(afterUTF8: UnsafeRawBufferPointer($0), item: item, length: length) }
    }

    /// ``isCut(after:item:length:)`` for a key given as its UTF-8 bytes. An item of weight
    /// one ends a chunk when its key's hash has the ``cutMask`` bits zero; one of weight w
    /// when those bits are below w.
    private func isCut(afterUTF8 key: UnsafeRawBufferPointer, item: Item, length: Int) -> Bool {
        guard length < maximumItems else { return true }
        var hash = ContentHash()
        hash.combine(buffer: key)
        return hash.value & cutMask < UInt64(max(1, weight(item)))
    }

    /// Lookups by key in increasing order, each going on from where the last one stopped (see
    /// ``Walk``).
    func walk() -> Walk { Walk(self) }

    /// Finds items by key in a list whose keys are sorted (the sources' and the pages' are:
    /// their paths), for a caller that looks up keys in increasing order: a comparison or two
    /// per lookup instead of hashing the key, as a table lookup does. A key before the last
    /// one looked up, or in another chunk, is found by binary search.
    struct Walk {
        private let chunks: [Chunk]
        /// The chunk looked in last (an index into `chunks`), its keys walked as
        /// ``SortedWalk`` walks them, and its items.
        private var current = -1
        private var keys = SortedWalk<String>([])
        private var items: [Item] = []

        fileprivate init(_ list: ChunkedList) {
            chunks = list.chunks
        }

        /// The item of `key`; nil when the list does not hold it.
        mutating func item(at key: String) -> Item? {
            // Most often the key after the last one found, in the same chunk.
            if current >= 0, let index = keys.indexIfNext(key) { return items[index] }
            let isInCurrent = current >= 0 && keys.elements.first.map { $0 <= key } == true
                && (current + 1 == chunks.count || key < chunks[current + 1].firstKey)
            if !isInCurrent {
                guard let holding = ChunkedList.chunk(holding: key, in: chunks) else { return nil }
                current = holding
                (keys, items) = (SortedWalk(chunks[holding].keys), chunks[holding].items)
            }
            return keys.index(of: key).map { items[$0] }
        }
    }

    /// The keys and items at `range` of the list (within ``itemCount``), reading only the
    /// keys of the chunks that hold them.
    func keysAndItems(in range: Range<Int>) -> (keys: [String], items: [Item]) {
        var keys: [String] = [], items: [Item] = []
        keys.reserveCapacity(range.count)
        items.reserveCapacity(range.count)
        forEachPart(of: range) { chunk, part in
            keys.append(contentsOf: chunk.keys[part])
            items.append(contentsOf: chunk.items[part])
        }
        return (keys, items)
    }

    /// The items at `range` of the list (within ``itemCount``), without reading a key.
    func items(in range: Range<Int>) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(range.count)
        forEachPart(of: range) { chunk, part in items.append(contentsOf: chunk.items[part]) }
        return items
    }

    /// Calls `body` with each chunk that holds some of `range` (indexes of the list) and
    /// where that part is among the chunk's own items, in order.
    private func forEachPart(of range: Range<Int>, _ body: (Chunk, Range<Int>) -> Void) {
        guard !range.isEmpty else { return }
        // The chunk holding the first index: the last that starts at or before it.
        var position = starts.sortedInsertionIndex(of: range.lowerBound + 1) - 1
        while position < chunks.count, starts[position] < range.upperBound {
            let start = starts[position]
            let own = max(range.lowerBound, start)..<min(range.upperBound, start + chunks[position].items.count)
            body(chunks[position], (own.lowerBound - start)..<(own.upperBound - start))
            position += 1
        }
    }

    /// Where the keys under `folder` (those starting `folder/`) are in a list whose keys are
    /// sorted: one run, found by binary search.
    func run(under folder: String) -> Range<Int> {
        // Every key under the folder sorts from `folder/` on and before `folder0` ("0" follows "/").
        index(notBelow: folder + "/")..<index(notBelow: folder + "0")
    }

    /// In a list whose keys are sorted, the index of the first key not below `key`.
    private func index(notBelow key: String) -> Int {
        guard let holding = Self.chunk(holding: key, in: chunks) else { return 0 }
        return starts[holding] + chunks[holding].keys.sortedInsertionIndex(of: key)
    }

    /// Where in `chunks` (whose keys are sorted) the chunk that would hold `key` is: the last
    /// that starts at or before it; nil when `key` comes before them all.
    private static func chunk(holding key: String, in chunks: [Chunk]) -> Int? {
        let next = chunks.sortedInsertionIndex(of: key) { $0.firstKey }
        let holding = next < chunks.count && chunks[next].firstKey == key ? next : next - 1
        return holding >= 0 ? holding : nil
    }

    /// `keys` with their `items` (the same count, keys unique), in chunks: each chunk that
    /// equals one of this list's (same keys and items) is taken as it is, the others are
    /// encoded with `write` (which writes a key and its item). The chunks are those a cut of
    /// the whole list gives, whatever this list held.
    ///
    /// - Parameters:
    ///   - keys: Any random-access list: the object list's are read from the objects only
    ///     where this looks (in a chunk it keeps from a shared run, nowhere).
    ///   - sharedEnds: How many of the first and of the last `keys` and `items` are known to
    ///     equal this list's first and last ones: a chunk of this list that lies in either
    ///     run is taken without comparing its keys and items. The caller vouches for it.
    ///   - kept: Chunks of this list known to hold `keys` and `items` from a start on, by
    ///     that start (a chunk's position in ``chunks``): taken without comparing them where
    ///     a chunk starts there. The caller vouches for it.
    /// - Returns: The chunks in order, and the list a save of them leaves.
    func encoding<Keys: RandomAccessCollection<String>, Items: RandomAccessCollection<Item>>(
        keys: Keys, items: Items, sharedEnds: SharedEnds = .none, kept: [Int: Int] = [:],
        write: (String, Item, inout StateWriter) -> Void
    ) -> (chunks: [EncodedChunk], list: ChunkedList) where Keys.Index == Int, Items.Index == Int {
        var encoded: [EncodedChunk] = []
        var list = ChunkedList(cutMask: cutMask, maximumItems: maximumItems, weight: weight)
        let sharedEnds = sharedEnds.clamped(newCount: keys.count, oldCount: itemCount)
        /// Where an index of the suffix both share is in this list.
        let suffixShift = itemCount - keys.count
        var start = 0
        while start < keys.count {
            // A chunk of this list that lies in a run both lists share is the same chunk.
            if start < sharedEnds.prefix || start >= keys.count - sharedEnds.suffix,
               let old = chunk(startingAt: start < sharedEnds.prefix ? start : start + suffixShift),
               start >= keys.count - sharedEnds.suffix || start + old.items.count <= sharedEnds.prefix,
               old.endsAtCut || old.items.count == keys.count - start {
                encoded.append(EncodedChunk(name: old.name, bytes: old.bytes, isNew: false))
                list.append(old)
                start += old.items.count
                continue
            }
            // One the caller knows holds these keys and items (a record table's chunk that
            // no path was set in), where a cut from here ends as it did.
            if !kept.isEmpty, let position = kept[start], case let old = chunks[position],
               old.endsAtCut || old.items.count == keys.count - start {
                assert(old.keys.elementsEqual(keys[start..<(start + old.items.count)])
                       && old.items == Array(items[start..<(start + old.items.count)]), "a chunk said kept has other items")
                encoded.append(EncodedChunk(name: old.name, bytes: old.bytes, isNew: false))
                list.append(old)
                start += old.items.count
                continue
            }
            // A chunk of this list that starts here with the same keys and items ends where a
            // cut from here would (they were cut by the same rule from its start), unless it
            // ended only with the list: it is taken as it is. Another item may weigh
            // otherwise, so the cut is looked for again.
            // The items first: keys may be made only as they are read (the object list's
            // identifiers), and an edit changes an item, not its key.
            if let position = positions[keys[start]], case let old = chunks[position], old.items.count <= keys.count - start,
               old.endsAtCut || old.items.count == keys.count - start,
               case let chunkItems = Array(items[start..<(start + old.items.count)]), old.items == chunkItems,
               old.keys.elementsEqual(keys[start..<(start + old.items.count)]) {
                encoded.append(EncodedChunk(name: old.name, bytes: old.bytes, isNew: false))
                list.append(old.with(items: chunkItems))
                start += old.items.count
                continue
            }
            var end = start
            var endsAtCut = false
            // Each key once (see above).
            var chunkKeys: [String] = []
            repeat {
                chunkKeys.append(keys[end])
                end += 1
                endsAtCut = isCut(after: chunkKeys[chunkKeys.count - 1], item: items[end - 1], length: end - start)
            } while !endsAtCut && end < keys.count
            let range = start..<end
            start = end
            let chunkItems = Array(items[range])
            // Texts after the records (see `StateWriter.separatedBytes`).
            var writer = StateWriter(separatingTexts: true)
            writer.write(count: range.count)
            for (key, item) in zip(chunkKeys, chunkItems) { write(key, item, &writer) }
            let chunkBytes = writer.separatedBytes
            // Named by the check hash of its bytes, the fastest hash the state has.
            let name = ContentHash(value: chunkBytes.withUnsafeBytes { StateWriter.checkHash($0) }).description
            let bytes = EncodedBytes.encoded(chunkBytes[...])
            encoded.append(EncodedChunk(name: name, bytes: bytes, isNew: true))
            list.append(Chunk(keys: chunkKeys, items: chunkItems, bytes: bytes, name: name, endsAtCut: endsAtCut))
        }
        return (encoded, list)
    }

    private init(cutMask: UInt64, maximumItems: Int, weight: @escaping @Sendable (Item) -> Int) {
        self.cutMask = cutMask
        self.maximumItems = maximumItems
        self.weight = weight
    }

    /// Decodes the chunk file `file` with `read` (which reads a key and its item, sharing
    /// repeated strings through `fields`). Nil when it is damaged or holds no item.
    static func decode(_ texts: ChunkTexts,
                       read: (inout StateReader, inout RepeatedFields) throws(StateReader.Damaged) -> (String, Item))
        -> (keys: [String], items: [Item])? {
        var keys: [String] = []
        var items: [Item] = []
        do throws(StateReader.Damaged) {
            // The objects' bodies stay in the mapped file until a page shows them.
            var reader = try StateReader(separated: texts.file.bytes, owner: texts)
            let count = try reader.readCount()
            keys.reserveCapacity(count)
            items.reserveCapacity(count)
            var fields = RepeatedFields()
            for _ in 0..<count {
                let (key, item) = try read(&reader, &fields)
                keys.append(key)
                items.append(item)
            }
            guard reader.isAtEnd, !keys.isEmpty else { return nil }
        } catch {
            return nil
        }
        return (keys, items)
    }

    /// Adds a chunk decoded from `file`, named `name`, after the others.
    mutating func add(keys: [String], items: [Item], file: FileSystem.MappedFile, name: String) {
        guard let last = keys.last, let lastItem = items.last else { return }
        append(Chunk(keys: keys, items: items, bytes: .mapped(file), name: name,
                     endsAtCut: isCut(after: last, item: lastItem, length: keys.count)))
    }

    /// ``decode(_:read:)`` but for the keys, which are only found and made strings when
    /// asked for (see ``LaterKeys``).
    static func decodeKeysLater(_ texts: ChunkTexts, read: (inout StateReader) throws(StateReader.Damaged) -> Item)
        -> (keys: LaterKeys, items: [Item])? {
        let file = texts.file
        var ranges: [Range<Int>] = []
        var checks: [UInt32] = []
        var items: [Item] = []
        do throws(StateReader.Damaged) {
            // The keys are texts, kept apart: a load that makes none of them touches none.
            var reader = try StateReader(separated: file.bytes)
            let count = try reader.readCount()
            ranges.reserveCapacity(count)
            checks.reserveCapacity(count)
            items.reserveCapacity(count)
            for _ in 0..<count {
                let (key, check) = try reader.readCheckedText()
                guard let check else { throw StateReader.Damaged() }
                let item = try read(&reader)
                let start = key.baseAddress.map { $0 - (file.bytes.baseAddress ?? $0) } ?? 0
                ranges.append(start..<(start + key.count))
                checks.append(check)
                items.append(item)
            }
            guard reader.isAtEnd, !ranges.isEmpty else { return nil }
        } catch {
            return nil
        }
        return (LaterKeys(texts, ranges: ranges, checks: checks), items)
    }

    /// Adds a chunk decoded by ``decodeKeysLater(_:read:)``, named `name`, after the others.
    mutating func add(keys: LaterKeys, items: [Item], file: FileSystem.MappedFile, name: String) {
        guard let first = keys.ranges.first, let last = keys.ranges.last, let lastItem = items.last else { return }
        let bytes = file.bytes
        let firstKey = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[first]), as: UTF8.self)
        let endsAtCut = isCut(afterUTF8: UnsafeRawBufferPointer(rebasing: bytes[last]), item: lastItem, length: keys.ranges.count)
        append(Chunk(laterKeys: keys, firstKey: firstKey, items: items, bytes: .mapped(file), name: name, endsAtCut: endsAtCut))
    }
}

/// A chunk's keys, found in its mapped file but made strings only when first asked for: the
/// object list's 63,000 identifiers are not all needed by a rebuild, which compares stamps
/// and reads the identifiers of the few objects that changed.
final class LaterKeys: @unchecked Sendable {
    private let texts: ChunkTexts
    /// Where each key's UTF-8 bytes are in the file, in order.
    let ranges: [Range<Int>]
    /// Each key's check (see ``StoredText/check(of:)``), compared when the keys are made.
    private let checks: [UInt32]
    private let lock = NSLock()
    private var strings: [String]?

    init(_ texts: ChunkTexts, ranges: [Range<Int>], checks: [UInt32]) {
        (self.texts, self.ranges, self.checks) = (texts, ranges, checks)
    }

    /// The keys, made on first use (by whichever thread asks first; under the lock).
    var keys: [String] {
        lock.withLock {
            if let strings { return strings }
            let bytes = texts.file.bytes
            // Read as any restored text is, which checks it.
            let made = zip(ranges, checks).map { range, check in
                StoredText(utf8: UnsafeRawBufferPointer(rebasing: bytes[range]), check: check, keptBy: texts).text
            }
            strings = made
            return made
        }
    }
}

/// How many items at each end of a list are known to equal those at the same end of the
/// list as it was last saved or loaded (see ``ChunkedList/encoding(keys:items:sharedEnds:write:)``).
struct SharedEnds: Sendable, Equatable {
    /// The first `prefix` items are the same, in both lists.
    var prefix: Int
    /// The last `suffix` items are the same, in both lists.
    var suffix: Int

    /// Nothing known.
    static let none = SharedEnds(prefix: 0, suffix: 0)

    /// Within lists of these lengths: neither run can be longer than either list.
    func clamped(newCount: Int, oldCount: Int) -> SharedEnds {
        let longest = min(newCount, oldCount)
        return SharedEnds(prefix: max(0, min(prefix, longest)), suffix: max(0, min(suffix, longest)))
    }
}

/// A chunk as a save writes it, and whether it must be written (a kept chunk is written
/// again only when its file has gone).
struct EncodedChunk: Sendable {
    let name: String
    let bytes: EncodedBytes
    let isNew: Bool
}

/// The bytes of a chunk: just encoded, or the chunk file a state was loaded from (kept
/// mapped while these bytes are).
enum EncodedBytes: ContiguousBytes, Sendable {
    case encoded(ArraySlice<UInt8>)
    case mapped(FileSystem.MappedFile)

    var count: Int {
        switch self {
        case .encoded(let bytes): bytes.count
        case .mapped(let file): file.bytes.count
        }
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch self {
        case .encoded(let bytes): try bytes.withUnsafeBytes(body)
        case .mapped(let file): try withExtendedLifetime(file) { try body(file.bytes) }
        }
    }
}
