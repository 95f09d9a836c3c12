import Content
import Diagnostics
import GFM
import Testing

/// `toc: true`: an entry's page lists its headings, as Hugo's `.TableOfContents` and Zola's
/// `page.toc` do.
@Suite struct TableOfContentsTests {
    func heading(_ level: Int, _ name: String) -> OutlineHeading {
        OutlineHeading(level: level, id: "e:" + name, text: name)
    }

    @Test("headings one level deeper nest in the item before them; back up closes the lists between")
    func nesting() {
        let html = TableOfContents.html([heading(2, "a"), heading(3, "b"), heading(3, "c"), heading(2, "d"), heading(4, "e"),
                                         heading(5, "f"), heading(2, "g")])
        #expect(html == """
            <ol>
            <li><a href="#e:a">a</a>
            <ol>
            <li><a href="#e:b">b</a></li>
            <li><a href="#e:c">c</a></li>
            </ol>
            </li>
            <li><a href="#e:d">d</a>
            <ol>
            <li><a href="#e:e">e</a>
            <ol>
            <li><a href="#e:f">f</a></li>
            </ol>
            </li>
            </ol>
            </li>
            <li><a href="#e:g">g</a></li>
            </ol>

            """)
        // Lists left open at the end are closed; a heading above the first level stays in
        // the outermost list.
        #expect(TableOfContents.html([heading(3, "a"), heading(4, "b")]) == "<ol>\n<li><a href=\"#e:a\">a</a>\n<ol>\n<li><a href=\"#e:b\">b</a></li>\n</ol>\n</li>\n</ol>\n")
        #expect(TableOfContents.html([heading(3, "a"), heading(2, "b")]) == "<ol>\n<li><a href=\"#e:a\">a</a></li>\n<li><a href=\"#e:b\">b</a></li>\n</ol>\n")
        #expect(TableOfContents.html([]) == "")
    }

    @Test("a heading's text is escaped, its id written as a link's fragment")
    func escaping() {
        let html = TableOfContents.html([OutlineHeading(level: 2, id: "e:café-<1>", text: "Café <1> & \"2\"")])
        #expect(html.contains("<a href=\"#e:caf%C3%A9-%3C1%3E\">Café &lt;1&gt; &amp; &quot;2&quot;</a>"))
    }

    @Test("the outline is the headings at the top level, with the ids the body gives them, in plain text")
    func outline() {
        let document = MarkdownDocument(parsing: "# Day *one*\n\n> ## Quoted\n\n- ## Listed\n\n## Day one\n\n### [Linked](https://example.org)\n",
                                        options: MarkdownOptions(headingIDPrefix: "e:"))
        #expect(document.outline == [OutlineHeading(level: 1, id: "e:day-one", text: "Day one"),
                                     OutlineHeading(level: 2, id: "e:day-one-1", text: "Day one"),
                                     OutlineHeading(level: 3, id: "e:linked", text: "Linked")])
        let html = document.html()
        for heading in document.outline { #expect(html.contains(" id=\"\(heading.id)\"")) }
        // Without ids, nothing to link to: no outline.
        #expect(MarkdownDocument(parsing: "## A\n").outline.isEmpty)
    }

    func entry(_ matter: String, body: String) throws -> (JournalEntry, DiagnosticLog) {
        var log = DiagnosticLog()
        let file = SourceFile(path: "content/journal/down.md", text: "---\nauthor: vega\nsol: 1\n\(matter)---\n\(body)")
        return (try JournalLoader.load(file, context: ContentFixtures.context, log: &log), log)
    }

    @Test("an entry keeps its table of contents when its front matter asks, and its hash changes with it")
    func entryContents() throws {
        let body = "Down.\n\n## Timeline\n\nNoon.\n\n## Crew\n\nAll well.\n"
        let (listed, quiet) = try entry("toc: true\n", body: body)
        #expect(listed.tableOfContents.text == TableOfContents.html([OutlineHeading(level: 2, id: "down:timeline", text: "Timeline"),
                                                                      OutlineHeading(level: 2, id: "down:crew", text: "Crew")]))
        #expect(quiet.entries.isEmpty)
        let (unlisted, _) = try entry("", body: body)
        #expect(unlisted.tableOfContents.isEmpty && unlisted.contentHash != listed.contentHash)
        #expect(try entry("toc: false\n", body: body).0.tableOfContents.isEmpty)
    }

    @Test("toc: true on an entry without headings is a warning at the key")
    func noHeadings() throws {
        let (entry, log) = try entry("toc: true\n", body: "Down.\n\n- ## In a list\n")
        #expect(entry.tableOfContents.isEmpty)
        let warning = try #require(log.entries.first)
        #expect(warning.severity == .warning && warning.location?.line == 4 && warning.location?.column == 6)
        #expect(warning.message.contains("no headings") && warning.hint?.contains("outside lists and quotes") == true)
    }
}
