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

    /// Creates a library, checking what no single file can: unique slugs and one weather
    /// report per sol.
    ///
    /// - Throws: A ``Diagnostic`` at the second of two objects that conflict.
    public init(crew: Crew, journalEntries: [JournalEntry], messages: [Message], weatherReports: [WeatherReport]) throws(Diagnostic) {
        var conflicts: [Diagnostic] = []
        self.init(crew: crew, journalEntries: journalEntries, messages: messages, weatherReports: weatherReports,
                  conflicts: &conflicts)
        if let first = conflicts.first { throw first }
    }

    /// Creates a library keeping the first of two conflicting objects (in path order) and
    /// leaving the other out, with an error for each in `conflicts` (`--keep-going`).
    public init(crew: Crew, journalEntries: [JournalEntry], messages: [Message], weatherReports: [WeatherReport],
                conflicts: inout [Diagnostic]) {
        self.crew = crew
        self.journalEntries = Self.firstOfEach(journalEntries, key: { $0.slug }, conflicts: &conflicts) { entry, other in
            .error("two journal entries have the slug '\(entry.slug)'", at: SourceLocation(path: entry.sourcePath, line: 1, column: 1),
                   hint: "the other is \(other); give one of them a different 'slug:'")
        }
        self.weatherReports = Self.firstOfEach(weatherReports, key: { $0.sol }, conflicts: &conflicts) { report, other in
            .error("two weather reports are for sol \(report.sol)", at: SourceLocation(path: report.sourcePath, line: 1, column: 1),
                   hint: "the other is \(other); a sol has one report, so merge them or fix the 'sol:' of one")
        }
        // Identifiers need no check: they derive from file paths, which are unique, and a
        // message's from its file, time, author and order among equals.
        self.messages = messages
    }

    /// `objects` in source-path order, keeping the first of those that share a key and
    /// recording `conflict(object, path of the first)` for each one left out.
    private static func firstOfEach<Object: FeedObject, Key: Hashable>(
        _ objects: [Object], key: (Object) -> Key, conflicts: inout [Diagnostic],
        conflict: (Object, String) -> Diagnostic
    ) -> [Object] {
        // Builds pass them in path order already; sorting is for other callers.
        let inPathOrder = zip(objects, objects.dropFirst()).allSatisfy { $0.sourcePath <= $1.sourcePath }
            ? objects : objects.sorted { $0.sourcePath < $1.sourcePath }
        var firsts: [Key: Int] = [:]
        firsts.reserveCapacity(inPathOrder.count)
        var kept: [Object] = []
        kept.reserveCapacity(inPathOrder.count)
        for (position, object) in inPathOrder.enumerated() {
            let objectKey = key(object)
            // One hash per object: conflicts are rare, so the first is put back only then.
            if let first = firsts.updateValue(position, forKey: objectKey) {
                firsts[objectKey] = first
                conflicts.append(conflict(object, inPathOrder[first].sourcePath))
                continue
            }
            kept.append(object)
        }
        return kept
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
