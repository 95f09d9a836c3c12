import Content
import Diagnostics
import MarsTime
import MarsgenTesting
import Testing

@Suite("Content library: one entry per slug, one report per sol")
struct ContentLibraryTests {
    static let vega = CrewMember(id: "vega", name: "Ines Vega", role: "Commander")

    static func entry(_ path: String, slug: String) -> JournalEntry {
        JournalEntry(sourcePath: path, explicitTitle: "T", slug: slug, author: vega, instant: Instant(unixMillis: 0), sol: 1,
                     lmst: MarsClockTime(secondsOfSol: 0), tags: [], isDraft: false, bodyHTML: "")
    }

    static func report(_ path: String, sol: Int) -> WeatherReport {
        WeatherReport(sourcePath: path, instant: Instant(unixMillis: 0), sol: sol, lmst: MarsClockTime(secondsOfSol: 0),
                      temperature: -50, high: 1, low: -70, sunrise: MarsClockTime(hours: 6), sunset: MarsClockTime(hours: 18),
                      condition: .dustStorm, notesHTML: "")
    }

    @Test("on random sites with many repeats, the first of each slug and sol in path order is kept, and each other is an error naming it",
          arguments: [1, 2, 3, 4, 5])
    func firstOfEach(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let count = 200 + random.next(3_000)
        // Few distinct keys for some seeds (most objects conflict), many for others (few do).
        let keys = 1 + random.next(seed.isMultiple(of: 2) ? 50 : 5_000)
        var entries: [JournalEntry] = []
        var reports: [WeatherReport] = []
        for position in 0..<count {
            let path = "content/journal/\(String(position + 100_000)).md"
            entries.append(Self.entry(path, slug: "slug-\(random.next(keys))"))
            reports.append(Self.report("content/weather/\(String(position + 100_000)).md", sol: random.next(keys) - keys / 2))
        }
        // Out of path order for one seed: the library sorts them.
        if seed == 5 {
            entries.reverse()
            reports.shuffle(using: &random)
        }
        var conflicts: [Diagnostic] = []
        let library = ContentLibrary(crew: Crew(members: [Self.vega]), journalEntries: entries, messages: [], weatherReports: reports,
                                     conflicts: &conflicts)
        // What a dictionary of the keys gives, in path order.
        var expectedConflicts: [String] = []
        func expectedFirsts<Object: FeedObject, Key: Hashable>(_ objects: [Object], key: (Object) -> Key,
                                                               describe: (Object, String) -> String) -> [String] {
            var firsts: [Key: String] = [:]
            var kept: [String] = []
            for object in objects.sorted(by: { $0.sourcePath < $1.sourcePath }) {
                if let first = firsts[key(object)] {
                    expectedConflicts.append(describe(object, first))
                } else {
                    firsts[key(object)] = object.sourcePath
                    kept.append(object.sourcePath)
                }
            }
            return kept
        }
        let keptEntries = expectedFirsts(entries, key: \.slug) { "\($0.sourcePath): two journal entries have the slug '\($0.slug)'; \($1)" }
        let keptReports = expectedFirsts(reports, key: \.sol) { "\($0.sourcePath): two weather reports are for sol \($0.sol); \($1)" }
        #expect(library.journalEntries.map(\.sourcePath) == keptEntries)
        #expect(library.weatherReports.map(\.sourcePath) == keptReports)
        #expect(conflicts.count == count * 2 - keptEntries.count - keptReports.count)
        let described = conflicts.map { conflict in
            "\(conflict.location?.path ?? ""): \(conflict.message); \(conflict.hint?.split(separator: ";").first?.dropFirst("the other is ".count) ?? "")"
        }
        #expect(described == expectedConflicts)
        // Without conflicts, the objects are kept as they came (in path order).
        let distinct = ContentLibrary(crew: Crew(members: [Self.vega]),
                                      journalEntries: keptEntries.enumerated().map { Self.entry($1, slug: "s\($0)") },
                                      messages: [], weatherReports: [], conflicts: &conflicts)
        #expect(distinct.journalEntries.map(\.sourcePath) == keptEntries)
    }
}
