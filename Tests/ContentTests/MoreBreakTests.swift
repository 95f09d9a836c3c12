import Content
import Diagnostics
import GFM
import Testing

/// A `<!--more-->` line ends the part of an entry that pages listing it show.
@Suite struct MoreBreakTests {
    static let anchor = "<span id=\"here\"></span>"

    func broken(_ markdown: String, rawHTML: Bool = true, firstLine: Int = 1) -> MoreBreak {
        MarkdownDocument(parsing: markdown, firstLine: firstLine,
                         options: MarkdownOptions(allowsRawHTML: rawHTML, footnotePrefix: "dust-", headingIDPrefix: "dust:"))
            .htmlBreakingAtMore(anchor: Self.anchor)
    }

    @Test("the teaser is the blocks before the marker; the whole is the text as if the marker were the anchor", arguments: [true, false])
    func teaserAndWhole(rawHTML: Bool) throws {
        let before = "Seven samples so far[^a].\n\n## Where\n\nNear the hab.\n\n"
        let after = "\n\n| ID | Site |\n| --- | --- |\n| 1 | pad |\n\nThe layer[^b] is the one.\n\n[^a]: First.\n[^b]: Second.\n"
        let made = broken(before + "<!--more-->" + after, rawHTML: rawHTML)
        let teaser = try #require(made.teaser)
        #expect(teaser.contains("Seven samples") && teaser.contains("id=\"dust:where\"") && teaser.contains("Near the hab."))
        #expect(!teaser.contains("<table>") && !teaser.contains("footnotes"))
        // Without the marker's line, the same HTML (footnotes numbered and prefixed as before).
        let whole = MarkdownDocument(parsing: before + after,
                                     options: MarkdownOptions(allowsRawHTML: rawHTML, footnotePrefix: "dust-", headingIDPrefix: "dust:")).html()
        #expect(made.html.replacingOccurrences(of: Self.anchor + "\n", with: "") == whole)
        #expect(made.html.hasPrefix(teaser + Self.anchor + "\n<table>"))
        #expect(!made.html.contains("more") && !made.html.contains("raw HTML omitted"))
        #expect(made.notes.isEmpty)
    }

    @Test("Hugo's and Zola's spellings, in any case, with spaces around; other comments are not markers", arguments: [
        ("<!--more-->", true), ("<!-- more -->", true), ("  <!--MORE-->  ", true), ("<!--\tMore\t-->", true),
        ("<!-- more to come -->", false), ("<!-- moreover -->", false), ("<!---->", false), ("<!-- note -->", false),
    ])
    func spellings(marker: String, isMarker: Bool) {
        #expect((broken("Before.\n\n\(marker)\n\nAfter.").teaser != nil) == isMarker)
    }

    @Test("a text without a marker is its HTML, untouched, and has no teaser")
    func noMarker() {
        let text = "Text <!-- a comment -->.\n\n<!-- another -->\n\nMore text."
        let made = broken(text)
        #expect(made.teaser == nil && made.notes.isEmpty)
        #expect(made.html == MarkdownDocument(parsing: text, options: MarkdownOptions(allowsRawHTML: true, footnotePrefix: "dust-",
                                                                                     headingIDPrefix: "dust:")).html())
    }

    @Test("a marker that cannot break the text says why, where it is, and is not written")
    func notes() {
        // Lines count from the text's first line within its file (after front matter).
        let first = broken("<!--more-->\n\nText.", firstLine: 6)
        #expect(first.teaser == nil && first.notes == [.nothingBefore(line: 6, column: 1)])
        #expect(first.html == "<p>Text.</p>\n")
        let last = broken("Text[^1].\n\n<!--more-->\n\n[^1]: Only a footnote after it.\n")
        #expect(last.teaser == nil && last.notes == [.nothingAfter(line: 3, column: 1)])
        #expect(last.html.contains("footnotes") && !last.html.contains("more"))
        let twice = broken("One.\n\n<!--more-->\n\nTwo.\n\n<!--more-->\n\nThree.")
        #expect(twice.teaser == "<p>One.</p>\n" && twice.notes == [.repeated(line: 7, column: 1, firstLine: 3)])
        #expect(!twice.html.contains("more"))
        let inline = broken("One,\nthen <!--more--> two.\n\n- item\n\n  <!--more-->\n")
        #expect(inline.teaser == nil)
        #expect(inline.notes == [.notOnItsOwnLine(line: 2, column: 6), .notOnItsOwnLine(line: 6, column: 3)])
    }

    func entry(_ body: String) throws -> (JournalEntry, DiagnosticLog) {
        var log = DiagnosticLog()
        let file = SourceFile(path: "content/journal/down.md", text: "---\nauthor: vega\nsol: 1\n---\n\(body)")
        return (try JournalLoader.load(file, context: ContentFixtures.context, log: &log), log)
    }

    @Test("an entry keeps its teaser, which its hash covers; its body has the anchor a teaser's link leads to")
    func entryTeaser() throws {
        let (broken, quiet) = try entry("We are down.\n\n<!--more-->\n\nThe rest of the day.\n")
        #expect(broken.teaser.text == "<p>We are down.</p>\n" && broken.hasTeaser)
        #expect(broken.bodyHTML == "<p>We are down.</p>\n\(JournalEntry.continueAnchorHTML)\n<p>The rest of the day.</p>\n")
        #expect(quiet.entries.isEmpty)
        let (whole, _) = try entry("We are down.\n\nThe rest of the day.\n")
        #expect(!whole.hasTeaser && whole.teaser.text.isEmpty)
        #expect(whole.contentHash != broken.contentHash)
    }

    @Test("a marker that breaks nothing is a warning at its place, with what to do")
    func entryWarnings() throws {
        let (entry, log) = try entry("<!--more-->\n\nWe are down.\n")
        #expect(!entry.hasTeaser)
        let warning = try #require(log.entries.first)
        #expect(warning.severity == .warning && warning.location?.line == 5 && warning.location?.column == 1)
        #expect(warning.message.contains("nothing before it") && warning.hint?.contains("move it below") == true)
        let (_, inline) = try self.entry("We are <!--more--> down.\n")
        #expect(inline.entries.first?.message.contains("within a paragraph") == true && inline.entries.first?.location?.column == 8)
    }
}
