import Content
import Diagnostics
import GFM
import SiteConfig
import Testing

@Suite struct StandalonePageLoaderTests {
    func load(_ text: String, path: String = "content/pages/about.md", links: ContentLinks? = ContentLinks(),
              log: inout DiagnosticLog) throws(Diagnostic) -> StandalonePage {
        var context = ContentFixtures.context
        context.links = links
        var uses = LinkUses()
        return try StandalonePageLoader.load(SourceFile(path: path, text: text), context: context, log: &log, links: &uses)
    }

    func load(_ text: String, path: String = "content/pages/about.md") throws(Diagnostic) -> StandalonePage {
        var log = DiagnosticLog()
        return try load(text, path: path, log: &log)
    }

    @Test("a page is at its file's path under content/pages/, each segment a slug, an index.md at its folder's; or at its slug")
    func paths() throws {
        #expect(try load("---\ntitle: A\n---\nText\n").path == "about")
        #expect(try load("---\ntitle: A\n---\nText\n", path: "content/pages/Mission/The Habitat.md").path == "mission/the-habitat")
        #expect(try load("---\ntitle: A\n---\nText\n", path: "content/pages/mission/index.md").path == "mission")
        #expect(try load("---\ntitle: A\nslug: /station/rules/\n---\nText\n").path == "station/rules")
        let head = try StandalonePageLoader.head(SourceFile(path: "content/pages/x.md", text: "---\ntitle: A\nslug: us\ndraft: yes\n---\n"))
        #expect(head.path == "us" && head.isDraft)
    }

    @Test("its values: title, text, description (else the text's start), navigation, weight, contents, draft, extra; heading ids after its last segment")
    func values() throws {
        let page = try load("""
            ---
            title: The habitat
            slug: station/habitat
            nav: true
            nav_title: Habitat
            weight: -2
            toc: true
            draft: true
            extra: {floor: two}
            ---
            Four modules and an airlock.

            ## Modules
            """)
        #expect(page.title == "The habitat")
        #expect(page.description == "Four modules and an airlock.")
        #expect(page.bodyHTML.contains("<h2 id=\"habitat:modules\">Modules</h2>"))
        #expect(page.tableOfContents.contains("href=\"#habitat:modules\""))
        #expect(page.isInNavigation && page.navigationTitle == "Habitat" && page.weight == -2 && page.isDraft)
        #expect(page.extra == ["floor": .text("two")])
        let plain = try load("---\ntitle: Rules\ndescription: Quiet hours\n---\nText\n")
        #expect(!plain.isInNavigation && plain.navigationTitle == "Rules" && plain.weight == 0 && !plain.isDraft)
        #expect(plain.description == "Quiet hours" && plain.tableOfContents.isEmpty)
        #expect(plain.contentHash != page.contentHash)
        #expect(try load("---\ntitle: Rules\ndescription: Quiet hours\n---\nText\n").contentHash == plain.contentHash)
    }

    @Test("mistakes are errors at their lines", arguments: [
        ("---\nnav: true\n---\nText\n", "content/pages/about.md", 2, "missing required key 'title'"),
        ("---\ntitle: A\nslug: Über/uns\n---\n", "content/pages/about.md", 3, "slug 'Über/uns' is not a URL path"),
        ("---\ntitle: A\nslug: journal/extra\n---\n", "content/pages/about.md", 3, "this page would be at /journal/extra/, under /journal, which is marsgen's own"),
        ("---\ntitle: A\nslug: sitemap-2.xml\n---\n", "content/pages/map.md", 3, "this page would be at /sitemap-2.xml/, under /sitemap-2.xml, which is marsgen's own"),
        ("---\ntitle: A\n---\n", "content/pages/index.md", 1, "this page would be the front page, which is the feed's"),
        ("---\ntitle: A\nweight: first\n---\n", "content/pages/about.md", 3, "'weight' must be a whole number, not 'first'"),
        ("---\ntitle: A\naliases: [/us/, /tags/us/]\n---\n", "content/pages/about.md", 3,
         "alias '/tags/us/' is at 'tags', where the site's own pages are"),
        ("---\ntitle: A\nslug: station\naliases: [/station]\n---\n", "content/pages/about.md", 4, "alias '/station/' is this page's own address"),
    ])
    func mistakes(text: String, path: String, line: Int, message: String) {
        let diagnostic = expectDiagnostic { _ = try load(text, path: path) }
        #expect(diagnostic?.location?.path == path)
        #expect(diagnostic?.location?.line == line)
        #expect(diagnostic?.message.hasPrefix(message) == true, "\(diagnostic?.message ?? "")")
    }

