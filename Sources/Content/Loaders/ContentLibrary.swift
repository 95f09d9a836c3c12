import Diagnostics

/// Everything loaded from `content/`: the crew and every feed object.
public struct ContentLibrary: Sendable {
    /// The crew.
    public var crew: Crew
    /// Journal entries, in source-path order.
    public var journalEntries: [JournalEntry]
    /// Messages, in source-path then file order.
    public var messages: [Message]
    /// Weather reports, in source-path order.
    public var weatherReports: [WeatherReport]
    /// The pages of their own (`content/pages/`), in source-path order. Not feed objects.
    public var standalonePages: [StandalonePage]

    /// Creates a library, checking what no single file can: unique slugs and one weather
    /// report per sol.
    ///
    /// - Throws: A ``Diagnostic`` at the second of two objects that conflict.
    public init(crew: Crew, journalEntries: [JournalEntry], messages: [Message], weatherReports: [WeatherReport],
                standalonePages: [StandalonePage] = []) throws(Diagnostic) {
        var conflicts: [Diagnostic] = []
        self.init(crew: crew, journalEntries: journalEntries, messages: messages, weatherReports: weatherReports,
                  standalonePages: standalonePages, conflicts: &conflicts)
        if let first = conflicts.first { throw first }
    }

    /// Creates a library keeping the first of two conflicting objects (in path order) and
    /// leaving the other out, with an error for each in `conflicts` (`--keep-going`).
    public init(crew: Crew, journalEntries: [JournalEntry], messages: [Message], weatherReports: [WeatherReport],
                standalonePages: [StandalonePage] = [], conflicts: inout [Diagnostic]) {
        self.crew = crew
        let entries = Self.firstOfEach(journalEntries, fingerprint: { Self.fingerprint(of: $0.slug) },
                                       sameKey: { $0.slug == $1.slug }, conflicts: &conflicts) { entry, other in
            .error("two journal entries have the slug '\(entry.slug)'", at: SourceLocation(path: entry.sourcePath, line: 1, column: 1),
                   hint: "the other is \(other); give one of them a different 'slug:'")
        }
        self.journalEntries = Self.withUniqueAliases(entries, conflicts: &conflicts)
        self.weatherReports = Self.firstOfEach(weatherReports, fingerprint: { UInt64(bitPattern: Int64($0.sol)) },
                                               sameKey: { $0.sol == $1.sol }, conflicts: &conflicts) { report, other in
            .error("two weather reports are for sol \(report.sol)", at: SourceLocation(path: report.sourcePath, line: 1, column: 1),
                   hint: "the other is \(other); a sol has one report, so merge them or fix the 'sol:' of one")
        }
        // Identifiers need no check: they derive from file paths, which are unique, and a
        // message's from its file, time, author and order among equals.
        self.messages = messages
        self.standalonePages = Self.withUniquePaths(standalonePages, besides: self.journalEntries, conflicts: &conflicts)
    }

