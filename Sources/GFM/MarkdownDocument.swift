import CCmarkGFM
import Foundation
import Images

/// A GitHub-flavoured Markdown document parsed by cmark-gfm.
///
/// Tables, strikethrough, autolinks, task lists, footnotes and the tag filter are on.
/// The document owns its cmark tree and frees it when it goes away.
public final class MarkdownDocument {
    /// The extensions every document uses, in a fixed order so output is deterministic.
    static let extensionNames = ["table", "strikethrough", "autolink", "tasklist", "tagfilter"]

    let parser: OpaquePointer
    let root: OpaquePointer
    /// The Markdown source, kept (not copied) for finding places cmark-gfm gets wrong.
    let text: String
    /// The first line of the text within its file, so locations point into the user's file.
    public let firstLine: Int
    let options: MarkdownOptions
    /// The ids given to headings (see ``HeadingIDs``), prefixed.
    private var headingIDs: Set<String> = []
    /// The size each image node is written with (see ``MarkdownOptions/defersImages``).
    var imageSizes: [OpaquePointer: ImageSize] = [:]
    /// Whether the document has an image, when known: most have none, and a render need not
    /// look for them.
    var hasImages: Bool?

    /// The headings at the document's top level (not in a list, a quote or a footnote), in
    /// order, with their ids: what a table of contents lists (see ``TableOfContents``). Empty
    /// when headings get no ids (see ``MarkdownOptions/headingIDPrefix``).
    public private(set) var outline: [OutlineHeading] = []

    /// Every link to another Markdown file in the document (see ``MarkdownFileLink``), in
    /// document order.
    public private(set) var fileLinks: [MarkdownFileLink] = []
    /// The links and images with a relative URL that is not a Markdown file's, written after
    /// ``MarkdownOptions/relativeURLBase``: what they name is a page or a static file of the
    /// site (`img/dust-devil.svg`), which a build can check. Found only when the base is set.
    public private(set) var siteLinks: [MarkdownSiteLink] = []

    /// Where each footnote's definition (`[^1]: …`) starts in the file, once ``split(atHeadingLevel:)``
    /// has run: cmark-gfm gathers a document's footnotes at its end, so a split puts them all in
    /// the last part, whatever part refers to them.
    public private(set) var footnoteDefinitions: [(line: Int, column: Int)] = []

