import CCmarkGFM
import Foundation

/// A document rendered with the break its writer marked: a line `<!--more-->` of its own
/// (Hugo's marker; Zola's `<!-- more -->` is the same) ends the part that pages listing
/// the document show, its teaser.
public struct MoreBreak: Sendable {
    /// The whole document as HTML, with `anchor` where the marker was.
    public var html: String
    /// The blocks before the marker as HTML; nil when the document has no break.
    public var teaser: String?
    /// The markers that made no break, or no other, and why (see ``MoreMarkerNote``).
    public var notes: [MoreMarkerNote]
}

/// A `<!--more-->` marker that did not break the document where it is, and why.
public enum MoreMarkerNote: Hashable, Sendable {
    /// Nothing is written before it: a teaser would be empty. The document is whole.
    case nothingBefore(line: Int, column: Int)
    /// Nothing but footnotes is written after it. The document is whole.
    case nothingAfter(line: Int, column: Int)
    /// A marker after the first, which is the break (at `firstLine`).
    case repeated(line: Int, column: Int, firstLine: Int)
    /// Not on a line of its own at the document's top level: within a paragraph, a list
    /// item, a block quote or a footnote.
    case notOnItsOwnLine(line: Int, column: Int)
}

extension MarkdownDocument {
    /// Whether `literal`, raw HTML's text, is a marker: `<!--more-->`, with any white space
    /// around the word and the comment, in any case.
    static func isMoreMarker(_ literal: UnsafePointer<CChar>) -> Bool {
        let bytes = UnsafeRawBufferPointer(start: literal, count: strlen(literal))
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }),
              last - first + 1 >= "<!--more-->".utf8.count else { return false }
        let trimmed = bytes[first...last]
        guard trimmed.starts(with: "<!--".utf8), trimmed.reversed().starts(with: "-->".utf8.reversed()) else { return false }
        let inner = trimmed.dropFirst(4).dropLast(3)
        guard let start = inner.firstIndex(where: { !isSpace($0) }), let end = inner.lastIndex(where: { !isSpace($0) }) else {
            return false
        }
        return inner[start...end].map { $0 | 0x20 }.elementsEqual("more".utf8)
    }

    /// Renders the document broken at its first marker on a line of its own at the top
    /// level (see ``MoreBreak``): the teaser is the blocks before it; the whole has `anchor`
    /// (HTML) in its place, for a link from a teaser to go on from where it stopped. A marker
    /// is never written out, neither as a comment nor, without raw HTML, as the note that raw
    /// HTML was left out. A document with nothing before its marker, or nothing but footnotes
    /// after it, is whole.
    ///
    /// - Warning: Moves nodes out of this document; call it once, instead of ``html()``.
    public func htmlBreakingAtMore(anchor: String) -> MoreBreak {
        // Most texts have no comment at all: no walk. (Searched for as bytes: a search of the
        // String's UTF-8 view doubled the time it takes to load an entry.)
        let mayHoldComment = text.utf8.withContiguousStorageIfAvailable { bytes in
            var index = 0
            while index + 3 < bytes.count {
                if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "!"), bytes[index + 2] == UInt8(ascii: "-"),
                   bytes[index + 3] == UInt8(ascii: "-") { return true }
                index += 1
            }
            return false
        } ?? true
        guard mayHoldComment else { return MoreBreak(html: html(), teaser: nil, notes: []) }
        var notes: [MoreMarkerNote] = []
        var markers: [OpaquePointer] = []
        var places: InlinePlaces?
        if let iterator = cmark_iter_new(root) {
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                guard type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node),
                      Self.isMoreMarker(literal) else { continue }
                if type == CMARK_NODE_HTML_BLOCK, cmark_node_parent(node) == root {
                    markers.append(node)
                } else if type == CMARK_NODE_HTML_BLOCK {
                    notes.append(.notOnItsOwnLine(line: fileLine(node), column: Int(cmark_node_get_start_column(node))))
                } else {
                    if places == nil { places = InlinePlaces(text: text) }
                    if let start = places?.start(of: node) {
                        notes.append(.notOnItsOwnLine(line: start.line + firstLine - 1, column: max(start.column, 1)))
                    }
                }
            }
        }
        guard let first = markers.first else { return MoreBreak(html: html(), teaser: nil, notes: notes) }
        let place = (line: fileLine(first), column: Int(cmark_node_get_start_column(first)))
        for later in markers.dropFirst() {
            notes.append(.repeated(line: fileLine(later), column: Int(cmark_node_get_start_column(later)), firstLine: place.line))
        }
        var before: [OpaquePointer] = []
        var node = cmark_node_first_child(root)
        while let current = node, current != first {
            before.append(current)
            node = cmark_node_next(current)
        }
        var hasAfter = false
        node = cmark_node_next(first)
        while let current = node {
            let type = cmark_node_get_type(current)
            if type != CMARK_NODE_FOOTNOTE_DEFINITION, !markers.contains(current) { hasAfter = true }
            node = cmark_node_next(current)
        }
        // Every top-level marker goes: the first is the break, the others are notes.
        for marker in markers {
            cmark_node_unlink(marker)
            cmark_node_free(marker)
        }
        if before.isEmpty || !hasAfter {
            notes.insert(before.isEmpty ? .nothingBefore(line: place.line, column: place.column)
                : .nothingAfter(line: place.line, column: place.column), at: 0)
            return MoreBreak(html: html(), teaser: nil, notes: notes.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        // Two renders that together are the one of the whole: top-level blocks render one
        // after another, and the footnotes (gathered at the end) follow in the second.
        let teaser = renderDetached(before)
        let rest = render(root)
        return MoreBreak(html: teaser + anchor + "\n" + rest, teaser: teaser, notes: notes.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
    }
}

extension MoreMarkerNote {
    /// Where the marker is in the file.
    public var line: Int {
        switch self {
        case .nothingBefore(let line, _), .nothingAfter(let line, _), .repeated(let line, _, _), .notOnItsOwnLine(let line, _): line
        }
    }

    /// Its column.
    public var column: Int {
        switch self {
        case .nothingBefore(_, let column), .nothingAfter(_, let column), .repeated(_, let column, _), .notOnItsOwnLine(_, let column): column
        }
    }
}