    /// `pages` (in path order) without those at the path of an earlier one or of an entry's
    /// alias, or with an alias where another page or alias is (both would be written to one
    /// file, or one would be a file where the other needs a folder), recording a conflict
    /// for each.
    private static func withUniquePaths(_ pages: [StandalonePage], besides entries: [JournalEntry],
                                        conflicts: inout [Diagnostic]) -> [StandalonePage] {
        guard !pages.isEmpty else { return pages }
        var places = OutputPlaces()
        for entry in entries {
            for alias in entry.aliases { places.claim(alias, by: "an alias of \(entry.sourcePath)") }
        }
        // Pages' own paths first: a page keeps its place before another's alias takes it.
        var atTheirPaths: [StandalonePage] = []
        for page in pages.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            let place = page.path + "/"
            if let conflict = places.conflict(with: place) {
                conflicts.append(.error(conflict.message(at: place, same: "two pages would be at /\(place)"),
                                        at: SourceLocation(path: page.sourcePath, line: 1, column: 1),
                                        hint: "the other is \(conflict.owner); give this one another path with 'slug:'"))
                continue
            }
            places.claim(place, by: "the page \(page.sourcePath)")
            atTheirPaths.append(page)
        }
        var kept: [StandalonePage] = []
        for page in atTheirPaths {
            if let (alias, conflict) = page.aliases.lazy.compactMap({ alias in places.conflict(with: alias).map { (alias, $0) } }).first {
                conflicts.append(.error(conflict.message(at: alias, same: "two pages would be at /\(alias)"),
                                        at: SourceLocation(path: page.sourcePath, line: 1, column: 1),
                                        hint: "the other is \(conflict.owner); an old address leads to one page: remove it from this page's aliases"))
                continue
            }
            for alias in page.aliases { places.claim(alias, by: "an alias of \(page.sourcePath)") }
            kept.append(page)
        }
        return kept
    }

    /// `objects` in source-path order, keeping the first of those that share a key and
    /// recording `conflict(object, path of the first)` for each one left out.
    ///
    /// Every build checks every entry's slug, so keys are found by a 64-bit `fingerprint`
    /// in an open-addressed table of fingerprints and positions, not by hashing each key
    /// into a dictionary (a tenth of the time at 10,000 entries); `sameKey` decides when
    /// two fingerprints are equal. The objects are copied only once one is left out.
    private static func firstOfEach<Object: FeedObject>(
        _ objects: [Object], fingerprint: (Object) -> UInt64, sameKey: (Object, Object) -> Bool,
        conflicts: inout [Diagnostic], conflict: (Object, String) -> Diagnostic
    ) -> [Object] {
        // Builds pass them in path order already; sorting is for other callers.
        let inPathOrder = zip(objects, objects.dropFirst()).allSatisfy { $0.sourcePath <= $1.sourcePath }
            ? objects : objects.sorted { $0.sourcePath < $1.sourcePath }
        // At most half full; a slot holds a position plus one (0: empty).
        var capacity = 16
        while capacity < 2 * inPathOrder.count { capacity *= 2 }
        let mask = capacity - 1
        var fingerprints = [UInt64](repeating: 0, count: capacity)
        var slots = [Int32](repeating: 0, count: capacity)
        var kept: [Object]?
        for (position, object) in inPathOrder.enumerated() {
            let print = fingerprint(object)
            // The fingerprint's bits mixed, so that keys alike (sols in a row) spread out.
            var slot = Int(truncatingIfNeeded: (print &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            var first: Int?
            while slots[slot] != 0 {
                let other = Int(slots[slot]) - 1
                if fingerprints[slot] == print, sameKey(object, inPathOrder[other]) {
                    first = other
                    break
                }
                slot = (slot + 1) & mask
            }
            if let first {
                if kept == nil { kept = Array(inPathOrder[..<position]) }
                conflicts.append(conflict(object, inPathOrder[first].sourcePath))
                continue
            }
            fingerprints[slot] = print
            slots[slot] = Int32(truncatingIfNeeded: position + 1)
            kept?.append(object)
        }
        return kept ?? inPathOrder
    }

    /// `entries` (in path order) without those that give an alias an earlier one has (or one
    /// written to its file, or a file where it needs a folder), recording a conflict for
    /// each. Few entries have aliases: the others pass untouched.
    private static func withUniqueAliases(_ entries: [JournalEntry], conflicts: inout [Diagnostic]) -> [JournalEntry] {
        var places = OutputPlaces()
        var clashing: Set<ObjectIdentifier> = []
        for entry in entries where !entry.aliases.isEmpty {
            if let (alias, conflict) = entry.aliases.lazy.compactMap({ alias in places.conflict(with: alias).map { (alias, $0) } }).first {
                conflicts.append(.error(conflict.message(at: alias, same: "two journal entries have the alias '/\(alias)'"),
                                        at: SourceLocation(path: entry.sourcePath, line: 1, column: 1),
                                        hint: "the other is \(conflict.owner); an old address leads to one entry: remove it from one of them"))
                clashing.insert(ObjectIdentifier(entry))
                continue
            }
            for alias in entry.aliases { places.claim(alias, by: entry.sourcePath) }
        }
        return clashing.isEmpty ? entries : entries.filter { !clashing.contains(ObjectIdentifier($0)) }
    }

    /// A 64-bit hash of `key`'s bytes. Slugs are ASCII, so equal slugs have equal bytes.
    private static func fingerprint(of key: String) -> UInt64 {
        var hash = ContentHash()
        hash.combine(key)
        return hash.value
    }

    /// Every feed object: the journal entries, then the messages, then the weather reports,
    /// each in the order above. The page planner names objects by their position here.
    public var allObjects: [any FeedObject] {
        journalEntries as [any FeedObject] + messages as [any FeedObject] + weatherReports as [any FeedObject]
    }

    /// The object at `index` in ``allObjects``, without making that array.
    public func object(at index: Int) -> any FeedObject {
        if index < journalEntries.count { return journalEntries[index] }
        let afterEntries = index - journalEntries.count
        if afterEntries < messages.count { return messages[afterEntries] }
        return weatherReports[afterEntries - messages.count]
    }
}
