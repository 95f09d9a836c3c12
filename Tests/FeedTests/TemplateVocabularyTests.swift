import Content
import Diagnostics
import Feed
import Foundation
import MarsTime
@testable import Rendering
import SiteConfig
import Testing

/// The names marsgen gives templates are one list (``TemplateVocabulary``), which a site's
/// templates are checked against: these keep the list and the contexts the same.
@Suite struct TemplateVocabularyTests {
    /// Every name the contexts rendered held, at any depth, with a template that got it.
    final class SeenNames: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String: String] = [:]

        func record(_ template: String, _ context: TemplateContext) {
            var found: Set<String> = []
            Self.collect(context, into: &found)
            lock.withLock {
                for name in found where names[name] == nil { names[name] = template }
            }
        }

        var all: [String: String] { lock.withLock { names } }

        static func collect(_ value: Any, into names: inout Set<String>) {
            if let dictionary = value as? [String: Any] {
                for (key, value) in dictionary {
                    names.insert(key)
                    collect(value, into: &names)
                }
            } else if let array = value as? [Any] {
                for item in array { collect(item, into: &names) }
            }
        }
    }

    /// A site that gives every kind of value: entries with and without titles and tags, a
    /// draft, messages on two channels, weather with and without notes, a crew member with
    /// no role and one who wrote nothing, more objects than a feed page holds, a description.
    func richSite() throws -> ContentLibrary {
        let quiet = CrewMember(id: "sato", name: "Aiko Sato", role: "")
        let crew = Crew(members: [FeedFixtures.vega, FeedFixtures.okoro, quiet])
        var entries = (0..<7).map { FeedFixtures.entry("e\($0)", sol: 1 + $0, title: $0 == 2 ? nil : "Entry \($0)") }
        entries.append(JournalEntry(sourcePath: "content/journal/draft.md", explicitTitle: "Draft", slug: "draft",
                                    author: quiet, instant: FeedFixtures.clock.instant(sol: 3, lmst: MarsClockTime(hours: 9)),
                                    sol: 3, lmst: MarsClockTime(hours: 9), tags: [], isDraft: true, bodyHTML: "<p>Soon</p>\n"))
        var messages = (0..<5).map { FeedFixtures.message(sol: 2 + $0, hour: 14) }
        messages.append(Message(sourcePath: "content/messages/ops.md", channel: "ops", author: FeedFixtures.vega,
                                instant: FeedFixtures.clock.instant(sol: 4, lmst: MarsClockTime(hours: 15)), sol: 4,
                                lmst: MarsClockTime(hours: 15), bodyHTML: "<p>Copy</p>\n", line: 1, ordinal: 0))
        let lmst = MarsClockTime(secondsOfSol: 0)
        let noted = WeatherReport(sourcePath: "content/weather/sol-5.md", instant: FeedFixtures.clock.instant(sol: 5, lmst: lmst),
                                  sol: 5, lmst: lmst, temperature: -40, high: 10, low: -70, sunrise: MarsClockTime(hours: 5.7),
                                  sunset: MarsClockTime(hours: 17.9), condition: .clear, notesHTML: "<p>Calm.</p>\n")
        return try ContentLibrary(crew: crew, journalEntries: entries, messages: messages,
                                  weatherReports: [FeedFixtures.weather(sol: 2), noted])
    }

    /// Renders every page of `library` planned with `config`, noting the names of every context.
    /// The sitemap is rendered through its template only when the site has its own.
    func renderEveryPage(_ library: ContentLibrary, config: SiteConfiguration, into seen: SeenNames) throws {
        let sitemap = try #require(DefaultTheme.templates["sitemap"])
        var templates = try TemplateLibrary(overrides: ["sitemap": .init(text: sitemap, path: "templates/sitemap.mustache")])
        templates.renderObserver = { seen.record($0, $1) }
        let adapter = FeedAdapter.standard(context: FeedContext(links: SiteLinks(config: config)))
        let objects = Dictionary(library.allObjects.map { ($0.diffIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        var renderer = PageRenderer(templates: templates) { id throws(Diagnostic) in
            try objects[id].map { object throws(Diagnostic) in try adapter.section(for: object) }
        }
        for page in PagePlanner(library: library, config: config).pages() {
            _ = try renderer.render(page)
        }
    }

    @Test("every name a context holds is in the vocabulary, and every name in the vocabulary is in some context")
    func vocabularyMatchesContexts() throws {
        let seen = SeenNames()
        let library = try richSite()
        var config = FeedFixtures.config(pageSize: 3)
        config.description = "A log <of> the mission"
        try renderEveryPage(library, config: config, into: seen)
        // A sitemap split into parts, for the index's `sitemaps`.
        config.sitemapMaxURLs = 5
        try renderEveryPage(library, config: config, into: seen)
        let given = seen.all
        let unlisted = given.keys.filter { !TemplateVocabulary.names.contains($0) }.sorted().map { "\($0) (\(given[$0] ?? ""))" }
        #expect(unlisted.isEmpty, "given to templates but not in TemplateVocabulary.names: \(unlisted)")
        let neverGiven = TemplateVocabulary.names.subtracting(given.keys).sorted()
        #expect(neverGiven.isEmpty, "in TemplateVocabulary.names but in no context: \(neverGiven)")
    }

    @Test("the built-in templates use only names and transforms the vocabulary lists")
    func builtInTemplatesUseTheVocabulary() throws {
        for (name, text) in DefaultTheme.templates.sorted(by: { $0.key < $1.key }) {
            let unknown = TemplateLibrary.unknownNames(in: TemplateLibrary.tags(in: text), path: name)
            #expect(unknown.isEmpty, "\(name): \(unknown.map(\.name))")
        }
        #expect(try TemplateLibrary().unknownNames.isEmpty)
    }

    @Test("a site's template naming a value or transform marsgen does not have is found at its tag, once, with the likely name")
    func unknownNamesFound() throws {
        let text = """
            <p>{{sendr}} {{ sendr }} {{site.titel}} {{#sols.0}}{{sol}}{{/sols.0}}</p>
            {{#tagz}}{{name}}{{/tagz}}{{^tagz}}-{{/tagz}} {{{bdy}}} {{& body}} {{.}} {{#first()}}{{index()}}{{/first()}}
            {{upercased(reversed(sender))}} {{lowercased(chanel)}} {{! sendr2 }} {{$block}}{{/block}} {{> footer}}
            {{=<% %>=}}<%zzz%> <%>*partialName%>
            """
        let library = try TemplateLibrary(overrides: [
            "cell-message": .init(text: text, path: "templates/cell-message.mustache"),
            "partialName": .init(text: "x", path: "templates/partialName.mustache"),
        ])
        let found = library.unknownNames.map { "\($0.location.line):\($0.location.column) \($0.isTransform ? "(" : "")\($0.name) \($0.suggestion ?? "-")" }
        #expect(found == [
            "1:4 sendr sender", "1:26 titel title", "2:1 tagz tags", "2:47 bdy body",
            "3:1 (upercased uppercased", "3:33 chanel channel", "4:12 zzz -", "4:20 partialName -",
        ])
        #expect(library.unknownNames.allSatisfy { $0.location.path == "templates/cell-message.mustache" })
        // The built-in templates are not checked again when a site overrides another.
        #expect(try TemplateLibrary(overrides: ["footer": .init(text: "{{site.title}}", path: "templates/footer.mustache")])
            .unknownNames.isEmpty)
    }
}