    @Test("its old addresses: folders with their last slash, .html files as written, each once, none in its page's hash")
    func aliases() throws {
        let page = try load("---\ntitle: A\naliases: [/about-us, about-us/, /old/team.html]\n---\nText\n")
        #expect(page.aliases == ["about-us/", "old/team.html"])
        #expect(page.contentHash == (try load("---\ntitle: A\n---\nText\n")).contentHash)
        let hint = expectDiagnostic { _ = try load("---\ntitle: A\naliases: [https://example.org/us/]\n---\n") }?.hint
        #expect(hint == "an alias is the page's old address within the site, like '/about-us/' or '/about.html'")
    }

    @Test("its template: a file of templates/ by name, with or without .mustache, at its key; in its page's hash")
    func template() throws {
        let page = try load("---\ntitle: A\ntemplate: roster\n---\nText\n")
        #expect(page.template == "roster" && page.templateLocation == SourceLocation(path: "content/pages/about.md", line: 3, column: 11))
        #expect(try load("---\ntitle: A\ntemplate: crew_roster.mustache\n---\nText\n").template == "crew_roster")
        #expect(try load("---\ntitle: A\n---\nText\n").template == nil)
        #expect(page.contentHash != (try load("---\ntitle: A\n---\nText\n")).contentHash)
        for (written, hint) in [("page.html", "for templates/page.mustache, write 'template: page'"),
                                ("../layout", "for templates/layout.mustache, write 'template: layout'")] {
            let diagnostic = expectDiagnostic { _ = try load("---\ntitle: A\ntemplate: \(written)\n---\nText\n") }
            #expect(diagnostic?.message == "template '\(written)' is not the name of a file in templates/")
            #expect(diagnostic?.location?.line == 3)
            #expect(diagnostic?.hint == "marsgen's templates are Mustache files: \(hint)")
        }
    }

    @Test("warnings: Hugo's menu key, nav_title without nav, toc without headings, no text")
    func warnings() throws {
        var log = DiagnosticLog()
        _ = try load("---\ntitle: A\nmenu: main\nnav_title: Us\ntoc: true\n---\n", log: &log)
        let messages = log.entries.map(\.message)
        #expect(messages.contains("unknown key 'menu' in page front matter is ignored"))
        #expect(log.entries.first { $0.message.hasPrefix("unknown key 'menu'") }?.hint?.contains("marsgen calls it 'nav'") == true)
        #expect(messages.contains("nav_title is for the navigation, which does not link to this page"))
        #expect(messages.contains("toc: true, but this page has no headings to list"))
        #expect(messages.contains("this page has no text after its front matter"))
    }

    @Test("two pages at one path, or a page at an entry's alias: an error at the second page")
    func conflicts() throws {
        let about = StandalonePage(sourcePath: "content/pages/about.md", title: "A", path: "about")
        let again = StandalonePage(sourcePath: "content/pages/us.md", title: "B", path: "about")
        let clash = expectDiagnostic {
            _ = try ContentLibrary(crew: ContentFixtures.crew, journalEntries: [], messages: [], weatherReports: [], standalonePages: [again, about])
        }
        #expect(clash?.message == "two pages would be at /about/")
        #expect(clash?.location?.path == "content/pages/us.md")
        #expect(clash?.hint == "the other is the page content/pages/about.md; give this one another path with 'slug:'")
        var log = DiagnosticLog()
        let entry = try JournalLoader.load(SourceFile(path: "content/journal/a.md", text: "---\nauthor: vega\nsol: 2\naliases: [/about/]\n---\nHi\n"),
                                           context: ContentFixtures.context, log: &log)
        let alias = expectDiagnostic {
            _ = try ContentLibrary(crew: ContentFixtures.crew, journalEntries: [entry], messages: [], weatherReports: [], standalonePages: [about])
        }
        #expect(alias?.hint == "the other is an alias of content/journal/a.md; give this one another path with 'slug:'")
        var conflicts: [Diagnostic] = []
        let library = ContentLibrary(crew: ContentFixtures.crew, journalEntries: [], messages: [], weatherReports: [],
                                     standalonePages: [again, about], conflicts: &conflicts)
        #expect(library.standalonePages.map(\.sourcePath) == ["content/pages/about.md"] && conflicts.count == 1)
    }

    /// The conflicts a library of `pages` and `entries` finds, each the later's.
    private func conflicts(_ pages: [StandalonePage], entries: [JournalEntry] = []) -> [Diagnostic] {
        var conflicts: [Diagnostic] = []
        _ = ContentLibrary(crew: ContentFixtures.crew, journalEntries: entries, messages: [], weatherReports: [],
                           standalonePages: pages, conflicts: &conflicts)
        return conflicts
    }

