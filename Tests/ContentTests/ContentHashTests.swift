import Content
import MarsgenTesting
import Testing

@Suite struct ContentHashTests {
    @Test("a hash's description is sixteen lowercase hex digits")
    func description() {
        #expect(ContentHash(value: 0x0123_4567_89AB_CDEF).description == "0123456789abcdef")
        #expect(ContentHash(value: 0).description == "0000000000000000")
        #expect(ContentHash(value: .max).description == "ffffffffffffffff")
    }

    @Test("a hash's short form is thirteen base-32 digits, most significant first, one string per value")
    func shortDescription() {
        #expect(ContentHash(value: 0).shortDescription == "0000000000000")
        #expect(ContentHash(value: 31).shortDescription == "000000000000v")
        #expect(ContentHash(value: 32).shortDescription == "0000000000010")
        #expect(ContentHash(value: .max).shortDescription == "fvvvvvvvvvvvv")
        var random = SeededRandom(seed: 13)
        var seen: [String: UInt64] = [:]
        for _ in 0..<20_000 {
            let value = random.next()
            let short = ContentHash(value: value).shortDescription
            #expect(short.utf8.count == 13 && short.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "v") })
            // Read back as the number it spells: each value has its own.
            let spelled = short.utf8.reduce(UInt64(0)) { number, digit in
                number << 5 | UInt64(digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10)
            }
            #expect(spelled == value)
            #expect(seen.updateValue(value, forKey: short).map { $0 == value } ?? true)
        }
    }
}
