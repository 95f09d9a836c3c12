/// Collects the warnings a build produces, in the order they were found.
///
/// Errors are thrown; warnings are recorded here and printed by the caller.
public struct DiagnosticLog: Sendable {
    /// The diagnostics recorded so far.
    public private(set) var entries: [Diagnostic] = []

    /// Creates an empty log.
    public init() {}

    /// Records a diagnostic.
    public mutating func record(_ diagnostic: Diagnostic) {
        entries.append(diagnostic)
    }

    /// Records a warning.
    public mutating func warn(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
        entries.append(.warning(message, at: location, hint: hint))
    }

    /// Removes the diagnostics `shouldBeRemoved` picks (those of a file read again).
    public mutating func removeAll(where shouldBeRemoved: (Diagnostic) -> Bool) {
        entries.removeAll(where: shouldBeRemoved)
    }

    /// Adds all entries of another log.
    public mutating func merge(_ other: DiagnosticLog) {
        entries.append(contentsOf: other.entries)
    }

    /// The warnings recorded so far.
    public var warnings: [Diagnostic] { entries.filter { $0.severity == .warning } }

    /// The diagnostics of `severity` in the order a reader meets them: by file, line and
    /// column, those without a place first, ties in the order they were found.
    ///
    /// A build finds its warnings step by step (a file's front matter when it is loaded, its
    /// links once every page is planned), and an incremental build replays those of the files
    /// it did not read again; printed as found, one file's warnings would be scattered and
    /// their order would depend on what the build had to read.
    public func inSourceOrder(_ severity: Diagnostic.Severity) -> [Diagnostic] {
        entries.enumerated().filter { $0.element.severity == severity }.sorted { a, b in
            switch (a.element.location, b.element.location) {
            case let (x?, y?) where x != y: x < y
            case (nil, _?): true
            case (_?, nil): false
            default: a.offset < b.offset
            }
        }.map(\.element)
    }
}
