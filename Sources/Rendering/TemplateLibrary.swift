import Content
import Diagnostics
import Feed
import Mustache
import SiteConfig

/// The site's templates: the defaults built into marsgen, each replaceable by a file of the
/// same name in the site's `templates/`.
///
/// Every template is parsed once, up front, so a syntax error or a partial that does not
/// exist is reported before anything is rendered, at its file, line and column.
public struct TemplateLibrary: Sendable {
    private let library: MustacheLibrary
    /// Where each template came from: `templates/layout.mustache` or `(built-in)/layout.mustache`.
    public let origins: [String: String]
    /// The partials each template names directly (`{{> name}}`), and the template it
    /// inherits from (`{{< name}}`): the templates it is made from.
    public let partials: [String: Set<String>]
    /// A hash of each template's source text, by name: a change means pages using it change.
    public let sourceHashes: [String: String]
    /// The names each template looks up in its context (the first part of a dotted name),
    /// by template; `nil` for a template that changes its delimiters (taken to name anything).
    private let lookedUp: [String: Set<String>?]
    /// The dynamic names of partials and parents (`title` for `{{>*title}}`, the last part of
    /// a dotted one), each with the first tag that uses it: what ``render(_:context:)``
    /// checks the values of. Empty on nearly every site.
    private let dynamicNames: [String: SourceLocation]
    /// The templates a dynamic name must not name: each one from which a template with a
    /// dynamic name is reached by its partials and parents, itself included. Naming one could
    /// make a template include itself, which would never stop rendering.
    private let reentrantTemplates: Set<String>
    /// The names the site's own templates look up that their contexts never hold, and the
    /// transforms swift-mustache does not have, each at its first tag in its template
    /// (templates by name): they render as nothing. The built-in templates use none.
    public let unknownNames: [UnknownName]
    /// The unknown names of each of the site's own templates that is not one of marsgen's, as
    /// the template of a page of its own (`template:` in its front matter), which gets the
    /// values ``standalonePageName`` gets, rather than as a partial.
    private let unknownNamesAsPage: [String: [UnknownName]]

    /// The built-in template of a page of its own, whose values a template of the site's own
    /// named in a page's `template:` gets.
    public static let standalonePageName = "page-standalone"

    /// A name a template looks up that marsgen never gives it (see ``TemplateVocabulary``).
    public struct UnknownName: Sendable, Equatable {
        /// The name, or one part of a dotted name (`titel` for `{{site.titel}}`).
        public var name: String
        /// Whether it names a transform (`{{upercased(title)}}`), not a value.
        public var isTransform: Bool
        /// Its tag.
        public var location: SourceLocation
        /// The name it is most likely a misspelling of, among those the template gets.
        public var suggestion: String?
        /// The template it is in, and whether that is a partial (or a parent), whose
        /// values are those of the templates including it.
        public var template: String
        public var isPartial: Bool
        /// marsgen's templates that do get a value of this name: it was likely copied from one.
        public var givenTo: [String]

        /// The warning's message.
        public var message: String {
            if isTransform { return "'\(name)' is not a transform templates can use: it renders as nothing" }
            if givenTo.isEmpty { return "'\(name)' is not a value marsgen gives templates: it renders as nothing" }
            let whose = isPartial ? "the templates including '\(template)'" : "'\(template)'"
            return "'\(name)' is not a value \(whose) get\(isPartial ? "" : "s"): it renders as nothing"
        }

        /// The warning's hint.
        public var hint: String {
            if let suggestion { return "did you mean '\(suggestion)'?" }
            if isTransform { return "see README, Templates, for the transforms" }
            if givenTo.isEmpty { return "see README, Templates, for the values each template gets" }
            let shown = givenTo.prefix(3).joined(separator: ", ") + (givenTo.count > 3 ? "…" : "")
            return "\(shown) get\(givenTo.count == 1 ? "s" : "") it; see README, Templates, for the values each template gets"
        }
    }

