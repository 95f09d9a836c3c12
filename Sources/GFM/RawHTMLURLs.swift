/// Relative URLs in the raw HTML of a document (`unsafe_html: true`): `<img src="img/a.png">`
/// is written from the site's root like a Markdown image, so it shows on every page that
/// shows the document.
enum RawHTMLURLs {
    /// The attributes that hold one URL.
    static let urlAttributes: Set<String> = ["href", "src", "poster", "cite", "action", "formaction", "data", "background"]
    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)

    /// The tags cmark-gfm's tag filter disarms (`<script>` is written `&lt;script>`): their
    /// URLs load nothing.
    static let disarmedTags: Set<String> = ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"]

    /// `html` with each relative URL in a tag's URL attribute (and each in a `srcset`)
    /// written after `base`. Text, comments, and anything that is not a tag, are left as
    /// they are.
    ///
    /// - Parameter found: Called with each URL of a tag the tag filter leaves alone, as
    ///   written, its byte offset in `html`, whether it is relative (see
    ///   ``MarkdownDocument/isRelativeReference(_:)``), whether it shows an image (`<img>`'s
    ///   `src` and `srcset`, a `<source>`'s `srcset`, a video's `poster`), and the tag and
    ///   attribute that hold it when it is neither an image nor a link's (`<a>`, `<area>`),
    ///   as ``MarkdownSiteLink/element`` has them (`video src`).
    static func resolving(_ html: String, against base: String,
                          found: ((_ url: String, _ offset: Int, _ isRelative: Bool, _ isImage: Bool, _ element: String) -> Void)? = nil)
        -> String {
        let bytes = Array(html.utf8)
        // Written into attribute values, which are HTML: `&` would start a reference.
        let baseBytes = Array(base.utf8).flatMap { $0 == UInt8(ascii: "&") ? Array("&amp;".utf8) : [$0] }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var position = 0
        func isBlank(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        func starts(_ text: [UInt8], at index: Int) -> Bool {
            index + text.count <= bytes.count && bytes[index..<(index + text.count)].elementsEqual(text)
        }
        /// The tag and attribute being copied, for `found`: whether it loads, and an image.
        var tagLoads = true
        var showsImage = false
        var element = ""
        /// Copies a URL value, written after the base when relative.
        func copyURL(_ value: ArraySlice<UInt8>) {
            let start = value.firstIndex(where: { !isBlank($0) }) ?? value.endIndex
            output += value[value.startIndex..<start]
            let url = value[start...]
            let isRelative = url.withUnsafeBytes { MarkdownDocument.isRelativeReference($0) }
            var end = value.endIndex
            while end > start, isBlank(value[end - 1]) { end -= 1 }
            if let found, tagLoads, start < end {
                found(String(decoding: value[start..<end], as: UTF8.self), start, isRelative, showsImage, element)
            }
            if isRelative { output += baseBytes }
            output += url
        }
        /// Copies a `srcset`: URLs, each with an optional descriptor, between commas.
        func copySourceSet(_ value: ArraySlice<UInt8>) {
            var index = value.startIndex
            while index < value.endIndex {
                // Blanks and commas before a candidate.
                while index < value.endIndex, isBlank(value[index]) || value[index] == UInt8(ascii: ",") {
                    output.append(value[index])
                    index += 1
                }
                let urlStart = index
                while index < value.endIndex, !isBlank(value[index]) { index += 1 }
                // A URL ending in commas: they separate candidates.
                var urlEnd = index
                while urlEnd > urlStart, value[urlEnd - 1] == UInt8(ascii: ",") { urlEnd -= 1 }
                if urlStart < urlEnd { copyURL(value[urlStart..<urlEnd]) }
                output += value[urlEnd..<index]
                // The descriptor, up to the next comma.
                while index < value.endIndex, value[index] != UInt8(ascii: ",") {
                    output.append(value[index])
                    index += 1
                }
            }
        }
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "<") else {
                output.append(bytes[position])
                position += 1
                continue
            }
            if starts(Self.commentStart, at: position) {
                var end = position + 4
                while end < bytes.count, !starts(Self.commentEnd, at: end) { end += 1 }
                end = min(bytes.count, end + 3)
                output += bytes[position..<end]
                position = end
                continue
            }
            guard position + 1 < bytes.count, isLetter(bytes[position + 1]) else {
                output.append(bytes[position])
                position += 1
                continue
            }
            // A start tag: its name, then attributes up to `>`.
            var index = position + 1
            while index < bytes.count, !isBlank(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") {
                index += 1
            }
            output += bytes[position..<index]
            let tag = String(decoding: bytes[(position + 1)..<index], as: UTF8.self).lowercased()
            tagLoads = !Self.disarmedTags.contains(tag)
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
                if isBlank(bytes[index]) || bytes[index] == UInt8(ascii: "/") {
                    output.append(bytes[index])
                    index += 1
                    continue
                }
                let nameStart = index
                while index < bytes.count, !isBlank(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">"),
                      bytes[index] != UInt8(ascii: "/") {
                    index += 1
                }
                let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
                output += bytes[nameStart..<index]
                var afterName = index
                while afterName < bytes.count, isBlank(bytes[afterName]) { afterName += 1 }
                guard afterName < bytes.count, bytes[afterName] == UInt8(ascii: "=") else { continue }
                var valueStart = afterName + 1
                while valueStart < bytes.count, isBlank(bytes[valueStart]) { valueStart += 1 }
                output += bytes[index..<valueStart]
                guard valueStart < bytes.count else {
                    index = valueStart
                    break
                }
                let quote = bytes[valueStart]
                let value: Range<Int>
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    var end = valueStart + 1
                    while end < bytes.count, bytes[end] != quote { end += 1 }
                    value = (valueStart + 1)..<end
                    output.append(quote)
                } else {
                    var end = valueStart
                    while end < bytes.count, !isBlank(bytes[end]), bytes[end] != UInt8(ascii: ">") { end += 1 }
                    value = valueStart..<end
                }
                showsImage = (tag == "img" && (name == "src" || name == "srcset")) || (tag == "source" && name == "srcset")
                    || name == "poster"
                element = showsImage || tag == "a" || tag == "area" ? "" : tag + " " + name
                if urlAttributes.contains(name) {
                    copyURL(bytes[value])
                } else if name == "srcset" {
                    copySourceSet(bytes[value])
                } else {
                    output += bytes[value]
                }
                index = value.upperBound
                if value.upperBound < bytes.count, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    output.append(quote)
                    index += 1
                }
            }
            position = index
        }
        return String(decoding: output, as: UTF8.self)
    }
}
