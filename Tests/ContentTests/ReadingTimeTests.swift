import Content
import Diagnostics
import GFM
import Testing

/// An entry's words and reading time, as Hugo's `.WordCount` and `.ReadingTime` and Zola's
/// `word_count` and `reading_time` give them.
@Suite struct ReadingTimeTests {
    @Test("words are runs between white space in the text, tags and comments left out; Chinese and Japanese characters a word each", arguments: [
        ("<p>We are down.</p>\n", 3),
        ("<p>Dust<em>storm</em> day <strong>2</strong>, &amp; more</p>\n<!-- raw HTML omitted -->\n<h2 id=\"a:b\">Next</h2>\n", 6),
        ("<p><img src=\"/a.png\" alt=\"many words of alt text\" /> one</p>\n", 1),
        ("<!-- a > b --><p>x</p>", 1),
        ("<p>火星に着いた。</p>\n", 6),
        ("<p>Mars 火星 — done</p>", 5),
        ("", 0),
    ])
    func words(html: String, count: Int) {
        #expect(ReadingTime.words(inHTML: html) == count)
    }

    @Test("minutes round up at 200 words a minute, and are at least one")
    func minutes() {
        #expect([0, 1, 200, 201, 400, 401].map(ReadingTime.minutes(forWords:)) == [1, 1, 1, 2, 2, 3])
    }

    @Test("an entry counts the words of its whole text, its hash with them")
    func entryWords() throws {
        var log = DiagnosticLog()
        func entry(_ body: String) throws -> JournalEntry {
            try JournalLoader.load(SourceFile(path: "content/journal/down.md", text: "---\nauthor: vega\nsol: 1\n---\n\(body)"),
                                   context: ContentFixtures.context, log: &log)
        }
        let counted = try entry("We are down.\n\n<!--more-->\n\n## Crew\n\nAll *well*[^1].\n\n[^1]: Mostly.\n")
        // Three, one, two (the reference's number joins its word), the footnote's one and its
        // back link's arrow.
        #expect(counted.wordCount == 8)
        #expect(try entry("We are down.\n").wordCount == 3)
        let (down, downAgain) = (try entry("We are down.\n"), try entry("We are down, all of us.\n"))
        #expect(down.contentHash != downAgain.contentHash && downAgain.wordCount == 6)
    }
}
