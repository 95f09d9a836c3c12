import Images
import Content
import Diagnostics
import GFM
import MarsTime
import SiteConfig
import MarsgenTesting
import Testing

@Suite struct JournalLoaderTests {
    func load(_ text: String, path: String = "content/journal/dust.md") throws(Diagnostic) -> JournalEntry {
        var log = DiagnosticLog()
        return try JournalLoader.load(SourceFile(path: path, text: text), context: ContentFixtures.context, log: &log)
    }

    @Test("an entry dated by sol and LMST")
    func solAndTime() throws {
        let entry = try load("---\ntitle: Dust\nauthor: vega\nsol: 12\ntime: \"14:02\"\ntags: [a, b]\n---\nHello *Mars*.\n")
        #expect(entry.sol == 12)
        #expect(entry.lmst.hourMinute == "14:02")
        #expect(entry.slug == "dust")
        #expect(entry.tags == ["a", "b"])
        #expect(entry.bodyHTML == "<p>Hello <em>Mars</em>.</p>\n")
        #expect(entry.diffIdentifier == "journal:content/journal/dust.md")
        #expect(ContentFixtures.config.mission.clock.sol(containing: entry.instant) == 12)
    }

    @Test("an entry dated by an ISO 8601 instant")
    func isoDate() throws {
        let entry = try load("---\nauthor: okoro\ndate: 2038-11-07T07:05:00Z\nslug: sulphate\n---\nText\n")
        #expect(entry.instant == Instant(iso8601: "2038-11-07T07:05:00Z"))
        #expect(entry.sol == 5)
        #expect(entry.slug == "sulphate")
        #expect(entry.title == "Sol 5, \(entry.lmst.hourMinute) LMST")
    }

    @Test("the content hash changes with the text and not otherwise")
    func contentHash() throws {
        let a = try load("---\nauthor: vega\nsol: 3\n---\nOne\n")
        let b = try load("---\nauthor: vega\nsol: 3\n---\nOne\n")
        let c = try load("---\nauthor: vega\nsol: 3\n---\nTwo\n")
        #expect(a.contentHash == b.contentHash)
        #expect(a.contentHash != c.contentHash)
        #expect(a.fingerprint.diffIdentifier == c.fingerprint.diffIdentifier)
    }

    @Test("an unknown author is an error at the author's value")
    func unknownAuthor() {
        let error = expectDiagnostic { _ = try load("---\ntitle: x\nauthor: sam\nsol: 3\n---\n") }
        #expect(error?.headline == "content/journal/dust.md:3:9: error: unknown crew id 'sam'")
        #expect(error?.hint?.contains("vega") == true)
    }

    @Test("date errors", arguments: [
        ("---\nauthor: vega\n---\n", "missing date: give 'date' or 'sol' and 'time'"),
        ("---\nauthor: vega\ndate: yesterday\n---\n", "'date' is not a valid ISO 8601 instant with a zone: 'yesterday'"),
        ("---\nauthor: vega\ndate: 2038-02-30T10:00:00Z\n---\n", "'date' '2038-02-30T10:00:00Z' names a day that does not exist: February 2038 has 28 days"),
        ("---\nauthor: vega\ndate: 2038-02-03T10:00:00\n---\n", "'date' '2038-02-03T10:00:00' has no time zone, so the instant is unknown"),
        ("---\nauthor: vega\ntime: \"10:00\"\n---\n", "'time' needs a 'sol'"),
        ("---\nauthor: vega\nsol: 0\n---\n", "this entry is on sol 0, before the mission's first sol 1"),
        ("---\nauthor: vega\nsol: -4\n---\n", "this entry is on sol -4, before the mission's first sol 1"),
        ("---\nauthor: vega\nsol: 3\ntime: 25:00\n---\n", "'time' must be a local mean solar time HH:MM or HH:MM:SS, not '25:00'"),
        ("---\nauthor: vega\nsol: three\n---\n", "'sol' must be a whole number, not 'three'"),
        ("---\nauthor: vega\nsol: 99999999999999999999\n---\n", "'sol' of 99999999999999999999 is too large a number"),
        ("---\nauthor: vega\nsol: -99999999999999999999\n---\n", "'sol' of -99999999999999999999 is too small a number"),
    ])
    func dateErrors(_ text: String, _ message: String) {
        let error = expectDiagnostic { _ = try load(text) }
        #expect(error?.message == message)
        #expect(error?.location?.line ?? 0 >= 1)
    }

    @Test("a time one digit short gets a hint with what was likely meant; another bad time an example", arguments: [
        ("time: \"7:30\"", "write hours and minutes with two digits each: time: \"07:30\""),
        ("time: \"07:3:09\"", "write hours, minutes and seconds with two digits each: time: \"07:03:09\""),
        ("time: \"7:30 pm\"", "write it on the 24-hour clock: time: \"19:30\""),
        ("time: \"7:70\"", "for example time: \"14:02\""),
        ("time: \"0730\"", "for example time: \"14:02\""),
    ])
    func timeLikelyMeant(_ line: String, _ hint: String) {
        let error = expectDiagnostic { _ = try load("---\nauthor: vega\nsol: 3\n\(line)\n---\n") }
        #expect(error?.message.hasPrefix("'time' must be a local mean solar time") == true)
        #expect(error?.hint == hint)
    }

    @Test("a sol past the year 9999 is an error, not an overflow that stops the process")
    func solTooLate() throws {
        let last = ContentFixtures.context.lastSol
        #expect(last > 2_800_000)
        let entry = try load("---\nauthor: vega\nsol: \(last)\ntime: \"23:59\"\n---\n")
        #expect(entry.instant.iso8601.hasPrefix("9999-"))
        for sol in [last + 1, Int.max] {
            let error = expectDiagnostic { _ = try load("---\nauthor: vega\nsol: \(sol)\n---\n") }
            #expect(error?.message == "this entry is on sol \(sol), after the last sol that has an Earth date (sol \(last), in the year 9999)")
        }
    }

    @Test("a slug from a file name is written in Latin letters without accents")
    func derivedSlugs() {
        #expect(Slug.derive(from: "Sol 12, Dust on the Panels") == "sol-12-dust-on-the-panels")
        #expect(Slug.derive(from: "Café à Olympus") == "cafe-a-olympus")
        #expect(Slug.derive(from: "Straße") == "strasse")
        #expect(Slug.derive(from: "Марс") == "mars")
        #expect(Slug.derive(from: "火星") == "huo-xing")
        #expect(Slug.derive(from: "🚀") == "entry")
        // An entry kept as a page bundle is named by its folder.
        #expect(Slug.derive(fromFileAt: "content/journal/Dust Storm/index.md") == "dust-storm")
        #expect(Slug.derive(fromFileAt: "content/journal/2037/sol-3/index.md") == "sol-3")
        #expect(Slug.derive(fromFileAt: "content/journal/index.md") == "index")
        #expect(Slug.derive(fromFileAt: "content/journal/2037/Index.md") == "index")
    }

    @Test("an entry in a folder of its own, as index.md, is named by the folder")
    func pageBundle() throws {
        let entry = try load("---\nauthor: vega\nsol: 3\n---\nText.\n", path: "content/journal/dust-storm/index.md")
        #expect(entry.slug == "dust-storm")
    }

    @Test("a key written twice in front matter is an error at its second line")
    func duplicateFrontMatterKey() {
        let error = expectDiagnostic { _ = try load("---\ntitle: One\nauthor: vega\nsol: 3\ntitle: Two\n---\nText.\n") }
        #expect(error?.headline == "content/journal/dust.md:5:1: error: duplicate key 'title'")
    }

    @Test("a slug from a long file name is cut to fit a folder name, at no dash")
    func longDerivedSlug() {
        // 80 characters whose Latin spelling is 9 bytes each, less the last dash.
        let slug = Slug.derive(from: String(repeating: "火星", count: 40))
        #expect(slug.utf8.count <= 255 && slug.utf8.count > 250)
        #expect(slug.hasPrefix("huo-xing-huo-xing") && !slug.hasSuffix("-"))
        #expect(Slug.derive(from: String(repeating: "a", count: 300)) == String(repeating: "a", count: 255))
    }

