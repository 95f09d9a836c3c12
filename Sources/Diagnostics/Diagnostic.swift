/// A problem with a user's input: what is wrong, where, and how to fix it.
///
/// Every module throws `Diagnostic` for bad input, so the CLI can print each one in the
/// compiler-style form editors understand:
///
///     content/journal/sol-12.md:3:9: error: unknown crew id 'sam'
///       hint: add 'sam' to content/crew.yml
public struct Diagnostic: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// How serious the problem is.
    public enum Severity: String, Hashable, Sendable, Codable {
        /// The build cannot go on.
        case error
        /// The build goes on, but the author should know.
        case warning
    }

    /// How serious the problem is.
    public var severity: Severity
    /// One sentence saying what is wrong, without a trailing period.
    public var message: String
    /// Where the problem is, when it is in a file.
    public var location: SourceLocation?
    /// How to fix it.
    public var hint: String?
    /// The build step that was running, added on the way up (`Load journal entries`).
    public var step: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity = .error, _ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.hint = hint
    }

    /// `text` from a user's file, for a message to quote: cut to `limit` characters, with
    /// `…`, so that a runaway line (a heading of 60,000 characters) does not fill the terminal.
    public static func excerpt(_ text: some StringProtocol, limit: Int = 60) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : String(text)
    }

    /// Creates an error diagnostic.
    public static func error(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: location, hint: hint)
    }

    /// Creates a warning diagnostic.
    public static func warning(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location, hint: hint)
    }

    /// The first line alone: `path:line:column: error: message`.
    public var headline: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }

    /// The headline, then the hint and step on indented lines.
    public var description: String {
        var lines = [headline]
        if let hint { lines.append("  hint: \(hint)") }
        if let step { lines.append("  while: \(step)") }
        return lines.joined(separator: "\n")
    }
}
