import Content
@testable import Feed
import MarsTime
import SiteConfig
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

    @Test("a teaser's hash follows what its cells show: its extra (through the listing stamp) and its teaser, not the text after the break")
    func teaserHash() {
        func entry(extra: [String: ExtraValue] = [:], body: String = "<p>Rest</p>\n") -> JournalEntry {
            JournalEntry(sourcePath: "content/journal/e.md", explicitTitle: "E", slug: "e", author: FeedFixtures.vega,
                         instant: FeedFixtures.clock.instant(sol: 3, lmst: MarsClockTime(hours: 10)), sol: 3, lmst: MarsClockTime(hours: 10),
                         tags: [], isDraft: false, bodyHTML: body, teaser: "<p>Lead</p>\n", extra: extra)
        }
        let plain = JournalSectionController.teaserHash(of: entry())
        #expect(JournalSectionController.teaserHash(of: entry(extra: ["mood": .text("tense")])) != plain)
        #expect(JournalSectionController.teaserHash(of: entry(body: "<p>Other rest</p>\n")) == plain)
    }

    @Test("on an entry's own page its first image loads with the page; the others, and every image elsewhere, lazily")
    func firstImageAtOnce() throws {
        let image = { (name: String) in "<img src=\"/img/\(name).png\" alt=\"\(name)\" width=\"4\" height=\"3\" loading=\"lazy\" decoding=\"async\" />" }
        let body = "<p>Text &lt;img src=x loading=\"lazy\"&gt;</p>\n<p>\(image("a"))</p>\n<p>\(image("b"))</p>\n"
        let own = JournalSectionController.loadingFirstImageAtOnce(body)
        #expect(own == body.replacingOccurrences(of: "alt=\"a\" width=\"4\" height=\"3\" loading=\"lazy\"", with: "alt=\"a\" width=\"4\" height=\"3\""))
        #expect(own.contains(image("b")))
        // Raw HTML's image first, without the attribute: nothing to change.
        let raw = "<img src=\"/x.png\">" + body
        #expect(JournalSectionController.loadingFirstImageAtOnce(raw) == raw)
        #expect(JournalSectionController.loadingFirstImageAtOnce("<p>none</p>") == "<p>none</p>")
        // As the sections give it: the entry's own page, and a page listing it.
        let entry = FeedFixtures.entry("e", sol: 1, body: body)
        let adapter = FeedAdapter.standard(context: FeedContext(links: SiteLinks(config: FeedFixtures.config()), words: ThemeWords()))
        func shownBody(_ section: FeedSection) -> String? { section.cells.last?.context["body"] as? String }
        #expect(shownBody(try adapter.section(for: entry, isOwnPage: true)) == own)
        #expect(shownBody(try adapter.section(for: entry)) == body)
    }
}
