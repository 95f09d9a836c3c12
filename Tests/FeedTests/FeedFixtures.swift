import Content
import Diagnostics
import Feed
import MarsTime
import SiteConfig

enum FeedFixtures {
    static let clock = MissionClock(landing: Instant(iso8601: "2038-11-02T14:17:00Z") ?? Instant(unixMillis: 0),
                                    eastLongitude: -58.2, firstSol: 1)

    static func config(pageSize: Int = 3) -> SiteConfiguration {
        SiteConfiguration(title: "Test <Log>", baseURL: "https://example.org/", pageSize: pageSize,
                          mission: .init(name: "Test", clock: clock))
    }

    static let vega = CrewMember(id: "vega", name: "Ines Vega", role: "Commander")
    static let okoro = CrewMember(id: "okoro", name: "Daniel Okoro", role: "Engineer")
    static let crew = Crew(members: [vega, okoro])

    static func entry(_ slug: String, sol: Int, hour: Int = 10, author: CrewMember = vega, body: String = "<p>Body</p>\n",
                      title: String? = nil, tags: [String] = ["t"], aliases: [String] = []) -> JournalEntry {
        let lmst = MarsClockTime(secondsOfSol: Double(hour * 3600))
        return JournalEntry(sourcePath: "content/journal/\(slug).md", explicitTitle: title ?? "Entry \(slug)", slug: slug,
                            author: author, instant: clock.instant(sol: sol, lmst: lmst), sol: sol, lmst: lmst, tags: tags,
                            isDraft: false, bodyHTML: body, aliases: aliases)
    }

    static func message(sol: Int, hour: Int, author: CrewMember = okoro, body: String = "<p>Hi</p>\n") -> Message {
        let lmst = MarsClockTime(secondsOfSol: Double(hour * 3600))
        return Message(sourcePath: "content/messages/hab.md", channel: "hab", author: author,
                       instant: clock.instant(sol: sol, lmst: lmst), sol: sol, lmst: lmst, bodyHTML: body, line: 1, ordinal: 0)
    }

    static func weather(sol: Int, temperature: Double = -50) -> WeatherReport {
        let lmst = MarsClockTime(secondsOfSol: 0)
        return WeatherReport(sourcePath: "content/weather/sol-\(sol).md", instant: clock.instant(sol: sol, lmst: lmst), sol: sol,
                             lmst: lmst, temperature: temperature, high: 13, low: -69,
                             sunrise: MarsClockTime(hours: 5.7), sunset: MarsClockTime(hours: 17.97), condition: .dustStorm,
                             notesHTML: "")
    }

    static var context: FeedContext { FeedContext(links: SiteLinks(config: config())) }
}
