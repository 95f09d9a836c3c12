/// Pass 1's table: one entry per identifier, with its counts in old and new, the head of
/// its chain of unmatched old indexes, and whether any of its pairs changed.
@usableFromInline
struct SymbolTable<Identifier: Hashable> {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var oldCount = 0
        @usableFromInline var newCount = 0
        @usableFromInline var firstOld = Record.none
        @usableFromInline var isUpdated = false
        /// The last index of the identifier in old and new, for the result's lookups.
        @usableFromInline var lastOld = Record.none
        @usableFromInline var lastNew = Record.none
        @inlinable init() {}
    }

    @usableFromInline var slots: [Identifier: Int] = [:]
    @usableFromInline var entries: [Entry] = []

    @inlinable
    init(capacity: Int) {
        slots.reserveCapacity(capacity)
        entries.reserveCapacity(capacity)
    }

    /// The entry for `identifier`, if it was seen.
    @inlinable
    func existingEntry(for identifier: Identifier) -> Int? { slots[identifier] }

    /// The entry for `identifier`, created on first use.
    @inlinable
    mutating func entry(for identifier: Identifier) -> Int {
        // One hash for look-up-or-insert: the `default:` subscript inserts through its modify accessor.
        let next = entries.count
        let slot = Self.read(&slots[identifier, default: next])
        if slot == next { entries.append(Entry()) }
        return slot
    }

    @inlinable
    static func read(_ value: inout Int) -> Int { value }
}

/// One slot of the old or new list: its table entry and the index it is matched with.
@usableFromInline
struct Record: Sendable {
    @usableFromInline static let none = -1
    @usableFromInline var entry = 0
    @usableFromInline var match = Record.none
    @inlinable init() {}
}
extension SymbolTable: Sendable where Identifier: Sendable {}
