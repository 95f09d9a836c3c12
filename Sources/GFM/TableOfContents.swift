/// A heading at a document's top level, as its table of contents lists it.
public struct OutlineHeading: Hashable, Sendable {
    /// Its level, 1 to 6.
    public var level: Int
    /// Its element id, prefixed (`dust-storm:timeline`; see ``HeadingIDs``).
    public var id: String
    /// Its plain text.
    public var text: String

    public init(level: Int, id: String, text: String) {
        (self.level, self.id, self.text) = (level, id, text)
    }
}

/// A document's table of contents: its outline as nested ordered lists of links to the
/// headings, as Hugo's `.TableOfContents` and Zola's `page.toc` give it.
public enum TableOfContents {
    /// `outline` as HTML: an `<ol>` of links (`<a href="#dust-storm:timeline">Timeline</a>`,
    /// the id escaped as a link's URL is: `caf%C3%A9`),
    /// a heading one level deeper than the one before it in a list of its own inside that
    /// one's item. A level skipped (`##` then `####`) nests one list, not two; a heading less
    /// deep than the first closes every list back to the outermost. Empty for no headings.
    public static func html(_ outline: [OutlineHeading]) -> String {
        guard let first = outline.first else { return "" }
        var html = "<ol>\n"
        // The levels of the lists open, innermost last; an item is open in each.
        var open = [first.level]
        for (index, heading) in outline.enumerated() {
            if index > 0 {
                if heading.level > open[open.count - 1] {
                    html += "\n<ol>\n"
                    open.append(heading.level)
                } else {
                    html += "</li>\n"
                    while open.count > 1, heading.level < open[open.count - 1], heading.level <= open[open.count - 2] {
                        open.removeLast()
                        html += "</ol>\n</li>\n"
                    }
                }
            }
            html += "<li><a href=\"#" + LinkEscaping.escaped(heading.id) + "\">" + TextEscaping.escaped(heading.text) + "</a>"
        }
        html += "</li>\n"
        for _ in open.dropFirst() { html += "</ol>\n</li>\n" }
        return html + "</ol>\n"
    }
}
