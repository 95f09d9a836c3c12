import CCmarkGFM
import Foundation
import Images

// Images written with `loading="lazy"`, `decoding="async"` and their size (see
// `MarkdownOptions.defersImages`). cmark-gfm writes an image's `<img>` itself, with no way to
// add attributes, and a node of raw markup cannot take an image's place everywhere (a table
// cell refuses one). So for a render, each image's URL is swapped for a marker no text can
// hold, and the `<img>` holding it is replaced in the HTML by cmark's own `<img>` for the
// image with the attributes added: the escaping of its URL, alt text and title stays cmark's.

extension MarkdownDocument {
    /// The images of a render, their URLs swapped for markers (see ``markImages(under:)``).
    struct MarkedImages {
        /// Each image, its URL as parsed, the `<img>` to write for it, and when it is a figure
        /// (see ``figureCaption(of:)``) its caption, escaped, and its `<img>` without a title.
        var images: [(node: OpaquePointer, url: String, html: String, figure: (caption: String, html: String)?)] = []
        /// What every marker starts with (see ``markerPrefix``).
        var prefix: String { MarkedImages.markerPrefix }

        /// `marsgen-image-`, then 128 random bits, then `-`: drawn once a process, not at
        /// every render, as no text can guess it either way.
        static let markerPrefix: String = {
            var generator = SystemRandomNumberGenerator()
            let bits = (generator.next() as UInt64, generator.next() as UInt64)
            return "marsgen-image-" + String(bits.0, radix: 16) + "-" + String(bits.1, radix: 16) + "-"
        }()
    }

    /// Swaps the URL of each image under `node` (not one in another's alt text, which is
    /// only words) for a marker, for ``writeImages(_:in:)`` to replace in the HTML and
    /// ``restore(_:)`` to undo; nil when there is none.
    func markImages(under node: OpaquePointer) -> MarkedImages? {
        var images: [OpaquePointer] = []
        if let iterator = cmark_iter_new(node) {
            var depth = 0
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard let current = cmark_iter_get_node(iterator), cmark_node_get_type(current) == CMARK_NODE_IMAGE else { continue }
                if event == CMARK_EVENT_ENTER {
                    if depth == 0 { images.append(current) }
                    depth += 1
                } else {
                    depth -= 1
                }
            }
            cmark_iter_free(iterator)
        }
        guard !images.isEmpty else { return nil }
        var marked = MarkedImages()
        for (index, image) in images.enumerated() {
            let url = cmark_node_get_url(image).map { String(cString: $0) } ?? ""
            let html = Self.deferred(renderAlone(image), size: imageSizes[image])
            var figure: (caption: String, html: String)?
            if let caption = Self.figureCaption(of: image) {
                // A figure's title is its caption, said once: not the image's title too.
                cmark_node_set_title(image, "")
                figure = (TextEscaping.escaped(caption), Self.deferred(renderAlone(image), size: imageSizes[image]))
                cmark_node_set_title(image, caption)
            }
            guard cmark_node_set_url(image, marked.prefix + String(index)) == 1 else { continue }
            marked.images.append((image, url, html, figure))
        }
        return marked
    }

    /// The caption of `image` when it is a figure: the image alone in its paragraph (or
    /// alone in a link alone in its paragraph), with a title (`![Dust devil](dd.jpg "Sol 12,
    /// looking west")`), as Hugo's figures and most photo logs have it. Nil for any other
    /// image: one among words keeps its title as a tooltip.
    static func figureCaption(of image: OpaquePointer) -> String? {
        guard let title = cmark_node_get_title(image).map({ String(cString: $0) }),
              !title.allSatisfy(\.isWhitespace), var parent = cmark_node_parent(image) else { return nil }
        func isAlone(_ node: OpaquePointer) -> Bool { cmark_node_previous(node) == nil && cmark_node_next(node) == nil }
        guard isAlone(image) else { return nil }
        if cmark_node_get_type(parent) == CMARK_NODE_LINK {
            guard isAlone(parent), let above = cmark_node_parent(parent) else { return nil }
            parent = above
        }
        return cmark_node_get_type(parent) == CMARK_NODE_PARAGRAPH ? title : nil
    }

    /// Gives each image ``markImages(under:)`` marked its URL back.
    func restore(_ marked: MarkedImages?) {
        for image in marked?.images ?? [] { _ = cmark_node_set_url(image.node, image.url) }
    }

    /// `html`, rendered with `marked`'s markers, with each `<img>` holding a marker replaced by
    /// its image's.
    static func writeImages(_ marked: MarkedImages, in html: String) -> String {
        let opening = "<img src=\"" + marked.prefix
        var written = ""
        written.reserveCapacity(html.utf8.count + 64 * marked.images.count)
        var rest = html[...]
        while let start = rest.range(of: opening) {
            let afterMarker = rest[start.upperBound...]
            // The alt text and title are escaped: the first `>` ends the tag.
            guard let quote = afterMarker.firstIndex(of: "\""), let index = Int(afterMarker[..<quote]),
                  marked.images.indices.contains(index), let end = afterMarker.firstIndex(of: ">") else {
                written += rest[..<start.upperBound]
                rest = afterMarker
                continue
            }
            written += rest[..<start.lowerBound]
            rest = afterMarker[afterMarker.index(after: end)...]
            if let figure = marked.images[index].figure, let opened = figureStart(in: written),
               let closing = rest.hasPrefix("</p>") ? "" : rest.hasPrefix("</a></p>") ? "</a>" : nil {
                // `<p>` (and a link's `<a …>`) before it, `</p>` after: the paragraph is the figure.
                // (A tight list's item writes no `<p>`: the image stays one, with its title.)
                let link = written[opened.upperBound...]
                written.removeSubrange(opened.lowerBound...)
                written += "<figure>" + link + figure.html + closing + "<figcaption>" + figure.caption + "</figcaption></figure>"
                rest = rest.dropFirst(closing.utf8.count + "</p>".utf8.count)
                continue
            }
            written += marked.images[index].html
        }
        written += rest
        return written
    }

    /// Where the paragraph a figure's `<img>` comes next in starts: `written` ends with
    /// `<p>`, or `<p><a href="…">` (a link's opening tag, whose attributes cmark-gfm escapes).
    private static func figureStart(in written: String) -> Range<String.Index>? {
        guard let paragraph = written.range(of: "<p>", options: .backwards) else { return nil }
        let after = written[paragraph.upperBound...]
        guard after.isEmpty || (after.hasPrefix("<a ") && after.hasSuffix(">") && !after.dropFirst().contains("<")) else { return nil }
        return paragraph
    }

    /// cmark-gfm's HTML for `node` alone, as it is in the tree.
    private func renderAlone(_ node: OpaquePointer) -> String {
        guard let cString = cmark_render_html(node, Self.cmarkOptions(options), cmark_parser_get_syntax_extensions(parser)) else {
            return ""
        }
        defer { free(cString) }
        return String(cString: cString)
    }

    /// `html`, cmark-gfm's `<img src="…" alt="…" />`, with `size` (when known),
    /// `loading="lazy"` and `decoding="async"` before its end.
    static func deferred(_ html: String, size: ImageSize?) -> String {
        guard html.hasPrefix("<img "), html.hasSuffix(" />") else { return html }
        var attributes = ""
        if let size { attributes = " width=\"\(size.width)\" height=\"\(size.height)\"" }
        attributes += " loading=\"lazy\" decoding=\"async\""
        return String(html.dropLast(3)) + attributes + " />"
    }
}