    /// Parses Markdown text.
    ///
    /// - Parameters:
    ///   - text: The Markdown source.
    ///   - firstLine: The line of the file that `text` starts on (after front matter).
    ///   - options: How to render.
    ///   - imageSize: The size of the image at a path from the site's root (`img/crater.png`),
    ///     a static file's, when known: asked of each image whose URL is relative to the
    ///     site's root or within its base path (see ``MarkdownSiteLink``), with
    ///     ``MarkdownOptions/defersImages`` on.
    ///   - resolveFileLink: The URL a link to another Markdown file is written as, or nil to
    ///     write it as any other relative URL. Called once for each such link.
    public init(parsing text: String, firstLine: Int = 1, options: MarkdownOptions = MarkdownOptions(),
                imageSize: ((String) -> ImageSize?)? = nil, resolveFileLink: ((MarkdownFileLink) -> String?)? = nil) {
        let parser = cmark_parser_new(Self.cmarkOptions(options))!
        var text = text
        // See ExtensionRegistry: only documents with a `~` need strikethrough, and its lock.
        let hasTilde = text.withUTF8 { $0.contains(UInt8(ascii: "~")) }
        let extensions = hasTilde ? ExtensionRegistry.withStrikethrough : ExtensionRegistry.alwaysAttached
        for item in extensions {
            cmark_parser_attach_syntax_extension(parser, item)
        }
        if hasTilde { ExtensionRegistry.strikethroughLock.lock() }
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
            }
        }
        self.parser = parser
        self.root = cmark_parser_finish(parser)
        self.text = text
        if hasTilde { ExtensionRegistry.strikethroughLock.unlock() }
        self.firstLine = firstLine
        self.options = options
        // Once, on the whole tree: its parts may be rendered more than once.
        if !options.relativeURLBase.isEmpty || resolveFileLink != nil {
            (fileLinks, siteLinks, imageSizes, hasImages) = Self.resolveRelativeURLs(under: root, against: options.relativeURLBase, firstLine: firstLine,
                                                                          text: text, rawHTML: options.allowsRawHTML,
                                                                          resolveFileLink: resolveFileLink,
                                                                          imageSize: options.defersImages ? imageSize : nil)
        }
        if !options.headingIDPrefix.isEmpty {
            let (flags, extensions) = (Self.cmarkOptions(options), cmark_parser_get_syntax_extensions(parser))
            (headingIDs, outline) = HeadingIDs.assign(under: root, prefix: options.headingIDPrefix) { heading in
                // A heading becomes its HTML now: its images are written as a render writes them.
                guard options.defersImages, self.hasImages != false, let marked = self.markImages(under: heading) else {
                    return cmark_render_html(heading, flags, extensions)
                }
                defer { self.restore(marked) }
                guard let cString = cmark_render_html(heading, flags, extensions) else { return nil }
                defer { free(cString) }
                return strdup(Self.writeImages(marked, in: String(cString: cString)))
            }
        }
    }

    deinit {
        cmark_node_free(root)
        cmark_parser_free(parser)
    }

    static func cmarkOptions(_ options: MarkdownOptions) -> Int32 {
        // Table alignment as style="text-align: …": the align attribute is obsolete in HTML5.
        var flags = CMARK_OPT_FOOTNOTES | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES
        if options.allowsRawHTML { flags |= CMARK_OPT_UNSAFE }
        return Int32(flags)
    }

    /// The whole document as HTML.
    public func html() -> String {
        render(root)
    }

    /// The start of the document's text, in plain words, for a page's description (a
    /// search result's snippet, a link's card): its first paragraph that has words (in a
    /// list or a block quote too), cut after the last whole word that fits in `limit`
    /// characters (Unicode scalars), with `…` after. Images, raw HTML and footnote
    /// references are left out; code spans keep their text. Empty when no paragraph has
    /// words.
    public func summary(limit: Int = 160) -> String {
        guard let iterator = cmark_iter_new(root) else { return "" }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH else { continue }
            var bytes: [UInt8] = []
            Self.appendPlainText(of: node, to: &bytes, wordsOnly: true)
            let summary = Self.shortened(bytes, limit: limit)
            if !summary.isEmpty { return summary }
        }
        return ""
    }

    /// The document's first image that a link preview can show: its URL as the HTML has
    /// it (a relative one after ``MarkdownOptions/relativeURLBase``), its alt text, plain,
    /// and its size when it is written with one (see ``MarkdownOptions/defersImages``).
    /// Only Markdown images (`![alt](url)`, not raw HTML's `<img>`) whose URL is a path from
    /// the host's root or an `http:` or `https:` URL, and not SVG (see ``LeadImage``); nil
    /// when there is none.
    public func leadImage() -> (url: String, alt: String, size: ImageSize?)? {
        guard let iterator = cmark_iter_new(root) else { return nil }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_IMAGE, let url = cmark_node_get_url(node) else { continue }
            let written = String(cString: url)
            guard LeadImage.isFetchable(written), !LeadImage.isSVG(written) else { continue }
            var alt: [UInt8] = []
            Self.appendPlainText(of: node, to: &alt)
            // A limit it cannot reach: white space made single spaces, nothing cut.
            return (written, Self.shortened(alt, limit: alt.count + 1), imageSizes[node])
        }
        return nil
    }

    /// The UTF-8 text `bytes` with its runs of white space made one space, or, when that
    /// is longer than `limit` characters (Unicode scalars), as many of its words as fit in
    /// `limit - 1` with `…` after (a first word longer than that is cut). One pass over the
    /// bytes that stops past the limit: an entry's first paragraph may run to hundreds of
    /// words, and every entry of every build that parses it is summarised.
    static func shortened(_ bytes: [UInt8], limit: Int) -> String {
        var kept: [UInt8] = []
        kept.reserveCapacity(min(bytes.count, 4 * limit + 4))
        var count = 0
        // The length of the words kept so far that fit before an ellipsis, and of the first
        // `limit - 1` scalars, the cut when the first word alone is too long.
        var cut: Int?
        var firstScalars = 0
        var spaceDue = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                spaceDue = !kept.isEmpty
                index += 1
                continue
            }
            if spaceDue {
                if count <= limit - 1 { cut = kept.count }
                kept.append(0x20)
                count += 1
                spaceDue = false
            }
            // One scalar: its lead byte and its continuation bytes.
            kept.append(byte)
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 {
                kept.append(bytes[index])
                index += 1
            }
            count += 1
            if count == limit - 1 { firstScalars = kept.count }
            if count > limit {
                kept.removeSubrange((cut ?? firstScalars)...)
                // A word ending in a comma or a colon reads better without it before the ellipsis.
                while let last = kept.last, last == UInt8(ascii: ",") || last == UInt8(ascii: ";") || last == UInt8(ascii: ":") {
                    kept.removeLast()
                }
                return String(decoding: kept, as: UTF8.self) + "…"
            }
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// Splits the document at every heading of `level` that sits at the top level.
    ///
    /// Each part holds the heading's plain text and position and the HTML of the blocks up
    /// to the next such heading. Blocks before the first heading are returned as `preamble`.
    /// Walking cmark's tree (rather than matching text) keeps headings inside code blocks,
    /// lists or block quotes where they are.
    ///
    /// - Warning: Splitting moves nodes out of this document; call it once, instead of ``html()``.
    public func split(atHeadingLevel level: Int32) -> (preamble: MarkdownPart?, parts: [MarkdownPart]) {
        var preamble: MarkdownPart?
        var parts: [MarkdownPart] = []
        var pendingHeading: (text: String, line: Int, column: Int)?
        var pendingBlocks: [OpaquePointer] = []
        var pendingFirstBlockLine = 0
        var pendingOtherHeadings: [MarkdownHeading] = []

        func flush() {
            let html = renderDetached(pendingBlocks)
            if let heading = pendingHeading {
                parts.append(MarkdownPart(heading: heading.text, line: heading.line, column: heading.column,
                                          bodyHTML: html, bodyLine: pendingFirstBlockLine, otherHeadings: pendingOtherHeadings))
            } else if !pendingBlocks.isEmpty {
                preamble = MarkdownPart(heading: "", line: pendingFirstBlockLine, column: 1, bodyHTML: html,
                                        bodyLine: pendingFirstBlockLine, otherHeadings: pendingOtherHeadings)
            }
            pendingBlocks = []
            pendingFirstBlockLine = 0
            pendingOtherHeadings = []
        }

        var node = cmark_node_first_child(root)
        while let current = node {
            node = cmark_node_next(current)
            let isHeading = cmark_node_get_type(current) == CMARK_NODE_HEADING
            if cmark_node_get_type(current) == CMARK_NODE_FOOTNOTE_DEFINITION {
                // cmark-gfm's column for a definition is its text's, after `[^1]: `; its line
                // starts with the `[^` (but for up to three spaces of indent).
                footnoteDefinitions.append((fileLine(current), 1))
            }
            if isHeading, cmark_node_get_heading_level(current) == level {
                flush()
                pendingHeading = (Self.plainText(of: current), fileLine(current), Int(cmark_node_get_start_column(current)))
            } else {
                if isHeading {
                    pendingOtherHeadings.append(MarkdownHeading(text: Self.plainText(of: current), level: Int(cmark_node_get_heading_level(current)),
                                                                line: fileLine(current), column: Int(cmark_node_get_start_column(current))))
                }
                if pendingBlocks.isEmpty { pendingFirstBlockLine = fileLine(current) }
                pendingBlocks.append(current)
            }
        }
        flush()
        return (preamble, parts)
    }

    /// Writes each relative URL of a link or an image under `root` after `base` (see
    /// ``MarkdownOptions/relativeURLBase``), but a link to another Markdown file as
    /// `resolveFileLink` says, when it says.
    ///
    /// - Parameters:
    ///   - text: The text `root` was parsed from, where places cmark-gfm gets wrong are found.
    ///   - rawHTML: Whether raw HTML is kept in the output, so that its URLs are links too.
    ///   - imageSize: The size of an image of the site, by its path from the site's root.
    /// - Returns: The links to other Markdown files, and the other links and images that
    ///   name a place of the site (only when `base` is set): relative, or from the host's
    ///   root; the size `imageSize` gave each image node of the site; and whether there is
    ///   an image at all.
    static func resolveRelativeURLs(under root: OpaquePointer, against base: String, firstLine: Int = 1, text: String,
                                    rawHTML: Bool = false, resolveFileLink: ((MarkdownFileLink) -> String?)? = nil,
                                    imageSize: ((String) -> ImageSize?)? = nil)
        -> (fileLinks: [MarkdownFileLink], siteLinks: [MarkdownSiteLink], imageSizes: [OpaquePointer: ImageSize], hasImages: Bool?) {
        var fileLinks: [MarkdownFileLink] = []
        var siteLinks: [MarkdownSiteLink] = []
        var imageSizes: [OpaquePointer: ImageSize] = [:]
        var hasImages = false
        guard let iterator = cmark_iter_new(root) else { return (fileLinks, siteLinks, imageSizes, nil) }
        defer { cmark_iter_free(iterator) }
        var places = InlinePlaces(text: text)
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            /// Where the node starts in the file (see ``InlinePlaces``): asked only of links
            /// and images. Column 0 says the place is not known.
            func start() -> (line: Int, column: Int) {
                let start = places.start(of: node)
                return (start.line + firstLine - 1, start.column)
            }
            if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node) {
                let html = String(cString: literal)
                // Raw HTML left out of the output (safe mode) links nowhere.
                let found: ((String, Int, Bool, Bool, String) -> Void)? = rawHTML && !base.isEmpty ? { url, offset, isRelative, isImage, element in
                    // Relative, or from the host's root (the initializer sorts those out).
                    guard isRelative || url.utf8.first == UInt8(ascii: "/") else { return }
                    // A later line of the HTML starts where the paragraph's text does, or after
                    // the prefixes of the quotes and list items that hold the block.
                    var place = type == CMARK_NODE_HTML_INLINE ? places.start(of: node, advancedBy: offset)
                        : places.place(inBlock: node, offset: offset)
                    place.line += firstLine - 1
                    if let link = MarkdownSiteLink(url, basePath: base, line: place.line, column: place.column, isImage: isImage,
                                                   element: element) {
                        siteLinks.append(link)
                    }
                } : nil
                let resolved = RawHTMLURLs.resolving(html, against: base, found: found)
                if resolved != html { _ = cmark_node_set_literal(node, resolved) }
                continue
            }
            if type == CMARK_NODE_IMAGE { hasImages = true }
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, let url = cmark_node_get_url(node) else { continue }
            let bytes = UnsafeRawBufferPointer(start: url, count: strlen(url))
            let (line, column) = start()
            /// `link` with the size of the image it is, when it is one of the site's.
            func sized(_ link: MarkdownSiteLink) -> MarkdownSiteLink {
                guard link.isImage, link.origin != .outsideBasePath, let size = imageSize?(link.path) else { return link }
                imageSizes[node] = size
                var link = link
                link.imageSize = size
                return link
            }
            guard isRelativeReference(bytes) else {
                // From the host's root: left as written, and checked like the others.
                if !base.isEmpty, bytes.first == UInt8(ascii: "/"),
                   let link = MarkdownSiteLink(String(decoding: bytes, as: UTF8.self), basePath: base, line: line, column: column,
                                               isImage: type == CMARK_NODE_IMAGE) {
                    siteLinks.append(sized(link))
                }
                continue
            }
            let written = String(decoding: bytes, as: UTF8.self)
            if type == CMARK_NODE_LINK, let link = MarkdownFileLink(written, line: line, column: column) {
                fileLinks.append(link)
                if let resolved = resolveFileLink?(link) {
                    _ = cmark_node_set_url(node, resolved)
                    continue
                }
            } else if !base.isEmpty, let link = MarkdownSiteLink(written, basePath: base, line: line, column: column,
                                                                  isImage: type == CMARK_NODE_IMAGE) {
                siteLinks.append(sized(link))
            }
            if !base.isEmpty { _ = cmark_node_set_url(node, base + written) }
        }
        return (fileLinks, siteLinks, imageSizes, hasImages)
    }

    /// Whether `url` is a path relative to the document it is in (see the next function):
    /// in marsgen's content, to the site's root.
    public static func isRelativeReference(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { isRelativeReference(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `url` is a path relative to the document it is in: not empty, no scheme
    /// (`https:`, `mailto:`), not from the host's root (`/…`, `//…`), not within the page
    /// (`#…`, `?…`).
    static func isRelativeReference(_ url: UnsafeRawBufferPointer) -> Bool {
        guard let first = url.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "#"), first != UInt8(ascii: "?") else {
            return false
        }
        // A scheme is a letter, then letters, digits, `+`, `-` or `.`, up to the first `:`.
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        guard isLetter(first) else { return true }
        for byte in url.dropFirst() {
            if byte == UInt8(ascii: ":") { return false }
            let inScheme = isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !inScheme { return true }
        }
        return true
    }

    func fileLine(_ node: OpaquePointer) -> Int {
        InlinePlaces.startLine(ofBlock: node) + firstLine - 1
    }

    /// Moves `blocks` into a fresh document and renders it with this parser's extensions.
    func renderDetached(_ blocks: [OpaquePointer]) -> String {
        guard let document = cmark_node_new(CMARK_NODE_DOCUMENT) else { return "" }
        defer { cmark_node_free(document) }
        for block in blocks {
            cmark_node_unlink(block)
            cmark_node_append_child(document, block)
        }
        return render(document)
    }

    func render(_ node: OpaquePointer) -> String {
        // The tree stays as parsed for what reads it after (a lead image, a summary).
        let marked = options.defersImages && hasImages != false ? markImages(under: node) : nil
        defer { restore(marked) }
        guard let cString = cmark_render_html(node, Self.cmarkOptions(options), cmark_parser_get_syntax_extensions(parser)) else {
            return ""
        }
        defer { free(cString) }
        let rendered = UnsafeRawBufferPointer(start: cString, count: strlen(cString))
        guard let marked else { return finished(rendered) }
        var written = Self.writeImages(marked, in: String(decoding: rendered, as: UTF8.self))
        return written.withUTF8 { finished(UnsafeRawBufferPointer($0)) }
    }

    /// `bytes`, HTML as cmark-gfm rendered it, with forbidden code points replaced and
    /// footnotes prefixed.
    private func finished(_ bytes: UnsafeRawBufferPointer) -> String {
        // A numeric character reference (`&#1;`, `&#xFFFF;`) comes out of cmark-gfm as the
        // code point itself, which would make the page invalid and an Atom feed not XML.
        let html = ForbiddenCodePoints.replaced(in: bytes).map { String(decoding: $0, as: UTF8.self) }
            ?? String(decoding: bytes, as: UTF8.self)
        return options.footnotePrefix.isEmpty ? html : Self.prefixFootnotes(html, with: options.footnotePrefix, headingIDs: headingIDs)
    }

    /// cmark-gfm numbers footnote anchors `fn-N`/`fnref-N` per document; prefix them so a feed
    /// page holding many documents keeps its element ids unique.
    ///
    /// - Parameter headingIDs: The headings' ids, prefixed already: one of them reads as a
    ///   footnote's anchor when it starts with `fn` (an entry whose slug is `fn-notes`), and
    ///   is left as it is.
    static func prefixFootnotes(_ html: String, with prefix: String, headingIDs: Set<String> = []) -> String {
        // One pass over the bytes: `id="fn-`, `id="fnref-`, `href="#fn-` and `href="#fnref-`
        // get the prefix inserted before `fn`. Most entries have no footnotes at all.
        var html = html
        return html.withUTF8 { bytes -> String in
            let marker: [UInt8] = Array("fnref".utf8)
            guard bytes.count > marker.count,
                  (0...(bytes.count - marker.count)).contains(where: { offset in
                      bytes[offset] == marker[0] && bytes[offset + 1] == marker[1] && bytes[offset + 2] == marker[2]
                          && bytes[offset + 3] == marker[3] && bytes[offset + 4] == marker[4]
                  })
            else { return String(decoding: bytes, as: UTF8.self) }
            let patterns: [[UInt8]] = [Array("id=\"fn".utf8), Array("href=\"#fn".utf8)]
            let prefixBytes = Array(prefix.utf8)
            let mayReadAsFootnote = !headingIDs.isEmpty && headingIDs.contains { $0.hasPrefix("fn") }
            func isHeadingID(at start: Int) -> Bool {
                guard mayReadAsFootnote, let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return false }
                let anchor = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                // A link's is written percent-escaped (`fn-notes:caf%C3%A9`).
                return headingIDs.contains(anchor) || headingIDs.contains(anchor.removingPercentEncoding ?? anchor)
            }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 64)
            var index = 0
            while index < bytes.count {
                var matched = 0
                for pattern in patterns where bytes.count - index >= pattern.count + 1
                    && bytes[index] == pattern[0] && UnsafeBufferPointer(rebasing: bytes[index..<(index + pattern.count)]).elementsEqual(pattern) {
                    let rest = UnsafeBufferPointer(rebasing: bytes[(index + pattern.count)...])
                    if rest.starts(with: [UInt8(ascii: "-")]) || rest.starts(with: Array("ref-".utf8)),
                       !isHeadingID(at: index + pattern.count - 2) {
                        matched = pattern.count
                        break
                    }
                }
                if matched > 0 {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + matched - 2)]))
                    output.append(contentsOf: prefixBytes)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(index + matched - 2)..<(index + matched)]))
                    index += matched
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    static func plainText(of node: OpaquePointer) -> String {
        var bytes: [UInt8] = []
        appendPlainText(of: node, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The UTF-8 of ``plainText(of:)``, appended to `bytes`: a heading's text is read for
    /// each heading of every document, in bytes until it is one string.
    ///
    /// - Parameter wordsOnly: Whether images (their description is not the text's) and raw
    ///   HTML are left out.
    static func appendPlainText(of node: OpaquePointer, to bytes: inout [UInt8], wordsOnly: Bool = false) {
        var child = cmark_node_first_child(node)
        while let current = child {
            let type = cmark_node_get_type(current)
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(current) {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: literal, count: strlen(literal)))
            } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                bytes.append(UInt8(ascii: " "))
            } else if !wordsOnly || (type != CMARK_NODE_IMAGE && type != CMARK_NODE_HTML_INLINE) {
                appendPlainText(of: current, to: &bytes, wordsOnly: wordsOnly)
            }
            child = cmark_node_next(current)
        }
    }
}

