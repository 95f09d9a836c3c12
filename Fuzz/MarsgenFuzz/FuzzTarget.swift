import Content
import Diagnostics
import MarsTime
import SiteConfig

/// One fuzz input through the readers that take raw user text: the front-matter reader,
/// the three content loaders (a journal entry, a message log, a weather report, each with
/// its dates on the mission clock) and the Mars-time parsers. Errors are the expected
/// answer to bad input; a crash, a hang or a broken invariant is a bug.
enum FuzzTarget {
    static let context: ContentContext = {
        var log = DiagnosticLog()
        // A fixed, valid site: the fuzzed text is the only variable.
        let config = try? SiteConfiguration.parse("""
            title: Fuzz
            base_url: https://example.org/mission/
            unsafe_html: true
            mission:
              name: Fuzz
              landing: 2038-11-02T14:17:00Z
              longitude: -58.2
              first_sol: 1
            """, log: &log)
        let crew = try? CrewLoader.load(SourceFile(path: "content/crew.yml", text: "vega:\n  name: Ines Vega\n  role: Commander\n"),
                                        log: &log)
        guard let config, let crew else { preconditionFailure("the fuzz target's own site does not load") }
        return ContentContext(config: config, crew: crew)
    }()

    /// ``context`` with a few targets for links between content files.
    static let linkingContext: ContentContext = {
        var linking = context
        linking.links = ContentLinks(targets: [
            "content/journal/2038/a.md": .init(url: "/mission/journal/a/", page: "/mission/journal/a/"),
            "content/journal/b.md": .init(url: "/mission/journal/b/", page: "/mission/journal/b/", isDraft: true),
            "content/messages/log.md": .init(url: "/mission/sol/3/#m-1", page: "/mission/sol/3/"),
        ])
        return linking
    }()

    static func run(_ bytes: [UInt8]) {
        guard let file = try? SourceFile(path: "content/messages/fuzz.md", bytes: bytes) else { return }
        var log = DiagnosticLog()
        _ = try? FrontMatter(splitting: file)
        _ = try? FrontMatter(splitting: file, isRequired: false)
        _ = try? MessageLogLoader.load(file, context: context, log: &log)
        _ = try? JournalLoader.load(SourceFile(path: "content/journal/fuzz.md", text: file.text), context: context, log: &log)
        // Links to other content files, written as their pages once the targets are known.
        var links = LinkUses()
        _ = try? JournalLoader.load(SourceFile(path: "content/journal/2038/fuzz.md", text: file.text), context: linkingContext,
                                    log: &log, links: &links)
        _ = try? WeatherLoader.load(SourceFile(path: "content/weather/fuzz.md", text: file.text), context: context, log: &log)
        for line in file.text.split(separator: "\n", maxSplits: 64).prefix(64) {
            let text = String(line.prefix(200))
            if let instant = Instant(iso8601: text) {
                // What was read, written out and read again, is the same instant.
                let again = Instant(iso8601: instant.iso8601)
                precondition(again == instant, "ISO 8601 round trip changed \(text) into \(again.map { $0.iso8601 } ?? "nothing")")
                let clock = context.config.mission.clock
                let lmst = clock.localMeanSolarTime(at: instant)
                precondition((0..<86_400).contains(lmst.secondsOfSol), "LMST out of range for \(text)")
                _ = Mars24.solarLongitude(at: instant)
            }
            if let time = MarsClockTime(parsing: text) {
                precondition(MarsClockTime(parsing: time.description) == time, "LMST round trip failed for \(text)")
            }
        }
    }
}
