import Content
import Diagnostics
@testable import GFM
import Testing

/// Headings get ids (a prefix naming their document, then GitHub's fragment for their text),
/// so that a reader can link to a section of an entry and a writer's `#fragment` links work.
@Suite struct HeadingIDTests {
    @Test("a heading's fragment is GitHub's for its text")
    func fragments() {
        let cases: [(String, String)] = [
            ("Dust storm, day 2", "dust-storm-day-2"),
            ("Dust - day 2", "dust---day-2"),
            ("✨ Café, día 2 — Марс!", "-café-día-2--марс"),
            ("snake_case name", "snake_case-name"),
            ("C++ & Rust", "c--rust"),
            ("Sol 452: LMST 14:02", "sol-452-lmst-1402"),
            ("100% (roughly)", "100-roughly"),
            ("火星 の 日", "火星-の-日"),
            ("ÉTÉ", "été"),
            ("“Quoted” 'words'", "quoted-words"),
            ("!?", ""),
        ]
        for (text, fragment) in cases {
            #expect(HeadingIDs.fragment(for: text) == fragment, "\(text)")
        }
    }

    @Test("every heading gets its id, at any depth; repeated fragments are numbered as on GitHub")
    func ids() {
        let text = """
            # Timeline

            Setext heading
            --------------

            ## Timeline

            > ### Quoted *heading* with `code`

            - #### In a list

            ## ✨

            ## Timeline-1

            ## Timeline

            Note[^a].

            [^a]: ##### Inside a footnote

            """
        let html = MarkdownDocument(parsing: text, options: MarkdownOptions(footnotePrefix: "e-", headingIDPrefix: "e:")).html()
        for tag in ["<h1 id=\"e:timeline\">Timeline</h1>", "<h2 id=\"e:setext-heading\">Setext heading</h2>",
                    "<h2 id=\"e:timeline-1\">Timeline</h2>",
                    "<h3 id=\"e:quoted-heading-with-code\">Quoted <em>heading</em> with <code>code</code></h3>",
                    "<h4 id=\"e:in-a-list\">In a list</h4>", "<h2 id=\"e:section\">✨</h2>",
                    // Taken by the second "Timeline": the next free number.
                    "<h2 id=\"e:timeline-1-1\">Timeline-1</h2>", "<h2 id=\"e:timeline-2\">Timeline</h2>",
                    "<h5 id=\"e:inside-a-footnote\">Inside a footnote</h5>"] {
            #expect(html.contains(tag), "\(tag) in \(html)")
        }
        #expect(!html.contains("<h1>") && !html.contains("<h2>"))
        // The footnote keeps its own anchors.
        #expect(html.contains("id=\"e-fn-a\"") && html.contains("href=\"#e-fn-a\""))
    }

    @Test("a heading is written as cmark-gfm writes it, with its id: links, marks and raw HTML as in any other block")
    func sameHTML() {
        let text = "## A *b* **c** ~~d~~ [e](img/e.png) <https://f.example> `g` &amp; <span>h</span>\n\ntext\n"
        for rawHTML in [false, true] {
            let plain = MarkdownDocument(parsing: text, options: MarkdownOptions(allowsRawHTML: rawHTML, relativeURLBase: "/m/")).html()
            let withIDs = MarkdownDocument(parsing: text, options: MarkdownOptions(allowsRawHTML: rawHTML, footnotePrefix: "x-",
                                                                                  headingIDPrefix: "x:", relativeURLBase: "/m/")).html()
            #expect(plain.hasPrefix("<h2>"))
            #expect(withIDs == "<h2 id=\"x:a-b-c-d-e-httpsfexample-g--h\">" + plain.dropFirst("<h2>".count), "\(withIDs)")
        }
    }

    @Test("without a heading prefix, headings have no ids (a message log's divide it into messages)")
    func noPrefix() {
        #expect(MarkdownDocument(parsing: "## A\n").html() == "<h2>A</h2>\n")
        #expect(MarkdownDocument(parsing: "## A\n", options: MarkdownOptions(footnotePrefix: "e-")).html() == "<h2>A</h2>\n")
    }

    @Test("a link within the document to a heading's fragment is written as the heading's id; other fragments are left")
    func pageLinks() {
        let text = """
            See [the plan](#next-fortnight), [again](#next%2Dfortnight), [written in full](#e:next-fortnight),
            [capitals](#Next-Fortnight), [nowhere](#nowhere), [the note](#fn-a), [top](#) and [café](#café).

            ## Next fortnight

            ## Café

            A note[^a].

            [^a]: Note.

            """
        let html = MarkdownDocument(parsing: text, options: MarkdownOptions(footnotePrefix: "e-", headingIDPrefix: "e:")).html()
        for link in ["<a href=\"#e:next-fortnight\">the plan</a>", "<a href=\"#e:next-fortnight\">again</a>",
                     "<a href=\"#e:next-fortnight\">written in full</a>", "<a href=\"#Next-Fortnight\">capitals</a>",
                     "<a href=\"#nowhere\">nowhere</a>", "<a href=\"#e-fn-a\">the note</a>", "<a href=\"#\">top</a>",
                     "<a href=\"#e:caf%C3%A9\">café</a>"] {
            #expect(html.contains(link), "\(link) in \(html)")
        }
        #expect(html.contains("<h2 id=\"e:café\">Café</h2>"))
    }