/// One part of a document split at headings: a message in a message log, for example.
public struct MarkdownPart: Hashable, Sendable {
    /// The heading's plain text (`14:02 lewis`).
    public var heading: String
    /// The heading's line in the file.
    public var line: Int
    /// The heading's column in the file.
    public var column: Int
    /// The HTML of the blocks under the heading.
    public var bodyHTML: String
    /// The line of the first block under the heading (0 when there is none).
    public var bodyLine: Int
    /// The headings of other levels among the blocks under it, at the top level.
    public var otherHeadings: [MarkdownHeading] = []
}

/// A heading of a document, where it is.
public struct MarkdownHeading: Hashable, Sendable {
    /// Its plain text.
    public var text: String
    /// Its level, 1 to 6.
    public var level: Int
    public var line: Int
    public var column: Int
}

/// A link to another Markdown file, relative to the document's own (`[yesterday](sol-04.md)`,
/// `[the storm](../storms/dust.md#forecast)`): what a writer's editor follows to the file,
/// and what the site should follow to the page made from it.
public struct MarkdownFileLink: Hashable, Sendable {
    /// The path to the file as written, percent-escapes decoded (`../storms/dust.md`).
    public var path: String
    /// What follows the path as written, from its `#` or `?` (`#forecast`), or empty.
    public var suffix: String
    /// Where the link starts in the file.
    public var line: Int
    public var column: Int