    @Test("a slug with '/', '..' or spaces is refused", arguments: ["a/b", "..", "two words", "../etc"])
    func badSlug(_ slug: String) {
        let error = expectDiagnostic { _ = try load("---\nauthor: vega\nsol: 3\nslug: \"\(slug)\"\n---\n") }
        #expect(error?.message.hasPrefix("slug") == true)
        #expect(error?.location?.line == 4)
    }

    @Test("raw HTML is omitted unless the site allows it")
    func rawHTML() throws {
        let text = "---\nauthor: vega\nsol: 3\n---\n<script>alert(1)</script>\n\nHi <b>there</b>\n"
        let safe = try load(text)
        #expect(!safe.bodyHTML.contains("<script>"))
        #expect(!safe.bodyHTML.contains("<b>"))
        var config = ContentFixtures.config
        config.allowsRawHTML = true
        var log = DiagnosticLog()
        let unsafe = try JournalLoader.load(SourceFile(path: "content/journal/x.md", text: text),
                                            context: ContentContext(config: config, crew: ContentFixtures.crew), log: &log)
        #expect(unsafe.bodyHTML.contains("<b>there</b>"))
        // The GFM tag filter still defangs <script> even when raw HTML is allowed.
        #expect(!unsafe.bodyHTML.contains("<script>"))
    }

    @Test("GitHub-flavoured Markdown: tables, strikethrough, autolinks, task lists, footnotes")
    func gfm() throws {
        let entry = try load("""
            ---
            author: vega
            sol: 3
            ---
            | a | b |
            | - | - |
            | 1 | 2 |

            ~~old~~ https://example.org

            - [x] done

            Note[^1].

            [^1]: The note.
            """)
        #expect(entry.bodyHTML.contains("<table>"))
        #expect(entry.bodyHTML.contains("<del>old</del>"))
        #expect(entry.bodyHTML.contains("<a href=\"https://example.org\">"))
        #expect(entry.bodyHTML.contains("type=\"checkbox\""))
        // Footnote anchors carry the entry's slug, so several entries can share a page.
        #expect(entry.bodyHTML.contains("id=\"dust-fn-1\""))
        #expect(entry.bodyHTML.contains("href=\"#dust-fn-1\""))
        #expect(!entry.bodyHTML.contains("id=\"fn-1\""))
    }

    @Test("unknown front matter keys warn")
    func unknownKeys() throws {
        var log = DiagnosticLog()
        _ = try JournalLoader.load(SourceFile(path: "j.md", text: "---\nauthor: vega\nsol: 3\ntilte: x\n---\nText.\n"),
                                   context: ContentFixtures.context, log: &log)
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.hint == "did you mean 'title'?")
        #expect(log.warnings.first?.location?.line == 4)
    }
}

@Suite struct MessageLogLoaderTests {
    func load(_ text: String, log: inout DiagnosticLog) throws(Diagnostic) -> [Message] {
        try MessageLogLoader.load(SourceFile(path: "content/messages/hab.md", text: text), context: ContentFixtures.context, log: &log)
    }

    func load(_ text: String) throws(Diagnostic) -> [Message] {
        var log = DiagnosticLog()
        return try load(text, log: &log)
    }

    @Test("each level-2 heading starts a message, in all three forms")
    func headingForms() throws {
        let messages = try load("""
            ---
            channel: hab
            sol: 4
            ---
            ## 09:14 vega
            Morning.

            More text.

            ## Sol 5 07:02:30 okoro
            Still here.

            ## 2038-11-09T10:15:00Z vega
            At a UTC instant.
            """)
        #expect(messages.count == 3)
        #expect(messages[0].sol == 4)
        #expect(messages[0].lmst.hourMinute == "09:14")
        #expect(messages[0].bodyHTML == "<p>Morning.</p>\n<p>More text.</p>\n")
        #expect(messages[0].line == 5)
        #expect(messages[1].sol == 5)
        #expect(messages[1].lmst.description == "07:02:30")
        #expect(messages[2].instant == Instant(iso8601: "2038-11-09T10:15:00Z"))
        #expect(messages[2].author.name == "Ines Vega")
        #expect(Set(messages.map(\.diffIdentifier)).count == 3)
        #expect(messages.allSatisfy { $0.channel == "hab" })
        // One origin (log, channel, sender) for each sender's messages in the log.
        #expect(messages[0].origin === messages[2].origin && messages[0].origin !== messages[1].origin)
        #expect(messages[1].author.id == "okoro" && messages[1].authorIDs == ["okoro"] && messages[1].sourcePath == "content/messages/hab.md")
    }

    @Test("HH:MM is UTC on the log's default Earth date")
    func utcDefault() throws {
        let messages = try load("---\ndate: 2038-11-03\n---\n## 15:30 vega\nHi\n")
        #expect(messages.first?.instant == Instant(iso8601: "2038-11-03T15:30:00Z"))
    }

    @Test("headings inside code blocks and lists do not split messages")
    func nestedHeadings() throws {
        let messages = try load("---\nsol: 3\n---\n## 10:00 vega\n```\n## 11:00 okoro\n```\n\n> ## 12:00 okoro\n")
        #expect(messages.count == 1)
        #expect(messages[0].bodyHTML.contains("## 11:00 okoro"))
    }

    @Test("two messages at the same instant from the same author keep distinct identifiers")
    func duplicates() throws {
        let messages = try load("---\nsol: 3\n---\n## 10:00 vega\nA\n\n## 10:00 vega\nB\n")
        #expect(messages.count == 2)
        #expect(messages[0].diffIdentifier != messages[1].diffIdentifier)
    }

    @Test("heading errors name the heading's line and column", arguments: [
        ("---\nsol: 3\n---\n## 10:00\nHi\n", "message heading '10:00' names no author", 4),
        ("---\nsol: 3\n---\n## vega\nHi\n", "message heading 'vega' does not start with a time", 4),
        ("---\nsol: 3\n---\nIntro\n\n## 10:00 sam\nHi\n", "unknown crew id 'sam'", 6),
        ("---\n---\n## 10:00 vega\nHi\n", "message heading gives a time but the log has no default day", 3),
        ("---\nsol: 3\n---\n## Sol x 10:00 vega\n", "message heading 'Sol x 10:00 vega' has no sol and time", 4),
        ("---\nsol: 3\n---\n## 2038-11-31T10:00:00Z vega\n", "'2038-11-31T10:00:00Z' in message heading is not an ISO 8601 instant with a zone", 4),
        ("---\nsol: 3\n---\n## 10:00 vega says hi\n", "message heading '10:00 vega says hi' has extra words after the author", 4),
        ("---\nsol: 3\n---\n## 10:00 UTC vega\n", "message heading '10:00 UTC vega' has 'UTC' between the time and the author", 4),
        ("---\nsol: 3\n---\n## 10:00 - vega\n", "message heading '10:00 - vega' has '-' between the time and the author", 4),
    ])
    func headingErrors(_ text: String, _ message: String, _ line: Int) {
        let error = expectDiagnostic { _ = try load(text) }
        #expect(error?.message == message)
        #expect(error?.location?.line == line)
        #expect(error?.location?.column == 1)
        #expect(error?.hint != nil)
    }

