import Content
import Feed
import MarsTime
import MarsgenTesting
import Search
import SiteConfig
import Testing

@Suite struct PagePlannerTests {
    func library(entries: Int, weather: [Int] = []) throws -> ContentLibrary {
        try ContentLibrary(crew: FeedFixtures.crew,
                           journalEntries: (0..<entries).map { FeedFixtures.entry("e\($0)", sol: 1 + $0 / 3, hour: 8 + $0 % 3 * 4) },
                           messages: [], weatherReports: weather.map { FeedFixtures.weather(sol: $0) })
    }

    func pages(_ library: ContentLibrary, pageSize: Int = 3) -> [Page] {
        PagePlanner(library: library, config: FeedFixtures.config(pageSize: pageSize)).pages()
    }

    func feedMembership(_ pages: [Page]) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: pages.filter { $0.kind == .front || $0.kind == .feedArchive }
            .map { ($0.outputPath, ($0.slots["sections"] ?? []).map(\.objectID)) })
    }

    @Test("the front page pins the latest weather and shows the newest objects, newest first")
    func frontPage() throws {
        let all = pages(try library(entries: 7, weather: [1, 2]))
        let front = try #require(all.first { $0.kind == .front })
        #expect(front.slots["pinned"]?.map(\.objectID) == ["weather:content/weather/sol-2.md"])
        #expect(front.slots["sections"]?.map(\.objectID) == ["journal:content/journal/e6.md", "journal:content/journal/e5.md",
                                                             "journal:content/journal/e4.md"])
    }

    @Test("search: true plans a search page and its index of every entry and weather report, newest first; neither is in the sitemap; off, neither exists")
    func searchPages() throws {
        let site = try library(entries: 4, weather: [1, 2])
        let off = pages(site)
        #expect(!off.contains { $0.kind == .search || $0.kind == .searchIndex })
        #expect(!off.contains { $0.outputPath.hasPrefix("search/") })
        var config = FeedFixtures.config()
        config.hasSearch = true
        let on = PagePlanner(library: site, config: config).pages()
        let page = try #require(on.first { $0.kind == .search })
        #expect(page.outputPath == "search/index.html" && page.template == "page-search")
        #expect(page.context["indexURL"] as? String == "/search/index.json")
        let files = Dictionary(uniqueKeysWithValues: on.filter { $0.kind == .searchIndex }.map { ($0.outputPath, $0) })
        #expect(Set(files.keys) == ["search/index.json", "search/part-1.json"])
        guard case .parts(let parts) = files["search/index.json"]?.searchFile, case .documents(let documents) = files["search/part-1.json"]?.searchFile
        else { Issue.record("no index or part"); return }
        #expect(parts == ["/search/part-1.json"])
        #expect(documents.map(\.url) == ["/journal/e3/", "/sol/2/#w-b83cc76260a0", "/journal/e2/", "/journal/e1/", "/journal/e0/", "/sol/1/#w-7de96777870f"])
        #expect(documents.allSatisfy { !$0.text.isEmpty && !$0.text.contains("<") })
        #expect(documents.map(\.kind) == ["journal", "weather", "journal", "journal", "journal", "weather"])
        // A report: its readings as the feed says them, its sky as its tag, no author.
        let report = documents[1]
        #expect(report.title == "Weather, sol 2: -50 °C, dust storm" && report.author.isEmpty && report.tags == ["dust storm"])
        #expect(report.text.hasPrefix("-50 °C, dust storm. High 13 °C"), "\(report.text)")
        let sitemap = try #require(on.first { $0.kind == .sitemap })
        #expect(!sitemap.sitemapLocations.contains { $0.contains("/search/") })
        #expect(sitemap.sitemapLocations == (off.first { $0.kind == .sitemap }?.sitemapLocations ?? []))
        // Every HTML page's navigation gets the link, through the values every page shares.
        #expect(on.filter { $0.layout != nil }.allSatisfy { ($0.shared["site"] as? TemplateContext)?["searchURL"] as? String == "/search/" })
        #expect(off.allSatisfy { ($0.shared["site"] as? TemplateContext)?["searchURL"] == nil })
    }

    @Test("the search index's parts are numbered from the oldest and full but the newest: a new text changes the newest part, an edit its own part")
    func searchParts() throws {
        let size = PagePlanner.searchPartSize
        var config = FeedFixtures.config()
        config.hasSearch = true
        func entries(_ count: Int, edited: Int? = nil) -> [JournalEntry] {
            (0..<count).map { FeedFixtures.entry("e\($0)", sol: 1 + $0 / 24, hour: $0 % 24, body: $0 == edited ? "<p>Edited</p>\n" : "<p>Body</p>\n") }
        }
        func plans(_ entries: [JournalEntry]) throws -> [String: PagePlan] {
            let site = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: entries, messages: [], weatherReports: [])
            let plans = PagePlanner(library: site, config: config).plans().filter { $0.address.outputPath.hasPrefix("search/") }
            return Dictionary(uniqueKeysWithValues: plans.map { ($0.address.outputPath, $0) })
        }
        let count = 2 * size + size / 2
        let before = try plans(entries(count))
        #expect(Set(before.keys) == ["search/index.html", "search/index.json", "search/part-1.json", "search/part-2.json", "search/part-3.json"])
        guard case .parts(let parts) = before["search/index.json"]?.page?.searchFile,
              case .documents(let oldest) = before["search/part-1.json"]?.page?.searchFile,
              case .documents(let newest) = before["search/part-3.json"]?.page?.searchFile
        else { Issue.record("no index or parts"); return }
        #expect(parts == ["/search/part-3.json", "/search/part-2.json", "/search/part-1.json"])
        #expect(oldest.count == size && oldest.first?.url == "/journal/e\(size - 1)/" && oldest.last?.url == "/journal/e0/")
        #expect(newest.count == size / 2 && newest.first?.url == "/journal/e\(count - 1)/")
        func changed(_ after: [String: PagePlan]) -> Set<String> {
            Set(after.keys.filter { after[$0]?.inputs != before[$0]?.inputs })
        }
        #expect(changed(try plans(entries(count + 1))) == ["search/part-3.json"])
        #expect(changed(try plans(entries(count, edited: 5))) == ["search/part-1.json"])
        #expect(changed(try plans(entries(count, edited: size + 5))) == ["search/part-2.json"])
        // A part filled starts the next, which the index names.
        let filled = try plans(entries(3 * size + 1))
        #expect(filled["search/part-4.json"] != nil)
        #expect(filled["search/index.json"]?.inputs != before["search/index.json"]?.inputs)
    }

    @Test("pages of their own are found by search in a part of their own, listed first: their edits change it alone, and an entry's edit leaves it alone")
    func searchPagesOfTheirOwn() throws {
        var config = FeedFixtures.config()
        config.hasSearch = true
        func plans(about: String = "<p>Who we are</p>\n", entry: String = "<p>Body</p>\n", pages: Bool = true) throws -> [String: PagePlan] {
            let standalone = [StandalonePage(sourcePath: "content/pages/about.md", title: "About us", path: "about", bodyHTML: about),
                              StandalonePage(sourcePath: "content/pages/rules.md", title: "Rules", path: "station/rules", bodyHTML: "<p>Quiet</p>\n")]
            let site = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: [FeedFixtures.entry("e0", sol: 1, body: entry)],
                                          messages: [], weatherReports: [], standalonePages: pages ? standalone : [])
            let plans = PagePlanner(library: site, config: config).plans().filter { $0.address.outputPath.hasPrefix("search/") }
            return Dictionary(uniqueKeysWithValues: plans.map { ($0.address.outputPath, $0) })
        }
        let before = try plans()
        guard case .parts(let parts) = before["search/index.json"]?.page?.searchFile,
              case .documents(let documents) = before["search/pages.json"]?.page?.searchFile
        else { Issue.record("no index or part of pages"); return }
        #expect(parts == ["/search/pages.json", "/search/part-1.json"])
        #expect(documents.map(\.url) == ["/about/", "/station/rules/"])
        #expect(documents.first == SearchDocument(kind: "page", url: "/about/", title: "About us", sol: nil, date: nil, author: "", tags: [],
                                                  text: "Who we are"))
        func changed(_ after: [String: PagePlan]) -> Set<String> {
            Set(after.keys.filter { after[$0]?.inputs != before[$0]?.inputs }).union(before.keys.filter { after[$0] == nil })
        }
        #expect(changed(try plans(about: "<p>Who we were</p>\n")) == ["search/pages.json"])
        #expect(changed(try plans(entry: "<p>Edited</p>\n")) == ["search/part-1.json"])
        #expect(changed(try plans(pages: false)) == ["search/pages.json", "search/index.json"])
    }

    @Test("a change in the navigation changes the inputs of every page with the site's header, and of no feed, sitemap, search index part or old address's page")
    func navigationInInputs() throws {
        var config = FeedFixtures.config()
        config.hasSearch = true
        func plans(navigationTitle: String) throws -> [PagePlan] {
            let about = StandalonePage(sourcePath: "content/pages/about.md", title: "About us", path: "about", isInNavigation: true,
                                       navigationTitle: navigationTitle, aliases: ["about-us/"])
            let entry = FeedFixtures.entry("e0", sol: 1, tags: ["dust"], aliases: ["old/e0/"])
            let site = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: [entry], messages: [], weatherReports: [],
                                          standalonePages: [about])
            return PagePlanner(library: site, config: config).plans()
        }
        let before = try plans(navigationTitle: "About")
        let after = Dictionary(uniqueKeysWithValues: try plans(navigationTitle: "Us").map { ($0.address.outputPath, $0.inputs) })
        // The part of the search index of pages of their own holds their values, the
        // navigation's words among them.
        let changed = before.filter { after[$0.address.outputPath] != $0.inputs && $0.address.outputPath != "search/pages.json" }
        #expect(!changed.isEmpty && changed.allSatisfy { $0.page?.layout != nil }, "\(changed.map(\.address.outputPath))")
        let unchanged = before.filter { after[$0.address.outputPath] == $0.inputs }.map(\.address.outputPath)
        #expect(Set(unchanged).isSuperset(of: ["feed.xml", "sitemap.xml", "search/index.json", "search/part-1.json",
                                               "about-us/index.html", "old/e0/index.html"]), "\(unchanged)")
        #expect(before.filter { $0.page?.layout != nil }.count == changed.count)
    }

    @Test("the navigation: pages of their own and the site's links by weight, then title; a link's URL under the base path unless whole or from the host's root; the current page's marked")
    func navigationLinks() throws {
        var config = FeedFixtures.config()
        config.baseURL = "https://example.org/kasei/"
        config.basePath = "/kasei/"
        config.navigationLinks = [.init(title: "Mission home", url: "https://example.org/"), .init(title: "First sol", url: "sol/1/", weight: -1),
                                  .init(title: "Other app", url: "/app/"), .init(title: "About", url: "about/", weight: 1)]
        let pages = [StandalonePage(sourcePath: "content/pages/about.md", title: "About us", path: "about", isInNavigation: true,
                                    navigationTitle: "About", weight: 1),
                     StandalonePage(sourcePath: "content/pages/rules.md", title: "Rules", path: "rules", isInNavigation: true)]
        let site = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: [FeedFixtures.entry("e0", sol: 1)], messages: [], weatherReports: [],
                                      standalonePages: pages)
        let planned = PagePlanner(library: site, config: config).pages()
        let sol = try #require(planned.first { $0.outputPath == "sol/1/index.html" })
        let navigation = try #require(sol.context["navPages"] as? [TemplateContext])
        #expect(navigation.map { $0["title"] as? String } == ["First sol", "Mission home", "Other app", "Rules", "About", "About"])
        #expect(navigation.map { $0["url"] as? String } == ["/kasei/sol/1/", "https://example.org/", "/app/", "/kasei/rules/", "/kasei/about/", "/kasei/about/"])
        #expect(navigation.map { $0["isCurrent"] as? Bool } == [true, false, false, false, false, false])
        #expect(navigation.first?["current"] as? String == "page")
        // Sols is the section the reader is in, its own page the sols' index: for aria-current.
        #expect(sol.context["navCurrent"] as? [String: String] == ["sols": "true"])
        let index = try #require(planned.first { $0.outputPath == "sol/index.html" })
        #expect(index.context["navCurrent"] as? [String: String] == ["sols": "page"])
        let entry = try #require(planned.first { $0.outputPath == "journal/e0/index.html" })
        #expect(entry.context["navCurrent"] as? [String: String] == ["journal": "true"])
        let rules = try #require(planned.first { $0.outputPath == "rules/index.html" })
        #expect(rules.context["navCurrent"] as? [String: String] == [:])
    }

    @Test("a page of its own lists the pages below it (by weight, then title) and links to the nearest above it; their titles, places and descriptions are in its inputs; a navigation link is current below its page")
    func pagesAboveAndBelow() throws {
        func plans(_ pages: [StandalonePage]) throws -> [String: PagePlan] {
            let site = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: [], messages: [], weatherReports: [], standalonePages: pages)
            return Dictionary(uniqueKeysWithValues: PagePlanner(library: site, config: FeedFixtures.config()).plans()
                .filter { $0.address.outputPath.hasSuffix("index.html") }.map { ($0.address.outputPath, $0) })
        }
        func page(_ path: String, _ title: String, description: String = "", weight: Int = 0) -> StandalonePage {
            StandalonePage(sourcePath: "content/pages/\(path).md", title: title, path: path, description: description,
                           isInNavigation: path == "station", weight: weight)
        }
        let pages = [page("station", "The station"), page("station/habitat", "Habitat", description: "Four modules"),
                     page("station/airlock", "Airlock", weight: 1), page("station/greenhouse/beds", "Beds"), page("rules", "Rules")]
        let before = try plans(pages)
        let station = try #require(before["station/index.html"]?.page)
        let subpages = try #require(station.context["subpages"] as? [TemplateContext])
        #expect(subpages.map { $0["title"] as? String } == ["Beds", "Habitat", "Airlock"])
        #expect(subpages.map { $0["url"] as? String } == ["/station/greenhouse/beds/", "/station/habitat/", "/station/airlock/"])
        #expect(subpages.map { $0["description"] as? String } == ["", "Four modules", ""])
        #expect(station.context["hasSubpages"] as? Bool == true && station.context["parent"] == nil)
        let beds = try #require(before["station/greenhouse/beds/index.html"]?.page)
        #expect((beds.context["parent"] as? TemplateContext)?["url"] as? String == "/station/")
        #expect(beds.context["subpages"] == nil && before["rules/index.html"]?.page?.context["parent"] == nil)
        // The navigation's link to the station is current on it and below it.
        func stationIsCurrent(_ page: Page?) -> Bool? {
            ((page?.context["navPages"] as? [TemplateContext])?.first { $0["url"] as? String == "/station/" })?["isCurrent"] as? Bool
        }
        #expect(stationIsCurrent(station) == true && stationIsCurrent(beds) == true && stationIsCurrent(before["rules/index.html"]?.page) == false)
        func changed(_ after: [String: PagePlan]) -> Set<String> {
            Set(after.keys.filter { after[$0]?.inputs != before[$0]?.inputs }).union(before.keys.filter { after[$0] == nil })
        }
        var renamed = pages
        renamed[1].title = "The habitat"
        #expect(changed(try plans(renamed)) == ["station/index.html", "station/habitat/index.html"])
        var described = pages
        described[2].description = "Where suits go on"
        #expect(changed(try plans(described)) == ["station/index.html", "station/airlock/index.html"])
        // (Its words in the navigation stay "The station", as they were made.)
        var retitled = pages
        retitled[0].title = "Kasei Station"
        #expect(changed(try plans(retitled)) == ["station/index.html", "station/habitat/index.html", "station/airlock/index.html",
                                                 "station/greenhouse/beds/index.html"])
    }

    @Test("archive pages are numbered from the oldest and only full pages exist")
    func archive() throws {
        let membership = feedMembership(pages(try library(entries: 7)))
        #expect(membership["page/1/index.html"] == ["journal:content/journal/e2.md", "journal:content/journal/e1.md",
                                                    "journal:content/journal/e0.md"])
        #expect(membership["page/2/index.html"]?.count == 3)
        #expect(membership["page/3/index.html"] == nil)
    }

    @Test("a new newest object changes the front page and at most one archive page", arguments: 3...13)
    func stability(count: Int) throws {
        let before = feedMembership(pages(try library(entries: count)))
        let after = feedMembership(pages(try library(entries: count + 1)))
        let changed = after.filter { before[$0.key] != $0.value }.map(\.key)
        let archiveChanges = changed.filter { $0 != "index.html" }
        #expect(archiveChanges.count <= 1, "changed: \(changed)")
        // A page that existed before keeps its objects, unless it is the front page.
        for (path, members) in before where path != "index.html" {
            #expect(after[path] == members)
        }
    }

    @Test("the journal's list: a line per entry, newest first, five feed pages' worth a page, archive pages stable and text edits unseen")
    func journalList() throws {
        func lists(_ library: ContentLibrary) -> [String: Page] {
            Dictionary(uniqueKeysWithValues: pages(library, pageSize: 2).filter { $0.kind == .journalIndex }.map { ($0.outputPath, $0) })
        }
        func titles(_ page: Page?) -> [String] {
            (page?.context["entries"] as? [TemplateContext] ?? []).compactMap { $0["title"] as? String }
        }
        let before = lists(try library(entries: 23))
        #expect(before.keys.sorted() == ["journal/index.html", "journal/page/1/index.html", "journal/page/2/index.html"])
        #expect(titles(before["journal/index.html"]) == (13...22).reversed().map { "Entry e\($0)" })
        #expect(titles(before["journal/page/1/index.html"]) == (0...9).reversed().map { "Entry e\($0)" })
        #expect(before["journal/index.html"]?.context["entryCount"] as? Int == 23)
        // One more entry: the list's front page changes, its archive pages do not.
        let planner = { (library: ContentLibrary) in PagePlanner(library: library, config: FeedFixtures.config(pageSize: 2)) }
        let inputs = { (library: ContentLibrary) in
            Dictionary(uniqueKeysWithValues: planner(library).plans().filter { $0.outputPath.hasPrefix("journal/") }.map { ($0.outputPath, $0.inputs) })
        }
        let old = inputs(try library(entries: 23))
        let added = inputs(try library(entries: 24))
        #expect(added["journal/index.html"] != old["journal/index.html"])
        #expect(added["journal/page/1/index.html"] == old["journal/page/1/index.html"]
                && added["journal/page/2/index.html"] == old["journal/page/2/index.html"])
        // An entry's text edited: its own page changes, no list page does; its title: the list page showing it.
        var entries = (0..<23).map { FeedFixtures.entry("e\($0)", sol: 1 + $0 / 3, hour: 8 + $0 % 3 * 4) }
        let original = entries[5]
        entries[5] = FeedFixtures.entry("e5", sol: original.sol, hour: 16, body: "<p>Edited</p>\n")
        let edited = inputs(try ContentLibrary(crew: FeedFixtures.crew, journalEntries: entries, messages: [], weatherReports: []))
        #expect(edited["journal/e5/index.html"] != old["journal/e5/index.html"])
        #expect(edited.filter { $0.key.hasPrefix("journal/page/") || $0.key == "journal/index.html" }.allSatisfy { old[$0.key] == $0.value })
        entries[5] = FeedFixtures.entry("e5", sol: original.sol, hour: 16, title: "Retitled")
        let retitled = inputs(try ContentLibrary(crew: FeedFixtures.crew, journalEntries: entries, messages: [], weatherReports: []))
        #expect(retitled["journal/page/1/index.html"] != old["journal/page/1/index.html"])
        #expect(retitled["journal/index.html"] == old["journal/index.html"] && retitled["journal/page/2/index.html"] == old["journal/page/2/index.html"])
    }

    @Test("the feed order is newest first, ties by identifier, on random sites with many objects at one instant", arguments: [1, 2, 3])
    func feedOrder(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let sols = 2 + random.next(6)
        // Few instants (a handful of sols and hours) for many objects: most share one, and
        // at midnight (hour 0) the sol's report too.
        let entries = (0..<(50 + random.next(200))).map { number in
            FeedFixtures.entry("e\(random.next(1_000_000))-\(number)", sol: 1 + random.next(sols), hour: random.next(3))
        }
        let messages = (0..<(50 + random.next(300))).map { _ in
            FeedFixtures.message(sol: 1 + random.next(sols), hour: random.next(3), author: random.next(2) == 0 ? FeedFixtures.vega : FeedFixtures.okoro)
        }
        // And entries about 1970 (Mariner 4 reached Mars in 1965): instants either side of zero.
        let early = (0..<20).map { number in
            JournalEntry(sourcePath: "content/journal/early-\(number).md", explicitTitle: "Early", slug: "early-\(number)",
                         author: FeedFixtures.vega, instant: Instant(unixMillis: Int64(random.next(5)) - 2), sol: 1,
                         lmst: MarsClockTime(secondsOfSol: 0), tags: [], isDraft: false, bodyHTML: "")
        }
        let library = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: entries + early, messages: messages,
                                         weatherReports: (1...sols).map { FeedFixtures.weather(sol: $0) })
        let expected = library.allObjects.sorted(by: isNewerInFeed).map(\.diffIdentifier)
        let planned = PagePlanner(library: library, config: FeedFixtures.config()).feedFingerprints.map(\.diffIdentifier)
        #expect(planned == expected)
        #expect(Set(library.allObjects.map(\.instant)).count < library.allObjects.count / 4)
        // Objects of every kind share an instant: the planner orders those by kind, as their identifiers.
        let instantsOfEachKind = [ObjectKind.journal, .message, .weather].map { kind in
            Set(library.allObjects.filter { $0.kind == kind }.map(\.instant))
        }
        #expect(!instantsOfEachKind[0].intersection(instantsOfEachKind[1]).intersection(instantsOfEachKind[2]).isEmpty)
        for object in library.allObjects { #expect(object.diffIdentifier.hasPrefix(object.kind.rawValue + ":")) }
        #expect(["journal", "message", "weather"].sorted() == [ObjectKind.journal, .message, .weather].map(\.rawValue))
    }

    @Test("every object appears on some feed page")
    func coverage() throws {
        let library = try library(entries: 10, weather: [1, 2, 3])
        let membership = feedMembership(pages(library))
        let shown = Set(membership.values.joined()).union([PagePlanner(library: library, config: FeedFixtures.config()).pinnedID ?? ""])
        #expect(Set(library.allObjects.map(\.diffIdentifier)).isSubset(of: shown))
    }

    @Test("sol pages hold that sol's objects in time order, weather first")
    func solPages() throws {
        let all = pages(try library(entries: 6, weather: [1, 2]))
        let sol2 = try #require(all.first { $0.outputPath == "sol/2/index.html" })
        #expect(sol2.slots["sections"]?.map(\.objectID) == ["weather:content/weather/sol-2.md", "journal:content/journal/e3.md",
                                                            "journal:content/journal/e4.md", "journal:content/journal/e5.md"])
        #expect((sol2.context["previous"] as? TemplateContext)?["url"] as? String == "/sol/1/")
        #expect(sol2.context["next"] == nil)
    }

    @Test("entry pages link to their neighbours in time")
    func entryPages() throws {
        let all = pages(try library(entries: 3))
        let middle = try #require(all.first { $0.outputPath == "journal/e1/index.html" })
        #expect((middle.context["previous"] as? TemplateContext)?["url"] as? String == "/journal/e0/")
        #expect((middle.context["next"] as? TemplateContext)?["url"] as? String == "/journal/e2/")
        #expect(middle.objectIDs == ["journal:content/journal/e0.md", "journal:content/journal/e1.md", "journal:content/journal/e2.md"])
    }

    @Test("the Atom feed holds at most 50 objects, newest first")
    func atom() throws {
        let atom = try #require(pages(try library(entries: 60)).first { $0.kind == .atom })
        let entries = atom.slots["entries"] ?? []
        #expect(entries.count == 50)
        #expect(entries.first?.objectID == "journal:content/journal/e59.md")
        #expect(entries.first?.extra["link"] as? String == "https://example.org/journal/e59/")
    }

    @Test("the object list is in feed order, objects at one instant by identifier, whatever order the library holds them in")
    func feedOrderWithTies() throws {
        // Entries, messages and a report at the same few instants, each kind in reverse.
        let entries = (0..<12).reversed().map { FeedFixtures.entry("e\($0)", sol: 1 + $0 % 2, hour: 10) }
        let messages = (0..<12).reversed().map { index in
            Message(sourcePath: "content/messages/log-\(index % 3).md", channel: "hab", author: FeedFixtures.okoro,
                    instant: FeedFixtures.clock.instant(sol: 1 + index % 2, lmst: MarsClockTime(secondsOfSol: 36_000)),
                    sol: 1 + index % 2, lmst: MarsClockTime(secondsOfSol: 36_000), bodyHTML: "<p>\(index)</p>", line: index,
                    ordinal: index)
        }
        let library = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: entries, messages: messages,
                                         weatherReports: [FeedFixtures.weather(sol: 2)])
        let planner = PagePlanner(library: library, config: FeedFixtures.config())
        let expected = (entries as [any FeedObject] + messages + library.weatherReports).sorted(by: isNewerInFeed)
        #expect(Array(planner.feedFingerprints) == expected.map(\.fingerprint))
        #expect(planner.feedStamps == expected.map(\.stamp))
        #expect(Set(expected.map(\.instant)).count <= 3)
    }

    @Test("the sitemap lists every page but itself and the 404 in one file, or, past 'sitemap_max_urls', in parts a sitemap index names",
          arguments: [0, 1, 2, 3])
    func sitemapParts(variant: Int) throws {
        let library = try library(entries: 11, weather: [1, 2])
        func config(_ limit: Int) -> SiteConfiguration {
            SiteConfiguration(title: "Test", baseURL: "https://example.org/", pageSize: 2, sitemapMaxURLs: limit,
                              mission: FeedFixtures.config().mission)
        }
        let whole = PagePlanner(library: library, config: config(50_000)).pages()
        let all = try #require(whole.first { $0.outputPath == "sitemap.xml" }).sitemapLocations
        let others = whole.filter { $0.kind != .sitemap && $0.kind != .notFound && $0.kind != .atom }
        #expect(all == others.map { "https://example.org" + $0.url }.sorted())
        let limit = [all.count, all.count - 1, all.count / 3, 1][variant]
        let pages = PagePlanner(library: library, config: config(limit)).pages()
        let sitemaps = pages.filter { $0.kind == .sitemap || $0.kind == .sitemapIndex }
        guard limit < all.count else {
            #expect(sitemaps.map(\.outputPath) == ["sitemap.xml"] && sitemaps.first?.kind == .sitemap)
            return
        }
        let count = (all.count + limit - 1) / limit
        let names = (1...count).map { "sitemap-\($0).xml" }
        let index = try #require(sitemaps.first)
        #expect(index.kind == .sitemapIndex && index.outputPath == "sitemap.xml" && index.template == "sitemap-index")
        let listed = (index.context["sitemaps"] as? [TemplateContext])?.compactMap { $0["loc"] as? String }
        #expect(listed == names.map { "https://example.org/" + $0 })
        let parts = Array(sitemaps.dropFirst())
        #expect(parts.map(\.outputPath) == names && parts.allSatisfy { $0.kind == .sitemap && $0.template == "sitemap" })
        #expect(parts.allSatisfy { (1...limit).contains($0.sitemapLocations.count) })
        #expect(Array(parts.map(\.sitemapLocations).joined()) == all)
    }

    @Test("an added page changes every part of a split sitemap, and the index only when the parts' number does")
    func sitemapPartsInputs() throws {
        func plans(entries: Int) throws -> [String: ContentHash] {
            let config = SiteConfiguration(title: "Test", baseURL: "https://example.org/", pageSize: 2, sitemapMaxURLs: 10,
                                           mission: FeedFixtures.config().mission)
            let plans = PagePlanner(library: try library(entries: entries, weather: [1, 2]), config: config).plans()
            return Dictionary(uniqueKeysWithValues: plans.filter { $0.outputPath.hasPrefix("sitemap") }.map { ($0.outputPath, $0.inputs) })
        }
        var previous = try plans(entries: 11)
        var indexChanges = 0
        for entries in 12...16 {
            let next = try plans(entries: entries)
            let parts = next.keys.filter { $0 != "sitemap.xml" }
            #expect(parts.allSatisfy { next[$0] != previous[$0] })
            if next.count == previous.count {
                #expect(next["sitemap.xml"] == previous["sitemap.xml"], "\(entries) entries")
            } else {
                #expect(next["sitemap.xml"] != previous["sitemap.xml"], "\(entries) entries")
                indexChanges += 1
            }
            previous = next
        }
        #expect(indexChanges > 0)
    }

    @Test("each plan's address gives the URL, output path and place hash its page has, under a base path or none",
          arguments: ["https://example.org/", "https://example.org/mission/"])
    func addresses(baseURL: String) throws {
        let config = SiteConfiguration(title: "Test", baseURL: baseURL, pageSize: 2, mission: FeedFixtures.config().mission)
        let links = SiteLinks(config: config)
        let plans = PagePlanner(library: try library(entries: 11, weather: [1, 2]), config: config).plans()
        for plan in plans {
            let page = try #require(plan.page)
            #expect(plan.url == page.url && plan.outputPath == page.outputPath)
            #expect(plan.url.hasPrefix(links.basePath))
            #expect(plan.outputPath == links.outputPath(for: plan.url), "\(plan.url)")
            var hash = ContentHash()
            hash.combine(plan.outputPath)
            #expect(plan.place == hash.value, "\(plan.outputPath)")
        }
        let base = links.basePath
        let expected = [
            base: "index.html", base + "page/1/": "page/1/index.html", base + "journal/e3/": "journal/e3/index.html",
            base + "journal/": "journal/index.html", base + "journal/page/1/": "journal/page/1/index.html",
            base + "sol/2/": "sol/2/index.html", base + "sol/": "sol/index.html", base + "crew/vega/": "crew/vega/index.html",
            base + "crew/vega/page/1/": "crew/vega/page/1/index.html", base + "crew/": "crew/index.html",
            base + "feed.xml": "feed.xml", base + "404.html": "404.html", base + "sitemap.xml": "sitemap.xml",
        ]
        let made = Dictionary(plans.map { ($0.url, $0.outputPath) }, uniquingKeysWith: { first, _ in first })
        for (url, outputPath) in expected { #expect(made[url] == outputPath, "\(url)") }
        #expect(Set(plans.map(\.outputPath)).count == plans.count)
    }
}

extension PagePlanner {
    var pinnedID: String? { pages().first { $0.kind == .front }?.slots["pinned"]?.first?.objectID }
}