    /// Called with each template's name and context as it renders: for tests that check what
    /// the contexts hold against ``TemplateVocabulary``.
    var renderObserver: (@Sendable (String, TemplateContext) -> Void)?

    /// The site's words (`words:` in marsgen.yml), which every template gets as `words`
    /// (`{{words.older}}`).
    public let words: [String: String]
    /// ``words`` wrapped for swift-mustache once, not in each of the hundred thousand
    /// contexts a large site renders (which made a clean build a quarter slower). Strings
    /// alone, in values no one changes once made: safe to share between threads.
    nonisolated(unsafe) private let wrappedWords: MustacheValues.Object
    /// ``words`` as a context's value, for the sites whose contexts are not wrapped (see
    /// ``render(_:context:)``), made once too.
    nonisolated(unsafe) private let plainWords: TemplateContext

    /// A template's source text and where it came from.
    public struct Source: Sendable {
        /// The template's text.
        public var text: String
        /// Its site-relative path, for diagnostics.
        public var path: String

        /// Creates a source.
        public init(text: String, path: String) {
            self.text = text
            self.path = path
        }
    }

    /// Builds a library from the defaults and a site's overrides.
    ///
    /// - Parameters:
    ///   - overrides: Templates from the site's `templates/`, by name.
    ///   - words: The site's words, by name (``words``), English by default: the built-in
    ///     templates have them written in, as the text `{{words.…}}` would render.
    /// - Throws: A ``Diagnostic`` for a syntax error or a missing partial.
    public init(overrides: [String: Source] = [:], words: [String: String] = ThemeWords().templateValues) throws(Diagnostic) {
        self.words = words
        self.plainWords = words
        self.wrappedWords = MustacheValues.wrapping(plainWords)
        var sources: [String: Source] = [:]
        for (name, text) in DefaultTheme.templates {
            sources[name] = Source(text: text, path: "(built-in)/\(name).mustache")
        }
        for (name, source) in overrides { sources[name] = source }

        MarkupEscaping.registered
        var library = MustacheLibrary()
        var partials: [String: Set<String>] = [:]
        // Each template's tags, read once: its partials and parents, and the names it looks up.
        let tags = sources.mapValues { Self.tags(in: $0.text) }
        let references = tags.mapValues(Self.partialReferences)
        for name in sources.keys.sorted() {
            guard let source = sources[name] else { continue }
            // swift-mustache parses a section within a section by recursion: thousands deep,
            // the process ran out of stack (a segmentation fault).
            if let tag = Self.firstTagTooDeep(tags[name] ?? []) {
                throw Diagnostic.error("sections are nested more than \(Self.deepestNesting) deep here",
                                       at: SourceLocation(path: source.path, line: tag.line, column: tag.column),
                                       hint: "close some sections ({{/name}}) before opening more, or move part of the template to a partial")
            }
            let text = overrides[name] == nil ? Self.writingIn(words, to: source.text) : source.text
            library.register(try Self.compiled(text, after: Self.escapingLine) { SourceLocation(path: source.path, line: $0, column: $1) },
                             named: name)
            let named = references[name] ?? []
            // A dynamic name (`{{>*name}}`) is looked up as the page renders: any template may be one.
            partials[name] = named.contains(where: \.isDynamic) ? Set(sources.keys).subtracting([name])
                : Set(named.map(\.name))
        }
        for name in sources.keys.sorted() {
            guard let source = sources[name] else { continue }
            for reference in references[name] ?? [] where !reference.isDynamic && sources[reference.name] == nil {
                let what = reference.isParent ? "a parent template" : "a partial"
                throw Diagnostic.error("template names \(what) '\(reference.name)' that does not exist",
                                       at: SourceLocation(path: source.path, line: reference.line, column: reference.column),
                                       hint: "add templates/\(reference.name).mustache, or fix the name")
            }
        }
        // A template that includes itself, directly or through others, never stops rendering
        // (marsgen's values do not nest, so no section ends the recursion): the process would
        // run out of stack.
        if let (name, reference, cycle) = Self.firstCycle(sources.keys.sorted(), references: { references[$0] ?? [] }),
           let source = sources[name] {
            throw Diagnostic.error("template includes itself through \(reference.isParent ? "its parent" : "a partial"): \(cycle.joined(separator: " → "))",
                                   at: SourceLocation(path: source.path, line: reference.line, column: reference.column),
                                   hint: "a template cannot include itself, even through another: it would never stop rendering")
        }
        // A layout that never inserts the page renders every page as an empty frame.
        if let layout = overrides[Self.layoutName], !Self.insertsContent(tags[Self.layoutName] ?? []) {
            throw Diagnostic.error("the layout never inserts the page: it has no {{{content}}}",
                                   at: SourceLocation(path: layout.path, line: 1, column: 1),
                                   hint: "put {{{content}}} where each page's main content goes, or delete the file to use the built-in layout")
        }
        var dynamicNames: [String: SourceLocation] = [:]
        for name in sources.keys.sorted() {
            guard let source = sources[name] else { continue }
            for reference in references[name] ?? [] where reference.isDynamic {
                let key = reference.name.dropFirst().split(separator: ".").last.map(String.init) ?? "."
                if dynamicNames[key] == nil {
                    dynamicNames[key] = SourceLocation(path: source.path, line: reference.line, column: reference.column)
                }
            }
        }
        self.dynamicNames = dynamicNames
        // By the names the templates give (a dynamic one names no template here).
        self.reentrantTemplates = dynamicNames.isEmpty ? [] : Set(sources.keys.filter { name in
            Self.reachable(from: name) { references[$0]?.map(\.name) ?? [] }.contains { references[$0]?.contains(where: \.isDynamic) ?? false }
        })
        self.library = library
        self.origins = sources.mapValues(\.path)
        self.partials = partials
        self.lookedUp = tags.mapValues(Self.namesLookedUp)
        // A partial (or parent) gets the values of the templates it is part of; one no
        // template uses (warned about on its own) is checked against every name.
        let hasOwnPartials = overrides.keys.contains { TemplateVocabulary.byTemplate[$0] == nil }
        let reachedFrom = !hasOwnPartials ? []
            : TemplateVocabulary.byTemplate.keys.map { ($0, Self.reachable(from: $0) { partials[$0] ?? [] }) }
        self.unknownNames = overrides.keys.sorted().flatMap { name in
            let own = TemplateVocabulary.byTemplate[name]
            let including = own == nil ? reachedFrom.filter { $0.1.contains(name) }.map(\.0) : [name]
            let known = including.isEmpty ? TemplateVocabulary.names
                : including.reduce(into: Set<String>()) { $0.formUnion(TemplateVocabulary.byTemplate[$1] ?? []) }
            return Self.unknownNames(in: tags[name] ?? [], of: name, at: overrides[name]?.path ?? name, isPartial: own == nil, known: known)
        }
        self.unknownNamesAsPage = Dictionary(uniqueKeysWithValues: overrides.keys.filter { TemplateVocabulary.byTemplate[$0] == nil }.map { name in
            (name, Self.unknownNames(in: tags[name] ?? [], of: name, at: overrides[name]?.path ?? name, isPartial: false,
                                     known: TemplateVocabulary.byTemplate[Self.standalonePageName] ?? TemplateVocabulary.names))
        })
        self.sourceHashes = sources.mapValues { source in
            var hash = ContentHash()
            hash.combine(source.text)
            return hash.description
        }
    }

