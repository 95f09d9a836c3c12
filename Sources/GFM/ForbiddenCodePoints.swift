/// The code points that no page or feed marsgen writes may hold, found in UTF-8 bytes.
///
/// They are the control characters but tab, line feed, carriage return and form feed (C0,
/// DEL and C1), and the noncharacters (U+FDD0–U+FDEF and the last two of every plane,
/// U+FFFE, U+FFFF, U+1FFFE, …). XML 1.0 has no place for the C0 controls, U+FFFE and
/// U+FFFF: an Atom feed holding one is not XML, and feed readers refuse the whole feed.
/// HTML calls all of them parse errors. Form feed is HTML whitespace and is left to the
/// caller, which may need it gone too (XML has no form feed).
///
/// They reach a site three ways: as raw bytes in a file (a terminal's colour codes pasted
/// in, a byte-order mark saved in the wrong byte order, text converted from the wrong
/// encoding), through a YAML escape (`title: "Ring \a"`), and through a Markdown numeric
/// character reference (`&#1;`, `&#xFDD0;`), which cmark-gfm turns into the code point.
public enum ForbiddenCodePoints {
    /// The length in bytes of the forbidden code point that starts at `bytes[index]`, or 0
    /// when none does. `bytes` must be valid UTF-8, or start at `index` with a complete
    /// sequence.
    @inline(__always)
    public static func length(at index: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        let lead = bytes[index]
        switch lead {
        case 0x00..<0x09, 0x0B, 0x0E..<0x20, 0x7F:
            return 1
        case 0xC2:
            // C1 controls are `C2 80`–`C2 9F` (`C2` also starts U+00A0–U+00BF).
            return index + 1 < bytes.count && bytes[index + 1] < 0xA0 ? 2 : 0
        case 0xEF:
            // U+FDD0–U+FDEF are `EF B7 90`–`EF B7 AF`; U+FFFE and U+FFFF are `EF BF BE`, `EF BF BF`.
            guard index + 2 < bytes.count else { return 0 }
            let (second, third) = (bytes[index + 1], bytes[index + 2])
            return (second == 0xB7 && (0x90...0xAF).contains(third)) || (second == 0xBF && third >= 0xBE) ? 3 : 0
        case 0xF0...0xF4:
            // U+nFFFE and U+nFFFF: the plane's low four bits all set, then `BF BE` or `BF BF`.
            guard index + 3 < bytes.count else { return 0 }
            return bytes[index + 1] & 0x0F == 0x0F && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE ? 4 : 0
        default:
            return 0
        }
    }

    /// The offset of the first forbidden code point in `bytes` (valid UTF-8), or nil.
    public static func firstOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while index < bytes.count {
            if mayStart(bytes[index]), length(at: index, in: bytes) > 0 { return index }
            index += 1
        }
        return nil
    }

    /// Whether a forbidden code point may start with `byte`: a quick test that lets most
    /// bytes of most text through with one comparison or two.
    @inline(__always)
    public static func mayStart(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xEF || (byte >= 0xF0 && byte <= 0xF4)
    }

    /// `bytes` (valid UTF-8) with each forbidden code point replaced by U+FFFD, or nil when
    /// `bytes` hold none.
    public static func replaced(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard var index = firstOffset(in: bytes) else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        result.append(contentsOf: bytes[..<index])
        while index < bytes.count {
            let length = mayStart(bytes[index]) ? length(at: index, in: bytes) : 0
            if length > 0 {
                result.append(contentsOf: replacementCharacter)
                index += length
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// U+FFFD, the replacement character, in UTF-8.
    public static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// How a forbidden code point is written in messages: `U+001B`, `U+FFFE`.
    public static func name(at index: Int, in bytes: UnsafeRawBufferPointer) -> String {
        let length = length(at: index, in: bytes)
        var value = UInt32(length <= 1 ? bytes[index] : bytes[index] & (0xFF >> (length + 1)))
        for offset in 1..<max(length, 1) { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