    @Test("a time one digit short, a crew id in capitals or with a chat's colon or @ get a hint with what was likely meant", arguments: [
        ("## 9:05 vega", "write hours and minutes with two digits each: '09:05'"),
        ("## 09:5:7 vega", "write hours, minutes and seconds with two digits each: '09:05:07'"),
        ("## 09:05 Vega", "crew ids are lowercase: did you mean 'vega'?"),
        ("## 09:05 vega:", "write the crew id alone: did you mean 'vega'?"),
        ("## 09:05 @Vega", "write the crew id alone: did you mean 'vega'?"),
        ("## 09:05 Ines Vega", "write the crew id after the time: did you mean 'vega'?"),
        ("## 09:05 daniel  okoro", "write the crew id after the time: did you mean 'okoro'?"),
        ("## 09:05 Daniel", "that is Daniel Okoro's name; write the crew id: did you mean 'okoro'?"),
        ("## 7:30 pm vega", "write it on the 24-hour clock: '19:30'"),
        ("## 12:05am vega", "write it on the 24-hour clock: '00:05'"),
        ("## 09:05 LMST vega", "a time alone is LMST on a log dated by sol, UTC on one dated by date; write the time, then the crew id: 'vega' right after it"),
        ("## 09:05 by okoro", "write the time, then the crew id: 'okoro' right after it"),
        ("## 29:05 vega", "write the heading as '## HH:MM author', '## Sol N HH:MM author' or '## 2037-03-01T14:02:00Z author'"),
    ])
    func likelyMeant(_ heading: String, _ hint: String) {
        let error = expectDiagnostic { _ = try load("---\nsol: 3\n---\n\(heading)\nHi\n") }
        #expect(error?.hint == hint)
    }

    @Test("a crew member's name where the id goes is found by the whole name or one word of it that is no one else's")
    func memberNamed() throws {
        let crew = Crew(members: [CrewMember(id: "vega", name: "Ines Vega", role: ""), CrewMember(id: "okoro", name: "Daniel Okoro", role: ""),
                                  CrewMember(id: "dan", name: "Dan Vega", role: "")])
        #expect(crew.member(named: "ines vega")?.id == "vega")
        #expect(crew.member(named: " Dan\tVega ")?.id == "dan")
        #expect(crew.member(named: "Okoro")?.id == "okoro")
        #expect(crew.member(named: "Vega") == nil)  // two members' names hold it
        #expect(crew.member(named: "Ines Okoro") == nil)
        #expect(crew.member(named: "") == nil)
        let entry = "---\ntitle: T\nauthor: Daniel Okoro\nsol: 3\n---\nText\n"
        var log = DiagnosticLog()
        let error = expectDiagnostic {
            _ = try JournalLoader.load(SourceFile(path: "content/journal/t.md", text: entry), context: ContentFixtures.context, log: &log)
        }
        #expect(error?.headline == "content/journal/t.md:3:9: error: unknown crew id 'Daniel Okoro'")
        #expect(error?.hint == "that is Daniel Okoro's name; write the crew id: did you mean 'okoro'?")
        let heading = expectDiagnostic { _ = try load("---\nsol: 3\n---\n## 09:05 Ines Vega\nHi\n") }
        #expect(heading?.message == "message heading '09:05 Ines Vega' names Ines Vega, not a crew id")
    }

    @Test("a message heading written at another level is a warning at it; other headings in a message are its own")
    func misleveledHeadings() throws {
        var log = DiagnosticLog()
        let text = "---\nsol: 3\n---\n# 08:00 okoro\nBefore.\n\n## 09:00 vega\nHi.\n\n### 09:02 okoro\nSub.\n\n### Results\n\n"
            + "#### 09:05 nobody\n\n> ## 09:06 okoro\n\n## 09:10 okoro\nOk.\n"
        let messages = try load(text, log: &log)
        #expect(messages.map(\.author.id) == ["vega", "okoro"])
        #expect(log.warnings.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message) | \($0.hint ?? "")" } == [
            "4:1 text before the first message heading is ignored | start each message with a heading '## HH:MM author'",
            "4:1 '# 08:00 okoro' is a level-1 heading: it stays part of the text before the first message, which is ignored | "
                + "write '## 08:00 okoro' to start a message of its own",
            "10:1 '### 09:02 okoro' is a level-3 heading: it stays part of the message above it | write '## 09:02 okoro' to start a message of its own",
        ])
    }

    @Test("a runaway heading is quoted cut short in its error")
    func longHeading() {
        let words = (1...5000).map { "word\($0)" }.joined(separator: " ")
        let error = expectDiagnostic { _ = try load("---\nsol: 3\n---\n## 09:14 vega \(words)\nHi.\n") }
        #expect(error?.message == "message heading '09:14 vega word1 word2 word3 word4 word5 word6 word7 word8 w…' has extra words after the author")
    }

    @Test("a log with no messages warns")
    func empty() throws {
        var log = DiagnosticLog()
        let messages = try load("---\nsol: 3\n---\nJust notes.\n", log: &log)
        #expect(messages.isEmpty)
        #expect(log.warnings.map(\.message).contains("this message log has no messages"))
    }

    /// What a parse gives, in a form to compare: each message, the links and the warnings.
    struct Parse: Equatable {
        var messages: [String]
        var links: LinkUses
        var warnings: [String]
    }

    func parse(_ text: String, appendedTo earlier: MessageLogLoader.EarlierParse? = nil) throws -> (Parse, [Message]) {
        var log = DiagnosticLog()
        var links = LinkUses()
        let messages = try MessageLogLoader.load(SourceFile(path: "content/messages/hab.md", text: text), context: ContentFixtures.context,
                                                 log: &log, links: &links, appendedTo: earlier)
        let described = messages.map { "\($0.diffIdentifier) \($0.contentHash) line \($0.line) sol \($0.sol): \($0.bodyHTML)" }
        return (Parse(messages: described, links: links, warnings: log.entries.map { "\($0.location?.description ?? "-"): \($0.message)" }), messages)
    }

    @Test("a log that only grew parses from its last message on, taking the others as they were, and gives what parsing it whole gives",
          arguments: [
            // A message appended.
            ("## Sol 5 10:00 okoro\nAppended.\n", true),
            // Text added to the last message, with no new heading.
            ("More of the last message, with ![a map](img/map.png).\n", true),
            // The last message's code block closed, then a message after it.
            ("still code\n```\n\n## Sol 5 11:00 vega\nAfter the code.\n", true),
            // Another message by the same sender at the same time: its ordinal counts the earlier ones.
            ("\n## 09:14 vega\nThe third at 09:14.\n", true),
            // A link reference definition may change any message (`[the plan]` in the first): parsed whole.
            ("\n## Sol 5 12:00 okoro\nDefined below.\n\n[the plan]: https://example.org/plan\n", false),
            // An image on the line before a table (the last message's code block closed
            // first), at the line's start or within it: cmark-gfm places it within what is
            // left of the paragraph, not the file, and the place is found from the text.
            ("```\n\n## Sol 5 13:00 okoro\n![map](img/map.png)\n| a | b |\n|---|---|\n| 1 | 2 |\n", true),
            ("```\n\n## Sol 5 13:00 okoro\nSee ![map](img/map.png) and\n  [the hab](sol/5/) here:\n| a | b |\n|---|---|\n", true),
          ])
    func appended(_ tail: String, takesEarlier: Bool) throws {
        let before = """
            ---
            channel: hab
            sol: 4
            ---
            ## 09:14 vega
            See [the plan] and ![the hab](img/hab.png).

            ## 09:14 vega
            Twice at 09:14.

            ## Sol 5 09:30 okoro
            Opening a block:

            ```
            code
            """ + "\n"
        let (_, earlierMessages) = try parse(before)
        var earlierLinks = LinkUses()
        var log = DiagnosticLog()
        _ = try MessageLogLoader.load(SourceFile(path: "content/messages/hab.md", text: before), context: ContentFixtures.context,
                                      log: &log, links: &earlierLinks)
        let earlier = MessageLogLoader.EarlierParse(messages: earlierMessages, siteLinks: earlierLinks.site)
        let (whole, _) = try parse(before + tail)
        let (grown, grownMessages) = try parse(before + tail, appendedTo: earlier)
        #expect(grown == whole)
        // The messages before the last are the earlier parse's own, not parsed again.
        let reused = zip(grownMessages, earlierMessages.dropLast()).allSatisfy { $0 === $1 }
        #expect(reused == takesEarlier)
    }

    @Test("random logs and random appends: parsing from the last message on gives what a whole parse gives, or the same error")
    func appendedRandomly() throws {
        var random = SeededRandom(seed: 53)
        // Markdown that reaches across lines or stays open: fences, HTML blocks, lists,
        // quotes, setext underlines, tables, a definition now and then.
        let fragments = ["Plain text.", "*Emphasis* and `code`.", "- one\n- two", "> quoted\ncontinued", "```", "```swift\nlet x = 1",
                         "<!-- an open comment", "-->", "<div>\nraw\n</div>", "    indented code", "1. first", "![map](img/map.png)",
                         "[a link](https://example.org)", "~struck~ text", "| a | b |\n|---|---|\n| 1 | 2 |", "Underlined\n---",
                         "Title\n===", "See ![map](img/map.png) here", "[the plan] is here", "[the plan]: https://example.org/plan", "Footnote[^1].", "[^1]: The note.",
                         "", "\\", "trailing spaces  ", "## Sol 3 08:00 vega", "### a subheading", "<pre>\nkept"]
        func message() -> String {
            var text = random.next(2) == 0 ? "## Sol \(random.next(5) + 1) 0\(random.next(10)):\(10 + random.next(50)) " : "## 09:\(10 + random.next(3)) "
            text += random.next(2) == 0 ? "vega\n" : "okoro\n"
            for _ in 0..<random.next(4) { text += fragments[random.next(fragments.count)] + (random.next(3) == 0 ? "\n" : "\n\n") }
            return text
        }
        /// The parse, or the error it throws as a person reads it.
        func outcome(_ text: String, appendedTo earlier: MessageLogLoader.EarlierParse?) -> String {
            do { return "\(try parse(text, appendedTo: earlier).0)" } catch { return "error: \(error)" }
        }
        var compared = 0
        for _ in 0..<400 {
            var before = "---\nsol: 2\n---\n"
            for _ in 0..<(random.next(6) + 1) { before += message() }
            if random.next(3) == 0 { before.removeLast() }
            var log = DiagnosticLog()
            var links = LinkUses()
            guard let earlierMessages = try? MessageLogLoader.load(SourceFile(path: "content/messages/hab.md", text: before),
                                                                   context: ContentFixtures.context, log: &log, links: &links),
                  !earlierMessages.isEmpty, log.entries.isEmpty else { continue }
            var tail = ""
            for _ in 0..<(random.next(3) + 1) {
                tail += random.next(3) == 0 ? fragments[random.next(fragments.count)] + "\n" : message()
            }
            let earlier = MessageLogLoader.EarlierParse(messages: earlierMessages, siteLinks: links.site)
            let (grown, whole) = (outcome(before + tail, appendedTo: earlier), outcome(before + tail, appendedTo: nil))
            #expect(grown == whole, "log:\n\(before)\n--- appended:\n\(tail)")
            compared += 1
        }
        #expect(compared > 100)
    }

    @Test("a heading added to the end of a log that ended without a line break is parsed from the last message on, as a whole parse would")
    func appendedWithoutLineBreak() throws {
        let before = "---\nsol: 4\n---\n## 09:14 vega\nFirst.\n\n## 09:20 okoro\nNo line break at the end"
        let (_, earlierMessages) = try parse(before)
        let earlier = MessageLogLoader.EarlierParse(messages: earlierMessages, siteLinks: [])
        for tail in ["## 09:30 vega\nGlued to the last line.\n", "\n## 09:30 vega\nOn a line of its own.\n"] {
            #expect(try parse(before + tail, appendedTo: earlier).0 == parse(before + tail).0)
        }
    }

}