    /// Put before every template: it selects marsgen's escaping (see ``MarkupEscaping``).
    /// A tag alone on its line, the line renders as nothing.
    static let escapingLine = "{{% CONTENT_TYPE: \(MarkupEscaping.name)}}\n"

    /// `text` compiled after `contentTypeLine`, a pragma on a line of its own; a syntax
    /// error is a diagnostic at `location(line, column)` of `text` itself (the line put
    /// before it left out).
    static func compiled(_ text: String, after contentTypeLine: String,
                         at location: (_ line: Int, _ column: Int) -> SourceLocation) throws(Diagnostic) -> MustacheTemplate {
        do {
            return try MustacheTemplate(string: contentTypeLine + text)
        } catch let error as MustacheTemplate.ParserError {
            throw Diagnostic.error("template syntax error: \(describe(error.error))",
                                   at: location(max(1, error.context.lineNumber - 1), error.context.columnNumber),
                                   hint: "check that every {{#section}} has a matching {{/section}} and every tag is closed")
        } catch {
            throw Diagnostic.error("template error: \(error)", at: location(1, 1))
        }
    }

    /// The template every HTML page is wrapped in.
    public static let layoutName = "layout"

    /// The names of marsgen's own templates: a site's file of another name is used only as
    /// a partial.
    public static var builtInNames: Set<String> { Set(DefaultTheme.templates.map(\.key)) }

