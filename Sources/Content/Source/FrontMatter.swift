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
        // Only the front matter is split into lines; the body is taken whole, as one slice.
        let text = file.text
        var lineStart = text.startIndex
        func nextLine() -> Substring? {
            guard lineStart < text.endIndex else { return nil }
            let end = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[lineStart..<end]
            lineStart = end < text.endIndex ? text.index(after: end) : end
            return line
        }
        let first = nextLine()
        guard let first, first.trimmingTrailingSpaces == "---" else {
            if isRequired {
                if text.allSatisfy(\.isWhitespace) {
                    throw Diagnostic.error("the file is empty", at: file.location(line: 1),
                                           hint: "add front matter between two '---' lines, then the text")
                }
                // Hugo's and Zola's TOML front matter: the likeliest mistake of a newcomer
                // from either, worth its own words.
                if first?.trimmingTrailingSpaces == "+++" {
                    let example = Self.yamlExample(ofTOML: text)
                    throw Diagnostic.error("the front matter is TOML ('+++' lines, as Hugo and Zola write it); marsgen reads YAML",
                                           at: file.location(line: 1),
                                           hint: "put the fields between two '---' lines, each written 'key: value'"
                                               + (example.map { " (\($0))" } ?? ""))
                }
                throw Diagnostic.error("missing front matter", at: file.location(line: 1),
                                       hint: "start the file with a '---' line, the YAML fields, and another '---' line")
            }
            fields = try YAMLMapping.parse("", path: file.path)
            body = text
            bodyFirstLine = 1
            return
        }
        let yamlStart = lineStart
        var yamlEnd: String.Index?
        var lineNumber = 1
        while true {
            let start = lineStart
            guard let line = nextLine() else { break }
            lineNumber += 1
            let trimmed = line.trimmingTrailingSpaces
            if trimmed == "---" || trimmed == "..." {
                yamlEnd = start
                break
            }
        }
        guard let yamlEnd else {
            throw Diagnostic.error("front matter is never closed", at: file.location(line: 1),
                                   hint: "add a line with '---' after the last front matter field")
        }
        // The YAML without the newline before the closing line, as the line-joined form had it.
        var yaml = text[yamlStart..<yamlEnd]
        if yaml.last == "\n" { yaml.removeLast() }
        fields = try YAMLMapping.parse(String(yaml), path: file.path, lineOffset: 1)
        body = String(text[lineStart...])
        bodyFirstLine = lineNumber + 1
    }
}

extension FrontMatter {
    /// The first `key = value` line of the TOML front matter at the start of `text`, written
    /// as YAML (`title = "Dust"` → `title: "Dust"`), for a hint; nil if it has none.
    static func yamlExample(ofTOML text: String) -> String? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            let trimmed = line.trimmingTrailingSpaces
            if trimmed == "+++" { break }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingTrailingSpaces
            var value = trimmed[trimmed.index(after: equals)...]
            while value.first == " " || value.first == "\t" { value.removeFirst() }
            guard !key.isEmpty, !value.isEmpty, !key.contains(" ") else { continue }
            return "\(key): \(value)"
        }
        return nil
    }
}

extension Substring {
    var trimmingTrailingSpaces: Substring {
        var slice = self
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