@Suite struct WeatherLoaderTests {
    func load(_ text: String) throws(Diagnostic) -> WeatherReport {
        var log = DiagnosticLog()
        return try WeatherLoader.load(SourceFile(path: "content/weather/s.md", text: text), context: ContentFixtures.context, log: &log)
    }

    let valid = "---\nsol: 9\ntemperature: -48\nhigh: -12.5\nlow: -81\nsunrise: \"05:42\"\nsunset: \"17:58\"\ncondition: dust storm\n---\nDusty.\n"

    @Test("a report's fields")
    func fields() throws {
        let report = try load(valid)
        #expect(report.sol == 9)
        #expect(report.lmst.description == "00:00:00")
        #expect(report.temperature == -48)
        #expect(report.high == -12.5)
        #expect(report.condition == .dustStorm)
        #expect(report.sunrise.hourMinute == "05:42")
        #expect(report.notesHTML == "<p>Dusty.</p>\n")
    }

    @Test("bad reports", arguments: [
        ("high: -12.5", "high: -90", "'high' (-90 °C) is below 'low' (-81 °C)"),
        ("condition: dust storm", "condition: sunny", "unknown weather condition 'sunny'"),
        ("sunset: \"17:58\"", "sunset: late", "'sunset' must be a local mean solar time HH:MM, not 'late'"),
        ("temperature: -48\n", "", "missing required key 'temperature'"),
        ("temperature: -48", "temperature: 75.25", "'temperature' of 75.3 °C is not a Mars temperature"),
        // Quoting it once stopped the process: `Int(_:)` of a double past 2^63.
        ("temperature: -48", "temperature: 1e308", "'temperature' of 1e+308 °C is not a Mars temperature"),
    ])
    func badReports(_ original: String, _ replacement: String, _ message: String) {
        let error = expectDiagnostic { _ = try load(valid.replacingOccurrences(of: original, with: replacement)) }
        #expect(error?.message == message)
    }

    @Test("a sunrise one digit short gets a hint with what was likely meant")
    func sunriseLikelyMeant() {
        let error = expectDiagnostic { _ = try load(valid.replacingOccurrences(of: "\"05:42\"", with: "\"5:42\"")) }
        #expect(error?.message == "'sunrise' must be a local mean solar time HH:MM, not '5:42'")
        #expect(error?.hint == "write hours and minutes with two digits each: sunrise: \"05:42\"")
    }

    @Test("a condition written another way gets the one it likely is", arguments: [
        ("dust-storm", "did you mean 'dust storm'?"), ("DustStorm", "did you mean 'dust storm'?"),
        ("dust storms", "did you mean 'dust storm'?"), ("clouds", "did you mean 'cloudy'?"), ("Fog.", "did you mean 'fog'?"),
        ("sunny", "one of: clear, cloudy, dust storm, windy, snow, fog"),
    ])
    func conditionLikelyMeant(_ written: String, _ hint: String) {
        let error = expectDiagnostic { _ = try load(valid.replacingOccurrences(of: "condition: dust storm", with: "condition: \(written)")) }
        #expect(error?.message == "unknown weather condition '\(written)'")
        #expect(error?.hint == hint)
    }
}

@Suite struct ConfigAndCrewTests {
    @Test("config values and defaults")
    func config() {
        let config = ContentFixtures.config
        #expect(config.basePath == "/log/")
        #expect(config.baseURL == "https://example.org/log/")
        #expect(config.pageSize == 20)
        #expect(config.language == "en")
        #expect(config.mission.clock.firstSol == 1)
    }

    @Test("a base URL every link can start with is taken; one with a space, a query, a fragment or non-ASCII is an error", arguments: [
        ("https://example.org/log/", nil), ("http://localhost:8080/", nil), ("https://[::1]:4000/a_b/c-d~e/%20x/", nil),
        ("https://example.org/my mission/", "'base_url' cannot hold a space"),
        ("https://example.org/a?b=1", "'base_url' cannot have a query or a fragment ('?'): every page's path goes after it"),
        ("https://example.org/a#top", "'base_url' cannot have a query or a fragment ('#'): every page's path goes after it"),
        ("https://example.org/café/", "'base_url' must be ASCII: every link of the site starts with it, and a sitemap's URLs must be escaped"),
        ("https://exa mple.org/", "'base_url' cannot hold a space"),
        ("https:///log/", "'base_url' has no host"),
        ("https://me@example.org/", "'base_url' cannot hold a user name ('@')"),
        ("https://example.org/a<b>/", "'base_url' cannot hold '<'"),
    ] as [(String, String?)])
    func baseURL(url: String, error message: String?) {
        let text = ContentFixtures.configText.replacingOccurrences(of: "base_url: https://example.org/log/", with: "base_url: '\(url)'")
        var log = DiagnosticLog()
        if let message {
            let error = expectDiagnostic { _ = try SiteConfiguration.parse(text, log: &log) }
            #expect(error?.message == message)
            #expect(error?.location?.line == 2 && error?.hint != nil)
        } else {
            #expect(throws: Never.self) { _ = try SiteConfiguration.parse(text, log: &log) }
        }
    }

