/// The image a link preview shows for a page (Open Graph's `og:image`): what URLs can be
/// one, and how such a URL is written so that any client reads it.
public enum LeadImage {
    /// Whether `url` is one a link preview can fetch: a path from the host's root
    /// (`/img/landing.jpg`, not `//host/…`), or an `http:` or `https:` URL. Not `data:`,
    /// not a path relative to a page (a preview has no page to resolve it against).
    public static func isFetchable(_ url: String) -> Bool {
        if url.utf8.first == UInt8(ascii: "/") { return url.utf8.dropFirst().first != UInt8(ascii: "/") }
        let lowered = url.prefix(8).lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// Whether `url` names an SVG image (its path ends in `.svg`), which link previews
    /// (Facebook's, X's, Mastodon's, chat apps') do not show.
    public static func isSVG(_ url: String) -> Bool {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        return path.lowercased().hasSuffix(".svg")
    }

    /// `url` with every byte outside URLs' safe characters percent-escaped (`dust devil.svg`
    /// → `dust%20devil.svg`, `é` → `%C3%A9`), escapes already there kept, as cmark-gfm
    /// writes a link's URL into HTML: a preview's crawler may not escape what a browser would.
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
