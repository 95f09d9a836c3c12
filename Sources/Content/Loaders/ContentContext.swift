import Diagnostics
import GFM
import Images
import MarsTime
import SiteConfig

/// What every loader needs to know about the site.
public struct ContentContext: Sendable {
    /// The site's configuration.
    public var config: SiteConfiguration {
        didSet { lastSol = config.mission.clock.datedSols.upperBound }
    }
    /// The crew, for resolving authors.
    public var crew: Crew
    /// The last sol an object may be on: the last with an Earth date (see
    /// ``MissionClock/datedSols``). Worked out once: every file's date is checked against it.
    public private(set) var lastSol: Int
    /// Where links to other content files lead; nil while not known (a build's first pass
    /// over its files), when such links are recorded and written where ``likelyTarget``
    /// says, or as any relative URL.
    public var links: ContentLinks?
    /// While ``links`` is not known, where a link to the content file at a site-relative path
    /// likely leads (a journal entry's page, or a weather report's place, from its file's
    /// name; a message log's first message, from its record once the logs are read), or nil. A file whose links all lead where this said is not parsed again once
    /// the targets are known: on a journal whose entries link to each other by file, that was
    /// every file, parsed twice.
    public var likelyTarget: (@Sendable (String) -> ContentLinks.Target?)?
    /// The size of the site's image at a path from its root (`img/crater.png`), a static
    /// file's or the theme's, when the file gives one: each image of the text is written
    /// with it (see ``MarkdownOptions/defersImages``). Nil: images go without sizes.
    public var imageSize: (@Sendable (String) -> ImageSize?)?

    /// Creates a context.
    public init(config: SiteConfiguration, crew: Crew) {
        self.config = config
        self.crew = crew
        lastSol = config.mission.clock.datedSols.upperBound
    }

    var clock: MissionClock { config.mission.clock }

    func markdownOptions(ids: TextIDs) -> MarkdownOptions {
        MarkdownOptions(allowsRawHTML: config.allowsRawHTML, footnotePrefix: ids.footnotePrefix, headingIDPrefix: ids.headingPrefix,
                        relativeURLBase: config.basePath, defersImages: true)
    }

    /// Resolves a crew id at `location`, or throws a diagnostic listing the known ids.
    func author(_ id: String, at location: SourceLocation) throws(Diagnostic) -> CrewMember {
        if let member = crew.member(id: id) { return member }
        // Ids are lowercase: `Vega` for `vega` is the likeliest slip.
        if let member = crew.members.first(where: { $0.id == id.lowercased() }) {
            throw Diagnostic.error("unknown crew id '\(Diagnostic.excerpt(id))'", at: location,
                                   hint: "crew ids are lowercase: did you mean '\(member.id)'?")
        }
        // `okoro:` or `@okoro`, as a chat writes its sender: an id has no such marks.
        let isMark = { (character: Character) in ":,;.@".contains(character) }
        let bare = String(id.drop(while: isMark).reversed().drop(while: isMark).reversed()).lowercased()
        if bare != id, let member = crew.member(id: bare) {
            throw Diagnostic.error("unknown crew id '\(Diagnostic.excerpt(id))'", at: location,
                                   hint: "write the crew id alone: did you mean '\(member.id)'?")
        }
        if let member = crew.member(named: id) {
            throw Diagnostic.error("unknown crew id '\(Diagnostic.excerpt(id))'", at: location,
                                   hint: "that is \(member.name)'s name; write the crew id: did you mean '\(member.id)'?")
        }
        let known = crew.members.map(\.id).joined(separator: ", ")
        throw Diagnostic.error("unknown crew id '\(Diagnostic.excerpt(id))'", at: location,
                               hint: crew.members.isEmpty ? "add '\(id)' to content/crew.yml"
                                   : "add '\(id)' to content/crew.yml, or use one of: \(known)")
    }

    /// The hint for a clock time written with one-digit parts (`7:30`): the time it likely
    /// means, as `written` shows it (`time: "07:30"`); nil when no padding makes it a time.
    static func paddingHint(for text: String, _ written: (String) -> String) -> String? {
        if let clock = MarsClockTime.twentyFourHour(text) {
            return "write it on the 24-hour clock: \(written(clock))"
        }
        guard let padded = MarsClockTime.padded(text) else { return nil }
        let parts = padded.count > 5 ? "hours, minutes and seconds" : "hours and minutes"
        return "write \(parts) with two digits each: \(written(padded))"
    }