    @Test("'language' is a language tag whose language is a two- or three-letter code", arguments: [
        ("en", nil), ("pt-BR", nil), ("zh-Hans-CN", nil), ("haw", nil),
        ("english", "the language is its two- or three-letter code: 'en' for English, 'de' for German, 'ja' for Japanese"),
        ("en_US", "subtags are joined by '-': 'en-US'"), ("x", "the language is its two- or three-letter code: 'en' for English, 'de' for German, 'ja' for Japanese"),
    ] as [(String, String?)])
    func language(_ tag: String, hint: String?) {
        let text = ContentFixtures.configText + "\nlanguage: \(tag)\n"
        var log = DiagnosticLog()
        if let hint {
            let error = expectDiagnostic { _ = try SiteConfiguration.parse(text, log: &log) }
            #expect(error?.message == "'language' must be a language tag like 'en' or 'pt-BR', not '\(tag)'")
            #expect(error?.hint == hint)
        } else {
            #expect(throws: Never.self) { _ = try SiteConfiguration.parse(text, log: &log) }
        }
    }

    @Test("a language written right to left is known by its script subtag, or else by the language", arguments: [
        ("ar", true), ("ar-EG", true), ("he", true), ("fa-IR", true), ("ur", true), ("ckb", true), ("yi", true),
        ("az-Arab", true), ("pa-Arab-PK", true), ("uz-Arab", true), ("ks-Deva", false), ("ku-Latn", false),
        ("en", false), ("pt-BR", false), ("zh-Hans-CN", false), ("ku", false), ("az", false), ("sr-Cyrl", false),
        ("AR", true), ("en-x-arab", false), ("de-1996", false),
    ])
    func rightToLeft(_ tag: String, _ isRightToLeft: Bool) throws {
        var log = DiagnosticLog()
        let config = try SiteConfiguration.parse(ContentFixtures.configText + "\nlanguage: \(tag)\n", log: &log)
        #expect(config.isRightToLeft == isRightToLeft)
    }

    @Test("a duplicate key is an error at its second appearance, in the config, the crew file and nested mappings")
    func duplicateKeys() {
        var log = DiagnosticLog()
        let config = expectDiagnostic { _ = try SiteConfiguration.parse(ContentFixtures.configText + "\ntitle: Again\n", log: &log) }
        #expect(config?.location?.line == ContentFixtures.configText.split(separator: "\n", omittingEmptySubsequences: false).count + 1)
        #expect(config?.message == "duplicate key 'title'")
        #expect(config?.hint == "a key may appear once in a mapping: remove one, or merge their values")
        let crew = expectDiagnostic {
            _ = try CrewLoader.load(SourceFile(path: "content/crew.yml", text: "vega:\n  name: A\n  role: B\n  'name': C\n"), log: &log)
        }
        #expect(crew?.headline == "content/crew.yml:4:3: error: duplicate key 'name'")
    }

    @Test("every error in the config and the crew file comes with a hint", arguments: [
        ("page_size: 0", "it is how many objects a feed page shows, like 'page_size: 20'"),
        ("page_size: many", "write it in digits, like 'page_size: 20'"),
        ("unsafe_html: maybe", "write 'unsafe_html: true' or 'unsafe_html: false'"),
        ("tag_feeds: 1", "write 'tag_feeds: true' or 'tag_feeds: false'"),
        ("unchecked_links: ['/downloads/', '']", "list how the URLs to leave unchecked begin, as you write them: 'unchecked_links: [/downloads/]'"),
        ("unchecked_links: {a: b}", "write it like 'unchecked_links: [dust, rover]'"),
        ("title: [a, b]", "write it on the key's line, 'title: value', not as a list or a mapping under it"),
        ("? [a]\n: x", "write each key as a word before its colon, like 'title: …'"),
    ])
    func configHints(_ line: String, hint: String) {
        let text = ContentFixtures.configText.split(separator: "\n").filter { !$0.hasPrefix(line.prefix(while: { $0 != ":" }) + ":") }
            .joined(separator: "\n") + "\n" + line + "\n"
        var log = DiagnosticLog()
        let error = expectDiagnostic { _ = try SiteConfiguration.parse(text, log: &log) }
        #expect(error?.hint == hint, "\(line): \(String(describing: error))")
        let crew = expectDiagnostic {
            _ = try CrewLoader.load(SourceFile(path: "content/crew.yml", text: "vega:\n  name: Ines Vega\nokoro:\n"), log: &log)
        }
        #expect(crew?.hint != nil)
    }

    @Test("'unchecked_links' is a list of URL beginnings, or one; none by default")
    func uncheckedLinks() throws {
        var log = DiagnosticLog()
        #expect(try SiteConfiguration.parse(ContentFixtures.configText, log: &log).uncheckedLinks.isEmpty)
        let list = try SiteConfiguration.parse(ContentFixtures.configText + "\nunchecked_links: [/downloads/, 'api/']\n", log: &log)
        #expect(list.uncheckedLinks == ["/downloads/", "api/"])
        let one = try SiteConfiguration.parse(ContentFixtures.configText + "\nunchecked_links: /downloads/\n", log: &log)
        #expect(one.uncheckedLinks == ["/downloads/"])
        #expect(log.warnings.isEmpty)
    }

