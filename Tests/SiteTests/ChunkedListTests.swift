import MarsgenTesting
@testable import Site
import Testing

@Suite("Build state: lists in chunks")
struct ChunkedListTests {
    /// `keys` (each with its number as item) in chunks, as a save cuts them, starting from
    /// `previous` (the list as last saved): the chunks' keys and names, and the list.
    static func encode(_ keys: [String], items: [Int]? = nil, previous: ChunkedList<Int> = ChunkedList(averageItems: 64))
        -> (keys: [[String]], names: [String], new: Int, list: ChunkedList<Int>) {
        let (chunks, list) = previous.encoding(keys: keys, items: items ?? keys.indices.map { $0 }) { key, item, writer in
            writer.write(key)
            writer.write(item)
        }
        let byName = Dictionary(list.chunks.map { ($0.name, $0.keys) }, uniquingKeysWith: { first, _ in first })
        return (chunks.compactMap { byName[$0.name] }, chunks.map(\.name), chunks.filter(\.isNew).count, list)
    }

    static func keys(_ range: Range<Int>) -> [String] { range.map { "content/messages/log-\($0).md" } }

    @Test("adding a key moves the boundaries of its own chunk only")
    func stableBoundaries() {
        let keys = Self.keys(0..<20_000).sorted()
        let before = Self.encode(keys)
        #expect(before.keys.count > 100 && before.keys.allSatisfy { $0.count <= 64 * 8 })
        #expect(Array(before.keys.joined()) == keys)
        let after = Self.encode((keys + ["content/messages/log-1234a.md"]).sorted())
        #expect(Set(after.keys).subtracting(Set(before.keys)).count == 1)
    }

    @Test("a save from the list as last saved cuts and names the chunks as a save from nothing does, and encodes only those that changed",
          arguments: 0..<40)
    func sameAsFresh(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) + 100)
        // Sorted keys (pages, sources) and keys in another order (the object list).
        var keys = Self.keys(0..<(1 + random.next(3_000)))
        if seed % 2 == 0 { keys.sort() }
        var items = keys.indices.map { $0 }
        let previous = Self.encode(keys, items: items)
        switch seed % 5 {
        case 0: keys += Self.keys(90_000..<(90_000 + 1 + random.next(700)))  // appended: the last chunk ended with the list
        case 1: keys.removeLast(min(keys.count - 1, 1 + random.next(100)))  // cut short
        case 2: keys.insert("inserted", at: random.next(keys.count + 1))
        case 3: keys.remove(at: random.next(keys.count))
        default: break  // the same keys
        }
        items = keys.indices.map { $0 < items.count ? items[$0] : $0 }
        if !keys.isEmpty, seed % 3 == 0 { items[random.next(items.count)] += 1 }  // one item changed
        let kept = Self.encode(keys, items: items, previous: previous.list)
        let fresh = Self.encode(keys, items: items)
        #expect(kept.names == fresh.names)
        #expect(kept.keys == fresh.keys)
        // A chunk named as before was not encoded again.
        #expect(kept.new == Set(kept.names).subtracting(previous.names).count)
        // And the next save from this one keeps every chunk.
        #expect(Self.encode(keys, items: items, previous: kept.list).new == 0)
    }
}
