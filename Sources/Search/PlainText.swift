/// The text of an HTML fragment as a reader reads it, for the search index: tags taken out,
/// entities decoded, runs of white space made one space.
///
/// Its input is marsgen's own rendering of Markdown (cmark-gfm's HTML), with whatever raw
/// HTML the writer put in: what a script, a style sheet or a `<template>` holds is left out,
/// as are footnotes' "back to content" arrows; a block's end (a paragraph, a list item, a
/// table cell, a line break) separates words, an inline tag (`<em>`) does not.
public enum PlainText {
    /// The plain text of `html`.
    public static func of(html: String) -> String {
        var html = html
        return html.withUTF8 { of(utf8: $0) }
    }

    /// Elements whose content is not text a reader reads.
    private static let hiddenElements: Set<String> = ["script", "style", "template", "noscript", "svg", "math"]

    /// Elements whose start or end is a break between words.
    private static let breakingElements: Set<String> = [
        "p", "br", "hr", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
        "div", "section", "article", "aside", "header", "footer", "nav", "figure", "figcaption", "table", "thead",
        "tbody", "tfoot", "tr", "td", "th", "caption", "details", "summary", "sup", "sub", "img",
    ]

    static func of(utf8 html: UnsafeBufferPointer<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(html.count)
        /// Whether a space is owed before the next character of text.
        var pendingSpace = false
        func appendText(_ byte: UInt8) {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                pendingSpace = true
                return
            }
            if pendingSpace, !text.isEmpty { text.append(0x20) }
            pendingSpace = false
            text.append(byte)
        }
        var index = 0
        let end = html.count
        while index < end {
            let byte = html[index]
            if byte == UInt8(ascii: "<"), let tag = Tag(in: html, at: index) {
                index = tag.end
                if tag.isComment { continue }
                if breakingElements.contains(tag.name) { pendingSpace = true }
                // Skip what a hidden element holds, and a footnote's back-reference arrow.
                if !tag.isClosing, !tag.isSelfClosing,
                   hiddenElements.contains(tag.name) || (tag.name == "a" && html[tag.attributes].firstRange(of: "footnote-backref".utf8) != nil) {
                    index = Tag.end(of: tag.name, in: html, from: index)
                    pendingSpace = true
                }
                continue
            }
            if byte == UInt8(ascii: "&"), let (scalar, length) = entity(in: html, at: index) {
                for unit in String(Character(scalar)).utf8 { appendText(unit) }
                index += length
                continue
            }
            appendText(byte)
            index += 1
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The character an entity at `start` stands for, and the entity's length: the named ones
    /// cmark writes and a few common ones, and numeric ones. Any other `&` is text.
    static func entity(in html: UnsafeBufferPointer<UInt8>, at start: Int) -> (Unicode.Scalar, Int)? {
        var end = start + 1
        while end < html.count, end - start < 12, html[end] != UInt8(ascii: ";") { end += 1 }
        guard end < html.count, html[end] == UInt8(ascii: ";"), end > start + 1 else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: html[(start + 1)..<end]), as: UTF8.self)
        let length = end - start + 1
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            // As browsers do: no code point, a surrogate or NUL is the replacement character.
            guard let value else { return nil }
            return (Unicode.Scalar(value).flatMap { $0.value == 0 ? nil : $0 } ?? "\u{FFFD}", length)
        }
        return namedEntities[name].map { ($0, length) }
    }

    /// The named entities decoded: cmark's own and the likeliest in a writer's raw HTML.
    private static let namedEntities: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "shy": "\u{AD}",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "deg": "°", "times": "×", "middot": "·",
    ]

    /// A tag (or a comment) found at a `<`.
    struct Tag {
        /// Its element's name, in lower case (empty for a comment).
        var name: String
        /// Whether it is an end tag (`</p>`).
        var isClosing: Bool
        /// Whether it ends in `/>`.
        var isSelfClosing: Bool
        /// Whether it is a comment, a declaration or a processing instruction.
        var isComment: Bool
        /// Where its attributes are written: only a link's are ever looked at, so no text is made of them.
        var attributes: Range<Int>
        /// Where the text after it starts.
        var end: Int

        /// The tag at `start`, where `html` has a `<`; nil when the `<` starts no tag (`a < b`),
        /// which is then text.
        init?(in html: UnsafeBufferPointer<UInt8>, at start: Int) {
            var index = start + 1
            guard index < html.count else { return nil }
            if html[index] == UInt8(ascii: "!") || html[index] == UInt8(ascii: "?") {
                let closing: [UInt8] = html[index...].starts(with: "!--".utf8) ? Array("-->".utf8) : [UInt8(ascii: ">")]
                var end = index
                while end < html.count, !html[end...].starts(with: closing) { end += 1 }
                self.init(name: "", isClosing: false, isSelfClosing: false, isComment: true, attributes: start..<start,
                          end: min(end + closing.count, html.count))
                return
            }
            let isClosing = html[index] == UInt8(ascii: "/")
            if isClosing { index += 1 }
            let nameStart = index
            while index < html.count, Self.isNameByte(html[index]) { index += 1 }
            guard index > nameStart, Self.isLetter(html[nameStart]) else { return nil }
            let name = String(decoding: UnsafeBufferPointer(rebasing: html[nameStart..<index]), as: UTF8.self).lowercased()
            let attributesStart = index
            // To the `>`, over quoted attribute values, which may hold one.
            var quote: UInt8?
            while index < html.count {
                let byte = html[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                index += 1
            }
            let attributesEnd = index
            let isSelfClosing = attributesEnd > attributesStart && html[attributesEnd - 1] == UInt8(ascii: "/")
            self.init(name: name, isClosing: isClosing, isSelfClosing: isSelfClosing, isComment: false,
                      attributes: attributesStart..<attributesEnd,
                      end: min(index + 1, html.count))
        }

        init(name: String, isClosing: Bool, isSelfClosing: Bool, isComment: Bool, attributes: Range<Int>, end: Int) {
            self.name = name
            self.isClosing = isClosing
            self.isSelfClosing = isSelfClosing
            self.isComment = isComment
            self.attributes = attributes
            self.end = end
        }

        /// Where the text after the end tag of the element `name` opened before `start` is:
        /// elements of the same name within count, and the end of `html` ends an unclosed one.
        static func end(of name: String, in html: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            // A script's or a style sheet's text is raw: it ends at the first end tag, whatever
            // looks like a tag before it (`if (a<b)`).
            if name == "script" || name == "style" {
                let closing = Array("</\(name)".utf8)
                var index = start
                while index + closing.count <= html.count {
                    if zip(html[index..<(index + closing.count)], closing).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) }) {
                        return Tag(in: html, at: index)?.end ?? html.count
                    }
                    index += 1
                }
                return html.count
            }
            var depth = 1
            var index = start
            while index < html.count {
                if html[index] == UInt8(ascii: "<"), let tag = Tag(in: html, at: index) {
                    if tag.name == name, !tag.isSelfClosing {
                        depth += tag.isClosing ? -1 : 1
                        if depth == 0 { return tag.end }
                    }
                    index = tag.end
                    continue
                }
                index += 1
            }
            return html.count
        }

        static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        static func isNameByte(_ byte: UInt8) -> Bool {
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }
}