    /// Whether `tags` hold a `{{{content}}}` or `{{& content}}` tag.
    static func insertsContent(_ tags: [Tag]) -> Bool {
        tags.contains { ($0.sigil == "{" || $0.sigil == "&") && $0.content == "content" }
    }

    /// ``unknownNames``, those of the site's own templates `pageTemplates` checked as the
    /// templates of pages of their own (see ``standalonePageName``) rather than as partials.
    public func unknownNames(pageTemplates: Set<String>) -> [UnknownName] {
        guard !pageTemplates.isEmpty else { return unknownNames }
        return unknownNames.filter { !pageTemplates.contains($0.template) }
            + pageTemplates.sorted().flatMap { unknownNamesAsPage[$0] ?? [] }
    }

    /// Whether the library has a template of this name, marsgen's or the site's.
    public func has(_ name: String) -> Bool { origins[name] != nil }

    /// Why a page of its own cannot be rendered with the template `name` (`template: roster`).
    public enum PageTemplateProblem: Equatable, Sendable {
        /// One of marsgen's templates for its other pages, which give it other values.
        case marsgens
        /// Not among the site's own templates; the likeliest of them, if any is close.
        case missing(near: String?)
    }

    /// What is wrong with `name` as the template of a page of its own, among the site's own
    /// templates `own` (their names, without `.mustache`); nil when it may be one: one of
    /// `own`, or ``standalonePageName``. For a build's check and `marsgen new page`'s alike.
    public static func problem(withPageTemplate name: String, siteTemplates own: some Collection<String>) -> PageTemplateProblem? {
        guard name != standalonePageName else { return nil }
        if builtInNames.contains(name) { return .marsgens }
        return own.contains(name) ? nil : .missing(near: name.closestMatch(among: own))
    }

    /// Site templates that no page can use: neither a built-in name nor a partial of any
    /// template. Usually a misspelt file name.
    public func unusedOverrides(_ names: some Sequence<String>) -> [String] {
        let referenced = Set(partials.values.joined())
        return names.filter { !Self.builtInNames.contains($0) && !referenced.contains($0) }.sorted()
    }

    /// Whether template `name` is marsgen's own, not replaced by the site.
    public func isBuiltIn(_ name: String) -> Bool {
        origins[name] == "(built-in)/\(name).mustache"
    }

    /// Has swift-mustache look up, once per process, a value of each kind a page's context
    /// holds (text, numbers, flags, objects, lists of either) the ways templates do (printed,
    /// escaped or not, as a section, an inverted section, a dotted name), so that the Swift
    /// runtime has already found the protocol conformances its casts ask about.
    ///
    /// The first such cast of a type scans every conformance in the program (about a
    /// millisecond of a rebuild's rendering, on the path a person waits on); a builder calls
    /// this on the core that compiles templates while the other steps leave it idle.
    public static func warmUpValueLookups() {
        _ = warmedUp
    }

