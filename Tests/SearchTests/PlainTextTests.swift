import Testing
@testable import Search

@Suite("Plain text of rendered HTML")
struct PlainTextTests {
    @Test("tags go, inline ones join words, blocks separate them")
    func tagsAndBlocks() {
        #expect(PlainText.of(html: "<p>Dust <em>every</em>where</p>\n<p>Second</p>") == "Dust everywhere Second")
        #expect(PlainText.of(html: "<ul>\n<li>one</li><li>two</li>\n</ul>") == "one two")
        #expect(PlainText.of(html: "<table><tr><td>a</td><td>b</td></tr></table>") == "a b")
        #expect(PlainText.of(html: "line<br />\nbreak<br>again") == "line break again")
        #expect(PlainText.of(html: "<h2 id=\"x:y\">Heading</h2><p>text</p>") == "Heading text")
        #expect(PlainText.of(html: "  <p>  spaced\t\n out  </p>  ") == "spaced out")
        #expect(PlainText.of(html: "") == "")
    }

    @Test("entities are decoded, and a lone & or < is text")
    func entities() {
        #expect(PlainText.of(html: "<p>a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#x27; &mdash; &nbsp;f</p>") == "a & b <c> \"d\" 'e' — f")
        #expect(PlainText.of(html: "<p>fish &chips; &unknown; &#xZZ; & done</p>") == "fish &chips; &unknown; &#xZZ; & done")
        #expect(PlainText.of(html: "<p>1 < 2 and 3 <4</p>") == "1 < 2 and 3 <4")
        #expect(PlainText.of(html: "&#0;&#xD800;&#1114112;") == "\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test("scripts, styles, comments and footnote arrows are not text")
    func hidden() {
        #expect(PlainText.of(html: "<p>before</p><script>if (a<b) { x = \"</p>\" }</script><p>after</p>") == "before after")
        #expect(PlainText.of(html: "<style>p > a { color: red }</style>kept") == "kept")
        #expect(PlainText.of(html: "a<!-- hidden <p>x</p> -->b") == "ab")
        #expect(PlainText.of(html: "<svg><text>label</text><svg></svg>inner</svg>out") == "out")
        #expect(PlainText.of(html: "<p>cited<sup class=\"footnote-ref\"><a href=\"#fn-1\">1</a></sup></p>"
            + "<section class=\"footnotes\"><ol><li><p>Note <a href=\"#fnref-1\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back\">↩</a></p></li></ol></section>")
            == "cited 1 Note")
        // Unclosed: the rest is the element's.
        #expect(PlainText.of(html: "shown<script>never") == "shown")
        // A quoted `>` does not end a tag.
        #expect(PlainText.of(html: "<a title=\"x > y\" href='>'>link</a>") == "link")
    }

    @Test("any bytes give text and no crash")
    func arbitraryInput() {
        let pieces = ["<", ">", "&", ";", "#", "x", "<!--", "-->", "<script", "</script>", "\"", "'", "/", "p", "é", "\u{2028}", " "]
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        for _ in 0..<2000 {
            var html = ""
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                html += pieces[Int(state >> 33) % pieces.count]
            }
            let text = PlainText.of(html: html)
            #expect(!text.hasPrefix(" ") && !text.hasSuffix(" "))
        }
    }
}
