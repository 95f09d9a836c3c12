import MarsgenTesting
@testable import Site
import Testing

@Suite("Build state: lists in chunks")
struct ChunkedListTests {
    /// `keys` (each with its number as item) in chunks, as a save cuts them, starting from
    /// `previous` (the list as last saved): the chunks' keys and names, and the list.
    static func encode(_ keys: [String], items: [Int]? = nil, previous: ChunkedList<Int> = ChunkedList(averageItems: 64),
                       sharedEnds: SharedEnds = .none) -> (keys: [[String]], names: [String], new: Int, list: ChunkedList<Int>) {
        let (chunks, list) = previous.encoding(keys: keys, items: items ?? keys.indices.map { $0 }, sharedEnds: sharedEnds) {
            key, item, writer in
            writer.write(key)
            writer.write(item)
        }
        let byName = Dictionary(list.chunks.map { ($0.name, $0.keys) }, uniquingKeysWith: { first, _ in first })
        return (chunks.compactMap { byName[$0.name] }, chunks.map(\.name), chunks.filter(\.isNew).count, list)
    }

    static func keys(_ range: Range<Int>) -> [String] { range.map { "content/messages/log-\($0).md" } }

    @Test("chunks whose keys are out of order (a damaged state) make no table, and a save sorts the paths anew")
    func recordTableOfUnorderedChunks() throws {
        let keys = Self.keys(0..<2_000).sorted()
        let ordered = Self.encode(keys).list
        var table = try #require(ordered.table())
        table["content/messages/log-5a.md"] = 7
        let sorted = try #require(table.sortedRecords(takingUnchangedFrom: ordered))
        #expect(sorted.keys == table.keys.sorted() && sorted.values == sorted.keys.map { table[$0] })
        #expect(table.keys == sorted.keys)
        // Two keys swapped inside one chunk, then two chunks' worth moved to the end: a table
        // made from them would look paths up by binary search, in the wrong place.
        for unordered in [keys.enumerated().map { $0.offset == 300 ? keys[301] : $0.offset == 301 ? keys[300] : $0.element },
                          Array(keys[500...] + keys[..<500])] {
            let list = Self.encode(unordered).list
            #expect(list.table() == nil)
            let made = RecordTable(Dictionary(uniqueKeysWithValues: unordered.enumerated().map { ($1, $0) }))
            #expect(made.sortedRecords(takingUnchangedFrom: list) == nil)
            let (savedKeys, savedValues, kept) = BuildState.sorted(made, old: list, added: [])
            #expect(savedKeys == keys && savedValues == keys.map { made[$0] } && kept.isEmpty)
        }
    }

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