    /// Creates a link as it would be found.
    public init(path: String, suffix: String = "", line: Int = 1, column: Int = 1) {
        (self.path, self.suffix, self.line, self.column) = (path, suffix, line, column)
    }

    /// The link to a Markdown file that `url` (a relative reference) is, if it is one: its
    /// path ends in `.md`.
    init?(_ url: String, line: Int, column: Int) {
        let (path, suffix) = splitReference(url)
        guard path.count > 3, path.lowercased().hasSuffix(".md") else { return nil }
        (self.path, self.suffix, self.line, self.column) = (path, String(suffix), line, column)
    }
}

/// A relative reference's path, up to its `#` or `?`, percent-escapes decoded, and what
/// follows from there (`#forecast`, or empty).
private func splitReference(_ url: String) -> (path: String, suffix: Substring) {
    let end = url.firstIndex { $0 == "#" || $0 == "?" } ?? url.endIndex
    return (url[..<end].removingPercentEncoding ?? String(url[..<end]), url[end...])
}

/// A link or an image whose URL names a page or a file of the site and is not a Markdown
/// file's: relative to the site's root (`img/dust-devil.svg`, `sol/4/#w-…`), or written from
/// the host's root (`/img/dust-devil.svg`), in Markdown or in raw HTML, as a document holds
/// it: what it names must be a page or a static file of the site.
public struct MarkdownSiteLink: Hashable, Sendable {
    /// How the URL was written.
    public enum Origin: Int, Hashable, Sendable {
        /// Relative to the site's root (`img/a.png`).
        case relative = 0
        /// From the host's root, within the site's base path (`/img/a.png`, or
        /// `/mission/img/a.png` under the base path `/mission/`).
        case hostRoot = 1
        /// From the host's root, outside the site's base path (`/img/a.png` under `/mission/`):
        /// a page or file of the site only if someone forgot the base path, or of another
        /// site on the same host.
        case outsideBasePath = 2
        /// A link to another content file with a fragment (`sol-04.md#timeline`), written as
        /// its page's URL (see ``fileLink``): the page is there, its anchor is checked.
        case contentFile = 3
    }

