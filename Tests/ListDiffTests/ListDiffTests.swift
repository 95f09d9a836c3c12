import ListDiff
import MarsgenTesting
import Testing

extension Int: Diffable {
    public var diffIdentifier: Int { self }
}

extension String: Diffable {
    public var diffIdentifier: String { self }
}

/// `T(k, v)`: identifier `k`, equal to another `T` with the same `k` and `v`.
struct T: Diffable, Equatable {
    let key: Int
    let value: Int
    init(_ key: Int, _ value: Int) { self.key = key; self.value = value }
    var diffIdentifier: Int { key }
}

/// An identifier whose hash is the same for every value, so every probe of the diff's table collides.
struct Colliding: Hashable {
    let value: Int
    init(_ value: Int) { self.value = value }
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// `C(k, v)`: like `T`, with a colliding identifier.
struct C: Diffable, Equatable {
    let key: Colliding
    let value: Int
    init(_ key: Int, _ value: Int) { self.key = Colliding(key); self.value = value }
    var diffIdentifier: Colliding { key }
}

/// A class, for identity mode.
final class Box: Diffable {
    let key: String
    let value: Int
    init(_ key: String, _ value: Int) { self.key = key; self.value = value }
    var diffIdentifier: String { key }
    func isContentEqual(to other: Box) -> Bool { value == other.value }
}

func moves(_ pairs: [(Int, Int)]) -> [ListMove] { pairs.map { ListMove(from: $0.0, to: $0.1) } }

@Suite struct ListDiffTests {
    @Test("[] → [] has no changes")
    func empty() {
        let result = listDiff(old: [Int](), new: [])
        #expect(!result.hasChanges)
    }

    @Test("[] → [1] inserts, [1] → [] deletes")
    func shortcuts() {
        #expect(listDiff(old: [], new: [1]).inserts == [0])
        #expect(listDiff(old: [1], new: []).deletes == [0])
        #expect(listDiff(old: [1], new: []).oldIndex(for: 1) == 0)
    }

    @Test("a swap is two moves")
    func swap() {
        let result = listDiff(old: [1, 2], new: [2, 1])
        #expect(Set(result.moves) == Set(moves([(0, 1), (1, 0)])))
        #expect(result.inserts.isEmpty && result.deletes.isEmpty && result.updates.isEmpty)
    }

    @Test("moves with duplicates")
    func movesWithDuplicates() {
        #expect(listDiff(old: [1, 2, 3, 3, 4], new: [2, 3, 1, 3, 4]).moves == moves([(1, 0), (2, 1), (0, 2)]))
    }

    @Test("insert, delete and moves together")
    func mixed() {
        let result = listDiff(old: [1, 2, 3, 4], new: [2, 4, 5, 3])
        #expect(result.inserts == [2])
        #expect(result.deletes == [0])
        #expect(result.moves == moves([(3, 1), (2, 3)]))
    }

    @Test("nine items")
    func nine() {
        let result = listDiff(old: [0, 1, 2, 3, 4, 5, 6, 7, 8], new: [0, 2, 3, 4, 7, 6, 9, 5, 10])
        #expect(result.deletes == [1, 8])
        #expect(result.inserts == [6, 8])
        #expect(Set(result.moves) == Set(moves([(5, 7), (7, 4)])))
    }

    @Test("a block moved left")
    func blockMove() {
        #expect(listDiff(old: [1, 2, 3, 4, 5, 6, 7], new: [1, 4, 5, 2, 3, 6, 7]).moves == moves([(3, 1), (4, 2), (1, 3), (2, 4)]))
    }

