/// A set of 64-bit values that are hashes already (the pages' inputs hashes), found by their
/// own bits.
///
/// `Set<UInt64>` hashes each value again with SipHash: at 19,600 pages, building the set of
/// the previous build's inputs and asking it once per page planned cost 2-3 ms of an
/// incremental build. Open addressing with linear probing over a table at most half full;
/// the value is mixed once by a multiplication, so values that differ only in high bits
/// still spread.
struct HashValueSet: Sendable {
    /// The values, 0 marking an empty slot (the value 0 itself is ``holdsZero``).
    private var slots: [UInt64]
    private var holdsZero = false
    /// How many values the slots hold.
    private var slotCount = 0
    /// How far right a mixed value is shifted to give a slot: the table's size is 2^(64 - shift).
    private var shift: UInt64

    /// An empty set with room for `capacity` values before it grows.
    init(minimumCapacity capacity: Int) {
        var bits: UInt64 = 4
        while (1 << bits) < 2 * max(capacity, 1) { bits += 1 }
        slots = [UInt64](repeating: 0, count: 1 << bits)
        shift = 64 - bits
    }

    /// How many values it holds.
    var count: Int { slotCount + (holdsZero ? 1 : 0) }

    /// Adds `value`; returns whether it was not there yet.
    @discardableResult
    mutating func insert(_ value: UInt64) -> Bool {
        guard value != 0 else {
            defer { holdsZero = true }
            return !holdsZero
        }
        if 2 * (slotCount + 1) > slots.count { grow() }
        let mask = slots.count - 1
        var index = slot(of: value)
        while true {
            let held = slots[index]
            if held == value { return false }
            if held == 0 { break }
            index = (index + 1) & mask
        }
        slots[index] = value
        slotCount += 1
        return true
    }

    func contains(_ value: UInt64) -> Bool {
        guard value != 0 else { return holdsZero }
        let mask = slots.count - 1
        var index = slot(of: value)
        while true {
            let held = slots[index]
            if held == value { return true }
            if held == 0 { return false }
            index = (index + 1) & mask
        }
    }

    /// Where `value`'s probe starts: Fibonacci hashing of its bits.
    private func slot(of value: UInt64) -> Int {
        Int(truncatingIfNeeded: (value &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Doubles the table and puts every value again.
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        shift -= 1
        slotCount = 0
        for value in old where value != 0 { insert(value) }
    }
}
