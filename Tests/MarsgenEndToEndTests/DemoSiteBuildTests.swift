import Foundation
import Site
import SiteConfig
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Builds the repository's own demo site and checks what a reader would click through.
@Suite(.serialized) struct DemoSiteBuildTests {
    let output: URL
    let report: BuildReport
    let files: [String: Data]

    init() throws {
        let site = try SiteFixture.copyOfDemoSite()
        // The tests read the snapshot: the copy goes at once (one per test, in the system's
        // temporary folder).
        defer { try? FileManager.default.removeItem(at: site) }
        output = site.appendingPathComponent("public")
        report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        files = try SiteFixture.snapshot(output)
    }

    func html(_ path: String) throws -> String {
        String(decoding: try #require(files[path], "no \(path)"), as: UTF8.self)
    }

    @Test("the demo site has the content the brief asks for")
    func contentCounts() {
        #expect(report.journalEntries >= 30)
        #expect(report.messages >= 40)
        #expect(report.weatherReports >= 12)
        #expect(report.summary.hasPrefix("Built \(report.journalEntries) journal entries, \(report.messages) messages"))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test("every kind of page is written")
    func pagesExist() throws {
        for path in ["index.html", "page/1/index.html", "journal/sol-01-touchdown/index.html", "sol/1/index.html",
                     "sol/14/index.html", "sol/index.html", "crew/vega/index.html", "crew/index.html", "404.html",
                     "feed.xml", "sitemap.xml", "theme/marsgen.css", "theme/favicon.svg"] {
            #expect(files[path] != nil, "missing \(path)")
        }
        let sols = Set(files.keys.filter { $0.hasPrefix("sol/") && $0 != "sol/index.html" })
        #expect(sols.count >= 12)
        // Drafts are not built by default.
        #expect(files["journal/sol-08-draft-notes/index.html"] == nil)
    }

    @Test("every page is HTML5 with a language, a viewport and a title")
    func htmlBasics() throws {
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".html") {
            let page = String(decoding: data, as: UTF8.self)
            #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"), "\(path)")
            #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"), "\(path)")
            #expect(page.occurrences(of: "<title>") == 1, "\(path)")
            let ids = page.attributeValues("id")
            #expect(Set(ids).count == ids.count, "duplicate element ids in \(path)")
        }
    }

    /// The pages of the site that are an entry's or a page's old address (`aliases:`), sending readers on.
    var aliasPages: Set<String> {
        Set(files.filter { String(decoding: $0.value, as: UTF8.self).contains("<meta http-equiv=\"refresh\"") }.keys)
    }

    @Test("an entry's old address, and a page's, sends readers on to it, naming it canonical, and is not in the sitemap")
    func aliases() throws {
        #expect(aliasPages == ["posts/oxygen-plant/index.html", "about-us/index.html"])
        let page = try html("about-us/index.html")
        #expect(page.contains("<meta http-equiv=\"refresh\" content=\"0; url=/about/\">"))
        #expect(page.contains("<p>This page has moved: <a href=\"/about/\">About Kasei Station</a>.</p>"))
        #expect(try !String(decoding: #require(files["sitemap.xml"]), as: UTF8.self).contains("about-us"))
        let alias = try html("posts/oxygen-plant/index.html")
        #expect(alias.contains("<meta http-equiv=\"refresh\" content=\"0; url=/journal/sol-04-isru/\">"))
        #expect(alias.contains("<link rel=\"canonical\" href=\"https://kasei-station.example.org/journal/sol-04-isru/\">"))
        #expect(alias.contains("<a href=\"/journal/sol-04-isru/\">The oxygen plant wakes up</a>"))
        // The site's icon, so a browser does not ask the host for a /favicon.ico it does not have.
        #expect(alias.contains("<link rel=\"icon\" href=\"/theme/favicon.svg\" type=\"image/svg+xml\">"))
        #expect(try !html("sitemap.xml").contains("posts/"))
    }

    @Test("every page has one <h1>: an entry's page its title, unlinked; the feed's entries are <h2> links to their pages")
    func oneMainHeading() throws {
        for (path, data) in files where path.hasSuffix(".html") && !aliasPages.contains(path) {
            #expect(String(decoding: data, as: UTF8.self).occurrences(of: "<h1") == 1, "\(path)")
        }
        let entry = try html("journal/sol-01-touchdown/index.html")
        #expect(entry.contains("<h1 class=\"entry-title\">Touchdown at Kasei</h1>"))
        #expect(!entry.contains("<h2 class=\"entry-title\">"))
        let sol = try html("sol/1/index.html")
        #expect(sol.contains("<h2 class=\"entry-title\"><a href=\"/journal/sol-01-touchdown/\">Touchdown at Kasei</a></h2>"))
        #expect(!sol.contains("<h1 class=\"entry-title\">"))
    }

    @Test("an entry's page is described by the start of its text, for search results and link previews; other pages by the site's description")
    func descriptions() throws {
        let entry = try html("journal/sol-01-touchdown/index.html")
        let start = "We are down. The lander settled on the terrace above the outflow channel at a four degree tilt, well inside limits, and nobody said anything for a long ten…"
        #expect(entry.contains("<meta name=\"description\" content=\"\(start)\">"))
        #expect(entry.contains("<meta property=\"og:description\" content=\"\(start)\">"))
        #expect(entry.contains("<meta property=\"og:title\" content=\"Touchdown at Kasei · Kasei Station Log\">"))
        #expect(entry.contains("<meta property=\"og:type\" content=\"article\">"))
        #expect(entry.contains("<meta property=\"article:published_time\" content=\""))
        #expect(entry.contains("<meta property=\"og:url\" content=\"https://kasei-station.example.org/journal/sol-01-touchdown/\">"))
        let front = try html("index.html")
        #expect(front.contains("<meta property=\"og:type\" content=\"website\">") && !front.contains("article:published_time"))
        #expect(front.contains("<meta name=\"description\" content=\"The crew journal"))
        // Every entry's page has a description of its own.
        let entryPages = files.keys.filter { $0.hasPrefix("journal/") && $0.hasSuffix("/index.html") && !$0.contains("page/") && $0 != "journal/index.html" }
        let described = Set(try entryPages.map { try html($0).components(separatedBy: "<meta name=\"description\" content=\"")[1].prefix(40) })
        #expect(described.count == entryPages.count)
    }

    @Test("an entry's page names its first photo for link previews, with its alt text, as a large card; pages without one the site's picture")
    func previewImages() throws {
        let entry = try html("journal/sol-01-touchdown/index.html")
        #expect(entry.contains("<meta property=\"og:image\" content=\"https://kasei-station.example.org/img/kasei-horizon.png\">"))
        #expect(entry.contains("<meta property=\"og:image:alt\" content=\"The far wall of Kasei Valles from the cabin window, late on sol 1\">"))
        #expect(entry.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))
        #expect(entry.components(separatedBy: "og:image\"").count == 2)
        #expect(files["img/kasei-horizon.png"] != nil && files["img/kasei-station.jpg"] != nil)
        // The dust devil is an SVG drawing, which previews do not show; the feed has no image
        // of its own: both have the site's (marsgen.yml's image: and image_alt:).
        for page in ["journal/sol-06-dust-devil/index.html", "index.html", "sol/1/index.html", "tags/index.html"] {
            let text = try html(page)
            #expect(text.contains("<meta property=\"og:image\" content=\"https://kasei-station.example.org/img/kasei-station.jpg\">"), "\(page)")
            #expect(text.contains("<meta property=\"og:image:alt\" content=\"Kasei Station Log, an analog mission in Kasei Valles, beside an orange planet\">"), "\(page)")
            #expect(text.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"), "\(page)")
        }
    }

    @Test("an entry with <!--more--> shows the text before it on the pages listing it, with a link on to where it breaks on its own page")
    func teasers() throws {
        /// The entry's section on `page`.
        func section(_ slug: String, on page: String) throws -> Substring {
            let text = try html(page)
            let start = try #require(text.range(of: "id=\"entry-\(slug)\""), "\(slug) on \(page)")
            let end = try #require(text[start.upperBound...].range(of: "</section>"))
            return text[start.lowerBound..<end.lowerBound]
        }
        let more = "href=\"/journal/sol-14-two-weeks/#continue-reading\""
        for page in ["index.html", "sol/14/index.html", "crew/vega/index.html"] {
            let listed = try section("sol-14-two-weeks", on: page)
            #expect(listed.contains("Fourteen sols.") && !listed.contains("What we have") && listed.contains(more), "\(page)")
            // The teaser's link to a heading after the break leads to the entry's page, where it is.
            #expect(listed.contains("href=\"/journal/sol-14-two-weeks/#sol-14-two-weeks:next-fortnight\""), "\(page)")
        }
        let own = try html("journal/sol-14-two-weeks/index.html")
        #expect(own.contains("What we have") && own.components(separatedBy: "id=\"continue-reading\"").count == 2 && !own.contains(more))
        #expect(!own.contains("more-->") && !own.contains("raw HTML omitted"))
        // The sample log's table is on its page only; its sol's page shows the first line.
        let sample = try section("sol-04-sample-log", on: "sol/4/index.html")
        #expect(sample.contains("Seven samples so far") && !sample.contains("<table>") && !sample.contains("footnote"))
        #expect(try html("journal/sol-04-sample-log/index.html").contains("<table>"))
        // Feed readers get the whole text, and the part before the break as its summary, whose
        // link to a later heading leads to the entry's page.
        let atom = String(decoding: try #require(files["feed.xml"]), as: UTF8.self)
        #expect(atom.contains("What we have") && !atom.contains("Continue reading"))
        #expect(atom.components(separatedBy: "<summary type=\"html\">").count == 2)
        #expect(atom.contains("<summary type=\"html\">&lt;p&gt;Fourteen sols. A short account, then &lt;a href=&quot;/journal/sol-14-two-weeks/#sol-14-two-weeks:next-fortnight&quot;&gt;"))
    }

    @Test("an entry with toc: true lists its headings on its page, each a link to it; pages listing it do not")
    func tableOfContents() throws {
        let own = try html("journal/sol-14-two-weeks/index.html")
        let start = try #require(own.range(of: "<nav class=\"toc\" aria-label=\"Contents\">"))
        let end = try #require(own[start.upperBound...].range(of: "</nav>"))
        let links = String(own[start.upperBound..<end.lowerBound]).attributeValues("href")
        #expect(links == ["#sol-14-two-weeks:what-we-have", "#sol-14-two-weeks:what-we-still-owe", "#sol-14-two-weeks:next-fortnight"])
        for link in links { #expect(own.contains(" id=\"\(link.dropFirst())\"")) }
        #expect(try !html("index.html").contains("class=\"toc\"") && !html("journal/sol-04-sample-log/index.html").contains("class=\"toc\""))
        // Its byline says how long it takes to read; the pages listing it do not.
        let front = try html("index.html")
        #expect(own.contains("Commander · 1 min read</p>") && !front.contains("min read"))
    }

    @Test("a site in a language written right to left says dir=\"rtl\" on every page; the stylesheet's sides follow it")
    func rightToLeft() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let config = site.appendingPathComponent("marsgen.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try #require(text.contains("\nlanguage: en\n"))
        try Data(text.replacingOccurrences(of: "\nlanguage: en\n", with: "\nlanguage: ar-EG\n").utf8).write(to: config)
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        let files = try SiteFixture.snapshot(site.appendingPathComponent("public"))
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".html") {
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("<!DOCTYPE html>\n<html lang=\"ar-EG\" dir=\"rtl\">"), "\(path)")
        }
        // The theme names no physical side (left, right): each is the line's start or end.
        let css = String(decoding: try #require(files["theme/marsgen.css"]), as: UTF8.self)
        #expect(css.range(of: #"\b(left|right)\b"#, options: .regularExpression) == nil)
    }

    @Test("a site's words (words: in marsgen.yml) replace the theme's English wherever pages and the feed show it; counted words take the language's forms")
    func words() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        // Every word marked with its key (placeholders kept); counted words in Polish forms.
        var yaml = "words:\n"
        for key in ThemeWords.Key.allCases {
            let placeholders = key.placeholders.map { " {\($0)}" }.joined()
            yaml += key.isCounted
                ? "  \(key.rawValue):\n    one: \"{count} ⟦\(key.rawValue):one⟧\"\n    few: \"{count} ⟦\(key.rawValue):few⟧\"\n    other: \"{count} ⟦\(key.rawValue)⟧\"\n"
                : "  \(key.rawValue): \"⟦\(key.rawValue)\(placeholders)⟧\"\n"
        }
        // The demo's own footer is its own words: the theme's is the one with words to give.
        try FileManager.default.removeItem(at: site.appendingPathComponent("templates/footer.mustache"))
        let config = site.appendingPathComponent("marsgen.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try #require(text.contains("\nlanguage: en\n"))
        try Data((text.replacingOccurrences(of: "\nlanguage: en\n", with: "\nlanguage: pl\n") + yaml).utf8).write(to: config)
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let files = try SiteFixture.snapshot(site.appendingPathComponent("public"))
        func page(_ path: String) throws -> String { String(decoding: try #require(files[path], "no \(path)"), as: UTF8.self) }
        // Each word is where the theme shows it.
        #expect(try page("index.html").contains("<h1 class=\"page-heading\">⟦latest⟧</h1>"))
        #expect(try page("index.html").contains("rel=\"next\" href=\"/page/4/\">⟦older⟧ →</a>"))
        #expect(try page("page/1/index.html").contains("<title>⟦archive_title 1 ⟦sol_range 1 2⟧⟧ · Kasei Station Log</title>"))
        #expect(try page("sol/5/index.html").contains("3 ⟦journal_entries:few⟧ · 1 ⟦messages:one⟧</p>"))
        #expect(try page("sol/index.html").contains("2 ⟦entries:few⟧ · 1 ⟦messages:one⟧<"))
        #expect(try page("tags/crew/index.html").contains("7 ⟦journal_entries⟧ ⟦tagged⟧ <span class=\"tag-name\">crew</span>, ⟦newest_first⟧"))
        let entry = try page("journal/sol-14-two-weeks/index.html")
        #expect(entry.contains("⟦by⟧ <a href=\"/crew/vega/\">Ines Vega</a>, Commander · 1 ⟦reading_time:one⟧</p>"))
        #expect(entry.contains("<summary>⟦contents⟧</summary>"))
        #expect(entry.contains("<a href=\"/sol/14/\">⟦sol_title 14⟧</a>"))
        let feed = try page("feed.xml")
        #expect(XMLParser(data: try #require(files["feed.xml"])).parse())
        #expect(feed.contains("&lt;p&gt;⟦weather_text -38 ⟦dust_storm⟧ -22 -61 05:54 17:52⟧&lt;/p&gt;"))
        #expect(feed.contains("<title>⟦weather_title "))
        #expect(feed.contains("<title>⟦message_title "))
        // Every word the demo has a place for is shown somewhere; the others are those of
        // what the demo does not have (empty lists, drafts, tag and crew feeds, an untitled entry).
        let everything = files.values.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        let unshown: Set<String> = ["empty_feed", "empty_journal", "empty_sols", "empty_crew", "empty_tags", "draft", "tag_feed",
                                    "tag_feed_subtitle", "crew_feed", "crew_feed_subtitle", "mission_log", "untitled_entry", "clear", "cloudy", "windy", "snow", "fog"]
        let shownNowhere = ThemeWords.Key.allCases.map(\.rawValue).filter { !unshown.contains($0) && !everything.contains("⟦\($0)") }
        #expect(shownNowhere == [])
        // And no page shows the theme's English, outside what the site's authors wrote.
        let english = ["Older", "Newer", "Latest transmissions", "Continue reading", "min read", "journal entr", " messages", " message<",
                       "Skip to content", "Built with marsgen", "SOL ", "LMST", "Signal lost", "Archive", "newest first", "by tag", "all tags",
                       "WEATHER", "SUNRISE", "SUNSET", "HIGH", "LOW", "has moved", "landed ", "Earth ", "Contents", ">Sol ", "Sols "]
        var englishShown: [String] = []
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".html") {
            var html = String(decoding: data, as: UTF8.self)
            // The texts authors wrote: entries', messages' and notes' bodies, titles, descriptions.
            for pattern in [#"(?s)<div class="[^"]*prose">.*?</div>"#, #"<h[12] class="entry-title">.*?</h[12]>"#, #"<meta [^>]*>"#,
                            #"<title>.*?</title>"#, #"<a class="journal-title"[^>]*>.*?</a>"#, #"rel="(prev|next)" href="/journal/[^"]*">.*?</a>"#] {
                html = html.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
            }
            englishShown += english.filter(html.contains).map { "\(path): \($0)" }
        }
        #expect(englishShown == [])
    }

    @Test("every internal link and anchor resolves, relative ones from every page that shows them")
    func links() throws {
        let site = "https://site.invalid/"
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".html") {
            let page = String(decoding: data, as: UTF8.self)
            let pageURL = try #require(URL(string: site + path))
            for link in page.attributeValues("href") + page.attributeValues("src") {
                // Resolved as a browser resolves it on this page (an entry's `img/…` is on the
                // feed, its sol's page and its author's as well as its own).
                guard let resolved = URL(string: link.replacingOccurrences(of: "&amp;", with: "&"), relativeTo: pageURL)?.absoluteURL,
                      resolved.host == "site.invalid" else { continue }
                let parts = [String(resolved.path(percentEncoded: false).dropFirst())] + (resolved.fragment.map { [$0] } ?? [])
                var target = parts[0]
                if target.isEmpty || target.hasSuffix("/") { target += "index.html" }
                guard let targetData = files[target] else {
                    Issue.record("\(path) links to \(link), which is not in the output")
                    continue
                }
                if parts.count == 2, !parts[1].isEmpty {
                    let ids = String(decoding: targetData, as: UTF8.self).attributeValues("id")
                    #expect(ids.contains(parts[1]), "\(path) links to \(link), but there is no element with that id")
                }
            }
        }
    }

    @Test("every page asks the browser to fetch the pages its pager leads to while the reader reads (Marslink's working range)")
    func prefetchedNeighbours() throws {
        var prefetching = 0
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".html") {
            let page = String(decoding: data, as: UTF8.self)
            let prefetched = page.attributeValues("rel=\"prefetch\" href")
            let pager = page.attributeValues("rel=\"prev\" href") + page.attributeValues("rel=\"next\" href")
            #expect(Set(prefetched) == Set(pager), "\(path)")
            #expect(Set(prefetched).count == prefetched.count, "\(path) prefetches a page twice")
            if !prefetched.isEmpty { prefetching += 1 }
        }
        // The front page leads to the newest archive page; an entry to its neighbours.
        #expect(try html("index.html").contains("<link rel=\"prefetch\" href=\"/page/4/\">"))
        let entry = try html("journal/sol-07-bags/index.html")
        #expect(entry.contains("<link rel=\"prefetch\" href=\"/journal/sol-07-sick-day/\">"))
        #expect(entry.contains("<link rel=\"prefetch\" href=\"/journal/sol-08-greenhouse-sprouts/\">"))
        // In the head, where a browser looks for it before the page is read.
        #expect(try #require(entry.range(of: "rel=\"prefetch\"")).lowerBound < #require(entry.range(of: "</head>")).lowerBound)
        #expect(prefetching > 40)
    }

    @Test("the front page pins the weather and then lists the newest objects, each section diffable")
    func frontPage() throws {
        let page = try html("index.html")
        let pinned = try #require(page.range(of: "<div class=\"pinned\">"))
        let feed = try #require(page.range(of: "<div class=\"feed\" data-feed>"))
        #expect(pinned.lowerBound < feed.lowerBound)
        #expect(page[pinned.upperBound...].hasPrefix("<section class=\"section section-weather\""))
        let sections = page.occurrences(of: "<section ")
        #expect(sections == 21)
        #expect(page.occurrences(of: "data-diff-id=\"") == sections)
        #expect(page.occurrences(of: "data-diff-hash=\"") == sections)
        #expect(page.contains("SOL 14 · 20:00 LMST"))
    }

    @Test("a sol page lists weather, entries and messages in time order, with neighbours")
    func solPage() throws {
        let page = try html("sol/6/index.html")
        let weather = try #require(page.range(of: "section-weather"))
        let firstEntry = try #require(page.range(of: "section-journal"))
        #expect(weather.lowerBound < firstEntry.lowerBound)
        #expect(page.contains("href=\"/sol/5/\""))
        #expect(page.contains("href=\"/sol/7/\""))
        #expect(page.contains("A dust devil crosses the field"))
        #expect(page.contains("EVERYONE LOOK") == false) // message text is not capitalised, only the sender
        #expect(page.contains("RUTH ARDEN"))
    }

    @Test("counts of one are singular: a tag with one entry, a sol with one message, the sol index's rows")
    func singularCounts() throws {
        #expect(try html("tags/comms/index.html").contains("1 journal entry tagged"))
        #expect(try html("tags/crew/index.html").contains("7 journal entries tagged"))
        #expect(try html("sol/5/index.html").contains("3 journal entries · 1 message</p>"))
        let sols = try html("sol/index.html")
        #expect(sols.contains("2 entries · 1 message<") && !sols.contains(" 1 entries") && !sols.contains(" 1 messages"))
        let tagPages = try files.keys.filter { $0.hasPrefix("tags/") && $0 != "tags/index.html" }.map(html)
        #expect(!tagPages.isEmpty && !tagPages.contains { $0.contains(" 1 journal entries") })
    }

    @Test("a weather report's notes are shown under its readings")
    func weatherNotes() throws {
        // content/weather/sol-10.md's notes: once parsed and never shown anywhere.
        let page = try html("sol/10/index.html")
        let notes = try #require(page.range(of: "<div class=\"cell cell-weather-notes prose\"><p>Opacity τ 2.6. Small diurnal range"))
        let low = try #require(page.range(of: "<span class=\"detail-label\">LOW</span>"))
        #expect(low.upperBound < notes.lowerBound)
        // Its closed summary says there are notes to open, in the site's words.
        #expect(page.contains("<span class=\"cell cell-weather weather-dust-storm has-notes\" data-show=\"Details + notes\" data-hide=\"Hide\">"))
        // A report without notes has no notes cell, and says none (sol 2's has none).
        let plain = try html("sol/2/index.html")
        #expect(!plain.contains("cell-weather-notes") && !plain.contains("has-notes"))
        #expect(plain.contains("data-show=\"Details\" data-hide=\"Hide\">"))
    }

    @Test("Markdown features survive into the entry pages")
    func markdown() throws {
        let table = try html("journal/sol-01-first-night/index.html")
        #expect(table.contains("<table>"))
        let footnote = try html("journal/sol-04-sample-log/index.html")
        #expect(footnote.contains("class=\"footnotes\""))
        let code = try html("journal/sol-04-isru/index.html")
        #expect(code.contains("<pre><code>ISRU-CYCLE 0001"))
        let tasks = try html("journal/sol-01-touchdown/index.html")
        #expect(tasks.contains("type=\"checkbox\""))
    }

    @Test("the Atom feed is well-formed and holds the newest 50 objects with absolute links")
    func atom() throws {
        let data = try #require(files["feed.xml"])
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "feed.xml is not well-formed: \(String(describing: parser.parserError))")
        let feed = String(decoding: data, as: UTF8.self)
        #expect(feed.occurrences(of: "<entry>") == 50)
        #expect(feed.contains("<link rel=\"self\" type=\"application/atom+xml\" href=\"https://kasei-station.example.org/feed.xml\"/>"))
        // Feed readers show the theme's icon and the site's picture beside the feed's name.
        #expect(feed.contains("  <icon>https://kasei-station.example.org/theme/favicon.svg</icon>\n"
                              + "  <logo>https://kasei-station.example.org/img/kasei-station.jpg</logo>\n"))
        for link in feed.attributeValues("href") { #expect(link.hasPrefix("https://kasei-station.example.org/")) }
        // Each entry carries its object's own text, not the page's section around it.
        #expect(!feed.contains("data-diff") && !feed.contains("&lt;section"))
        let twoWeeks = try #require(feed.range(of: "<title>Two weeks</title>")?.upperBound)
        let entryEnd = try #require(feed.range(of: "</entry>", range: twoWeeks..<feed.endIndex)?.lowerBound)
        let entry = feed[twoWeeks..<entryEnd]
        #expect(entry.contains("<author><name>Ines Vega</name><uri>https://kasei-station.example.org/crew/vega/</uri></author>"))
        #expect(entry.contains("<category term=\"crew\"/>"))
        // A link within the entry leads to its page's anchor, not the feed's base (the site's root).
        #expect(entry.contains("<content type=\"html\">&lt;p&gt;Fourteen sols. A short account, then "
                               + "&lt;a href=&quot;/journal/sol-14-two-weeks/#sol-14-two-weeks:next-fortnight&quot;&gt;the plan&lt;/a&gt;"))
        #expect(!entry.contains("entry-title") && !entry.contains("byline"))
        // A weather report's entry: its readings and its notes.
        #expect(feed.contains("<content type=\"html\">&lt;p&gt;-38 °C, dust storm. High -22 °C, low -61 °C. Sunrise 05:54, sunset 17:52 LMST.&lt;/p&gt;\n&lt;p&gt;Opacity τ 2.6."))
        // `marsgen serve` sends it as Atom: the media types name the file the build wrote.
        #expect(SiteBuilder.mediaTypes == ["feed.xml": "application/atom+xml; charset=utf-8"])
    }

    @Test("the sitemap lists every page but the 404, the old addresses and the search page, with absolute URLs")
    func sitemap() throws {
        let data = try #require(files["sitemap.xml"])
        #expect(XMLParser(data: data).parse())
        let sitemap = String(decoding: data, as: UTF8.self)
        let pages = files.keys.filter { $0.hasSuffix("index.html") && !aliasPages.contains($0) && $0 != "search/index.html" }
        #expect(sitemap.occurrences(of: "<loc>") == pages.count)
        #expect(!sitemap.contains("404"))
        #expect(!sitemap.contains("/search/"))
        // Crawlers find it from robots.txt, which the theme writes (the demo has none of its own).
        #expect(files["robots.txt"] == Data("User-agent: *\nAllow: /\n\nSitemap: https://kasei-station.example.org/sitemap.xml\n".utf8))
    }

    @Test("search: true gives a search page, linked from every page's navigation, and an index of every entry, message and weather report, newest first, as plain text")
    func searchIndex() throws {
        let page = try html("search/index.html")
        #expect(page.contains("data-index=\"/search/index.json\""))
        #expect(page.contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(page.contains("<span data-category=\"one\">{count} result</span>"))
        #expect(page.contains("<span data-category=\"other\">{count} results</span>"))
        for (path, data) in files where path.hasSuffix(".html") && !aliasPages.contains(path) {
            #expect(String(decoding: data, as: UTF8.self).contains("<a href=\"/search/\""), "\(path) does not link to the search page")
        }
        let indexData = try #require(files["search/index.json"]), partData = try #require(files["search/part-1.json"])
        let index = try #require(try JSONSerialization.jsonObject(with: indexData) as? [String: Any])
        #expect(index["version"] as? Int == 1)
        // The demo's texts fit in one part, after the part of its pages of their own, the
        // about page and its house rules.
        #expect(index["parts"] as? [String] == ["/search/pages.json", "/search/part-1.json"])
        let pagesData = try #require(files["search/pages.json"])
        let pagesPart = try #require(try JSONSerialization.jsonObject(with: pagesData) as? [String: Any])
        let pages = try #require(pagesPart["documents"] as? [[String: Any]])
        #expect(pages.map { $0["url"] as? String } == ["/about/", "/about/rules/"] && pages.allSatisfy { $0["kind"] as? String == "page" && $0["sol"] is NSNull })
        let part = try #require(try JSONSerialization.jsonObject(with: partData) as? [String: Any])
        #expect(part["version"] as? Int == 1)
        let documents = try #require(part["documents"] as? [[String: Any]])
        #expect(documents.count == report.journalEntries + report.messages + report.weatherReports)
        #expect(Set(documents.compactMap { $0["kind"] as? String }) == ["journal", "message", "weather"])
        let dates = documents.compactMap { $0["date"] as? String }
        #expect(dates.count == documents.count && dates == dates.sorted(by: >))
        // Each document's link is a page (or a place on one) the site has.
        for document in documents {
            let url = try #require(document["url"] as? String)
            let path = String(url.dropFirst().prefix { $0 != "#" })
            #expect(files[path + "index.html"] != nil, "\(url) is no page")
        }
        let entry = try #require(documents.first { $0["url"] as? String == "/journal/sol-04-sample-log/" })
        #expect(entry["title"] as? String == "Sample log, sols 2 to 4")
        #expect(entry["author"] as? String == "Maja Lindqvist")
        #expect(entry["tags"] as? [String] == ["geology"])
        let text = try #require(entry["text"] as? String)
        // Markup gone, the table's cells words apart, the footnote's arrow left out and its
        // note's text kept.
        #expect(text.hasPrefix("Seven samples so far, all from within 200 m of the hab. ID Site Description KS-002-01 Hab pad crust over fines"))
        #expect(!text.contains("<") && !text.contains("↩"))
        #expect(text.hasSuffix("I am trying not to hope too loudly."))
        // Drafts are not in it, as they are not built.
        #expect(!documents.contains { ($0["url"] as? String)?.contains("draft") == true })
    }
}