    @Test("a page's alias where another page, a page's alias or an entry's alias is: an error at the page with the alias")
    func aliasConflicts() throws {
        let about = StandalonePage(sourcePath: "content/pages/about.md", title: "A", path: "about", aliases: ["us/", "team.html"])
        // A page keeps its own path: the alias is the mistake, whichever file comes first.
        let us = StandalonePage(sourcePath: "content/pages/us.md", title: "U", path: "us")
        let onPage = conflicts([about, us])
        #expect(onPage.map(\.message) == ["two pages would be at /us/"])
        #expect(onPage.first?.location?.path == "content/pages/about.md")
        #expect(onPage.first?.hint == "the other is the page content/pages/us.md; an old address leads to one page: remove it from this page's aliases")
        let rules = StandalonePage(sourcePath: "content/pages/rules.md", title: "R", path: "rules", aliases: ["team.html"])
        #expect(conflicts([about, rules]).map(\.hint) == ["the other is an alias of content/pages/about.md; an old address leads to one page: remove it from this page's aliases"])
        var log = DiagnosticLog()
        let entry = try JournalLoader.load(SourceFile(path: "content/journal/a.md", text: "---\nauthor: vega\nsol: 2\naliases: [/us]\n---\nHi\n"),
                                           context: ContentFixtures.context, log: &log)
        #expect(conflicts([about], entries: [entry]).map(\.hint) == ["the other is an alias of content/journal/a.md; an old address leads to one page: remove it from this page's aliases"])
        #expect(conflicts([about, StandalonePage(sourcePath: "content/pages/x.md", title: "X", path: "x", aliases: ["team/"])]).isEmpty)
    }

    @Test("one file two ways, or a file where another needs a folder: an error at the later, for pages and entries alike")
    func fileAndFolderConflicts() throws {
        let moved = StandalonePage(sourcePath: "content/pages/about.md", title: "A", path: "about", aliases: ["team.html"])
        let inner = StandalonePage(sourcePath: "content/pages/inner.md", title: "I", path: "team.html/inner")
        // The page keeps its path; the alias, a file where the page needs a folder, is the mistake.
        let onAlias = conflicts([moved, inner])
        #expect(onAlias.map(\.message) == ["/team.html would be both a file and the folder of /team.html/inner/"])
        #expect(onAlias.first?.location?.path == "content/pages/about.md")
        #expect(onAlias.first?.hint == "the other is the page content/pages/inner.md; an old address leads to one page: remove it from this page's aliases")
        // A folder's file, spelt out, is the folder's.
        let spelt = StandalonePage(sourcePath: "content/pages/rules.md", title: "R", path: "rules", aliases: ["about/index.html"])
        #expect(conflicts([moved, spelt]).map(\.message) == ["/about/index.html and /about/ would be one file, about/index.html"])
        // Entries' aliases are written as pages' are: a page inside one's file is the page's mistake.
        var log = DiagnosticLog()
        func entry(_ name: String, aliases: String) throws -> JournalEntry {
            try JournalLoader.load(SourceFile(path: "content/journal/\(name).md", text: "---\nauthor: vega\nsol: 2\naliases: [\(aliases)]\n---\nHi\n"),
                                   context: ContentFixtures.context, log: &log)
        }
        let old = try entry("a", aliases: "/log.html")
        let underEntry = conflicts([StandalonePage(sourcePath: "content/pages/log.md", title: "L", path: "log.html/sol-2")], entries: [old])
        #expect(underEntry.map(\.message) == ["/log.html would be both a file and the folder of /log.html/sol-2/"])
        #expect(underEntry.first?.hint == "the other is an alias of content/journal/a.md; give this one another path with 'slug:'")
        let entries = [old, try entry("b", aliases: "/log.html/old/"), try entry("c", aliases: "/posts/"), try entry("d", aliases: "/posts/index.html")]
        var entryConflicts: [Diagnostic] = []
        let library = ContentLibrary(crew: ContentFixtures.crew, journalEntries: entries, messages: [], weatherReports: [],
                                     conflicts: &entryConflicts)
        #expect(entryConflicts.map(\.message) == ["/log.html would be both a file and the folder of /log.html/old/",
                                                   "/posts/index.html and /posts/ would be one file, posts/index.html"])
        #expect(entryConflicts.first?.hint == "the other is content/journal/a.md; an old address leads to one entry: remove it from one of them")
        #expect(library.journalEntries.map(\.sourcePath) == ["content/journal/a.md", "content/journal/c.md"])
        // One's own aliases: one file two ways is one alias; a file and a folder in it, an error at `aliases:`.
        #expect(try entry("e", aliases: "/posts/, /posts/index.html, /posts").aliases == ["posts/"])
        let own = expectDiagnostic { _ = try entry("f", aliases: "/log.html, /log.html/old/") }
        #expect(own?.message == "/log.html would be both a file and the folder of /log.html/old/")
        #expect(own?.location?.line == 4)
        #expect(own?.hint == "the two cannot both be written: keep the one old links to the entry use")
        // Folders side by side, or one inside another, are no conflict.
        #expect(conflicts([moved, StandalonePage(sourcePath: "content/pages/x.md", title: "X", path: "about/team", aliases: ["about/old/"])]).isEmpty)
    }
}
