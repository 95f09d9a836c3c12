/// Diffs two lists in O(n + m) time and memory, with Paul Heckel's 1978 algorithm in the
/// form IGListKit uses for lists (the passes are spelled out in `shared/LISTDIFF.md`).
///
///     let result = listDiff(old: lastBuild, new: thisBuild)
///     for index in result.updates { … lastBuild[index] changed … }
///
/// - Parameters:
///   - old: The list before.
///   - new: The list after.
///   - option: How matched objects are compared; see ``ListDiffOption``.
/// - Returns: Inserts (new indexes), deletes (old indexes), updates (old indexes), moves,
///   and index lookups by identifier.
// Inlinable so callers get a specialised copy: generic dictionary and metadata calls cost 3x otherwise.
@inlinable
public func listDiff<Element: Diffable>(old: [Element], new: [Element],
                                        option: ListDiffOption = .equality) -> ListDiffResult<Element.DiffIdentifier> {
    // Most identifiers appear in both lists: a table sized for the larger list plus some slack stays in cache better.
    var table = SymbolTable<Element.DiffIdentifier>(capacity: max(new.count, old.count) + min(new.count, old.count) / 8)
    // Shortcuts: everything inserted, or everything deleted.
    if old.isEmpty || new.isEmpty {
        for (index, element) in old.enumerated() { table.entries[table.entry(for: element.diffIdentifier)].lastOld = index }
        for (index, element) in new.enumerated() { table.entries[table.entry(for: element.diffIdentifier)].lastNew = index }
        return ListDiffResult(inserts: Array(new.indices), deletes: Array(old.indices), updates: [], moves: [], table: table)
    }
    var newRecords = [Record](repeating: Record(), count: new.count)
    var oldRecords = [Record](repeating: Record(), count: old.count)
    // The old indexes of each identifier, chained in ascending order (`nextOld[i]` follows `i`).
    var nextOld = [Int](repeating: Record.none, count: old.count)

    // Pass 2: count each identifier in new.
    for (index, element) in new.enumerated() {
        let entry = table.entry(for: element.diffIdentifier)
        table.entries[entry].newCount += 1
        table.entries[entry].lastNew = index
        newRecords[index].entry = entry
    }
    // Pass 3: count in old, walking backwards so each chain starts at the smallest old index.
    for index in old.indices.reversed() {
        let entry = table.entry(for: old[index].diffIdentifier)
        table.entries[entry].oldCount += 1
        if table.entries[entry].lastOld == Record.none { table.entries[entry].lastOld = index }
        nextOld[index] = table.entries[entry].firstOld
        table.entries[entry].firstOld = index
        oldRecords[index].entry = entry
    }
    // Pass 4: pair the k-th occurrence in new with the k-th in old; extra ones in new stay unmatched.
    for index in new.indices {
        let entry = newRecords[index].entry
        let oldIndex = table.entries[entry].firstOld
        guard oldIndex != Record.none else { continue }
        table.entries[entry].firstOld = nextOld[oldIndex]
        if !isSame(old[oldIndex], new[index], option: option) {
            // The flag is per identifier, as in IGListKit: one changed duplicate marks them all.
            table.entries[entry].isUpdated = true
        }
        newRecords[index].match = oldIndex
        oldRecords[oldIndex].match = index
    }

    // Pass 5: unmatched old objects are deletes; remember how many came before each index.
    var deletes: [Int] = []
    var deletesBefore = [Int](repeating: 0, count: old.count)
    for index in old.indices {
        deletesBefore[index] = deletes.count
        if oldRecords[index].match == Record.none { deletes.append(index) }
    }
    // Pass 6: unmatched new objects are inserts; matched ones may be updates and/or moves.
    var inserts: [Int] = []
    var updates: [Int] = []
    var updateTargets: [Int: Int] = [:]
    var moves: [ListMove] = []
    // One misplaced object shifts every object between its two places, so moves are often most of the list.
    moves.reserveCapacity(new.count)
    for index in new.indices {
        let oldIndex = newRecords[index].match
        guard oldIndex != Record.none else {
            inserts.append(index)
            continue
        }
        if table.entries[newRecords[index].entry].isUpdated {
            updates.append(oldIndex)
            updateTargets[oldIndex] = index
        }
        // An object shifted only by earlier inserts or deletes is not a move (Heckel 1978, as in IGListKit).
        if oldIndex - deletesBefore[oldIndex] + inserts.count != index {
            moves.append(ListMove(from: oldIndex, to: index))
        }
    }
    updates.sort()
    return ListDiffResult(inserts: inserts, deletes: deletes, updates: updates, moves: moves, table: table,
                          updateTargets: updateTargets)
}

@inlinable
func isSame<Element: Diffable>(_ a: Element, _ b: Element, option: ListDiffOption) -> Bool {
    if Element.self is AnyClass, (a as AnyObject) === (b as AnyObject) { return true }
    switch option {
    case .identity: return false
    case .equality: return a.isContentEqual(to: b)
    }
}