    /// The path from the site's root, up to its `#` or `?`, percent-escapes decoded
    /// (`img/dust devil.svg`); for a URL from the host's root, without the base path (or,
    /// outside it, without the first `/`).
    public var path: String
    /// Where the link or image starts in the file.
    public var line: Int
    public var column: Int
    /// An image (`![…](…)`, `<img src>`), not a link.
    public var isImage: Bool
    /// For a URL in raw HTML that is neither an image nor a link's (`<a href>`), the tag and
    /// attribute that hold it (`video src`, `form action`), to name it by in messages;
    /// empty otherwise.
    public var element: String
    /// How the URL was written.
    public var origin: Origin
    /// The fragment, after the `#`, percent-escapes decoded (`m-0123456789ab`); empty when none.
    public var fragment: String
    /// For a link to another content file, the link as written (`sol-04.md#timeline`),
    /// percent-escapes decoded; empty otherwise.
    public var fileLink: String = ""
    /// For an image of the site, the size it was written with (`width` and `height`; see
    /// ``MarkdownOptions/defersImages``); nil when not known, or not asked.
    public var imageSize: ImageSize?

    /// Creates a link as it would be found.
    public init(path: String, line: Int = 1, column: Int = 1, isImage: Bool = false, element: String = "", origin: Origin = .relative,
                fragment: String = "") {
        (self.path, self.line, self.column, self.isImage, self.element, self.origin) = (path, line, column, isImage, element, origin)
        self.fragment = fragment
    }

