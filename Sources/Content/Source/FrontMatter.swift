import Diagnostics
import SiteConfig

/// A content file split into its YAML front matter and its Markdown body.
///
///     ---
///     title: Dust on the panels
///     author: lewis
///     sol: 12
///     time: "14:02"
///     ---
///     Markdown body…
public struct FrontMatter {
    /// The front matter's keys and values, with their positions in the file.
    public let fields: YAMLMapping
    /// The Markdown after the closing `---`.
    public let body: String
    /// The file line the body starts on.
    public let bodyFirstLine: Int

    /// Splits `file` into front matter and body.
    ///
    /// - Parameters:
    ///   - file: The source file.
    ///   - isRequired: Whether a file without front matter is an error.
    /// - Throws: A ``Diagnostic`` for an unclosed block or invalid YAML.
    public init(splitting file: SourceFile, isRequired: Bool = true) throws(Diagnostic) {
        let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.trimmingTrailingSpaces == "---" else {
            if isRequired {
                if file.text.allSatisfy(\.isWhitespace) {
                    throw Diagnostic.error("the file is empty", at: file.location(line: 1),
                                           hint: "add front matter between two '---' lines, then the text")
                }
                throw Diagnostic.error("missing front matter", at: file.location(line: 1),
                                       hint: "start the file with a '---' line, the YAML fields, and another '---' line")
            }
            fields = try YAMLMapping.parse("", path: file.path)
            body = file.text
            bodyFirstLine = 1
            return
        }
        guard let closing = lines.indices.dropFirst().first(where: {
            let line = lines[$0].trimmingTrailingSpaces
            return line == "---" || line == "..."
        }) else {
            throw Diagnostic.error("front matter is never closed", at: file.location(line: 1),
                                   hint: "add a line with '---' after the last front matter field")
        }
        let yaml = lines[1..<closing].joined(separator: "\n")
        fields = try YAMLMapping.parse(yaml, path: file.path, lineOffset: 1)
        body = lines[(closing + 1)...].joined(separator: "\n")
        bodyFirstLine = closing + 2
    }
}

extension Substring {
    var trimmingTrailingSpaces: Substring {
        var slice = self
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
