/// What changed between two lists: inserts, deletes, updates and moves, plus index lookups.
///
/// `old.count + inserts.count − deletes.count == new.count` always holds.
public struct ListDiffResult<Identifier: Hashable> {
    /// Indexes in the new list of objects that are not in the old one, ascending.
    public let inserts: [Int]
    /// Indexes in the old list of objects that are not in the new one, ascending.
    public let deletes: [Int]
    /// Indexes in the **old** list of matched objects that are no longer equal, ascending.
    public let updates: [Int]
    /// Matched objects whose position changed beyond what earlier inserts and deletes explain.
    ///
    /// Moves are not minimal: a swap gives two moves, and a move may have `from == to`.
    public let moves: [ListMove]
    /// Lookups by identifier, answered from the diff's own table (no second hashing pass).
    private let table: SymbolTable<Identifier>
    /// For each update, the new index it was matched with (old index → new index).
    private let updateTargets: [Int: Int]

    @usableFromInline
    init(inserts: [Int], deletes: [Int], updates: [Int], moves: [ListMove], table: SymbolTable<Identifier>,
         updateTargets: [Int: Int] = [:]) {
        self.inserts = inserts
        self.deletes = deletes
        self.updates = updates
        self.moves = moves
        self.table = table
        self.updateTargets = updateTargets
    }

    /// Whether anything changed.
    public var hasChanges: Bool { !inserts.isEmpty || !deletes.isEmpty || !updates.isEmpty || !moves.isEmpty }

    /// The index of `identifier` in the old list; for a repeated identifier, its last index.
    public func oldIndex(for identifier: Identifier) -> Int? {
        guard let entry = table.existingEntry(for: identifier) else { return nil }
        let index = table.entries[entry].lastOld
        return index == Record.none ? nil : index
    }

    /// The index of `identifier` in the new list; for a repeated identifier, its last index.
    public func newIndex(for identifier: Identifier) -> Int? {
        guard let entry = table.existingEntry(for: identifier) else { return nil }
        let index = table.entries[entry].lastNew
        return index == Record.none ? nil : index
    }

    /// The same changes in the form a batch update applies them: every update becomes a
    /// delete at its old index and an insert at its new one, and the moves of updated
    /// objects are dropped (their delete and insert already place them).
    public func forBatchUpdates() -> ListDiffResult {
        var deletes = Set(self.deletes)
        var inserts = Set(self.inserts)
        var remainingUpdates = Set(updates)
        var keptMoves: [ListMove] = []
        for move in moves {
            if remainingUpdates.contains(move.from) {
                remainingUpdates.remove(move.from)
                deletes.insert(move.from)
                inserts.insert(move.to)
            } else {
                keptMoves.append(move)
            }
        }
        // Each remaining update goes through the pair it was matched in, not through the
        // identifier lookup, so repeated identifiers convert correctly too.
        for oldIndex in remainingUpdates {
            deletes.insert(oldIndex)
            if let newIndex = updateTargets[oldIndex] { inserts.insert(newIndex) }
        }
        return ListDiffResult(inserts: inserts.sorted(), deletes: deletes.sorted(), updates: [], moves: keptMoves,
                              table: table)
    }
}

extension ListDiffResult: Sendable where Identifier: Sendable {}

