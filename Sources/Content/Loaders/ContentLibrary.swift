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

    /// Creates a library, checking what no single file can: unique slugs and identifiers.
    ///
    /// - Throws: A ``Diagnostic`` at the second of two entries with one slug.
    public init(crew: Crew, journalEntries: [JournalEntry], messages: [Message], weatherReports: [WeatherReport]) throws(Diagnostic) {
        self.crew = crew
        self.journalEntries = journalEntries.sorted { $0.sourcePath < $1.sourcePath }
        self.messages = messages
        self.weatherReports = weatherReports.sorted { $0.sourcePath < $1.sourcePath }
        var slugs: [String: String] = [:]
        for entry in self.journalEntries {
            if let other = slugs[entry.slug] {
                throw Diagnostic.error("two journal entries have the slug '\(entry.slug)'", at: SourceLocation(path: entry.sourcePath, line: 1, column: 1),
                                       hint: "the other is \(other); give one of them a different 'slug:'")
            }
            slugs[entry.slug] = entry.sourcePath
        }
        var reports: [Int: String] = [:]
        for report in self.weatherReports {
            if let other = reports[report.sol] {
                throw Diagnostic.error("two weather reports are for sol \(report.sol)", at: SourceLocation(path: report.sourcePath, line: 1, column: 1),
                                       hint: "the other is \(other); a sol has one report, so merge them or fix the 'sol:' of one")
            }
            reports[report.sol] = report.sourcePath
        }
        // Identifiers come from paths, so they are unique by construction; checked anyway,
        // because the diff and every page map depend on it.
        var identifiers: [String: String] = [:]
        for object in allObjects {
            if let other = identifiers[object.diffIdentifier] {
                throw Diagnostic.error("two objects have the identifier '\(object.diffIdentifier)'",
                                       at: SourceLocation(path: object.sourcePath, line: 1, column: 1),
                                       hint: "the other comes from \(other); rename one of the files")
            }
            identifiers[object.diffIdentifier] = object.sourcePath
        }
    }

    /// Every feed object, unordered.
    public var allObjects: [any FeedObject] {
        journalEntries as [any FeedObject] + messages as [any FeedObject] + weatherReports as [any FeedObject]
    }
}