    @Test("'nav' is a list of links, each a title and a URL (a page of the site, from the host's root, or http:, https: or mailto:) and a weight; none by default")
    func navigationLinks() throws {
        var log = DiagnosticLog()
        #expect(try SiteConfiguration.parse(ContentFixtures.configText, log: &log).navigationLinks.isEmpty)
        let text = ContentFixtures.configText + """

            nav:
              - title: Mission home
                url: https://example.org/kasei/
              - title: " First sol "
                url: sol/1/
                weight: -1
              - {title: Write to us, url: "mailto:crew@example.org", name: x}
            """
        let config = try SiteConfiguration.parse(text, log: &log)
        #expect(config.navigationLinks.map(\.title) == ["Mission home", "First sol", "Write to us"])
        #expect(config.navigationLinks.map(\.url) == ["https://example.org/kasei/", "sol/1/", "mailto:crew@example.org"])
        #expect(config.navigationLinks.map(\.weight) == [0, -1, 0])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(config.navigationLinks[1].location.value?.line == lines.firstIndex(of: "    url: sol/1/").map { $0 + 1 })
        #expect(log.warnings.map(\.message) == ["unknown key 'name' in a 'nav' link is ignored"])
        #expect(log.warnings.first?.hint == "marsgen calls it 'title'")
        var hugo = DiagnosticLog()
        _ = try SiteConfiguration.parse(ContentFixtures.configText + "\nmenu:\n  main: []\n", log: &hugo)
        #expect(hugo.warnings.first?.hint == "marsgen calls it 'nav'")
        let shape = "write each link as an item '- title: Mission home' with 'url: https://example.org/' under its title"
        for (written, message, hint) in [
            ("nav:\n  title: Home\n", "'nav' must be a list of '- ' items", shape),
            ("nav:\n  - Home\n", "expected a mapping of keys to values for an item of 'nav'", shape),
            ("nav:\n  - title: Home\n", "missing required key 'url'", "add 'url: …': a page of the site ('sol/1/') or another site's ('https://…')"),
            ("nav:\n  - {title: '  ', url: /}\n", "a 'nav' link's title is empty", "write the link's words in the navigation"),
            ("nav:\n  - {title: X, url: 'javascript:alert(1)'}\n",
             "'url' of a 'nav' link must be a page of the site or an http:, https: or mailto: URL, not 'javascript:alert(1)'",
             "write a path from the site's root ('sol/1/'), from the host's ('/other-app/'), or a whole URL ('https://example.org/'), without blanks"),
            ("nav:\n  - {title: X, url: 'sol/1/ sol/2/'}\n", "'url' of a 'nav' link must be a page of the site or an http:, https: or mailto: URL, not 'sol/1/ sol/2/'",
             nil),
        ] as [(String, String, String?)] {
            let error = expectDiagnostic { _ = try SiteConfiguration.parse(ContentFixtures.configText + "\n" + written, log: &log) }
            #expect(error?.message.hasPrefix(message) == true, "\(written): \(String(describing: error))")
            if let hint { #expect(error?.hint == hint, "\(written)") }
        }
    }

    @Test("'sitemap_max_urls' is 50,000 unless set, and must be from 1 to 50,000")
    func sitemapMaxURLs() throws {
        var log = DiagnosticLog()
        #expect(try SiteConfiguration.parse(ContentFixtures.configText, log: &log).sitemapMaxURLs == 50_000)
        for value in [1, 1_000, 50_000] {
            let config = try SiteConfiguration.parse(ContentFixtures.configText + "\nsitemap_max_urls: \(value)\n", log: &log)
            #expect(config.sitemapMaxURLs == value)
        }
        #expect(log.warnings.isEmpty)
        for value in ["0", "-5", "50001"] {
            let error = expectDiagnostic {
                _ = try SiteConfiguration.parse(ContentFixtures.configText + "\nsitemap_max_urls: \(value)\n", path: "marsgen.yml", log: &log)
            }
            #expect(error?.message == "'sitemap_max_urls' must be between 1 and 50000, not \(value)")
            #expect(error?.location?.line == ContentFixtures.configText.split(separator: "\n", omittingEmptySubsequences: false).count + 1)
            #expect(error?.hint?.contains("50,000 URLs in a file") == true)
        }
    }

    @Test("the settings' digest is the same however the file is written, and differs when any setting does")
    func settingsDigest() throws {
        var log = DiagnosticLog()
        func digest(_ text: String) throws -> [UInt8] { try SiteConfiguration.parse(text, log: &log).settingsDigest }
        let base = try digest(ContentFixtures.configText)
        let rewritten = """
            # The log's settings.
            mission:
              first_sol: 1
              longitude: -58.20
              landing: "2038-11-02T14:17:00Z"
              name: 'Test'

            base_url: "https://example.org/log/"   # where it is served
            title: Test Log
            page_size: 20
            """
        #expect(try digest(rewritten) == base)
        // One line each: every field of the configuration and of its mission.
        let changes = [
            "title: Other Log", "description: A log", "base_url: https://example.org/other/", "language: de",
            "page_size: 5", "unsafe_html: true", "unchecked_links: [/downloads/]", "sitemap_max_urls: 1000", "tag_feeds: true",
            "image: img/patch.png", "image: img/patch.png\nimage_alt: The patch",
            "words:\n  older: Plus anciens", "words:\n  older: Ältere", "words:\n  messages: {one: \"{count} msg\", other: \"{count} msgs\"}",
            "mission:\n  name: Other\n  landing: 2038-11-02T14:17:00Z\n  longitude: -58.2\n  first_sol: 1",
            "mission:\n  name: Test\n  landing: 2038-11-02T14:17:01Z\n  longitude: -58.2\n  first_sol: 1",
            "mission:\n  name: Test\n  landing: 2038-11-02T14:17:00Z\n  longitude: -58.25\n  first_sol: 1",
            "mission:\n  name: Test\n  landing: 2038-11-02T14:17:00Z\n  longitude: -58.2\n  first_sol: 0",
        ]
        var seen: Set<[UInt8]> = [base]
        for change in changes {
            let key = change.prefix { $0 != ":" } + ":"
            var lines = ContentFixtures.configText.split(separator: "\n").map(String.init)
            if key == "mission:" { lines.removeAll { $0.hasPrefix("mission:") || $0.hasPrefix("  ") } }
            lines.removeAll { $0.hasPrefix(key) }
            #expect(seen.insert(try digest(lines.joined(separator: "\n") + "\n" + change + "\n")).inserted, "\(change)")
        }
        #expect(log.warnings.isEmpty)
    }

    @Test("the site's picture for link previews: as written, where it is written (which is no setting), checked as an entry's image is")
    func siteImage() throws {
        var log = DiagnosticLog()
        let config = try SiteConfiguration.parse(ContentFixtures.configText + "\nimage: ' img/patch.png '\nimage_alt: The mission patch\n", log: &log)
        #expect(config.image == "img/patch.png" && config.imageAlt == "The mission patch")
        #expect(config.imageLocation.value == SourceLocation(path: "marsgen.yml", line: 8, column: 8))
        // Moved down a line: the same settings.
        let moved = try SiteConfiguration.parse(ContentFixtures.configText + "\n\nimage: img/patch.png\nimage_alt: The mission patch\n", log: &log)
        #expect(moved.imageLocation.value?.line == 9 && moved == config && moved.settingsDigest == config.settingsDigest)
        for fetchable in ["/log/img/patch.png", "https://cdn.example.org/patch.png", "HTTP://cdn.example.org/p.png"] {
            #expect(try SiteConfiguration.parse(ContentFixtures.configText + "\nimage: \(fetchable)\n", log: &log).image == fetchable)
        }
        #expect(log.entries.isEmpty)
        for unfetchable in ["data:image/png;base64,AAAA", "//cdn.example.org/patch.png", "ftp://example.org/patch.png"] {
            let error = expectDiagnostic { _ = try SiteConfiguration.parse(ContentFixtures.configText + "\nimage: '\(unfetchable)'\n", log: &log) }
            #expect(error?.message == "image '\(unfetchable)' is not an address a link preview can fetch" && error?.location?.line == 8)
            #expect(error?.hint?.contains("https://") == true)
        }
        var svg = DiagnosticLog()
        _ = try SiteConfiguration.parse(ContentFixtures.configText + "\nimage: img/patch.SVG?v=2\n", log: &svg)
        #expect(svg.warnings.map(\.message) == ["image 'img/patch.SVG?v=2' is an SVG image, which link previews do not show"])
        // Hugo's list of them.
        var hugo = DiagnosticLog()
        _ = try SiteConfiguration.parse(ContentFixtures.configText + "\nimages: [img/patch.png]\n", log: &hugo)
        #expect(hugo.warnings.first?.hint == "did you mean 'image'?")
        // Alt text without a picture describes nothing: a warning at it.
        var alone = DiagnosticLog()
        #expect(try SiteConfiguration.parse(ContentFixtures.configText + "\nimage: '  '\nimage_alt: Nothing\n", log: &alone).imageAlt == "")
        #expect(alone.warnings.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" }
                == ["9:12 'image_alt' describes no picture: the site has no 'image'"])
    }

    @Test("unknown config keys warn; missing required keys fail")
    func configErrors() {
        var log = DiagnosticLog()
        _ = try? SiteConfiguration.parse(ContentFixtures.configText + "\ntheme: dark\n", log: &log)
        #expect(log.warnings.first?.message == "unknown key 'theme' in marsgen.yml is ignored")
        // Hugo's and Zola's names for keys marsgen has.
        var moved = DiagnosticLog()
        _ = try? SiteConfiguration.parse(ContentFixtures.configText + "\nlanguageCode: en-us\npaginate_by: 10\ntheme: x\n", log: &moved)
        #expect(moved.warnings.map(\.hint).prefix(2) == ["marsgen calls it 'language'", "marsgen calls it 'page_size'"])
        #expect(moved.warnings.last?.hint?.hasPrefix("known keys: base_url, crew_feeds, description") == true)
        var entryLog = DiagnosticLog()
        _ = try? JournalLoader.load(SourceFile(path: "j.md", text: "---\nauthor: vega\nsol: 3\ncategories: [eva]\nPath: x\n---\nText.\n"),
                                    context: ContentFixtures.context, log: &entryLog)
        #expect(entryLog.warnings.map(\.hint) == ["marsgen calls it 'tags'", "marsgen calls it 'slug'"])
        let missingLanding = ContentFixtures.configText.replacingOccurrences(of: "  landing: 2038-11-02T14:17:00Z\n", with: "")
        let error = expectDiagnostic { var log = DiagnosticLog(); _ = try SiteConfiguration.parse(missingLanding, log: &log) }
        #expect(error?.message == "missing required key 'landing'")
        let noTitle = expectDiagnostic { var log = DiagnosticLog(); _ = try SiteConfiguration.parse("base_url: https://x.org/\n", log: &log) }
        #expect(noTitle?.message == "missing required key 'title'")
        let landed = ContentFixtures.configText.replacingOccurrences(of: "  landing: ", with: "  landng: ")
        let misspelt = expectDiagnostic { var log = DiagnosticLog(); _ = try SiteConfiguration.parse(landed, log: &log) }
        #expect(misspelt?.message == "missing required key 'landing'")
        #expect(misspelt?.hint?.hasSuffix("has 'landng': did you mean 'landing'?") == true)
    }

