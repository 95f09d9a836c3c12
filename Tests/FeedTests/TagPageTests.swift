import Content
import Feed
import MarsTime
import Testing

/// Each tag's page, `/tags/<slug>/`, and the index of tags.
@Suite struct TagPageTests {
    /// An entry on `sol` with `tags`, as written in its front matter.
    func entry(_ slug: String, sol: Int, tags: [String]) -> JournalEntry {
        let lmst = MarsClockTime(hours: 10)
        return JournalEntry(sourcePath: "content/journal/\(slug).md", explicitTitle: "Entry \(slug)", slug: slug,
                            author: FeedFixtures.vega, instant: FeedFixtures.clock.instant(sol: sol, lmst: lmst), sol: sol,
                            lmst: lmst, tags: tags, isDraft: false, bodyHTML: "<p>Body</p>\n")
    }

    func pages(_ entries: [JournalEntry], pageSize: Int = 3, tagFeeds: Bool = false) throws -> [String: Page] {
        let library = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: entries, messages: [], weatherReports: [])
        var config = FeedFixtures.config(pageSize: pageSize)
        config.hasTagFeeds = tagFeeds
        let pages = PagePlanner(library: library, config: config).pages()
        return Dictionary(uniqueKeysWithValues: pages.map { ($0.outputPath, $0) })
    }

    /// The titles a list page shows, in order.
    func titles(_ page: Page?) -> [String] {
        (page?.context["entries"] as? [TemplateContext] ?? []).compactMap { $0["title"] as? String }
    }

    @Test("tags that give one slug share a page, shown as the spelling most entries use, each entry listed once")
    func spellingsShareAPage() throws {
        let pages = try pages([
            entry("a", sol: 1, tags: ["EVA"]),
            entry("b", sol: 2, tags: ["eva", "EVA"]),
            entry("c", sol: 3, tags: ["eva"]),
            entry("d", sol: 4, tags: ["Dust storm", "dust-storm"]),
            entry("e", sol: 5, tags: ["dust storm"]),
        ])
        let tagPages = pages.keys.filter { $0.hasPrefix("tags/") }.sorted()
        #expect(tagPages == ["tags/dust-storm/index.html", "tags/eva/index.html", "tags/index.html"])
        let eva = try #require(pages["tags/eva/index.html"])
        #expect(eva.kind == .tag)
        #expect(titles(eva) == ["Entry c", "Entry b", "Entry a"])
        // `EVA` and `eva` are written twice each: the first in code point order.
        #expect((eva.context["tag"] as? TemplateContext)?["name"] as? String == "EVA")
        #expect(eva.context["heading"] as? String == "Tag: EVA")
        #expect(eva.url == "/tags/eva/")
        // Three spellings once each: the first in code point order again.
        let dust = try #require(pages["tags/dust-storm/index.html"])
        #expect((dust.context["tag"] as? TemplateContext)?["name"] as? String == "Dust storm")
        #expect(titles(dust) == ["Entry e", "Entry d"])

        let index = try #require(pages["tags/index.html"])
        #expect(index.kind == .tagIndex)
        let rows = index.context["tags"] as? [TemplateContext] ?? []
        #expect(rows.map { $0["name"] as? String } == ["Dust storm", "EVA"])
        #expect(rows.map { $0["url"] as? String } == ["/tags/dust-storm/", "/tags/eva/"])
        #expect(rows.map { $0["entryCount"] as? Int } == [2, 3])
    }

    @Test("a tag's slug is made as a file name's; one with nothing left is 'tag'; each cell links its tags to their pages")
    func slugs() throws {
        let pages = try pages([entry("a", sol: 1, tags: ["火星", "!!", "Café à Olympus"])])
        #expect(pages.keys.filter { $0.hasPrefix("tags/") }.sorted()
            == ["tags/cafe-a-olympus/index.html", "tags/huo-xing/index.html", "tags/index.html", "tags/tag/index.html"])
        let section = try FeedAdapter.standard(context: FeedFixtures.context)
            .section(for: entry("a", sol: 1, tags: ["火星", "Dust Storm"]))
        let text = try #require(section.cells.first { $0.template == "cell-journal-text" })
        let tags = text.context["tags"] as? [TemplateContext] ?? []
        #expect(tags.map { $0["name"] as? String } == ["火星", "Dust Storm"])
        #expect(tags.map { $0["url"] as? String } == ["/tags/huo-xing/", "/tags/dust-storm/"])
    }

    @Test("with tag_feeds, each tag has an Atom feed of its newest 50 entries, which its page links to; without, none")
    func tagFeeds() throws {
        let entries = (0..<60).map { entry("e\($0)", sol: 1 + $0, tags: $0 % 2 == 0 ? ["EVA", "all"] : ["all"]) }
        let pages = try pages(entries, tagFeeds: true)
        #expect(pages.keys.filter { $0.hasSuffix("feed.xml") }.sorted() == ["feed.xml", "tags/all/feed.xml", "tags/eva/feed.xml"])
        let all = try #require(pages["tags/all/feed.xml"])
        #expect(all.kind == .atom && all.layout == nil && all.url == "/tags/all/feed.xml")
        let items = all.slots["entries"] ?? []
        #expect(items.map(\.objectID) == (10..<60).reversed().map { "journal:content/journal/e\($0).md" })
        #expect(all.context["feedTitle"] as? String == "Test <Log>: all")
        #expect(all.context["feedID"] as? String == "https://example.org/tags/all/")
        #expect(all.context["alternateURL"] as? String == "https://example.org/tags/all/")
        #expect(all.context["selfURL"] as? String == "https://example.org/tags/all/feed.xml")
        #expect(all.context["updated"] as? String == items.first?.object.instant.iso8601)
        let eva = try #require(pages["tags/eva/feed.xml"])
        #expect(eva.slots["entries"]?.map(\.objectID) == stride(from: 58, through: 0, by: -2).map { "journal:content/journal/e\($0).md" })
        #expect(eva.context["feedTitle"] as? String == "Test <Log>: EVA")
        let page = (pages["tags/eva/index.html"]?.context["tag"] as? TemplateContext) ?? [:]
        #expect(page["hasFeed"] as? Bool == true && page["feedURL"] as? String == "/tags/eva/feed.xml")
        // The site's feed is as it was: its own title and links.
        let site = try #require(pages["feed.xml"])
        #expect(site.context["feedTitle"] as? String == "Test <Log>" && site.context["feedID"] as? String == "https://example.org/")

        let without = try self.pages(entries)
        #expect(without.keys.filter { $0.hasSuffix("feed.xml") } == ["feed.xml"])
        #expect((without["tags/eva/index.html"]?.context["tag"] as? TemplateContext)?["hasFeed"] as? Bool == false)
    }

    @Test("with crew_feeds, each crew member has an Atom feed of their newest 50 entries and messages, which their pages link to; without, none")
    func crewFeeds() throws {
        let entries = (0..<40).map { FeedFixtures.entry("e\($0)", sol: 1 + $0, author: $0 % 4 == 0 ? FeedFixtures.okoro : FeedFixtures.vega) }
        let messages = (0..<40).map { FeedFixtures.message(sol: 1 + $0, hour: 12, author: FeedFixtures.vega) }
        let library = try ContentLibrary(crew: FeedFixtures.crew, journalEntries: entries, messages: messages, weatherReports: [])
        func planned(crewFeeds: Bool) -> [String: Page] {
            var config = FeedFixtures.config()
            config.hasCrewFeeds = crewFeeds
            return Dictionary(uniqueKeysWithValues: PagePlanner(library: library, config: config).pages().map { ($0.outputPath, $0) })
        }
        let pages = planned(crewFeeds: true)
        #expect(pages.keys.filter { $0.hasSuffix("feed.xml") }.sorted() == ["crew/okoro/feed.xml", "crew/vega/feed.xml", "feed.xml"])
        let vega = try #require(pages["crew/vega/feed.xml"])
        #expect(vega.kind == .atom && vega.layout == nil && vega.url == "/crew/vega/feed.xml")
        // Vega's 30 entries and 40 messages, newest first: a sol's message (12:00) after its entry (10:00).
        let items = vega.slots["entries"] ?? []
        #expect(items.count == 50)
        #expect(items.prefix(3).map(\.object.sol) == [40, 40, 39] && items.allSatisfy { $0.object.authorIDs == ["vega"] })
        #expect(items.map(\.object.instant) == items.map(\.object.instant).sorted(by: >))
        #expect(vega.context["feedTitle"] as? String == "Test <Log>: Ines Vega")
        #expect(vega.context["feedID"] as? String == "https://example.org/crew/vega/")
        #expect(vega.context["subtitle"] as? String == "Journal entries and messages by Ines Vega")
        #expect(pages["crew/okoro/feed.xml"]?.slots["entries"]?.count == 10)
        for page in ["crew/vega/index.html", "crew/vega/page/1/index.html"] {
            let member = (pages[page]?.context["member"] as? TemplateContext) ?? [:]
            #expect(member["hasFeed"] as? Bool == true && member["feedURL"] as? String == "/crew/vega/feed.xml", "\(page)")
        }
        let without = planned(crewFeeds: false)
        #expect(without.keys.filter { $0.hasSuffix("feed.xml") } == ["feed.xml"])
        #expect((without["crew/vega/index.html"]?.context["member"] as? TemplateContext)?["hasFeed"] as? Bool == false)
    }

    @Test("a tag's list is paged as the journal's, from the oldest end; the index of tags is always made")
    func pagination() throws {
        // Page size 1: five entries a list page.
        let entries = (0..<12).map { entry("e\($0)", sol: 1 + $0, tags: $0 % 2 == 0 ? ["even"] : ["odd", "all"]) }
            + (12..<14).map { entry("e\($0)", sol: 1 + $0, tags: ["all"]) }
        let pages = try pages(entries, pageSize: 1)
        let all = try #require(pages["tags/all/index.html"])
        #expect(titles(all) == ["Entry e13", "Entry e12", "Entry e11", "Entry e9", "Entry e7"])
        #expect((all.context["older"] as? TemplateContext)?["url"] as? String == "/tags/all/page/1/")
        #expect(titles(pages["tags/all/page/1/index.html"]) == ["Entry e9", "Entry e7", "Entry e5", "Entry e3", "Entry e1"])
        #expect(pages["tags/all/page/2/index.html"] == nil, "only full pages exist")
        #expect(titles(pages["tags/even/page/1/index.html"]) == ["Entry e8", "Entry e6", "Entry e4", "Entry e2", "Entry e0"])

        let untagged = try self.pages([entry("a", sol: 1, tags: [])])
        #expect(untagged.keys.filter { $0.hasPrefix("tags/") } == ["tags/index.html"])
        #expect(untagged["tags/index.html"]?.context["hasTags"] as? Bool == false)
    }
}
