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
}
