import MarsgenTesting
@testable import Site
import Testing

@Suite("A set of hash values")
struct HashValueSetTests {
    @Test("holds what Set<UInt64> holds, through growth, with zero and with values that share their low or high bits")
    func sameAsSet() {
        var random = SeededRandom(seed: 64)
        for round in 0..<40 {
            // Starts small so that it grows several times.
            var set = HashValueSet(minimumCapacity: round % 3 == 0 ? 1 : 500)
            var reference = Set<UInt64>()
            let count = 1 + random.next(3_000)
            for index in 0..<count {
                let value: UInt64 = switch index % 4 {
                case 0: random.next()
                // Differing only in the high bits, or only in the low ones.
                case 1: UInt64(random.next(64)) << 58
                case 2: UInt64(random.next(64))
                default: index % 97 == 0 ? 0 : random.next()
                }
                let inserted = set.insert(value)
                #expect(inserted == reference.insert(value).inserted)
                // Inserted twice: still one.
                if index % 5 == 0 {
                    let again = set.insert(value)
                    #expect(!again)
                }
            }
            #expect(set.count == reference.count)
            for value in reference { #expect(set.contains(value)) }
            var misses = 0
            for _ in 0..<2_000 {
                let probe = random.next()
                if set.contains(probe) != reference.contains(probe) { misses += 1 }
            }
            #expect(misses == 0)
            #expect(set.contains(0) == reference.contains(0))
        }
    }
}
