import Diagnostics
import Feed

/// What a build did: objects by kind, pages and files written, warnings, and time per step.
public struct BuildReport: Sendable {
    /// Journal entries built.
    public var journalEntries = 0
    /// Messages built.
    public var messages = 0
    /// Weather reports built.
    public var weatherReports = 0
    /// Pages written (HTML, Atom, sitemap).
    public var pagesWritten = 0
    /// Static and theme files written.
    public var filesCopied = 0
    /// Warnings found on the way.
    public var warnings: [Diagnostic] = []
    /// Each step's name and duration, in order.
    public var steps: [(name: String, duration: Duration)] = []
    /// The whole build's duration.
    public var duration: Duration = .zero

    /// One line: `Built 34 journal entries, 45 messages, 14 weather reports → 120 pages, 3 files in 85 ms`.
    public var summary: String {
        "Built \(plural(journalEntries, "journal entry", "journal entries")), \(plural(messages, "message", "messages")), "
            + "\(plural(weatherReports, "weather report", "weather reports")) → \(plural(pagesWritten, "page", "pages")), "
            + "\(plural(filesCopied, "file", "files")) in \(milliseconds(duration)) ms"
    }
}

func plural(_ count: Int, _ one: String, _ many: String) -> String {
    "\(count) \(count == 1 ? one : many)"
}

/// Whole milliseconds, for people.
public func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
}