    @Test("an entry whose slug starts with 'fn' keeps its headings' ids and its footnotes' apart")
    func footnoteLikeSlug() {
        let text = """
            ## Fn 1

            ## Fnord café

            A note[^1], [the heading](#fn-1) and [the other](#fnord-café).

            [^1]: Note.

            """
        let html = MarkdownDocument(parsing: text, options: MarkdownOptions(footnotePrefix: "fn-notes-", headingIDPrefix: "fn-notes:")).html()
        for written in ["<h2 id=\"fn-notes:fn-1\">", "<h2 id=\"fn-notes:fnord-café\">", "href=\"#fn-notes:fn-1\"",
                        "href=\"#fn-notes:fnord-caf%C3%A9\"", "id=\"fn-notes-fn-1\"", "href=\"#fn-notes-fn-1\"",
                        "id=\"fn-notes-fnref-1\"", "href=\"#fn-notes-fnref-1\""] {
            #expect(html.contains(written), "\(written) in \(html)")
        }
    }

    @Test("a link to another file's heading leads to its id on that file's page; one written as the page has it is kept")
    func linksToOtherFiles() {
        let entry = ContentLinks.Target(url: "/journal/dust/", page: "/journal/dust/", ids: .journalEntry(slug: "dust"),
                                        anchor: "entry-dust")
        let cases: [(String, String)] = [
            ("", "/journal/dust/"),
            ("#timeline", "/journal/dust/#dust:timeline"),
            ("#dust-storm", "/journal/dust/#dust:dust-storm"),
            ("#entry-notes", "/journal/dust/#dust:entry-notes"),
            ("#dust:timeline", "/journal/dust/#dust:timeline"),
            ("#entry-dust", "/journal/dust/#entry-dust"),
            ("#dust-fn-a", "/journal/dust/#dust-fn-a"),
            ("#dust-fnref-a", "/journal/dust/#dust-fnref-a"),
            ("#", "/journal/dust/#"),
            ("?x=1", "/journal/dust/?x=1"),
        ]
        for (suffix, url) in cases {
            #expect(entry.url(withSuffix: suffix) == url, "\(suffix)")
        }
        let report = ContentLinks.Target(url: "/sol/4/#w-0123456789ab", page: "/sol/4/", ids: .weatherReport(sol: 4),
                                         anchor: "w-0123456789ab")
        #expect(report.url(withSuffix: "") == "/sol/4/#w-0123456789ab")
        #expect(report.url(withSuffix: "#forecast") == "/sol/4/#w:4:forecast")
        #expect(report.url(withSuffix: "#w-0123456789ab") == "/sol/4/#w-0123456789ab")
        #expect(report.url(withSuffix: "#w:4-fn-1") == "/sol/4/#w:4-fn-1")
        let log = ContentLinks.Target(url: "/sol/4/#m-0123456789ab", page: "/sol/4/")
        #expect(log.url(withSuffix: "#forecast") == "/sol/4/#forecast")
    }
}

/// The prefixes each kind of content file's headings get, as its loader gives them.
@Suite struct ContentHeadingIDTests {
    @Test("an entry's headings carry its slug, a weather report's its sol; a message log's headings get no ids")
    func byKind() throws {
        var log = DiagnosticLog()
        var links = LinkUses()
        let entry = try JournalLoader.load(SourceFile(path: "content/journal/dust.md",
                                                      text: "---\nauthor: vega\nsol: 3\nslug: storm\n---\n## Timeline\n\n[Up](#timeline)[^1]\n\n[^1]: N.\n"),
                                           context: ContentFixtures.context, log: &log, links: &links)
        #expect(entry.bodyHTML.contains("<h2 id=\"storm:timeline\">Timeline</h2>"), "\(entry.bodyHTML)")
        #expect(entry.bodyHTML.contains("href=\"#storm:timeline\"") && entry.bodyHTML.contains("id=\"storm-fn-1\""))

        let report = try WeatherLoader.load(SourceFile(path: "content/weather/s.md", text: """
            ---
            sol: 9
            temperature: -48
            high: -12.5
            low: -81
            sunrise: "05:42"
            sunset: "17:58"
            condition: clear
            ---
            ## Forecast

            Clear[^1].

            [^1]: N.

            """), context: ContentFixtures.context, log: &log)
        #expect(report.notesHTML.contains("<h2 id=\"w:9:forecast\">Forecast</h2>"), "\(report.notesHTML)")
        // Apart from an entry's whose slug is `w9` on the same sol page.
        #expect(report.notesHTML.contains("id=\"w:9-fn-1\""))

        let messages = try MessageLogLoader.load(SourceFile(path: "content/messages/hab.md",
                                                            text: "---\nsol: 3\n---\n## 08:00 vega\nMorning.\n\n#### Checklist\n\nDone.\n"),
                                                 context: ContentFixtures.context, log: &log)
        #expect(messages.first?.bodyHTML.contains("<h4>Checklist</h4>") == true, "\(messages.first?.bodyHTML ?? "")")
    }