    @Test("items that weigh more end chunks sooner; a save from the list as last saved cuts as a save from nothing does when weights change",
          arguments: 0..<30)
    func weightedCuts(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) + 700)
        // Each item is its weight: a light list of ones, then heavy items.
        let weighted = ChunkedList<Int>(averageItems: 64) { $0 }
        let keys = Self.keys(0..<(2_000 + random.next(2_000))).sorted()
        var items = keys.indices.map { $0 < keys.count / 2 ? 1 : 16 }
        let previous = Self.encode(keys, items: items, previous: weighted)
        let position = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let light = previous.keys.filter { chunk in chunk.allSatisfy { (position[$0] ?? 0) < keys.count / 2 } }
        let heavy = previous.keys.filter { chunk in chunk.allSatisfy { (position[$0] ?? 0) >= keys.count / 2 } }
        // Sixteen times the weight: about a sixteenth of the items in a chunk.
        let average = { (chunks: [[String]]) in Double(chunks.joined().count) / Double(max(1, chunks.count)) }
        #expect(light.count > 3 && heavy.count > 3 && average(light) > 6 * average(heavy))
        // Weights changed here and there, a cut after an item appears or goes: the same
        // chunks as a save from nothing, and the next save keeps them all.
        for _ in 0..<(1 + random.next(5)) { items[random.next(items.count)] = [1, 2, 16, 64][random.next(4)] }
        let kept = Self.encode(keys, items: items, previous: previous.list)
        let fresh = Self.encode(keys, items: items, previous: weighted)
        #expect(kept.names == fresh.names)
        #expect(kept.keys == fresh.keys)
        #expect(Self.encode(keys, items: items, previous: kept.list).new == 0)
    }

    @Test("a save told which runs at both ends are unchanged cuts and names the chunks as a save from nothing does",
          arguments: 0..<40)
    func sharedEnds(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) + 500)
        // An object list (not sorted) after one edit somewhere: objects inserted, removed or
        // updated in a run, as a build's diff finds them.
        let oldKeys = Self.keys(0..<(1 + random.next(4_000)))
        let oldItems = oldKeys.indices.map { $0 }
        let previous = Self.encode(oldKeys, items: oldItems)
        var keys = oldKeys
        var items = oldItems
        let at = random.next(keys.count + 1)
        switch seed % 4 {
        case 0: keys.insert(contentsOf: Self.keys(90_000..<(90_000 + 1 + random.next(50))), at: at)
        case 1: keys.removeSubrange(at..<min(keys.count, at + 1 + random.next(50)))
        case 2: if at < items.count { items[at] += 1 }
        default: break
        }
        while items.count < keys.count { items.insert(-1, at: at) }
        if items.count > keys.count { items.removeSubrange(at..<(at + items.count - keys.count)) }
        // The runs as `SiteBuilder.diffObjects` finds them.
        let shorter = min(keys.count, oldKeys.count)
        var prefix = 0
        while prefix < shorter, keys[prefix] == oldKeys[prefix], items[prefix] == oldItems[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, keys[keys.count - 1 - suffix] == oldKeys[oldKeys.count - 1 - suffix],
              items[items.count - 1 - suffix] == oldItems[oldItems.count - 1 - suffix] { suffix += 1 }
        let told = Self.encode(keys, items: items, previous: previous.list, sharedEnds: SharedEnds(prefix: prefix, suffix: suffix))
        let fresh = Self.encode(keys, items: items)
        #expect(told.names == fresh.names)
        #expect(told.keys == fresh.keys)
        #expect(told.new == Set(told.names).subtracting(previous.names).count)
        #expect(Self.encode(keys, items: items, previous: told.list).new == 0)
    }

    @Test("a chunk in a run said to be unchanged is kept without a look: the caller vouches for it")
    func sharedEndsTrusted() {
        let keys = Self.keys(0..<3_000)
        let previous = Self.encode(keys)
        var items = keys.indices.map { $0 }
        items[0] += 1
        items[items.count - 1] += 1
        let told = Self.encode(keys, items: items, previous: previous.list, sharedEnds: SharedEnds(prefix: 3_000, suffix: 3_000))
        #expect(told.names == previous.names && told.new == 0)
        // Behind an inserted key the old chunks lie further on: the run at the end is found there.
        let shifted = Self.encode(["content/a"] + keys, items: [7] + items, previous: previous.list,
                                  sharedEnds: SharedEnds(prefix: 0, suffix: 3_000))
        #expect(shifted.names.last == previous.names.last && shifted.new <= 2)
        // Runs longer than either list are cut to it.
        let longer = Self.encode(keys + ["extra"], items: items + [9], previous: previous.list,
                                 sharedEnds: SharedEnds(prefix: 5_000, suffix: 0))
        #expect(longer.keys == Self.encode(keys + ["extra"], items: items + [9]).keys)
    }

    @Test("the keys and items of a range are read from the chunks that hold it", arguments: 0..<10)
    func keysAndItemsInRange(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) + 300)
        let keys = Self.keys(0..<(1 + random.next(2_000)))
        let list = Self.encode(keys).list
        #expect(seed > 0 || list.count > 10)
        for _ in 0..<20 {
            let start = random.next(keys.count + 1)
            let range = start..<(start + random.next(keys.count - start + 1))
            let read = list.keysAndItems(in: range)
            #expect(read.keys == Array(keys[range]) && read.items == Array(range), "\(range)")
        }
    }

    @Test("a walk finds each key's item as a table does: in increasing order, with keys missing, going back and jumping chunks",
          arguments: 0..<20)
    func walk(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) + 400)
        let all = Self.keys(0..<(1_000 + random.next(3_000))).sorted()
        // Every other key or so is in the list; the others are looked up and missed.
        let keys = all.filter { _ in random.next(3) > 0 }
        let list = Self.encode(keys).list
        let table = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
        #expect(list.count > 5)
        // In order through all the keys (the usual walk), with steps over some of them.
        var walk = list.walk()
        var looked: [String] = []
        for key in all where random.next(4) > 0 { looked.append(key) }
        // Then a few lookups anywhere, backwards included, and before the first key and after the last.
        for _ in 0..<30 { looked.append(all[random.next(all.count)]) }
        looked += ["", "content/messages/log-99999.md", all[0]]
        // Every key in order (each the one after the last found), one asked for twice in a
        // row, then the one before it.
        looked += keys + [keys[keys.count / 2], keys[keys.count / 2], keys[keys.count / 2 - 1]]
        for key in looked {
            #expect(walk.item(at: key) == table[key], "\(key)")
        }
        var empty = ChunkedList<Int>(averageItems: 64).walk()
        #expect(empty.item(at: all[0]) == nil)
    }
}
