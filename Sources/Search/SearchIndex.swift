/// The search index a site's search page reads, in JSON: a file naming its parts, and the
/// parts, each holding some of the ``SearchDocument``s.
///
///     {"version":1,"parts":["/search/pages.json","/search/part-2.json","/search/part-1.json"]}
///
///     {"version":1,"documents":[{"kind":"journal","url":"/journal/dust-storm/",
///       "title":"Dust storm","sol":12,"date":"2038-11-14T09:30:00Z","author":"Ada Okafor",
///       "tags":["weather"],"text":"The storm reached the ridge …"}, …]}
///
/// Written by hand rather than by an encoder: the bytes must be the same on every build (keys
/// in this order, nothing escaped that need not be), and a part is written on every edit of
/// a text in it.
public enum SearchIndex {
    /// The index's format, for scripts of a site's own that read it.
    public static let version = 1

    /// One file of the index.
    public enum File: Sendable {
        /// The index itself: the addresses of its parts, in the order their documents go.
        case parts([String])
        /// A part: its documents, in order.
        case documents([SearchDocument])

        /// The file's JSON text.
        public var json: [UInt8] {
            switch self {
            case .parts(let addresses): SearchIndex.json(parts: addresses)
            case .documents(let documents): SearchIndex.json(documents)
            }
        }
    }

    /// The JSON text of the index naming the parts at `addresses`.
    public static func json(parts addresses: [String]) -> [UInt8] {
        var bytes = Array("{\"version\":\(version),\"parts\":[".utf8)
        for (position, address) in addresses.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(address, to: &bytes)
        }
        bytes.append(contentsOf: "]}\n".utf8)
        return bytes
    }

    /// The JSON text of a part of `documents`, in their order.
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
            // A page of its own has neither: `null`, as JSON says nothing.
            bytes.append(contentsOf: ",\"sol\":\(document.sol.map(String.init) ?? "null"),\"date\":".utf8)
            if let date = document.date { appendString(date, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
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
            // Runs that need no escape, nearly all of a text, are copied whole.
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                let escape: String
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0..<0x20: escape = "\\u00" + String(decoding: [hexDigit(byte >> 4), hexDigit(byte & 0xF)], as: UTF8.self)
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                default:
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(contentsOf: escape.utf8)
                index += byte == 0xE2 ? 3 : 1
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
