import Content
import Diagnostics
import Feed
import Foundation
import Images
import MarsTime
@testable import Rendering
import SiteConfig
import Testing

/// The names marsgen gives templates are one list (``TemplateVocabulary``), which a site's
/// templates are checked against: these keep the list and the contexts the same.
@Suite struct TemplateVocabularyTests {
    /// Every name the contexts rendered held, at any depth, by template.
    final class SeenNames: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String: Set<String>] = [:]

        func record(_ template: String, _ context: TemplateContext) {
            var found: Set<String> = []
            Self.collect(context, into: &found)
            lock.withLock { names[template, default: []].formUnion(found) }
        }

        var byTemplate: [String: Set<String>] { lock.withLock { names } }

        static func collect(_ value: Any, into names: inout Set<String>) {
            if let dictionary = value as? [String: Any] {
                for (key, value) in dictionary {
                    names.insert(key)
                    // What is under `extra` is the site's own, named by the site.
                    if key != "extra" { collect(value, into: &names) }
                }
            } else if let array = value as? [Any] {
                for item in array { collect(item, into: &names) }
            }
        }
    }

    /// A site that gives every kind of value: entries with and without titles and tags, a
    /// draft, messages on two channels, weather with and without notes, a crew member with
    /// no role and one who wrote nothing, more objects than a feed page holds, a description,
    /// an entry with a preview image, a teaser and a table of contents, pages of their own.
    func richSite() throws -> ContentLibrary {
        let quiet = CrewMember(id: "sato", name: "Aiko Sato", role: "")
        var crew = Crew(members: [FeedFixtures.vega, FeedFixtures.okoro, quiet])
        // A bio and a sized portrait; one member with a portrait alone, one with neither.
        crew.profiles = ["vega": CrewProfile(bioHTML: "<p>Commands.</p>\n", summary: "Commands.", image: "/img/vega.png", imageAlt: "Vega",
                                             imageSize: ImageSize(width: 400, height: 400)),
                         "okoro": CrewProfile(image: "https://example.org/okoro.jpg")]
        var entries = (0..<7).map { FeedFixtures.entry("e\($0)", sol: 1 + $0, title: $0 == 2 ? nil : "Entry \($0)") }
        entries.append(JournalEntry(sourcePath: "content/journal/draft.md", explicitTitle: "Draft", slug: "draft",
                                    author: quiet, instant: FeedFixtures.clock.instant(sol: 3, lmst: MarsClockTime(hours: 9)),
                                    sol: 3, lmst: MarsClockTime(hours: 9), tags: [], isDraft: true, bodyHTML: "<p>Soon</p>\n",
                                    aliases: ["posts/draft/"], image: "/img/draft.png", imageAlt: "A draft's picture",
                                    imageSize: ImageSize(width: 1200, height: 630),
                                    teaser: "<p>So</p>\n", tableOfContents: "<ol>\n<li><a href=\"#draft:soon\">Soon</a></li>\n</ol>\n",
                                    extra: ["mood": .text("tense"), "eva": .mapping(["lead": .text("vega"), "outside": .flag(true)])]))
        var messages = (0..<5).map { FeedFixtures.message(sol: 2 + $0, hour: 14) }
        messages.append(Message(sourcePath: "content/messages/ops.md", channel: "ops", author: FeedFixtures.vega,
                                instant: FeedFixtures.clock.instant(sol: 4, lmst: MarsClockTime(hours: 15)), sol: 4,
                                lmst: MarsClockTime(hours: 15), bodyHTML: "<p>Copy</p>\n", line: 1, ordinal: 0))
        let lmst = MarsClockTime(secondsOfSol: 0)
        let noted = WeatherReport(sourcePath: "content/weather/sol-5.md", instant: FeedFixtures.clock.instant(sol: 5, lmst: lmst),
                                  sol: 5, lmst: lmst, temperature: -40, high: 10, low: -70, sunrise: MarsClockTime(hours: 5.7),
                                  sunset: MarsClockTime(hours: 17.9), condition: .clear, notesHTML: "<p>Calm.</p>\n",
                                  extra: ["dust_tau": .text("0.9")])
        // Pages of their own: one in the navigation, a draft with a table of contents, a
        // preview image and values of its own; one that is not, below it.
        let pages = [
            StandalonePage(sourcePath: "content/pages/about.md", title: "About", path: "about", bodyHTML: "<p>Us</p>\n",
                           tableOfContents: "<ol>\n<li><a href=\"#about:us\">Us</a></li>\n</ol>\n", isDraft: true,
                           isInNavigation: true, navigationTitle: "Us", image: "/img/us.png", imageAlt: "Us",
                           imageSize: ImageSize(width: 1200, height: 630), extra: ["founded": .text("2038")]),
            StandalonePage(sourcePath: "content/pages/rules.md", title: "Rules", path: "about/rules", bodyHTML: "<p>Quiet</p>\n"),
        ]
        return try ContentLibrary(crew: crew, journalEntries: entries, messages: messages,
                                  weatherReports: [FeedFixtures.weather(sol: 2), noted], standalonePages: pages)
    }

    /// Renders every page of `library` planned with `config`, noting the names of every context.
    /// Renders every page of `library` planned with `config`, noting the names of every
    /// context. The sitemap is rendered through its template only when the site has its own,
    /// and the sol index's rows carry their values only when its template names them.
    func renderEveryPage(_ library: ContentLibrary, config: SiteConfiguration, into seen: SeenNames) throws {
        let sitemap = try #require(DefaultTheme.templates["sitemap"])
        let solIndex = try #require(DefaultTheme.templates["page-sols"])
        // As a build gives them: every template gets the site's words.
        var templates = try TemplateLibrary(overrides: [
            "sitemap": .init(text: sitemap, path: "templates/sitemap.mustache"),
            "page-sols": .init(text: solIndex + "{{#sols}}{{/sols}}", path: "templates/page-sols.mustache"),
        ], words: config.words.templateValues)
        templates.renderObserver = { seen.record($0, $1) }
        let adapter = FeedAdapter.standard(context: FeedContext(links: SiteLinks(config: config), words: config.words))
        let objects = Dictionary(library.allObjects.map { ($0.diffIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        var renderer = PageRenderer(templates: templates) { key throws(Diagnostic) in
            try objects[key.objectID].map { object throws(Diagnostic) in try adapter.section(for: object, isOwnPage: key.isOwnPage) }
        }
        for page in PagePlanner(library: library, config: config).pages() {
            _ = try renderer.render(page)
        }
    }

    @Test("each template's contexts hold exactly the names the vocabulary lists for it")
    func vocabularyMatchesContexts() throws {
        let seen = SeenNames()
        let library = try richSite()
        var config = FeedFixtures.config(pageSize: 3)
        config.description = "A log <of> the mission"
        config.image = "img/patch.png"
        config.imageAlt = "The patch"
        config.imageSize = NotASetting(ImageSize(width: 1200, height: 630))
        config.extra = ["crew_size": .text("5")]
        config.hasSearch = true
        try renderEveryPage(library, config: config, into: seen)
        // A sitemap split into parts, for the index's `sitemaps`.
        config.sitemapMaxURLs = 5
        try renderEveryPage(library, config: config, into: seen)
        // Lists of entries of five a page, for their pagers; a feed for each tag and each crew member.
        config.pageSize = 1
        config.hasTagFeeds = true
        config.hasCrewFeeds = true
        try renderEveryPage(library, config: config, into: seen)
        let given = seen.byTemplate
        #expect(Set(given.keys) == Set(TemplateVocabulary.byTemplate.keys))
        for (template, names) in given.sorted(by: { $0.key < $1.key }) {
            let listed = TemplateVocabulary.byTemplate[template] ?? []
            #expect(names.subtracting(listed).isEmpty, "\(template) is given \(names.subtracting(listed).sorted()), not listed")
            #expect(listed.subtracting(names).isEmpty, "\(template) is listed \(listed.subtracting(names).sorted()), never given")
        }
    }

    @Test("the built-in templates, as a site's own, use only names their contexts hold and transforms that exist")
    func builtInTemplatesUseTheVocabulary() throws {
        var copies: [String: TemplateLibrary.Source] = [:]
        for (name, text) in DefaultTheme.templates { copies[name] = .init(text: text, path: "templates/\(name).mustache") }
        let library = try TemplateLibrary(overrides: copies)
        #expect(library.unknownNames.map { "\($0.template): \($0.name)" } == [])
        #expect(try TemplateLibrary().unknownNames.isEmpty)
    }

    @Test("a site's template naming a value or transform its context does not have is found at its tag, once, with the likely name")
    func unknownNamesFound() throws {
        let text = """
            <p>{{sendr}} {{ sendr }} {{#senderURL}}{{sol}}{{/senderURL}} {{senderID.0}} {{.}} {{#first()}}{{index()}}{{/first()}}</p>
            {{{bdy}}} {{& body}} {{title}}
            {{upercased(reversed(sender))}} {{lowercased(chanel)}} {{! sendr2 }} {{$block}}{{/block}} {{> who}}
            {{=<% %>=}}<%zzz%> <%>*partialName%>
            """
        let library = try TemplateLibrary(overrides: [
            "cell-message": .init(text: text, path: "templates/cell-message.mustache"),
            "who": .init(text: "{{channel}} {{site.title}} {{permalink}}", path: "templates/who.mustache"),
            "partialName": .init(text: "x", path: "templates/partialName.mustache"),
        ])
        let found = library.unknownNames.map { "\($0.location.path):\($0.location.line):\($0.location.column) \($0.message) | \($0.hint)" }
        #expect(found == [
            "templates/cell-message.mustache:1:4 'sendr' is not a value marsgen gives templates: it renders as nothing | did you mean 'sender'?",
            "templates/cell-message.mustache:2:1 'bdy' is not a value marsgen gives templates: it renders as nothing | did you mean 'body'?",
            "templates/cell-message.mustache:2:22 'title' is not a value 'cell-message' gets: it renders as nothing | "
                + "cell-journal-text, page-404, page-crew… get it; see README, Templates, for the values each template gets",
            "templates/cell-message.mustache:3:1 'upercased' is not a transform templates can use: it renders as nothing | did you mean 'uppercased'?",
            "templates/cell-message.mustache:3:33 'chanel' is not a value marsgen gives templates: it renders as nothing | did you mean 'channel'?",
            "templates/cell-message.mustache:4:12 'zzz' is not a value marsgen gives templates: it renders as nothing | "
                + "see README, Templates, for the values each template gets",
            "templates/cell-message.mustache:4:20 'partialName' is not a value marsgen gives templates: it renders as nothing | "
                + "see README, Templates, for the values each template gets",
            // A partial gets the values of the templates including it: `site` is no cell's.
            "templates/who.mustache:1:13 'site' is not a value the templates including 'who' get: it renders as nothing | "
                + "page-404, page-crew, page-crew-index… get it; see README, Templates, for the values each template gets",
            "templates/who.mustache:1:13 'title' is not a value the templates including 'who' get: it renders as nothing | "
                + "cell-journal-text, page-404, page-crew… get it; see README, Templates, for the values each template gets",
        ])
        // A value another template gets, copied into the wrong one.
        let copied = try TemplateLibrary(overrides: ["cell-journal-text": .init(text: "{{sender}}", path: "templates/cell-journal-text.mustache")])
        #expect(copied.unknownNames.map(\.hint) == ["cell-message gets it; see README, Templates, for the values each template gets"])
        // Past `extra`, and within a section of a value under it, names are the site's own;
        // a misspelling beside them is still found.
        let extra = try TemplateLibrary(overrides: ["cell-journal-text": .init(
            text: "{{extra.mood}} {{#extra.eva}}{{lead}}{{#crew}}{{.}}{{name}}{{/crew}}{{/extra.eva}} {{^extra}}{{nothing}}{{/extra}} {{titel}}",
            path: "templates/cell-journal-text.mustache"), "layout": .init(text: "{{site.extra.crew_size}} {{{content}}} {{extra.x}}",
                                                                             path: "templates/layout.mustache")])
        #expect(extra.unknownNames.map(\.name) == ["titel"])
        // The built-in templates are not checked again when a site overrides another.
        #expect(try TemplateLibrary(overrides: ["footer": .init(text: "{{site.title}}", path: "templates/footer.mustache")])
            .unknownNames.isEmpty)
    }
}

/// An archetype's text, rendered as Markdown is written: nothing escaped.
@Suite struct TextTemplateTests {
    @Test("values go in as they are; a misspelt name, a partial and a block are warnings at their lines in the file; a syntax error is at its line")
    func text() throws {
        let template = try TextTemplate("## {{title}}\n\n{{#tags}}- {{.}}\n{{/tags}}{{titel}} {{> footer}}\n", path: "archetypes/entry.md",
                                        firstLine: 5, names: ["title", "tags"])
        #expect(template.render(["title": #"R&D <"1">"#, "tags": ["a&b", "c"]]) == "## R&D <\"1\">\n\n- a&b\n- c\n \n")
        #expect(template.warnings.map(\.description) == [
            "archetypes/entry.md:8:10: warning: '{{titel}}' names nothing: it is left empty\n  hint: did you mean '{{title}}'?",
            "archetypes/entry.md:8:20: warning: an archetype has no partials or blocks: '{{>footer}}' is left empty\n  hint: write the text in the archetype itself",
        ])
        let error = #expect(throws: Diagnostic.self) {
            try TextTemplate("Text\n{{#tags}}\n", path: "archetypes/entry.md", firstLine: 4, names: ["tags"])
        }
        #expect(error?.location?.line == 6)
    }
}