    /// The entry `content/journal/sol-05.md` with `body`, read with the targets known: the
    /// entry `sol-04.md` (slug `dust`) and, with `plans.md`, a draft.
    static func loadLinking(_ body: String, links: inout LinkUses) throws -> JournalEntry {
        var context = ContentFixtures.context
        context.links = ContentLinks(targets: [
            "content/journal/sol-04.md": .init(url: "/log/journal/dust/", page: "/log/journal/dust/", ids: .journalEntry(slug: "dust"),
                                               anchor: "entry-dust"),
            "content/journal/plans.md": .init(url: "/log/journal/plans/", page: "/log/journal/plans/", isDraft: true,
                                              ids: .journalEntry(slug: "plans"), anchor: "entry-plans"),
        ])
        var log = DiagnosticLog()
        return try JournalLoader.load(SourceFile(path: "content/journal/sol-05.md", text: "---\nauthor: vega\nsol: 5\n---\n" + body),
                                      context: context, log: &log, links: &links)
    }

    @Test("a link to another entry's heading, as GitHub writes it, leads to the heading's id on that entry's page")
    func linkToAnotherEntry() throws {
        var links = LinkUses()
        let entry = try Self.loadLinking("[a](sol-04.md#timeline) [b](sol-04.md#dust:timeline)\n", links: &links)
        #expect(entry.bodyHTML.components(separatedBy: "href=\"/log/journal/dust/#dust:timeline\"").count == 3, "\(entry.bodyHTML)")
    }
}

/// What the link check knows of heading ids: whose an id is by its form, and which ids a
/// text's headings have; and that a link with a fragment to another file is kept to check.
@Suite struct HeadingIDCheckTests {
    @Test("whose heading an id is, by its form")
    func owners() {
        #expect(TextIDs.owner(ofHeadingID: "dust-storm:timeline") == .journalEntry(slug: "dust-storm"))
        #expect(TextIDs.owner(ofHeadingID: "fn-notes:fn-1") == .journalEntry(slug: "fn-notes"))
        #expect(TextIDs.owner(ofHeadingID: "w:452:forecast") == .weatherReport(sol: 452))
        #expect(TextIDs.owner(ofHeadingID: "w:452:a:b") == .weatherReport(sol: 452))
        for other in ["timeline", "entry-dust", "dust-fn-1", ":x", "dust:", "Dust:x", "w:452:", "w:x:y", "w:-1:y", "w:٤:y", "a b:c"] {
            #expect(TextIDs.owner(ofHeadingID: other) == nil, "\(other)")
        }
        #expect(TextIDs.headingPrefix(of: .journalEntry(slug: "dust")) == "dust:")
        #expect(TextIDs.headingPrefix(of: .weatherReport(sol: 4)) == "w:4:")
    }

    @Test("the ids of a text's headings, found in its HTML")
    func idsInHTML() {
        let html = MarkdownDocument(parsing: "## A\n\n## A\n\n> ### Café\n\nNote[^1]\n\n[^1]: N.\n",
                                    options: MarkdownOptions(footnotePrefix: "d-", headingIDPrefix: "d:")).html()
        #expect(HeadingIDs.ids(in: html, prefix: "d:") == ["d:a", "d:a-1", "d:café"])
        #expect(HeadingIDs.ids(in: html, prefix: "e:").isEmpty)
        #expect(HeadingIDs.ids(in: "<h2 id=\"d:unclosed", prefix: "d:").isEmpty)
    }

    @Test("a link to another file with a fragment is kept, as its page's URL, for its anchor to be checked; a draft's and one without are not")
    func kept() throws {
        var links = LinkUses()
        _ = try ContentHeadingIDTests.loadLinking("[a](sol-04.md#time%20line) [b](sol-04.md) [c](plans.md#x) [d](sol-04.md?x) [e](img/a.png#y)\n",
                                                  links: &links)
        let kept = links.site.filter { $0.origin == .contentFile }
        #expect(kept.count == 1)
        #expect(kept.first?.path == "journal/dust/")
        #expect(kept.first?.fragment == "dust:time line")
        #expect(kept.first?.fileLink == "sol-04.md#time line")
        #expect(kept.first?.written(basePath: "/log/") == "sol-04.md#time line")
        #expect(kept.first?.line == 5 && kept.first?.column == 1)
        #expect(links.site.map(\.origin) == [.relative, .contentFile])
    }
}
