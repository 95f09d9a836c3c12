/// The search index a site's search page reads: every ``SearchDocument`` as one JSON file.
///
///     {"version":1,"documents":[{"kind":"journal","url":"/journal/dust-storm/",
///       "title":"Dust storm","sol":12,"date":"2038-11-14T09:30:00Z","author":"Ada Okafor",
///       "tags":["weather"],"text":"The storm reached the ridge …"}, …]}
///
/// Written by hand rather than by an encoder: the bytes must be the same on every build (keys
/// in this order, nothing escaped that need not be), and an index of tens of thousands of
/// documents is written on every edit of a site that has one.
public enum SearchIndex {
    /// The index's format, for scripts of a site's own that read it.
    public static let version = 1

    /// The JSON text of an index of `documents`, in their order.
    public static func json(_ documents: [SearchDocument]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + documents.reduce(0) { $0 + $1.text.utf8.count + $1.title.utf8.count + 128 })
        bytes.append(contentsOf: "{\"version\":\(version),\"documents\":[".utf8)
        for (position, document) in documents.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: "\n{\"kind\":".utf8)
            appendString(document.kind, to: &bytes)
            bytes.append(contentsOf: ",\"url\":".utf8)
            appendString(document.url, to: &bytes)
            bytes.append(contentsOf: ",\"title\":".utf8)
            appendString(document.title, to: &bytes)
            bytes.append(contentsOf: ",\"sol\":\(document.sol),\"date\":".utf8)
            appendString(document.date, to: &bytes)
            bytes.append(contentsOf: ",\"author\":".utf8)
            appendString(document.author, to: &bytes)
            bytes.append(contentsOf: ",\"tags\":[".utf8)
            for (index, tag) in document.tags.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(tag, to: &bytes)
            }
            bytes.append(contentsOf: "],\"text\":".utf8)
            appendString(document.text, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(contentsOf: "\n]}\n".utf8)
        return bytes
    }

    /// `text` as a JSON string, quoted, appended to `bytes`. Control characters are escaped, as
    /// JSON requires; so are U+2028 and U+2029, which some JavaScript parsers take for line ends.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
                case UInt8(ascii: "\n"): bytes.append(contentsOf: "\\n".utf8)
                case UInt8(ascii: "\r"): bytes.append(contentsOf: "\\r".utf8)
                case UInt8(ascii: "\t"): bytes.append(contentsOf: "\\t".utf8)
                case 0..<0x20:
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(hexDigit(byte >> 4))
                    bytes.append(hexDigit(byte & 0xF))
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    bytes.append(contentsOf: (utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    index += 2
                default: bytes.append(byte)
                }
                index += 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
