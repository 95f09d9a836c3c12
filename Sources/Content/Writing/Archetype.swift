import Diagnostics
import SiteConfig

/// A site's form for new content, as Hugo's archetypes are: the front matter and text every
/// new journal entry (`archetypes/entry.md`) or page of its own (`archetypes/page.md`)
/// starts with, or those of a kind (`archetypes/<kind>.md`, for `--kind <kind>`). A crew's
/// daily report keeps its headings this way.
///
///     ---
///     tags: [daily-report]
///     extra:
///       eva: false
///     ---
///     ## Sol {{sol}} summary
///
/// Its front matter holds what all of its kind share: the keys the command has options for
/// are defaults (see ``Form``: an entry's `author`, `tags` and `draft`; a page's `draft`,
/// `nav`, `template` and `description`), which the options override (`--tag` adds to the
/// tags); any other key is copied in as written, comments and all. What each has its own
/// (a title, a slug, old addresses; an entry's date) it may not set. Its text is a Mustache
/// template (see ``Form/names``), rendered by the command.
public struct Archetype: Sendable {
    /// What an archetype starts: an entry or a page, with the keys each has its own, those
    /// the command's options set, and the names its text may use.
    public struct Form: Sendable {
        /// What it starts, for errors ("entry").
        let noun: String
        /// Keys each has its own, with how to give one instead.
        let ownKeys: [String: String]
        /// Keys the command's options set, which the archetype gives defaults for.
        let mergedKeys: Set<String>
        /// The names its text may use.
        public let names: [String]
        /// The kind the command uses without `--kind`, when the site has it.
        public let defaultKind: String

        /// A journal entry's (`marsgen new entry`): its text may use `{{title}}`, `{{slug}}`,
        /// `{{sol}}`, `{{time}}` (HH:MM LMST), `{{date}}` (the instant, UTC, ISO 8601),
        /// `{{author}}` (the crew id), `{{author_name}}` and `{{#tags}}{{.}}{{/tags}}`.
        public static let entry = Form(
            noun: "entry",
            ownKeys: ["title": "the title is the command's first argument", "sol": "give --sol and --time to marsgen new entry",
                      "time": "give --sol and --time to marsgen new entry", "date": "give --sol and --time to marsgen new entry",
                      "slug": "give --slug to marsgen new entry", "aliases": "add them to the entry itself: each address leads to one entry"],
            mergedKeys: ["author", "tags", "draft"],
            names: ["title", "slug", "sol", "time", "date", "author", "author_name", "tags"], defaultKind: "entry")

        /// A page of its own's (`marsgen new page`): its text may use `{{title}}` and
        /// `{{path}}` (`station/rules`).
        public static let page = Form(
            noun: "page",
            ownKeys: ["title": "the title is the command's first argument", "slug": "give --slug to marsgen new page",
                      "aliases": "add them to the page itself: each address leads to one page"],
            mergedKeys: ["draft", "nav", "template", "description"], names: ["title", "path"], defaultKind: "page")
    }

    /// The folder archetypes are in, in the site's folder.
    public static let folder = "archetypes"

    /// The site-relative path of the archetype of `kind` (`archetypes/entry.md`).
    public static func path(ofKind kind: String) -> String { "\(folder)/\(kind).md" }

    /// Its site-relative path.
    public let path: String
    /// An entry's author's crew id when the command names none, and where it is written.
    public let author: (id: String, location: SourceLocation)?
    /// Tags every entry of its kind starts with.
    public let tags: [String]
    /// Whether a new one is a draft, when the command says neither `--draft` nor `--no-draft`.
    public let isDraft: Bool?
    /// Whether a new page is in the navigation (`nav:`), when the command does not say `--nav`.
    public let isInNavigation: Bool?
    /// A new page's template of the site's own, when the command names none, and where it is written.
    public let template: (name: String, location: SourceLocation)?
    /// A new page's description, when the command gives none.
    public let description: String?
    /// Its other front matter lines, as written, each with the line of the archetype it is
    /// on: copied in after the keys the command writes.
    public let otherFrontMatter: [(text: String, line: Int)]
    /// Its text: a Mustache template.
    public let body: String
    /// The archetype's line its text starts on.
    public let bodyFirstLine: Int

    /// Reads an archetype.
    ///
    /// - Throws: A ``Diagnostic`` for front matter that is not YAML, a key an entry has its
    ///   own, a value of the wrong kind, or keys not written one a line.
    public init(parsing file: SourceFile, form: Form) throws(Diagnostic) {
        let matter = try FrontMatter(splitting: file, isRequired: false)
        let fields = matter.fields
        path = file.path
        for key in fields.keys {
            if let hint = form.ownKeys[key] {
                throw Diagnostic.error("'\(key)' is each \(form.noun)'s own: an archetype may not set it", at: fields.keyLocation(of: key),
                                       hint: "remove it from the archetype; \(hint)")
            }
        }
        func merged<Value>(_ key: String, _ read: (String) throws(Diagnostic) -> Value?) throws(Diagnostic) -> Value? {
            form.mergedKeys.contains(key) ? try read(key) : nil
        }
        author = try merged("author", fields.string).map { ($0, fields.location(of: "author")) }
        tags = try merged("tags", fields.strings) ?? []
        isDraft = try merged("draft", fields.bool)
        isInNavigation = try merged("nav", fields.bool)
        template = try merged("template", fields.string).map { ($0, fields.location(of: "template")) }
        description = try merged("description", fields.string)
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
        let kept = [preamble] + blocks.filter { !form.mergedKeys.contains($0.key) }.map(\.lines)
        otherFrontMatter = kept.flatMap { range in
            range.compactMap { line in
                lines.indices.contains(line - 1) ? (String(lines[line - 1]), line) : nil
            }
        }
    }
}
