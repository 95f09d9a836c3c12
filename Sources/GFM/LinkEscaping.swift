/// How a URL that marsgen writes itself (not one cmark-gfm rendered) is escaped into HTML.
public enum LinkEscaping {
    /// `url` with every byte outside URLs' safe characters percent-escaped (`dust devil.svg`
    /// → `dust%20devil.svg`, `é` → `%C3%A9`), escapes already there kept, as cmark-gfm
    /// writes a link's URL into HTML: a preview's crawler may not escape what a browser
    /// would, and a link to a heading must read as the page's other links to it.
    public static func escaped(_ url: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(url.utf8.count)
        for byte in url.utf8 {
            if isSafe(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Letters, digits and the characters cmark-gfm leaves as they are in a URL
    /// (`-_.+!*(),%#@?=;:/$~&`; `'` too, which the template escapes in its attribute).
    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-_.+!*(),%#@?=;:/$~&'".utf8.contains(byte)
        }
    }
}
