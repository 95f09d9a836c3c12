import Diagnostics
import SiteConfig

/// A site's form for new journal entries, as Hugo's archetypes are: `archetypes/entry.md`
/// (or `archetypes/<kind>.md` for `marsgen new entry --kind <kind>`), the front matter and
/// text every new entry starts with. A crew's daily report keeps its headings this way.
///
///     ---
///     tags: [daily-report]
///     extra:
///       eva: false
///     ---
///     ## Sol {{sol}} summary
///
/// Its front matter holds what every entry of its kind shares: `author`, `tags` and `draft`
/// are defaults (`--author` and `--draft`/`--no-draft` override them, `--tag` adds to the
/// tags); any other key is copied into the entry as written, comments and all. What each
/// entry has its own (its title, sol, time, date, slug and aliases) it may not set. Its
/// text is a Mustache template (see ``names``), rendered by the command.
public struct EntryArchetype: Sendable {
    /// The folder archetypes are in, in the site's folder.
    public static let folder = "archetypes"
    /// The kind `marsgen new entry` uses without `--kind`, when the site has it.
    public static let defaultKind = "entry"
    /// The names its text may use: `{{title}}`, `{{slug}}`, `{{sol}}`, `{{time}}` (HH:MM
    /// LMST), `{{date}}` (the instant, UTC, ISO 8601), `{{author}}` (the crew id),
    /// `{{author_name}}` and `{{#tags}}{{.}}{{/tags}}`.
    public static let names: [String] = ["title", "slug", "sol", "time", "date", "author", "author_name", "tags"]
    /// Keys each entry has its own, set by `marsgen new entry` (or written by hand later),
    /// never by a form all entries share.
    static let ownKeys: [String: String] = [
        "title": "the title is the command's first argument", "sol": "give --sol and --time to marsgen new entry",
        "time": "give --sol and --time to marsgen new entry", "date": "give --sol and --time to marsgen new entry",
        "slug": "give --slug to marsgen new entry", "aliases": "add them to the entry itself: each address leads to one entry",
    ]

    /// The site-relative path of the archetype of `kind` (`archetypes/entry.md`).
    public static func path(ofKind kind: String) -> String { "\(folder)/\(kind).md" }

    /// Its site-relative path.
    public let path: String
    /// The author's crew id when the command names none, and where it is written.
    public let author: (id: String, location: SourceLocation)?
    /// Tags every entry of its kind starts with.
    public let tags: [String]
    /// Whether a new entry is a draft, when the command says neither `--draft` nor `--no-draft`.
    public let isDraft: Bool?
    /// Its other front matter lines, as written, each with the line of the archetype it is
    /// on: copied into the entry after the keys the command writes.
    public let otherFrontMatter: [(text: String, line: Int)]
    /// Its text: a Mustache template.
    public let body: String
    /// The archetype's line its text starts on.
    public let bodyFirstLine: Int

    /// Reads an archetype.
    ///
    /// - Throws: A ``Diagnostic`` for front matter that is not YAML, a key an entry has its
    ///   own, a value of the wrong kind, or keys not written one a line.
    public init(parsing file: SourceFile) throws(Diagnostic) {
        let matter = try FrontMatter(splitting: file, isRequired: false)
        let fields = matter.fields
        path = file.path
        for key in fields.keys {
            if let hint = Self.ownKeys[key] {
                throw Diagnostic.error("'\(key)' is each entry's own: an archetype may not set it", at: fields.keyLocation(of: key),
                                       hint: "remove it from the archetype; \(hint)")
            }
        }
        author = try fields.string("author").map { ($0, fields.location(of: "author")) }
        tags = try fields.strings("tags")
        isDraft = try fields.bool("draft")
        body = matter.body
        bodyFirstLine = matter.bodyFirstLine

        // The YAML's lines are the file's second to the one before the closing `---`; each
        // key's block runs from its line to the next key's. (`SourceFile` has made every
        // line end a `\n`.)
        let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
        let yamlLines = matter.bodyFirstLine > 1 ? 2..<(matter.bodyFirstLine - 1) : 2..<2
        var blocks: [(key: String, lines: Range<Int>)] = []
        for key in fields.keys {
            let location = fields.keyLocation(of: key)
            if location.column != 1 || (blocks.last.map { location.line <= $0.lines.lowerBound } ?? false) {
                throw Diagnostic.error("an archetype's front matter is written one key a line, each at the start of its line",
                                       at: location, hint: "write '\(key): …' on a line of its own, not within braces")
            }
            if let last = blocks.popLast() { blocks.append((last.key, last.lines.lowerBound..<location.line)) }
            blocks.append((key, location.line..<yamlLines.upperBound))
        }
        // What comes before the first key (a comment) is kept, whichever key that is.
        let preamble = yamlLines.lowerBound..<(blocks.first?.lines.lowerBound ?? yamlLines.upperBound)
        let merged: Set<String> = ["author", "tags", "draft"]
        let kept = [preamble] + blocks.filter { !merged.contains($0.key) }.map(\.lines)
        otherFrontMatter = kept.flatMap { range in
            range.compactMap { line in
                lines.indices.contains(line - 1) ? (String(lines[line - 1]), line) : nil
            }
        }
    }
}
