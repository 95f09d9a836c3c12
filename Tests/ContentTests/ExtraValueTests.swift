import Content
import Diagnostics
import SiteConfig
import Testing

/// `extra:`, values of the site's own for its templates, in marsgen.yml and front matter.
@Suite struct ExtraValueTests {
    func extra(_ yaml: String) throws -> [String: ExtraValue] {
        try YAMLMapping.parse(yaml, path: "content/journal/a.md", lineOffset: 1).extra("extra")
    }

    @Test("texts as written, unquoted true and false as flags, lists and mappings nested")
    func values() throws {
        let fields = try extra("""
            extra:
              mood: tense
              minutes: 95
              date: 2038-11-07
              outside: false
              quoted: "false"
              empty:
              suits: [orange, white]
              eva: { lead: vega, crew: [okoro, { id: arden, suited: true }] }
            """)
        #expect(fields == [
            "mood": .text("tense"), "minutes": .text("95"), "date": .text("2038-11-07"), "outside": .flag(false),
            "quoted": .text("false"), "empty": .text(""), "suits": .list([.text("orange"), .text("white")]),
            "eva": .mapping(["lead": .text("vega"), "crew": .list([.text("okoro"), .mapping(["id": .text("arden"), "suited": .flag(true)])])]),
        ])
        #expect(try extra("title: x\n").isEmpty && extra("extra:\n").isEmpty && extra("extra: ~\n").isEmpty)
    }

    @Test("extra that is not a mapping, or a key that is not a word, is an error at it")
    func errors() {
        let notMapping = expectDiagnostic { _ = try extra("extra: tense\n") }
        #expect(notMapping?.message == "'extra' must be a mapping of your own keys to values")
        #expect(notMapping?.location?.line == 2 && notMapping?.location?.column == 8)
        #expect(notMapping?.hint == "write each on a line of its own under 'extra:', indented, like '  mood: tense'")
        let list = expectDiagnostic { _ = try extra("extra:\n  - a\n") }
        #expect(list?.message == "'extra' must be a mapping of your own keys to values")
        let key = expectDiagnostic { _ = try extra("extra:\n  ok: 1\n  [a, b]: 2\n") }
        #expect(key?.message == "a key under 'extra' must be a word, not a list or a mapping")
        #expect(key?.location?.line == 4)
    }

    @Test("equal values digest alike, different ones differently: kinds, order of keys, nesting")
    func digest() {
        func digest(_ value: ExtraValue) -> [String] {
            var parts: [String] = []
            value.digest { parts.append($0) }
            return parts
        }
        let a = ExtraValue.mapping(["b": .text("1"), "a": .list([.flag(true)])])
        let b = ExtraValue.mapping(["a": .list([.flag(true)]), "b": .text("1")])
        #expect(digest(a) == digest(b))
        let different: [ExtraValue] = [.text("true"), .flag(true), .list([.text("true")]), .mapping(["true": .text("")]),
                                       .list([.text("a"), .text("b")]), .list([.text("ab")]), .list([.list([.text("a")]), .text("b")])]
        #expect(Set(different.map(digest)).count == different.count)
    }

    @Test("an entry's extra is read, changes its hash, and is no unknown key; the site's too")
    func entryAndSite() throws {
        func entry(_ matter: String) throws -> (JournalEntry, DiagnosticLog) {
            var (log, links) = (DiagnosticLog(), LinkUses())
            let file = SourceFile(path: "content/journal/down.md", text: "---\nauthor: vega\nsol: 1\n\(matter)---\nWe are down.\n")
            return (try JournalLoader.load(file, context: ContentFixtures.context, log: &log, links: &links), log)
        }
        let (tense, log) = try entry("extra:\n  mood: tense\n")
        #expect(tense.extra == ["mood": .text("tense")] && log.entries.isEmpty)
        #expect(try entry("extra:\n  mood: calm\n").0.contentHash != tense.contentHash)
        #expect(try entry("").0.contentHash != tense.contentHash)
        #expect(try entry("").0.extra.isEmpty)
        // A weather report's too.
        func report(_ matter: String) throws -> (WeatherReport, DiagnosticLog) {
            var (log, links) = (DiagnosticLog(), LinkUses())
            let file = SourceFile(path: "content/weather/sol-3.md", text: "---\nsol: 3\ntemperature: -46\nhigh: -13\nlow: -81\n"
                + "sunrise: \"05:57\"\nsunset: \"17:50\"\ncondition: windy\n\(matter)---\n")
            return (try WeatherLoader.load(file, context: ContentFixtures.context, log: &log, links: &links), log)
        }
        let (dusty, weatherLog) = try report("extra:\n  tau: 0.9\n")
        #expect(dusty.extra == ["tau": .text("0.9")] && weatherLog.entries.isEmpty)
        #expect(try report("extra:\n  tau: 1.2\n").0.contentHash != dusty.contentHash)
        #expect(try report("").0.contentHash != dusty.contentHash)
        var siteLog = DiagnosticLog()
        let config = try SiteConfiguration.parse(ContentFixtures.configText + "\nextra:\n  crew_size: 5\n", log: &siteLog)
        #expect(config.extra == ["crew_size": .text("5")] && siteLog.entries.isEmpty)
        // A setting: another value is another digest.
        let other = try SiteConfiguration.parse(ContentFixtures.configText + "\nextra:\n  crew_size: 6\n", log: &siteLog)
        #expect(config.settingsDigest != other.settingsDigest)
    }
}
