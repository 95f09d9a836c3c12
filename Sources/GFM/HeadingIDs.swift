import CCmarkGFM
import Foundation

/// Element ids for a document's headings, so that a reader can link to a section
/// (`/journal/dust-storm/#dust-storm:timeline`) and a template's script or style can find it.
///
/// A heading's fragment is GitHub's for it (`## Dust storm, day 2` → `dust-storm-day-2`), so a
/// link that works in a writer's editor or on GitHub (`[below](#timeline)`) works on the site
/// too; its id is that fragment after the document's prefix (see
/// ``MarkdownOptions/headingIDPrefix``), since one page may show many documents.
public enum HeadingIDs {
    /// GitHub's fragment for a heading's plain text: lowercased; letters, digits, marks, `-`
    /// and `_` kept; each space a `-`; everything else (punctuation, symbols, emoji) dropped.
    /// Runs of `-` are kept as they come (`Dust - day 2` → `dust---day-2`), as GitHub does.
    static func fragment(for text: String) -> String {
        var bytes = Array(text.utf8)
        return fragment(forUTF8: &bytes)
    }

    /// ``fragment(for:)`` of a text's UTF-8, which it takes in place. Most headings are
    /// ASCII, made a fragment byte by byte: Unicode's tables of categories were most of the
    /// cost of ids, on a site where every entry has headings.
    static func fragment(forUTF8 bytes: inout [UInt8]) -> String {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return unicodeFragment(for: String(decoding: bytes, as: UTF8.self)) }
        var count = 0
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                bytes[count] = byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                bytes[count] = byte | 0x20
            case UInt8(ascii: " "):
                bytes[count] = UInt8(ascii: "-")
            default:
                continue
            }
            count += 1
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// ``fragment(for:)`` for text that is not all ASCII.
    private static func unicodeFragment(for text: String) -> String {
        var fragment = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                 .connectorPunctuation:
                fragment.append(scalar)
            case .dashPunctuation where scalar == "-":
                fragment.append(scalar)
            case .spaceSeparator where scalar == " ":
                fragment.append("-")
            default:
                break
            }
        }
        return String(fragment)
    }

    /// The ids starting with `prefix` that the elements of `html` have (`id="dust:timeline"`),
    /// in the order they come: a document's headings' when `prefix` is its heading prefix.
    public static func ids(in html: String, prefix: String) -> [String] {
        let marker = " id=\"" + prefix
        var ids: [String] = []
        var rest = html[...]
        while let found = rest.range(of: marker) {
            let start = html.index(found.lowerBound, offsetBy: " id=\"".count)
            guard let end = html[found.upperBound...].firstIndex(of: "\"") else { break }
            ids.append(String(html[start..<end]))
            rest = html[end...]
        }
        return ids
    }

    /// Gives every heading under `root` (at any depth: in a list, a quote or a footnote too)
    /// its id, and points each link within the document to a heading's fragment
    /// (`[below](#timeline)`) at that heading's id.
    ///
    /// A second heading with the same fragment gets `-1`, a third `-2`, as on GitHub; one
    /// whose text gives no fragment (`## ✨`) gets `section`. A heading is replaced by a block
    /// of its own HTML (cmark-gfm writes no attributes on headings), as `render` writes it
    /// (a string `malloc` made, freed here).
    ///
    /// - Returns: The ids given, prefixed, and the document's outline: its headings at the
    ///   top level (not in a list, a quote or a footnote), in order.
    @discardableResult
    static func assign(under root: OpaquePointer, prefix: String,
                       render: (OpaquePointer) -> UnsafeMutablePointer<CChar>?) -> (ids: Set<String>, outline: [OutlineHeading]) {
        var headings: [OpaquePointer] = []
        var pageLinks: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(root) else { return ([], []) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_HEADING {
                headings.append(node)
            } else if type == CMARK_NODE_LINK, let url = cmark_node_get_url(node), url.pointee == CChar(UInt8(ascii: "#")) {
                pageLinks.append(node)
            }
        }
        cmark_iter_free(iterator)
        guard !headings.isEmpty else { return ([], []) }

        var taken: Set<String> = []
        var fragments: [String] = []
        var outline: [OutlineHeading] = []
        var text: [UInt8] = []
        for heading in headings {
            text.removeAll(keepingCapacity: true)
            MarkdownDocument.appendPlainText(of: heading, to: &text)
            // Before the fragment is made of the bytes, in place.
            let shown = cmark_node_parent(heading) == root ? String(decoding: text, as: UTF8.self) : nil
            var base = fragment(forUTF8: &text)
            if base.isEmpty { base = "section" }
            var candidate = base
            var count = 0
            while taken.contains(candidate) {
                count += 1
                candidate = "\(base)-\(count)"
            }
            taken.insert(candidate)
            fragments.append(candidate)
            if let shown {
                outline.append(OutlineHeading(level: Int(cmark_node_get_heading_level(heading)), id: prefix + candidate, text: shown))
            }
        }

        for link in pageLinks {
            guard let url = cmark_node_get_url(link) else { continue }
            let written = String(cString: url).dropFirst()
            let fragment = written.removingPercentEncoding ?? String(written)
            // Written already as the id (copied from the site), or not a heading's: as it is.
            if taken.contains(fragment) { cmark_node_set_url(link, "#" + prefix + fragment) }
        }

        var opening: [UInt8] = []
        for (heading, fragment) in zip(headings, fragments) {
            let level = cmark_node_get_heading_level(heading)
            guard let html = render(heading) else { continue }
            defer { free(html) }
            // `<h2>…` as cmark-gfm writes it, with the id: `<h2 id="dust:timeline">…`. The
            // fragment holds no `"`, `&` or `<`, and the prefix is a slug's characters.
            let written = UnsafeRawBufferPointer(start: html, count: strlen(html))
            opening.removeAll(keepingCapacity: true)
            opening.append(contentsOf: "<h\(level)".utf8)
            guard written.starts(with: opening + [UInt8(ascii: ">")]), let block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            opening.append(contentsOf: " id=\"".utf8)
            opening.append(contentsOf: prefix.utf8)
            opening.append(contentsOf: fragment.utf8)
            opening.append(UInt8(ascii: "\""))
            opening.append(contentsOf: written[("<h\(level)".utf8.count)...])
            opening.append(0)
            opening.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_on_enter(block, $0.baseAddress) }
            }
            cmark_node_insert_before(heading, block)
            cmark_node_free(heading)
        }
        return (Set(fragments.map { prefix + $0 }), outline)
    }
}
