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
        /// Each image, its URL as parsed, and the `<img>` to write for it.
        var images: [(node: OpaquePointer, url: String, html: String)] = []
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
            guard cmark_node_set_url(image, marked.prefix + String(index)) == 1 else { continue }
            marked.images.append((image, url, html))
        }
        return marked
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
            written += marked.images[index].html
            rest = afterMarker[afterMarker.index(after: end)...]
        }
        written += rest
        return written
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
