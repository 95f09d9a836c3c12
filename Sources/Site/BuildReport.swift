import Diagnostics
import Feed

/// What a build did: objects by kind, pages written, deleted and left alone, warnings,
/// reasons, and time per step.
public struct BuildReport: Sendable {
    /// Journal entries built.
    public var journalEntries = 0
    /// Messages built.
    public var messages = 0
    /// Weather reports built.
    public var weatherReports = 0
    /// Whether this was a full build (no usable build state, or `--clean`).
    public var isFullBuild = true
    /// Why the build was full, when it had to be (`build state is unreadable`).
    public var notice: String?
    /// Pages (HTML, Atom, sitemap) whose bytes were written.
    public var pagesWritten = 0
    /// Pages and files deleted because the build no longer produces them.
    public var filesDeleted = 0
    /// Pages the build produced with the same bytes as before, left untouched.
    public var pagesUnchanged = 0
    /// Static and theme files written.
    public var filesCopied = 0
    /// Output-relative paths written, sorted.
    public var written: [String] = []
    /// Output-relative paths deleted, sorted.
    public var deleted: [String] = []
    /// One line per written or deleted file with its reason (`journal/dust-storm: updated`).
    public var explanations: [String] = []
    /// Warnings found on the way, by file, line and column (those without a place first).
    public var warnings: [Diagnostic] = []
    /// The errors of the files left out with `--keep-going`, by file, line and column; empty otherwise.
    public var errors: [Diagnostic] = []
    /// Where the site lives under its host (`/`, or `/log/` when `base_url` has a path).
    public var basePath = "/"
    /// Each step's name and duration, in order.
    public var steps: [(name: String, duration: Duration)] = []
    /// The whole build's duration.
    public var duration: Duration = .zero

    /// One line: `Built 31 journal entries, 47 messages, 14 weather reports → 3 pages written, 0 deleted,
    /// 58 unchanged, 0 files copied in 14 ms`.
    public var summary: String {
        "Built \(plural(journalEntries, "journal entry", "journal entries")), \(plural(messages, "message", "messages")), "
            + "\(plural(weatherReports, "weather report", "weather reports")) → "
            + "\(plural(pagesWritten, "page", "pages")) written, \(filesDeleted) deleted, \(pagesUnchanged) unchanged, "
            + "\(plural(filesCopied, "file", "files")) copied in \(milliseconds(duration)) ms"
            + (isFullBuild ? " (full build)" : "")
    }

    /// The counts of an incremental rebuild, for `watch`: `5 pages written, 1 file copied,
    /// 0 deleted in 26 ms` (files copied only when there are some).
    public var changeSummary: String {
        let copied = filesCopied > 0 ? ", \(plural(filesCopied, "file", "files")) copied" : ""
        return "\(plural(pagesWritten, "page", "pages")) written\(copied), \(filesDeleted) deleted in \(milliseconds(duration)) ms"
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
