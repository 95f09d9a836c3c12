@testable import Feed
import Testing

/// What the pages listing an entry with a `<!--more-->` show of its text.
@Suite struct JournalTeaserTests {
    @Test("a teaser's links within the page lead to the entry's page, but those to what the teaser holds")
    func linksWithinThePage() {
        let teaser = "<h2 id=\"e:caf\u{e9}\">Café</h2>\n<p><a href=\"#e:caf%C3%A9\">up</a> <a href=\"#e:later\">down</a>"
            + "<sup class=\"footnote-ref\"><a href=\"#e-fn-1\" id=\"e-fnref-1\">1</a></sup> <a href=\"https://example.org/#top\">out</a></p>\n"
        #expect(JournalSectionController.teaser(teaser, linkingOnTo: "/journal/e/") == "<h2 id=\"e:caf\u{e9}\">Café</h2>\n"
            + "<p><a href=\"#e:caf%C3%A9\">up</a> <a href=\"/journal/e/#e:later\">down</a>"
            + "<sup class=\"footnote-ref\"><a href=\"/journal/e/#e-fn-1\" id=\"e-fnref-1\">1</a></sup> <a href=\"https://example.org/#top\">out</a></p>\n")
        #expect(JournalSectionController.teaser("<p>No links, <a href=\"/a/#b\">one</a>.</p>\n", linkingOnTo: "/journal/e/")
                == "<p>No links, <a href=\"/a/#b\">one</a>.</p>\n")
    }
}