    @Test("a required key missing where the file has a likely spelling of it names that key and its line", arguments: [
        ("---\ntitle: T\nauthors: [vega]\nsol: 3\n---\n", "line 3 has 'authors': did you mean 'author'?"),
        ("---\nAuthor: vega\nsol: 3\n---\n", "line 2 has 'Author': did you mean 'author'?"),
        ("---\ntitle: T\nsol: 3\n---\n", "add 'author: <crew id>' with an id from content/crew.yml"),
    ])
    func missingKeyNamesLikelySpelling(_ text: String, _ hint: String) {
        var log = DiagnosticLog()
        let error = expectDiagnostic { _ = try JournalLoader.load(SourceFile(path: "j.md", text: text), context: ContentFixtures.context, log: &log) }
        #expect(error?.message == "missing required key 'author'")
        #expect(error?.hint == hint)
    }

    @Test("crew file")
    func crew() throws {
        var log = DiagnosticLog()
        let crew = try CrewLoader.load(SourceFile(path: "content/crew.yml", text: "vega:\n  name: Ines Vega\n  role: Commander\nokoro:\n  name: D\n"),
                                       log: &log)
        #expect(crew.members.map(\.id) == ["vega", "okoro"])
        #expect(crew.member(id: "vega")?.role == "Commander")
        let error = expectDiagnostic { var log = DiagnosticLog(); _ = try CrewLoader.load(SourceFile(path: "c.yml", text: "Bad Id:\n  name: x\n"), log: &log) }
        #expect(error?.location?.line == 1)
        // A member with nothing under the id, or a single value: what it needs, at the id.
        for member in ["okoro:\n", "okoro: Daniel Okoro\n"] {
            let bare = expectDiagnostic {
                var log = DiagnosticLog()
                _ = try CrewLoader.load(SourceFile(path: "c.yml", text: "vega:\n  name: Ines Vega\n" + member), log: &log)
            }
            #expect(bare?.message == "crew member 'okoro' needs 'name' and 'role'" && bare?.location?.description == "c.yml:3:1")
            #expect(bare?.hint == "indent them under the id: '  name: Full Name' and '  role: Commander'")
        }
        // An id in capitals: the id it likely is. A list of members, as other data files are written: the shape wanted.
        let capital = expectDiagnostic { var log = DiagnosticLog(); _ = try CrewLoader.load(SourceFile(path: "c.yml", text: "Vega:\n  name: x\n"), log: &log) }
        #expect(capital?.hint == "ids appear in URLs: /crew/<id>/; did you mean 'vega'?")
        #expect(error?.hint == "ids appear in URLs: /crew/<id>/")
        let list = expectDiagnostic {
            var log = DiagnosticLog()
            _ = try CrewLoader.load(SourceFile(path: "c.yml", text: "- id: vega\n  name: Ines Vega\n"), log: &log)
        }
        #expect(list?.message == "expected a mapping of keys to values for the document, not a list of '- ' items")
        #expect(list?.hint == "write each member as its id and a colon, with 'name:' and 'role:' indented under it")
    }

    @Test("a member's bio (Markdown, its links from the site's root and checked, at their lines) and portrait (sized, its alt text given or none); other generators' words for them, hints")
    func crewProfiles() throws {
        let text = """
            vega:
              name: Ines Vega
              role: Commander
              image: img/vega.png
              image_alt: Vega in her EVA suit
              bio: |
                Commands the station.
                Writes the [journal](journal/) and *the* ![patch](img/patch.svg).
            okoro:
              name: Daniel Okoro
              bio: Fixes things.
            arden:
              name: Ruth Arden
              photo: img/arden.png

            """
        let file = try SourceFile(path: "content/crew.yml", text: text)
        var log = DiagnosticLog()
        let crew = try CrewLoader.load(file, log: &log)
        #expect(log.entries.map(\.message) == ["unknown key 'photo' in crew member 'arden' is ignored"])
        #expect(log.entries.first?.hint?.contains("'image'") == true)
        var context = ContentFixtures.context
        context.imageSize = { $0 == "img/vega.png" ? ImageSize(width: 400, height: 400) : nil }
        var links = LinkUses()
        log = DiagnosticLog()
        let profiles = try CrewLoader.profiles(in: file, crew: crew, context: context, links: &links, log: &log)
        #expect(Set(profiles.keys) == ["vega", "okoro"])
        let vega = try #require(profiles["vega"])
        // (The fixtures' site is under /log/.)
        #expect(vega.bioHTML == "<p>Commands the station.\nWrites the <a href=\"/log/journal/\">journal</a> and <em>the</em> <img src=\"/log/img/patch.svg\" alt=\"patch\" loading=\"lazy\" decoding=\"async\" />.</p>\n")
        #expect(vega.summary == "Commands the station. Writes the journal and the .")
        #expect((vega.image, vega.imageAlt, vega.imageSize) == ("/log/img/vega.png", "Vega in her EVA suit", ImageSize(width: 400, height: 400)))
        #expect(profiles["okoro"] == CrewProfile(bioHTML: "<p>Fixes things.</p>\n", summary: "Fixes things."))
        // The portrait and the bio's links and images, for the build to check, at their places in the file.
        #expect(links.site.map { "\($0.path) \($0.line):\($0.column)" } == ["journal/ 8:16", "img/patch.svg 8:46", "img/vega.png 4:10"])
        #expect(log.entries.isEmpty)
        // A bio linking to a content file: a bio's links are pages' URLs.
        let linked = try SourceFile(path: "content/crew.yml", text: "vega:\n  name: Ines Vega\n  bio: See [my log](journal/first.md).\n")
        let error = expectDiagnostic {
            var links = LinkUses()
            _ = try CrewLoader.profiles(in: linked, crew: try CrewLoader.load(linked, log: &log), context: context, links: &links, log: &log)
        }
        #expect(error?.message == "link to 'content/journal/first.md' in a bio: a bio's links lead to pages by their URLs")
        #expect(error?.location?.line == 3)
        // A portrait no page can show.
        let data = try SourceFile(path: "content/crew.yml", text: "vega:\n  name: Ines Vega\n  image: data:image/png;base64,AAAA\n")
        let unshown = expectDiagnostic {
            var links = LinkUses()
            _ = try CrewLoader.profiles(in: data, crew: try CrewLoader.load(data, log: &log), context: context, links: &links, log: &log)
        }
        #expect(unshown?.location?.line == 3)
    }
}

@Suite struct RestoredObjectTests {
    @Test("a restored object's authors are its author's id, whatever array a caller offers to share")
    func sharedAuthorIDs() {
        let lewis = CrewMember(id: "lewis", name: "Melissa Lewis", role: "Commander")
        let shared = ["lewis"]
        for offered in [shared, ["vogel"], ["lewis", "vogel"], [], nil] as [[String]?] {
            let message = Message(restoring: "message:a", contentHash: ContentHash(value: 1), sourcePath: "content/messages/a.md",
                                  channel: "habitat", author: lewis, instant: Instant(unixMillis: 0), sol: 1,
                                  lmst: MarsClockTime(secondsOfSol: 0), body: HTMLBody("<p>hi</p>"), line: 3, authorIDs: offered)
            let entry = JournalEntry(restoring: "journal:a", contentHash: ContentHash(value: 2), sourcePath: "content/journal/a.md",
                                     explicitTitle: nil, slug: "a", author: lewis, instant: Instant(unixMillis: 0), sol: 1,
                                     lmst: MarsClockTime(secondsOfSol: 0), tags: [], isDraft: false, body: HTMLBody(""), description: StoredText(""),
                                     authorIDs: offered)
            #expect(message.authorIDs == ["lewis"] && entry.authorIDs == ["lewis"], "\(String(describing: offered))")
        }
    }
}

