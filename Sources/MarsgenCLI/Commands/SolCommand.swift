import ArgumentParser
import Diagnostics
import Foundation
import MarsTime
import Site
import SiteConfig

/// `marsgen sol`: Mars time of an instant, or the instant of a sol and local time.
struct SolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sol",
        abstract: "Print the Mars time of an instant (Mars24), or the UTC instants of a sol.",
        discussion: """
            Mission flags default to the site's marsgen.yml when run in a site.
              marsgen sol --at 2004-01-03T13:46:31Z --longitude -184.702
              marsgen sol --sol 12 --lmst 14:02
              marsgen sol --sol 12            (when it begins, its noon, when it ends)
            """
    )

    @Option(name: .long, help: ArgumentHelp("The UTC instant (ISO 8601 with zone); default: now.", valueName: "instant"))
    var at: String?

    @Option(name: .long, help: ArgumentHelp("Landing instant (ISO 8601 with zone).", valueName: "instant"))
    var landing: String?

    @Option(name: .long, help: ArgumentHelp(
        "Longitude of the mission clock: east-positive degrees, or with E/W (184.702W, --longitude=-184.702).",
        valueName: "deg"))
    var longitude: String?

    @Option(name: .customLong("first-sol"), help: ArgumentHelp("Number of the landing sol (0 or 1).", valueName: "n"))
    var firstSol: Int?

    @Option(name: .long, help: ArgumentHelp("A mission sol, to convert to UTC: at --lmst, or its start, noon and end.", valueName: "n"))
    var sol: Int?

    @Option(name: .long, help: ArgumentHelp("A local mean solar time HH:MM[:SS], with --sol.", valueName: "time"))
    var lmst: String?

    @Option(name: .long, help: ArgumentHelp("The site folder whose marsgen.yml gives mission defaults.", valueName: "dir"))
    var source = "."

    @Flag(name: .long, help: "Print one JSON object.")
    var json = false

    func validate() throws {
        if sol == nil, lmst != nil { throw ValidationError("--lmst needs --sol: the local time on which sol?") }
        if sol != nil, at != nil { throw ValidationError("give --at, or --sol (with or without --lmst), not both") }
        if let firstSol, firstSol != 0, firstSol != 1 { throw ValidationError("--first-sol must be 0 or 1") }
        if let at, Instant(iso8601: at) == nil {
            throw ValidationError("--at must be an ISO 8601 instant with a zone, like 2037-03-01T14:02:00Z")
        }
        if let landing, Instant(iso8601: landing) == nil {
            throw ValidationError("--landing must be an ISO 8601 instant with a zone, like 2037-02-14T09:32:00Z")
        }
        if let lmst, MarsClockTime(parsing: lmst) == nil {
            // `7:30`: the time it likely means, written with two digits a part.
            let meant = MarsClockTime.padded(lmst).map { " (did you mean '\($0)'?)" } ?? ""
            throw ValidationError("--lmst must be HH:MM or HH:MM:SS, not '\(lmst)'\(meant)")
        }
        if let longitude, Self.eastLongitude(parsing: longitude) == nil {
            throw ValidationError("--longitude must be degrees between -360 and 360, like 137.4, -35.8 or 184.702W")
        }
    }

    /// Parses `137.4`, `-35.8`, `35.8W` or `137.4E` as east-positive degrees, within ±360
    /// as the site's `longitude` is (`nan` or `1e308` made a clock that stopped the process).
    static func eastLongitude(parsing text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        var value: Double?
        if let last = trimmed.last, last == "E" || last == "W" {
            guard let degrees = Double(trimmed.dropLast()), degrees >= 0 else { return nil }
            value = last == "W" ? -degrees : degrees
        } else {
            value = Double(trimmed)
        }
        guard let value, value.isFinite, (-360...360).contains(value) else { return nil }
        return value
    }

    func run() throws {
        let mission = try resolveMission()
        if let sol {
            guard let clock = mission.clock else {
                throw ValidationError("--sol needs a mission: pass --landing and --longitude, or run in a site")
            }
            guard clock.datedSols.contains(sol) else {
                throw ValidationError("--sol must be between \(clock.datedSols.lowerBound) and \(clock.datedSols.upperBound): the sols with an Earth date in the years 0001–9999")
            }
            guard let lmstText = lmst else {
                printSpan(of: sol, clock: clock, missionName: mission.name)
                return
            }
            guard let time = MarsClockTime(parsing: lmstText) else {
                throw ValidationError("--lmst must be HH:MM or HH:MM:SS, not '\(lmstText)'")
            }
            let instant = clock.instant(sol: sol, lmst: time)
            if json {
                Console.out("{\"sol\":\(sol),\"lmst\":\"\(time)\",\"utc\":\"\(instant.iso8601)\"}")
            } else {
                Console.out(instant.iso8601)
            }
            return
        }
        let instant: Instant
        if let at {
            guard let parsed = Instant(iso8601: at) else {
                throw ValidationError("--at must be an ISO 8601 instant with a zone, like 2037-03-01T14:02:00Z")
            }
            instant = parsed
        } else {
            instant = .now
        }
        let msd = Mars24.marsSolDate(at: instant)
        let mtc = Mars24.coordinatedMarsTime(at: instant)
        let ls = Mars24.solarLongitude(at: instant)
        let solNumber = mission.clock?.sol(containing: instant)
        let localTime = mission.clock?.localMeanSolarTime(at: instant)
            ?? Mars24.localMeanSolarTime(at: instant, eastLongitude: mission.longitude)
        if json {
            let solText = solNumber.map(String.init) ?? "null"
            Console.out("{\"utc\":\"\(instant.iso8601)\",\"msd\":\(fixed(msd, 5)),\"mtc\":\"\(mtc)\",\"ls\":\(fixed(ls, 5)),"
                        + "\"sol\":\(solText),\"lmst\":\"\(localTime)\"}")
            return
        }
        Console.out("UTC   \(instant.iso8601)")
        Console.out("MSD   \(fixed(msd, 5))")
        Console.out("MTC   \(mtc)")
        Console.out("Ls    \(fixed(ls, 5))°")
        if let solNumber { Console.out("Sol   \(solNumber)\(mission.name.map { "  (\($0))" } ?? "")") }
        Console.out("LMST  \(localTime)  (at \(describeLongitude(mission.longitude)))")
    }

    /// Prints when `sol` begins (local midnight), its noon (what a journal entry or a
    /// report dated by its sol alone is given) and when the next sol begins, in UTC.
    func printSpan(of sol: Int, clock: MissionClock, missionName: String?) {
        let start = clock.start(ofSol: sol)
        let noon = clock.instant(sol: sol, lmst: .noon)
        let end = clock.start(ofSol: sol + 1)
        if json {
            Console.out("{\"sol\":\(sol),\"start\":\"\(start.iso8601)\",\"noon\":\"\(noon.iso8601)\",\"end\":\"\(end.iso8601)\"}")
            return
        }
        Console.out("Sol    \(sol)\(missionName.map { "  (\($0))" } ?? "")")
        Console.out("Start  \(start.iso8601)  (LMST 00:00)")
        Console.out("Noon   \(noon.iso8601)  (LMST 12:00, a time given by its sol alone)")
        Console.out("End    \(end.iso8601)  (sol \(sol + 1) begins)")
    }

    struct ResolvedMission {
        var name: String?
        var clock: MissionClock?
        var longitude: Double
    }

    func resolveMission() throws -> ResolvedMission {
        // As a build reads it: a marsgen.yml that cannot be read is an error, not no mission.
        let config: SiteConfiguration?
        do {
            config = try SiteBuilder.configuration(ofSiteIn: source)
        } catch {
            Console.report(error, shownAfter: Console.shownFolder(source))
            throw ExitCode.failure
        }
        let siteClock = config?.mission.clock
        var landingInstant = siteClock?.landing
        if let landing {
            guard let parsed = Instant(iso8601: landing) else {
                throw ValidationError("--landing must be an ISO 8601 instant with a zone, like 2037-02-14T09:32:00Z")
            }
            landingInstant = parsed
        }
        let eastLongitude = longitude.flatMap(Self.eastLongitude(parsing:)) ?? siteClock?.eastLongitude ?? 0
        let clock = landingInstant.map {
            MissionClock(landing: $0, eastLongitude: eastLongitude, firstSol: firstSol ?? siteClock?.firstSol ?? 0)
        }
        return ResolvedMission(name: landing == nil ? config?.mission.name : nil, clock: clock, longitude: eastLongitude)
    }

    func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    func describeLongitude(_ degrees: Double) -> String {
        let magnitude = String(format: "%g", abs(degrees))
        return degrees < 0 ? "\(magnitude)°W" : "\(magnitude)°E"
    }
}
