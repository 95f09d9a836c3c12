/// A 64-bit FNV-1a hash of everything that affects how an object renders.
///
/// Swift's `Hasher` is seeded per process, so it cannot compare builds; FNV-1a is stable,
/// fast and good enough to detect edits (a collision would need two different renderings
/// with the same 64-bit hash).
public struct ContentHash: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The hash value.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// An empty hash, ready for ``combine(_:)``.
    public init() {}

    /// Mixes a string into the hash, followed by a separator so that `("ab","c")` and
    /// `("a","bc")` differ.
    public mutating func combine(_ text: String) {
        for byte in text.utf8 { mix(byte) }
        mix(0x1F)
    }

    /// Mixes raw bytes into the hash (a file's contents, say).
    public mutating func combine(bytes: some Sequence<UInt8>) {
        for byte in bytes { mix(byte) }
        mix(0x1F)
    }

    /// Mixes an integer into the hash.
    public mutating func combine(_ number: Int64) {
        combine(String(number))
    }

    private mutating func mix(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01B3
    }

    /// Sixteen lowercase hex digits.
    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
