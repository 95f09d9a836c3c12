import Diagnostics
import Mustache
import SiteConfig

/// A Mustache template that renders plain text, nothing escaped: an archetype's Markdown
/// (see `Archetype`), where `{{title}}` must stay `R&D` and not become `R&amp;D`.
public struct TextTemplate {
    private let template: MustacheTemplate
    /// Its names no value is given for, each where it is first written: they render as
    /// nothing, which is most likely a misspelling.
    public let warnings: [Diagnostic]

    /// Compiles `text`, the part of the file at `path` that starts on its line `firstLine`.
    ///
    /// - Parameter names: The names it is given values for.
    /// - Throws: A ``Diagnostic`` for a syntax error, at its line in the file.
    public init(_ text: String, path: String, firstLine: Int, names: [String]) throws(Diagnostic) {
        let tags = TemplateLibrary.tags(in: text)
        func location(line: Int, column: Int) -> SourceLocation {
            SourceLocation(path: path, line: firstLine + line - 1, column: column)
        }
        if let tag = TemplateLibrary.firstTagTooDeep(tags) {
            throw Diagnostic.error("sections are nested more than \(TemplateLibrary.deepestNesting) deep here",
                                   at: location(line: tag.line, column: tag.column), hint: "close some sections before opening more")
        }
        template = try TemplateLibrary.compiled(text, after: Self.textLine) { location(line: $0, column: $1) }
        var warned: Set<Substring> = []
        let known = "\(names.joined(separator: ", ")), and '.' within {{#tags}}"
        warnings = tags.compactMap { tag -> Diagnostic? in
            switch tag.sigil {
            case nil, "&", "{", "#", "^":
                let name = tag.content.prefix { $0 != "." && $0 != "(" }
                guard !tag.content.hasPrefix("."), !tag.content.contains("("), !names.contains(String(name)),
                      warned.insert(name).inserted else { return nil }
                let near = String(name).closestMatch(among: names)
                return Diagnostic.warning("'{{\(tag.content)}}' names nothing: it is left empty", at: location(line: tag.line, column: tag.column),
                                          hint: near.map { "did you mean '{{\($0)}}'?" } ?? "the names are \(known)")
            case ">", "<", "$":
                return Diagnostic.warning("an archetype has no partials or blocks: '{{\(tag.sigil.map(String.init) ?? "")\(tag.content)}}' is left empty",
                                          at: location(line: tag.line, column: tag.column), hint: "write the text in the archetype itself")
            default:
                return nil
            }
        }
    }

    /// The text with `values` in place of their names.
    public func render(_ values: [String: Any]) -> String { template.render(values) }

    /// Put before the template: it renders as text, not HTML. On a line of its own, which
    /// Mustache drops whole, so the template's lines keep their numbers but one.
    private static let textLine = "{{% CONTENT_TYPE: TEXT}}\n"
}