    /// The sol, LMST and instant of a moment given either as a UTC instant or as sol + LMST.
    func moment(at instant: Instant) -> Moment {
        Moment(instant: instant, sol: clock.sol(containing: instant), lmst: clock.localMeanSolarTime(at: instant))
    }

    func moment(sol: Int, lmst: MarsClockTime) -> Moment {
        let instant = clock.instant(sol: sol, lmst: lmst)
        return Moment(instant: instant, sol: sol, lmst: lmst)
    }

    /// Checks that a sol is not before the mission's first sol.
    func checkSol(_ sol: Int, at location: SourceLocation, what: String) throws(Diagnostic) {
        guard sol >= config.mission.clock.firstSol else {
            throw Diagnostic.error("\(what) is on sol \(sol), before the mission's first sol \(config.mission.clock.firstSol)",
                                   at: location, hint: "sols are counted from the landing (mission.landing in marsgen.yml)")
        }
        // Every object is dated on Earth too, in ISO 8601, whose years end at 9999; a sol far
        // past that overflowed the clock's arithmetic and stopped the process.
        guard sol <= lastSol else {
            throw Diagnostic.error("\(what) is on sol \(sol), after the last sol that has an Earth date (sol \(lastSol), in the year 9999)",
                                   at: location, hint: "check the sol: it is counted from the landing (mission.landing in marsgen.yml)")
        }
    }
}

/// A moment on the mission clock.
struct Moment: Hashable, Sendable {
    var instant: Instant
    var sol: Int
    var lmst: MarsClockTime
}

extension FrontMatter {
    /// Reads `date`, or `sol` and `time`, as a moment on the mission clock.
    ///
    /// `sol` without `time` means local noon; `time` without `sol` is an error.
    func moment(in context: ContentContext, what: String) throws(Diagnostic) -> Moment {
        if let dateText = try fields.string("date") {
            if fields.contains("sol") || fields.contains("time") {
                throw Diagnostic.error("give either 'date' or 'sol' and 'time', not both", at: fields.keyLocation(of: "sol"),
                                       hint: "remove 'sol' and 'time', or remove 'date'")
            }
            guard let instant = Instant(iso8601: dateText) else {
                throw Diagnostic.error("'date' \(Self.dateProblem(dateText))",
                                       at: fields.location(of: "date"),
                                       hint: "write it like 2037-03-01T14:02:00Z (UTC) or 2037-03-01T09:02:00-05:00")
            }
            let moment = context.moment(at: instant)
            try context.checkSol(moment.sol, at: fields.location(of: "date"), what: what)
            return moment
        }
        if let sol = try fields.int("sol") {
            try context.checkSol(sol, at: fields.location(of: "sol"), what: what)
            var lmst = MarsClockTime.noon
            if let timeText = try fields.string("time") {
                guard let parsed = MarsClockTime(parsing: timeText) else {
                    throw Diagnostic.error("'time' must be a local mean solar time HH:MM or HH:MM:SS, not '\(Diagnostic.excerpt(timeText))'",
                                           at: fields.location(of: "time"),
                                           hint: ContentContext.paddingHint(for: timeText) { "time: \"\($0)\"" } ?? "for example time: \"14:02\"")
                }
                lmst = parsed
            }
            return context.moment(sol: sol, lmst: lmst)
        }
        if fields.contains("time") {
            throw Diagnostic.error("'time' needs a 'sol'", at: fields.keyLocation(of: "time"),
                                   hint: "add 'sol: N' for the sol this time is on, or use 'date' with a full UTC instant")
        }
        throw Diagnostic.error("missing date: give 'date' or 'sol' and 'time'", at: fields.startLocation,
                               hint: "add 'date: 2037-03-01T14:02:00Z', or 'sol: 12' and 'time: \"14:02\"'")
    }

    /// Why `text` is not an instant, in words, after "'date' ".
    static func dateProblem(_ text: String) -> String {
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]
        switch Instant.problem(parsing: text) {
        case .noSuchMonth(let month): return "'\(text)' has no month \(month)"
        case .noSuchDay(let year, let month, let days):
            return "'\(text)' names a day that does not exist: \(months[month - 1]) \(year) has \(days) days"
        case .noZone: return "'\(text)' has no time zone, so the instant is unknown"
        case .malformed, nil: return "is not a valid ISO 8601 instant with a zone: '\(text)'"
        }
    }
}
