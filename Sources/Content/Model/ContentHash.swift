/// A stable 64-bit hash of everything that affects how an object renders.
///
/// Swift's `Hasher` is seeded per process, so it cannot compare builds. This one is stable
/// across runs and machines, and mixes eight bytes per step (multiply, then fold the high
/// half down so every input bit reaches every output bit), so hashing a whole site's output
/// costs little next to writing it. It detects edits; it is not a cryptographic hash.
public struct ContentHash: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The hash value.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// An empty hash, ready for ``combine(_:)``.
    public init() {}

    /// A hash with a known value, as an earlier build recorded it.
    public init(value: UInt64) {
        self.value = value
    }

    /// Mixes a string into the hash, followed by its length so that `("ab","c")` and
    /// `("a","bc")` differ.
    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(buffer: UnsafeRawBufferPointer($0)) }
    }

    /// Mixes raw bytes into the hash (a file's contents, say).
    public mutating func combine(bytes: some Sequence<UInt8>) {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ combine(buffer: UnsafeRawBufferPointer($0)) }) {
            return done
        }
        combine(bytes: Array(bytes))
    }

    /// Mixes the bytes of `buffer`, eight at a time, then its length.
    public mutating func combine(buffer: UnsafeRawBufferPointer) {
        var offset = 0
        let count = buffer.count
        while offset + 8 <= count {
            mix(UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        mix(Self.tailWord(of: buffer, from: offset))
        mix(UInt64(count) | 0x1F00_0000_0000_0000)
    }

    /// The bytes of `buffer` from `offset` to its end (fewer than eight) as one
    /// little-endian word, zeros above them: the last step of hashing a buffer eight bytes
    /// at a time.
    public static func tailWord(of buffer: UnsafeRawBufferPointer, from offset: Int) -> UInt64 {
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        for byte in buffer[offset...] {
            tail |= UInt64(byte) << shift
            shift += 8
        }
        return tail
    }

    /// Mixes an integer into the hash.
    public mutating func combine(_ number: Int64) {
        mix(UInt64(bitPattern: number))
        mix(0x1E00_0000_0000_0000)
    }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        value = Self.step(value, word)
    }

    /// One step of the hash: `state` with the eight bytes `word` mixed in (multiplied, then
    /// the high bits folded down). For a given `word` it is a bijection of `state`, so one
    /// word changed always changes what follows.
    @inlinable
    public static func step(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        return product ^ (product >> 29)
    }

    /// Thirteen base-32 digits (`0`-`9`, `a`-`v`): short enough for a Swift string to hold
    /// inline (up to 15 bytes), where the 16 digits of ``description`` need an allocation.
    /// The build state and index keep a hash of each of a site's 13,400 sources in this form.
    public var shortDescription: String { digits(13, bitsEach: 5) }

    /// Sixteen lowercase hex digits.
    public var description: String { digits(16, bitsEach: 4) }

    /// The value as `count` digits of `bitsEach` bits, most significant first (`0`-`9`, then
    /// `a` on).
    private func digits(_ count: Int, bitsEach: Int) -> String {
        var rest = value
        let mask = UInt64(1) << bitsEach - 1
        return String(unsafeUninitializedCapacity: count) { text in
            for index in (0..<count).reversed() {
                let digit = UInt8(rest & mask)
                text[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                rest >>= UInt64(bitsEach)
            }
            return count
        }
    }
}