    @Test("index lookups")
    func lookups() {
        let result = listDiff(old: [1, 2, 3, 4, 5, 6, 7], new: [2, 9, 3, 1, 5, 6, 8])
        #expect(result.inserts == [1, 6])
        #expect(result.deletes == [3, 6])
        #expect(result.moves == moves([(1, 0), (2, 2), (0, 3)]))
        let expectedNew: [Int: Int?] = [1: 3, 2: 0, 3: 2, 4: nil, 5: 4, 6: 5, 7: nil, 8: 6, 9: 1]
        for (key, index) in expectedNew { #expect(result.newIndex(for: key) == index, "newIndex(\(key))") }
        for key in 1...7 { #expect(result.oldIndex(for: key) == key - 1) }
        #expect(result.oldIndex(for: 8) == nil)
        #expect(result.oldIndex(for: 9) == nil)
    }

    @Test("an update is reported at its old index")
    func updateAtOldIndex() {
        let result = listDiff(old: [T(0, 0), T(1, 1), T(2, 2)], new: [T(0, 0), T(1, 3), T(2, 2)])
        #expect(result.updates == [1])
        #expect(result.moves.isEmpty)
    }

    @Test("an object can be both updated and moved")
    func updateAndMove() {
        let result = listDiff(old: [T(0, 0), T(1, 1), T(2, 2)], new: [T(2, 3), T(1, 1), T(0, 0)])
        #expect(Set(result.moves) == Set(moves([(0, 2), (2, 0)])))
        #expect(result.updates == [2])
    }

    @Test("updates, moves and the batch-update view")
    func batchUpdates() {
        let old = (1...6).map { T($0, 1) }
        let new = [T(2, 2), T(5, 1), T(4, 1), T(7, 1), T(6, 2), T(3, 2)]
        let result = listDiff(old: old, new: new)
        #expect(result.inserts == [3])
        #expect(result.deletes == [0])
        #expect(result.updates == [1, 2, 5])
        #expect(result.moves == moves([(4, 1), (5, 4), (2, 5)]))
        let batch = result.forBatchUpdates()
        #expect(batch.updates.isEmpty)
        #expect(batch.moves == moves([(4, 1)]))
        #expect(batch.deletes == [0, 1, 2, 5])
        #expect(batch.inserts == [0, 3, 4, 5])
    }

    @Test("objects shifted by a delete and an insert are not moves")
    func shiftsAreNotMoves() {
        let result = listDiff(old: ["a", "b", "c"], new: ["a", "c", "d"])
        #expect(result.deletes == [1])
        #expect(result.inserts == [2])
        #expect(result.moves.isEmpty)
        #expect(result.updates.isEmpty)
    }

    @Test("only changed objects are updates")
    func onlyChangedAreUpdates() {
        let result = listDiff(old: [T(0, 10), T(1, 11), T(2, 12)], new: [T(0, 11), T(1, 11), T(2, 11)])
        #expect(result.updates == [0, 2])
        #expect(result.inserts.isEmpty && result.deletes.isEmpty && result.moves.isEmpty)
    }

    @Test("identity mode: the same instances are unchanged, a copy is an update")
    func identity() {
        let old = [Box("a", 1), Box("b", 2), Box("c", 3)]
        #expect(!listDiff(old: old, new: old, option: .identity).hasChanges)
        let copied = [old[0], Box("b", 2), old[2]]
        #expect(listDiff(old: old, new: copied, option: .identity).updates == [1])
        #expect(!listDiff(old: old, new: copied, option: .equality).hasChanges)
    }

    @Test("duplicates: extra occurrences are inserts or deletes")
    func duplicates() {
        #expect(listDiff(old: Array(repeating: "dog", count: 4), new: Array(repeating: "dog", count: 2)).deletes == [2, 3])
        #expect(listDiff(old: Array(repeating: "dog", count: 2), new: Array(repeating: "dog", count: 4)).inserts == [2, 3])
        #expect(!listDiff(old: ["cat", "1", "2", "3", "cat"], new: ["cat", "1", "2", "3", "cat"]).hasChanges)
    }

    @Test("the updated flag is per identifier")
    func updatedFlagPerIdentifier() {
        #expect(listDiff(old: [T(5, 1), T(5, 1)], new: [T(5, 1), T(5, 2)]).updates == [0, 1])
    }

    @Test("for a repeated identifier the last index wins")
    func lastIndexWins() {
        let result = listDiff(old: ["x", "y", "x"], new: ["x"])
        #expect(result.deletes == [1, 2])
        #expect(result.oldIndex(for: "x") == 2)
    }

    @Test("Heckel's sentence example")
    func heckel() {
        let old = "much writing is like snow , a mass of long words and phrases falls upon the relevant facts covering up the details ."
            .split(separator: " ").map(String.init)
        let new = "a mass of latin words falls upon the relevant facts like soft snow , covering up the details ."
            .split(separator: " ").map(String.init)
        let result = listDiff(old: old, new: new)
        #expect(result.deletes == [0, 1, 2, 9, 11, 12])
        #expect(result.inserts == [3, 11])
        #expect(Set(result.moves) == Set(moves([(6, 0), (7, 1), (8, 2), (10, 4), (13, 5), (14, 6), (15, 7), (16, 8),
                                                (17, 9), (3, 10), (4, 12), (5, 13)])))
    }

    @Test("disjoint lists larger than the table's first guess: every lookup still answers")
    func tableGrows() {
        let old = (0..<3_000).map { "old-\($0)" }
        let new = (0..<3_000).map { "new-\($0)" } + old.prefix(10)
        let result = listDiff(old: old, new: new)
        #expect(result.inserts == Array(0..<3_000))
        #expect(result.deletes == Array(10..<3_000))
        for index in stride(from: 0, to: 3_000, by: 7) {
            #expect(result.oldIndex(for: "old-\(index)") == index)
            #expect(result.newIndex(for: "new-\(index)") == index)
            #expect(result.newIndex(for: "old-\(index)") == (index < 10 ? 3_000 + index : nil))
        }
        #expect(result.oldIndex(for: "neither") == nil)
    }

    @Test("identifiers whose hashes all collide are still told apart")
    func collidingHashes() {
        let old = (0..<200).map { C($0, 0) }
        let new = old.reversed().map { C($0.key.value, $0.key.value == 5 ? 1 : 0) }
        let result = listDiff(old: old, new: new)
        #expect(result.inserts.isEmpty && result.deletes.isEmpty)
        #expect(result.updates == [5])
        for key in 0..<200 { #expect(result.newIndex(for: Colliding(key)) == 199 - key) }
    }

    @Test("property: applying the result to old gives new", arguments: 0..<20)
    func applying(seed: UInt64) {
        var generator = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let old = (0..<Int(generator.next() % 40)).map { _ in T(Int(generator.next() % 12), Int(generator.next() % 3)) }
            let new = (0..<Int(generator.next() % 40)).map { _ in T(Int(generator.next() % 12), Int(generator.next() % 3)) }
            let result = listDiff(old: old, new: new)
            #expect(old.count + result.inserts.count - result.deletes.count == new.count)
            #expect(apply(result, old: old, new: new) == new.map(\.key), "seed \(seed): \(old) → \(new)")
            // Every kept object is either in place, or accounted for by a move.
            let batch = result.forBatchUpdates()
            #expect(old.count + batch.inserts.count - batch.deletes.count == new.count)
        }
    }

    /// Rebuilds the new list's identifiers from old, using only the result: deletes leave,
    /// inserts arrive (taken from new), matched objects go to the slot their move or shift gives.
    func apply(_ result: ListDiffResult<Int>, old: [T], new: [T]) -> [Int] {
        let deleted = Set(result.deletes)
        let moved = Dictionary(uniqueKeysWithValues: result.moves.map { ($0.from, $0.to) })
        var slots = [Int?](repeating: nil, count: new.count)
        for index in result.inserts { slots[index] = new[index].key }
        // Objects that did not move keep their relative order in the free slots.
        var kept = old.indices.filter { !deleted.contains($0) && moved[$0] == nil }.makeIterator()
        for (from, to) in moved { slots[to] = old[from].key }
        for index in slots.indices where slots[index] == nil {
            guard let from = kept.next() else { return [] }
            slots[index] = old[from].key
        }
        return slots.compactMap { $0 }
    }
}

