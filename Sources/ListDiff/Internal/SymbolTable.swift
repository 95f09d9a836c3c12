/// Pass 1's table: one entry per identifier, with its counts in old and new, the head of
/// its chain of unmatched old indexes, and whether any of its pairs changed.
///
/// An open-addressing table of its own rather than `[Identifier: Int]`: each bucket packs a
/// 32-bit tag of the hash with the entry number, so a probe compares identifiers only when
/// the tags agree (Dictionary compares keys on every probe, which for strings of one length
/// is a `memcmp`), and the buckets are 8 bytes, so more of them stay in cache.
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

    /// `tag << 32 | (entry + 1)`; zero is an empty bucket.
    @usableFromInline var buckets: [UInt64]
    @usableFromInline var mask: Int
    /// The identifier of each entry, in the order they were first seen.
    @usableFromInline var identifiers: [Identifier] = []
    @usableFromInline var entries: [Entry] = []

    @inlinable
    init(capacity: Int) {
        // At most half full, so probe runs stay short.
        var bucketCount = 16
        while bucketCount < capacity * 2 { bucketCount <<= 1 }
        buckets = [UInt64](repeating: 0, count: bucketCount)
        mask = bucketCount - 1
        identifiers.reserveCapacity(capacity)
        entries.reserveCapacity(capacity)
    }

    /// The entry for `identifier`, if it was seen.
    @inlinable
    func existingEntry(for identifier: Identifier) -> Int? {
        let hash = identifier.hashValue
        let tag = UInt64(truncatingIfNeeded: hash) >> 32
        var bucket = hash & mask
        while true {
            let packed = buckets[bucket]
            if packed == 0 { return nil }
            if packed >> 32 == tag {
                let entry = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF) - 1
                if identifiers[entry] == identifier { return entry }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// The entry for `identifier`, created on first use.
    @inlinable
    mutating func entry(for identifier: Identifier) -> Int {
        let hash = identifier.hashValue
        let tag = UInt64(truncatingIfNeeded: hash) >> 32
        var bucket = hash & mask
        while true {
            let packed = buckets[bucket]
            if packed == 0 { break }
            if packed >> 32 == tag {
                let entry = Int(truncatingIfNeeded: packed & 0xFFFF_FFFF) - 1
                if identifiers[entry] == identifier { return entry }
            }
            bucket = (bucket + 1) & mask
        }
        let entry = entries.count
        if (entry + 1) * 2 > buckets.count {
            grow()
            return self.entry(for: identifier)
        }
        buckets[bucket] = tag << 32 | UInt64(entry + 1)
        identifiers.append(identifier)
        entries.append(Entry())
        return entry
    }

    /// Doubles the buckets and re-places every entry (only when the capacity guess was low).
    @inlinable
    mutating func grow() {
        buckets = [UInt64](repeating: 0, count: buckets.count * 2)
        mask = buckets.count - 1
        for (entry, identifier) in identifiers.enumerated() {
            let hash = identifier.hashValue
            var bucket = hash & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = (UInt64(truncatingIfNeeded: hash) >> 32) << 32 | UInt64(entry + 1)
        }
    }
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