    /// The link to another content file `link` is, written as `url` (from the host's root,
    /// with its fragment: `/mission/journal/dust/#dust:timeline`), for its anchor to be
    /// checked; nil when `url` is not within `basePath`.
    public init?(resolving link: MarkdownFileLink, to url: String, basePath: String) {
        guard let written = MarkdownSiteLink(url, basePath: basePath, line: link.line, column: link.column, isImage: false),
              written.origin == .hostRoot else { return nil }
        self = written
        origin = .contentFile
        fileLink = link.path + (link.suffix.removingPercentEncoding ?? link.suffix)
    }

    /// What the URL is, in a message: `link`, `image`, or the raw HTML that holds it
    /// (`<video src>`).
    public var kindName: String {
        isImage ? "image" : element.isEmpty ? "link" : "<\(element)>"
    }

    /// The link that `url` is, if it names a place of the site: a relative reference, or
    /// one from the host's root (not `//host/…`). `basePath` is the site's (`/`, `/mission/`).
    public init?(_ url: String, basePath: String, line: Int, column: Int, isImage: Bool, element: String = "") {
        let (written, suffix) = splitReference(url)
        var path = written
        var origin = Origin.relative
        if url.utf8.first == UInt8(ascii: "/") {
            guard !url.hasPrefix("//") else { return nil }
            // Compared with the path as decoded.
            let basePath = basePath.removingPercentEncoding ?? basePath
            if path.hasPrefix(basePath) {
                path.removeFirst(basePath.count)
                origin = .hostRoot
            } else if path + "/" == basePath {
                // The base path without its last slash (`/mission`): the front page.
                path = ""
                origin = .hostRoot
            } else {
                path.removeFirst()
                // The host's own front page (`/`) is another site's, not a mistake.
                guard !path.isEmpty else { return nil }
                origin = .outsideBasePath
            }
        }
        let fragment = suffix.firstIndex(of: "#").map { suffix[suffix.index(after: $0)...] } ?? ""
        self.init(path: path, line: line, column: column, isImage: isImage, element: element, origin: origin,
                  fragment: fragment.removingPercentEncoding ?? String(fragment))
    }

    /// The link as written (without its `#` or `?` part), for messages: the path, after
    /// `basePath` when it was written from the host's root.
    public func written(basePath: String) -> String {
        switch origin {
        case .relative: path
        case .hostRoot: basePath + path
        case .outsideBasePath: "/" + path
        case .contentFile: fileLink
        }
    }
}