    private static let warmedUp: Void = {
        let context: TemplateContext = [
            "text": "a", "number": 1, "fraction": 0.5, "flag": true, "off": false,
            "object": ["name": "b"], "objects": [["name": "c"], ["name": "d"]], "texts": ["e", "f"], "none": [TemplateContext](),
        ]
        var template = ""
        for key in context.keys.sorted() {
            template += "{{\(key)}}{{{\(key)}}}{{#\(key)}}{{.}}{{name}}{{/\(key)}}{{^\(key)}}-{{/\(key)}}{{\(key).name}}"
        }
        MarkupEscaping.registered
        guard let compiled = try? MustacheTemplate(string: escapingLine + template) else { return }
        _ = compiled.render(MustacheValues.wrapping(context))
    }()

    /// Renders one request.
    ///
    /// - Throws: A ``Diagnostic`` when the template does not exist.
    public func render(_ request: RenderRequest) throws(Diagnostic) -> String {
        try render(request.template, context: request.context)
    }

    /// Renders template `name` with `context`.
    public func render(_ name: String, context: TemplateContext) throws(Diagnostic) -> String {
        renderObserver?(name, withWords(context))
        if !dynamicNames.isEmpty, let (key, value) = Self.firstValue(in: context, under: dynamicNames, naming: reentrantTemplates),
           let location = dynamicNames[key] {
            throw Diagnostic.error("the dynamic partial {{>*\(key)}} would include template '\(value)' (the value of '\(key)'), "
                                   + "which leads back to it: rendering would never stop",
                                   at: location,
                                   hint: "name partials that include no dynamic partial themselves, or give '\(key)' another value")
        }
        // A dynamic partial's name must reach swift-mustache as a `String`: such sites keep
        // their values as they are.
        let values: Any
        if dynamicNames.isEmpty {
            var object = MustacheValues.wrapping(context)
            object.words = wrappedWords
            values = object
        } else {
            values = withWords(context)
        }
        guard let output = library.render(values, withTemplate: name) else {
            throw Diagnostic.error("no template named '\(name)'", hint: "add templates/\(name).mustache")
        }
        return output
    }

    /// `text` (a built-in template) with each `{{words.name}}` replaced by the word as the
    /// tag renders it, escaped: a clean build of a large site looked up the words of every
    /// page's header, footer and cells hundreds of thousands of times, a tenth of its time.
    /// A word holding a brace stays a tag, so that no text written in makes another one.
    static func writingIn(_ words: [String: String], to text: String) -> String {
        let opening = "{{words."
        guard text.contains(opening) else { return text }
        var result = ""
        var rest = text[...]
        while let found = rest.firstRange(of: opening) {
            result += rest[..<found.lowerBound]
            let name = rest[found.upperBound...].prefix { $0 != "}" }
            let after = rest[found.upperBound...].dropFirst(name.count)
            let escaped = words[String(name)].map(MarkupEscaping.escape)
            if after.hasPrefix("}}"), let escaped, !escaped.contains("{"), !escaped.contains("}") {
                result += escaped
                rest = after.dropFirst(2)
            } else {
                result += opening
                rest = rest[found.upperBound...]
            }
        }
        return result + rest
    }

    /// `context` with the site's ``words``.
    private func withWords(_ context: TemplateContext) -> TemplateContext {
        var context = context
        context["words"] = plainWords
        return context
    }

    /// The first string in `context` (searched depth first, keys in order) stored under one
    /// of `keys` (under any key for `.`) that is one of `names`, with its key. Rendering looks
    /// a dynamic name up wherever sections have taken it in the context: any level may hold it.
    static func firstValue(in context: Any, under keys: [String: SourceLocation], naming names: Set<String>) -> (String, String)? {
        switch context {
        case let dictionary as [String: Any]:
            for key in dictionary.keys.sorted() {
                guard let value = dictionary[key] else { continue }
                if let text = value as? String {
                    guard names.contains(text) else { continue }
                    if keys[key] != nil { return (key, text) }
                    if keys["."] != nil { return (".", text) }
                } else if let found = firstValue(in: value, under: keys, naming: names) {
                    return found
                }
            }
        case let array as [Any]:
            for item in array {
                if let text = item as? String {
                    if names.contains(text), keys["."] != nil { return (".", text) }
                } else if let found = firstValue(in: item, under: keys, naming: names) {
                    return found
                }
            }
        default:
            break
        }
        return nil
    }

