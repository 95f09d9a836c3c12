/// A place in a user's file: a site-relative path and a 1-based line and column.
public struct SourceLocation: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The path as the user would type it, relative to the site root (`content/journal/sol-12.md`).
    public var path: String
    /// 1-based line; 0 when unknown.
    public var line: Int
    /// 1-based column; 0 when unknown.
    public var column: Int

    /// Creates a location.
    public init(path: String, line: Int = 0, column: Int = 0) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, dropping the parts that are unknown.
    public var description: String {
        guard line > 0 else { return path }
        guard column > 0 else { return "\(path):\(line)" }
        return "\(path):\(line):\(column)"
    }

    /// By path, then line, then column: the order in which a reader meets them.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