@Suite struct ContentLinkTests {
    static let targets = ContentLinks(targets: [
        "content/journal/sol-04.md": .init(url: "/log/journal/dust/", page: "/log/journal/dust/"),
        "content/journal/plans.md": .init(url: "/log/journal/plans/", page: "/log/journal/plans/", isDraft: true),
        "content/messages/hab.md": .init(url: "/log/sol/3/#m-1", page: "/log/sol/3/"),
    ])

    func load(_ body: String, links: ContentLinks?, likely: (@Sendable (String) -> ContentLinks.Target?)? = nil,
              log: inout DiagnosticLog, uses: inout [ContentLinkUse]) throws(Diagnostic) -> JournalEntry {
        var context = ContentFixtures.context
        context.links = links
        context.likelyTarget = likely
        var found = LinkUses()
        defer { uses += found.files }
        return try JournalLoader.load(SourceFile(path: "content/journal/sol-05.md", text: "---\nauthor: vega\nsol: 5\n---\n" + body),
                                      context: context, log: &log, links: &found)
    }

    @Test("a link's target is found relative to the file it is in, and never above the site's folder")
    func targetPaths() {
        func target(_ path: String) -> String? {
            ContentLinks.targetPath(of: MarkdownFileLink(path: path), in: "content/journal/2038/sol-05.md")
        }
        #expect(target("sol-04.md") == "content/journal/2038/sol-04.md")
        #expect(target("./../sol-01.md") == "content/journal/sol-01.md")
        #expect(target("../../messages//hab.md") == "content/messages/hab.md")
        #expect(target("../../../../outside.md") == nil)
    }

    @Test("with the targets known, links lead to their pages (a log's to its first message), keep their fragment, and are recorded")
    func resolved() throws {
        var (log, uses) = (DiagnosticLog(), [ContentLinkUse]())
        let entry = try load("[a](sol-04.md) [b](../messages/hab.md) [c](../messages/hab.md#m-2) [d](sol-04.md)\n",
                             links: Self.targets, log: &log, uses: &uses)
        for written in ["href=\"/log/journal/dust/\"", "href=\"/log/sol/3/#m-1\"", "href=\"/log/sol/3/#m-2\""] {
            #expect(entry.bodyHTML.contains(written), "\(written) in \(entry.bodyHTML)")
        }
        #expect(uses.map(\.resolution) == ["/log/journal/dust/", "/log/sol/3/#m-1", "/log/sol/3/#m-1", "/log/journal/dust/"])
        #expect(log.entries.isEmpty)
        // Before the targets are known, links are recorded as unresolved and written as any relative URL.
        uses = []
        let first = try load("[a](sol-04.md)\n", links: nil, log: &log, uses: &uses)
        #expect(uses == [ContentLinkUse(target: "content/journal/sol-04.md", resolution: ContentLinkUse.unresolved)])
        #expect(first.bodyHTML.contains("href=\"/log/sol-04.md\""))
    }

    @Test("before the targets are known, a link is written where it likely leads, when that can be told, and recorded so")
    func likely() throws {
        var (log, uses) = (DiagnosticLog(), [ContentLinkUse]())
        let likely: @Sendable (String) -> ContentLinks.Target? = { path in
            path.hasPrefix("content/journal/") ? .init(url: "/log/journal/guess/", page: "/log/journal/guess/") : nil
        }
        // Not an error even where the guess is wrong or there is none (sol-03.md): the file is
        // parsed again once the targets are known, and that reading says so.
        let entry = try load("[a](sol-04.md#x) [b](../messages/hab.md) [c](sol-03.md)\n", links: nil, likely: likely, log: &log, uses: &uses)
        #expect(entry.bodyHTML.contains("href=\"/log/journal/guess/#x\"") && entry.bodyHTML.contains("hab.md\""), "\(entry.bodyHTML)")
        #expect(entry.bodyHTML.components(separatedBy: "/log/journal/guess/").count == 3, "\(entry.bodyHTML)")
        #expect(uses.map(\.resolution) == ["/log/journal/guess/", ContentLinkUse.unresolved, "/log/journal/guess/"])
        #expect(log.entries.isEmpty)
        // Where the guess holds, the record is the one the known targets give.
        #expect(uses[0].resolution == ContentLinks(targets: ["content/journal/sol-04.md": .init(url: "/log/journal/guess/", page: "/log/journal/guess/")])
            .resolution(of: "content/journal/sol-04.md"))
    }

    @Test("a link to no content file of the site is an error at the link; one to a draft, a warning", arguments: [
        ("Text.\n\nSee [that](sol-03.md).\n", "content/journal/sol-05.md:7:5", "content/journal/sol-03.md is not a journal entry"),
        ("[up](../../../x.md)\n", "content/journal/sol-05.md:5:1", "leads out of the site's folder"),
    ])
    func unresolved(body: String, location: String, message: String) throws {
        var (log, uses) = (DiagnosticLog(), [ContentLinkUse]())
        let diagnostic = expectDiagnostic { _ = try load(body, links: Self.targets, log: &log, uses: &uses) }
        #expect(diagnostic?.location?.description == location)
        #expect(diagnostic?.message.contains(message) == true, "\(String(describing: diagnostic))")
        #expect(diagnostic?.hint != nil)
        _ = try load("[later](plans.md)\n", links: Self.targets, log: &log, uses: &uses)
        #expect(log.warnings.count == 1 && log.warnings.first?.location?.description == "content/journal/sol-05.md:5:1")
        #expect(uses.last?.resolution == "draft /log/journal/plans/")
    }
}

/// Footnotes in a message log: cmark-gfm gathers them at the log's end, under its last message.
@Suite struct MessageLogFootnoteTests {
    @Test("a footnote's definition in a message log is a warning at it, whole parse or the last message's alone")
    func footnotes() throws {
        let text = "---\nsol: 3\n---\n## 08:00 vega\nA note[^1].\n\n[^1]: First.\n\n## 08:05 okoro\nSeen.\n"
        var log = DiagnosticLog()
        var links = LinkUses()
        let messages = try MessageLogLoader.load(SourceFile(path: "content/messages/hab.md", text: text), context: ContentFixtures.context,
                                                 log: &log, links: &links)
        #expect(messages.count == 2)
        #expect(log.warnings.map(\.message) == ["a footnote in a message log is not kept with its message: it shows under the log's last message"])
        #expect(log.warnings.first?.location?.line == 7 && log.warnings.first?.location?.column == 1)
        // Only the last message parsed again (the log grew): its own footnote is found too.
        var grown = DiagnosticLog()
        var grownLinks = LinkUses()
        let earlier = MessageLogLoader.EarlierParse(messages: messages, siteLinks: [])
        _ = try MessageLogLoader.load(SourceFile(path: "content/messages/hab.md", text: text + "Also[^2].\n\n[^2]: Second.\n"),
                                      context: ContentFixtures.context, log: &grown, links: &grownLinks, appendedTo: earlier)
        let lines = grown.warnings.compactMap { $0.location?.line }
        #expect(lines.contains(13), "\(grown.warnings)")
        // Without footnotes, no warning.
        var clean = DiagnosticLog()
        _ = try MessageLogLoader.load(SourceFile(path: "content/messages/hab.md", text: "---\nsol: 3\n---\n## 08:00 vega\nHi.\n"),
                                      context: ContentFixtures.context, log: &clean, links: &links)
        #expect(clean.warnings.isEmpty)
    }
}