    /// `name` and every partial it uses, directly or through other partials.
    public func templatesUsed(by name: String) -> Set<String> {
        Self.reachable(from: name) { partials[$0] ?? [] }
    }

    /// `name` and every template `named` leads to from it, directly or through others.
    static func reachable(from name: String, _ named: (String) -> some Sequence<String>) -> Set<String> {
        var seen: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            pending.append(contentsOf: named(next))
        }
        return seen
    }

    /// Whether any of `templates` may look `name` up in its context: false only when none
    /// has a tag naming it (`{{name}}`, `{{#name}}`, `{{name.title}}`, …). A template that
    /// changes its delimiters may name anything.
    public func mayLookUp(_ name: String, in templates: some Sequence<String>) -> Bool {
        templates.contains { template in
            guard let names = lookedUp[template] else { return false }
            return names?.contains(name) ?? true
        }
    }

    /// The names the tags of `text` look up in the context (see the function over tags).
    static func namesLookedUp(in text: String) -> Set<String>? {
        namesLookedUp(in: tags(in: text))
    }

    /// The names `tags` look up in the context: each variable's and section's name, or its
    /// first part when dotted (`site` for `{{site.title}}`), or the argument of a transform
    /// (`items` for `{{#reversed(items)}}`). Partials and parents look up only a dynamic
    /// name (`{{>*name}}`); comments, pragmas and inheritance blocks look nothing up. `nil`
    /// when a tag sets other delimiters: a page's dependencies err on the safe side there,
    /// where a template written in other delimiters is rare and a missed one would leave
    /// pages stale. (Partials, parents and nesting are followed through them.)
    static func namesLookedUp(in tags: [Tag]) -> Set<String>? {
        var names: Set<String> = []
        for tag in tags {
            var name = tag.content
            switch tag.sigil {
            case "=": return nil
            case "!", "%", "$": continue
            case ">", "<":
                guard name.first == "*" else { continue }
                name = name.dropFirst()
            default: break
            }
            // A transform, `fn(name)`: the name is the argument.
            if let paren = name.lastIndex(of: "("), let close = name[paren...].firstIndex(of: ")") {
                name = name[name.index(after: paren)..<close]
            }
            if let dot = name.firstIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names
    }

    /// The names and transforms `tags` use that are not among `known` names or
    /// ``TemplateVocabulary/transforms``, each once, at its first use. Every part of a dotted
    /// name is checked (`{{site.titel}}`), as is each transform of a call
    /// (`{{upercased(title)}}`); `.`, a number (`{{sols.0}}`) and a section's closing tag are
    /// not, nor are the names after `extra` (`{{extra.mood}}`, `{{site.extra.crew_size}}`) and
    /// those within a section of one (`{{#extra.eva}}{{lead}}{{/extra.eva}}`): the site's own.
    ///
    /// - Parameters:
    ///   - template: The template's name; `path`, its file.
    ///   - isPartial: Whether it is not one of marsgen's own, but a partial (or parent).
    static func unknownNames(in tags: [Tag], of template: String, at path: String, isPartial: Bool, known: Set<String>) -> [UnknownName] {
        var found: [UnknownName] = []
        var seen: Set<String> = []
        // The sections open, each with whether it is of a value under `extra`.
        var sections: [Bool] = []
        for tag in tags {
            var content = tag.content
            let ofExtra = content.split(separator: "(").last.map { $0.prefix { $0 != ")" }.split(separator: ".").contains("extra") } ?? false
            switch tag.sigil {
            case "/":
                _ = sections.popLast()
                continue
            case "#", "^", "$", "<":
                let withinExtra = sections.contains(true)
                sections.append(withinExtra || (tag.sigil == "#" || tag.sigil == "^") && ofExtra)
                if withinExtra || tag.sigil == "$" { continue }
            case "!", "%", "=": continue
            default:
                if sections.contains(true) { continue }
            }
            switch tag.sigil {
            case ">", "<":
                guard content.first == "*" else { continue }
                content = content.dropFirst()
            default: break
            }
            // `a(b(name))`: the transforms `a` and `b`, applied to `name`.
            let calls = content.split(separator: "(", omittingEmptySubsequences: false)
            var uses: [(String, Bool)] = calls.dropLast().map { (String($0), true) }
            let argument = calls.last.map { $0.prefix { $0 != ")" } } ?? ""
            // Past `extra`, the names are the site's own.
            let parts = argument.split(separator: ".")
            uses += parts[..<(parts.firstIndex(of: "extra").map { $0 + 1 } ?? parts.endIndex)].map { (String($0), false) }
            for (name, isTransform) in uses where !name.isEmpty && !name.allSatisfy(\.isNumber) {
                let names = isTransform ? TemplateVocabulary.transforms : known
                guard !names.contains(name), seen.insert((isTransform ? "(" : "") + name).inserted else { continue }
                let givenTo = isTransform ? [] : TemplateVocabulary.byTemplate.filter { $0.value.contains(name) }.map(\.key)
                    .sorted { (TemplateVocabulary.hintRank($0), $0) < (TemplateVocabulary.hintRank($1), $1) }
                found.append(UnknownName(name: name, isTransform: isTransform,
                                         location: SourceLocation(path: path, line: tag.line, column: tag.column),
                                         suggestion: name.closestMatch(among: names),
                                         template: template, isPartial: isPartial, givenTo: givenTo))
            }
        }
        return found
    }

    /// How deep sections (`{{#…}}`, `{{^…}}`, `{{$…}}`, `{{<…}}`) may nest in one template:
    /// far more than any template needs, far fewer than the parser's recursion can take.
    static let deepestNesting = 100

    /// The first tag of `tags` that opens a section ``deepestNesting`` sections deep.
    static func firstTagTooDeep(_ tags: [Tag]) -> Tag? {
        var depth = 0
        for tag in tags {
            switch tag.sigil {
            case "#", "^", "$", "<":
                depth += 1
                if depth > deepestNesting { return tag }
            case "/":
                depth -= 1
            default:
                break
            }
        }
        return nil
    }

    /// The first template, in `names` order, from which the partials and parents that
    /// `references` gives lead back to a template on the way: the template whose reference
    /// closes the loop, that reference, and the names around the loop (`a → b → a`).
    /// Dynamic names are left out (only rendering knows them).
    static func firstCycle(_ names: [String], references: (String) -> [TemplateReference])
        -> (template: String, reference: TemplateReference, cycle: [String])? {
        var done: Set<String> = []
        var path: [String] = []
        func visit(_ name: String) -> (String, TemplateReference, [String])? {
            path.append(name)
            defer { path.removeLast() }
            for reference in references(name) where !reference.isDynamic && !done.contains(reference.name) {
                if let start = path.firstIndex(of: reference.name) {
                    return (name, reference, Array(path[start...]) + [reference.name])
                }
                if let found = visit(reference.name) { return found }
            }
            done.insert(name)
            return nil
        }
        for name in names where !done.contains(name) {
            if let found = visit(name) { return found }
        }
        return nil
    }

    /// The `{{> name}}` and `{{< name}}` tags among `tags` (a parent template, which the
    /// template fills in: as much a template it is made from as a partial).
    static func partialReferences(in tags: [Tag]) -> [TemplateReference] {
        tags.compactMap { tag in
            guard tag.sigil == ">" || tag.sigil == "<",
                  let name = tag.content.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return nil }
            return TemplateReference(name: String(name), line: tag.line, column: tag.column, isParent: tag.sigil == "<")
        }
    }

    /// One `{{…}}` tag of a template.
    struct Tag {
        /// `#`, `^`, `/`, `>`, `<`, `&`, `{`, `!`, `%`, `$` or `=`; nil for a variable.
        var sigil: Character?
        /// What follows the sigil, without the blanks around it (and a triple tag's `}`).
        var content: Substring
        /// Where its `{{` is, 1-based, the column in Unicode scalars.
        var line: Int
        var column: Int
    }

    /// Every `{{…}}` tag of `text`, in order, following set-delimiter tags (`{{=<% %>=}}`)
    /// as Mustache does: a partial written `<%> footer%>` is as much a partial. Read on the
    /// UTF-8 bytes: every build that loads the templates reads every tag.
    static func tags(in text: String) -> [Tag] {
        var tags: [Tag] = []
        let bytes = Array(text.utf8)
        var (open, close) = (Array("{{".utf8), Array("}}".utf8))
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        func starts(_ delimiter: [UInt8], at index: Int) -> Bool {
            index + delimiter.count <= bytes.count && bytes[index..<(index + delimiter.count)].elementsEqual(delimiter)
        }
        var (line, lineStart, position) = (1, 0, 0)
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "\n") {
                (line, lineStart) = (line + 1, position + 1)
            }
            guard starts(open, at: position) else {
                position += 1
                continue
            }
            // Continuation bytes do not start a scalar.
            let column = bytes[lineStart..<position].count { $0 & 0xC0 != 0x80 } + 1
            var (start, end) = (position + open.count, position + open.count)
            while end < bytes.count, !starts(close, at: end) { end += 1 }
            guard end < bytes.count else { break }
            // Newlines inside a tag still count.
            if let last = bytes[start..<end].lastIndex(of: UInt8(ascii: "\n")) {
                (line, lineStart) = (line + bytes[start..<end].count { $0 == UInt8(ascii: "\n") }, last + 1)
            }
            position = end + close.count
            while start < end, isBlank(bytes[start]) { start += 1 }
            guard start < end else { continue }
            var sigil: Character?
            if "#^/><&{!%$=".utf8.contains(bytes[start]) {
                sigil = Character(UnicodeScalar(bytes[start]))
                start += 1
            }
            while start < end, isBlank(bytes[start]) { start += 1 }
            // A triple tag's `}`, a set-delimiter tag's `=`.
            let closing = sigil == "=" ? UInt8(ascii: "=") : UInt8(ascii: "}")
            while end > start, isBlank(bytes[end - 1]) || bytes[end - 1] == closing { end -= 1 }
            let content = Substring(String(decoding: bytes[start..<end], as: UTF8.self))
            tags.append(Tag(sigil: sigil, content: content, line: line, column: column))
            if sigil == "=" {
                // Two delimiters between blanks; anything else the parser reports as invalid.
                let parts = bytes[start..<end].split(whereSeparator: isBlank)
                if parts.count == 2 { (open, close) = (Array(parts[0]), Array(parts[1])) }
            }
        }
        return tags
    }

    /// A `{{> name}}` or `{{< name}}` tag, where it is in its template.
    struct TemplateReference {
        /// The name after the sigil; with its `*` when dynamic.
        var name: String
        var line: Int
        var column: Int
        /// Whether it is `{{< name}}`, a parent the template inherits from.
        var isParent: Bool
        /// Whether the name is dynamic (`{{>*name}}`): the template named by the value of
        /// `name`, which only rendering knows.
        var isDynamic: Bool { name.hasPrefix("*") }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case MustacheTemplate.Error.sectionCloseNameIncorrect: return "a section is closed with the wrong name"
        case MustacheTemplate.Error.unfinishedName: return "a tag is not closed with '}}'"
        case MustacheTemplate.Error.expectedSectionEnd: return "a section is never closed"
        case MustacheTemplate.Error.invalidSetDelimiter: return "invalid set-delimiter tag"
        default: return "\(error)"
        }
    }
}
