import Content
import Diagnostics
import GFM
import Testing

/// An entry's description: its front matter's, or the start of its text in plain words.
@Suite struct SummaryTests {
    @Test("the summary is the first paragraph with words, in plain text", arguments: [
        ("Intro with **bold**, `code`, ~~gone~~ and a [link](https://example.org/).\n\nSecond.", "Intro with bold, code, gone and a link."),
        ("## Heading\n\nThe text under it.", "The text under it."),
        ("![A dust devil](img/devil.png)\n\nAfter the picture.", "After the picture."),
        ("- first item\n- second\n\nThen a paragraph.", "first item"),
        ("> Quoted from\n> Mission Control.", "Quoted from Mission Control."),
        ("Ends with a note.[^1] <b>Raw</b> html.\n\n[^1]: The note.", "Ends with a note. Raw html."),
        ("```\ncode only\n```\n", ""),
        ("", ""),
    ])
    func firstParagraph(markdown: String, summary: String) {
        #expect(MarkdownDocument(parsing: markdown).summary() == summary)
    }

    @Test("a long paragraph is cut after the last whole word that fits, a comma dropped before the ellipsis; one long word is cut")
    func shortened() {
        let words = Array(repeating: "dust", count: 40).joined(separator: " ")
        let summary = MarkdownDocument(parsing: words).summary(limit: 22)
        #expect(summary == "dust dust dust dust…")
        #expect(summary.count <= 22)
        #expect(MarkdownDocument(parsing: "Sand, rock, dust, ice").summary(limit: 18) == "Sand, rock, dust…")
        #expect(MarkdownDocument(parsing: String(repeating: "a", count: 30)).summary(limit: 10) == String(repeating: "a", count: 9) + "…")
        #expect(MarkdownDocument(parsing: "Short enough").summary(limit: 12) == "Short enough")
        // Characters are counted as Unicode scalars, and a long word is cut between them.
        #expect(MarkdownDocument(parsing: "Café à Olympus Mons").summary(limit: 10) == "Café à…")
        #expect(MarkdownDocument(parsing: "火星火星火星").summary(limit: 4) == "火星火…")
    }

    @Test("an entry's description is its front matter's, else the start of its text; Hugo's 'summary' gets a hint")
    func entryDescription() throws {
        func entry(_ matter: String, body: String = "We are down. The lander settled.\n") throws -> (JournalEntry, DiagnosticLog) {
            var log = DiagnosticLog()
            let file = SourceFile(path: "content/journal/down.md", text: "---\nauthor: vega\nsol: 1\n\(matter)---\n\(body)")
            return (try JournalLoader.load(file, context: ContentFixtures.context, log: &log), log)
        }
        #expect(try entry("description: Landed on the terrace\n").0.description.text == "Landed on the terrace")
        #expect(try entry("").0.description.text == "We are down. The lander settled.")
        #expect(try entry("description: '  '\n").0.description.text == "We are down. The lander settled.")
        // Its own description changes the entry's hash: its page shows it.
        #expect(try entry("description: A\n").0.contentHash != entry("description: B\n").0.contentHash)
        let (hugo, log) = try entry("summary: Landed\n")
        #expect(hugo.description.text == "We are down. The lander settled.")
        #expect(log.warnings.first?.hint == "marsgen calls it 'description'")
    }
}
