import Diagnostics
import GFM
import SiteConfig

/// Reads pages of their own from `content/pages/**/*.md` (see ``StandalonePage``).
///
///     ---
///     title: About Kasei Station
///     nav: true                  # the site's navigation links to it
///     nav_title: About           # … with these words (else the title)
///     weight: 1                  # its place there: lower first
///     slug: about                # its path (else the file's, from content/pages/)
///     description: Who we are    # else the start of the text
///     toc: true                  # lists its headings
///     aliases: [/about-us/]      # old addresses, sent on here
///     template: roster           # templates/roster.mustache instead of page-standalone
///     ---
///     Markdown body…
///
/// `content/pages/about.md` is at `/about/`; `content/pages/mission/habitat.md` at
/// `/mission/habitat/`; `content/pages/mission/index.md` at `/mission/`.
public enum StandalonePageLoader {
    /// Where pages are read from.
    public static let folder = "content/pages"

    static let knownKeys: Set<String> = ["title", "slug", "description", "draft", "nav", "nav_title", "weight", "toc", "image", "extra", "aliases", "template"]
    /// Hugo's and Zola's names for keys a page has, lowercased.
    static let otherGeneratorsKeys: [String: String] = [
        "menu": "nav", "menus": "nav", "linktitle": "nav_title", "url": "slug", "path": "slug", "summary": "description",
    ]

    /// What the site's other files need of a page before its text is read: where it is, and
    /// whether it is a draft (links to it from entries are written with them); with the
    /// front matter read for them, which ``load(_:head:context:log:links:)`` takes on from.
    public struct Head {
        public var path: String
        public var isDraft: Bool
        let matter: FrontMatter
    }

    /// Reads the front matter of the page in `file` for its ``Head``.
    ///
    /// - Throws: A ``Diagnostic`` for bad front matter or a path that is not one.
    public static func head(_ file: SourceFile) throws(Diagnostic) -> Head {
        let matter = try FrontMatter(splitting: file)
        return Head(path: try path(of: file, fields: matter.fields), isDraft: try matter.fields.bool("draft") ?? false, matter: matter)
    }

    /// Parses one page.
    ///
    /// - Throws: A ``Diagnostic`` for bad front matter, a missing title, a path that is not one
    ///   or is marsgen's own, and, with the context's links known, a link to no content file.
    public static func load(_ file: SourceFile, context: ContentContext, log: inout DiagnosticLog,
                            links: inout LinkUses) throws(Diagnostic) -> StandalonePage {
        try load(file, head: try head(file), context: context, log: &log, links: &links)
    }

    /// Parses one page whose ``Head`` `head(file)` gave: its front matter is not read again.
    public static func load(_ file: SourceFile, head: Head, context: ContentContext, log: inout DiagnosticLog,
                            links: inout LinkUses) throws(Diagnostic) -> StandalonePage {
        let matter = head.matter
        let fields = matter.fields
        fields.warnAboutUnknownKeys(knownKeys, into: &log, context: "page front matter", otherNames: otherGeneratorsKeys)
        let title = try fields.requiredString("title", hint: "add 'title: …': it is the page's heading and its name in the browser's tab")
        let (path, isDraft) = (head.path, head.isDraft)
        if matter.body.allSatisfy(\.isWhitespace), !isDraft {
            log.warn("this page has no text after its front matter", at: file.location(line: matter.bodyFirstLine),
                     hint: "write the page below the closing '---', or add 'draft: true' until it is ready")
        }
        let navigationTitle = try fields.string("nav_title").flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        let isInNavigation = try fields.bool("nav") ?? false
        if navigationTitle != nil, !isInNavigation {
            log.warn("nav_title is for the navigation, which does not link to this page", at: fields.location(of: "nav_title"),
                     hint: "add 'nav: true' to link to it from every page, or remove nav_title")
        }
        let document = try context.markdown(matter.body, firstLine: matter.bodyFirstLine, ids: StandalonePage.textIDs(path: path),
                                            in: file, uses: &links, log: &log)
        let image = try JournalLoader.leadImage(fields, document: document, basePath: context.config.basePath,
                                                imageSize: context.imageSize, links: &links, log: &log)
        let contents = try JournalLoader.tableOfContents(of: document, fields: fields, what: "this page", example: "## The habitat", log: &log)
        let description = try fields.string("description").flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        let aliases = try Alias.paths(in: fields, of: "the page", example: "'/about-us/' or '/about.html'")
        if aliases.contains(path + "/") {
            throw Diagnostic.error("alias '/\(path)/' is this page's own address", at: fields.location(of: "aliases"),
                                   hint: "an alias is an address the page had before, which sends readers on to it: remove this one")
        }
        let template = try templateName(fields)
        return StandalonePage(sourcePath: file.path, title: title, path: path, description: description ?? document.summary(),
                              bodyHTML: document.html(), tableOfContents: contents, isDraft: isDraft,
                              isInNavigation: isInNavigation, navigationTitle: navigationTitle, weight: try fields.int("weight") ?? 0,
                              image: image.url, imageAlt: image.alt, imageSize: image.size, extra: try fields.extra("extra"),
                              aliases: aliases, template: template,
                              templateLocation: template == nil ? nil : fields.location(of: "template"))
    }

    /// The name of the template `template:` names (`roster`, also written `roster.mustache`),
    /// or nil when it names none.
    ///
    /// - Throws: A ``Diagnostic`` for a name that is not a template's file name, or is a
    ///   Hugo's or Zola's (`page.html`).
    static func templateName(_ fields: YAMLMapping) throws(Diagnostic) -> String? {
        guard let written = try fields.string("template"), !written.allSatisfy(\.isWhitespace) else { return nil }
        let name = written.hasSuffix(".mustache") ? String(written.dropLast(".mustache".count)) : written
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
            default: false
            }
        }) else {
            let stem = name.split(separator: ".").first.map { Slug.derive(from: String($0), orElse: "roster") } ?? "roster"
            throw Diagnostic.error("template '\(Diagnostic.excerpt(written))' is not the name of a file in templates/",
                                   at: fields.location(of: "template"),
                                   hint: "marsgen's templates are Mustache files: for templates/\(stem).mustache, write 'template: \(stem)'")
        }
        return name
    }

    /// The page's path from the site's root: its `slug:` (segments separated by `/`), or its
    /// file's path under ``folder`` without `.md`, each segment made a slug, and an `index`
    /// last standing for its folder.
    static func path(of file: SourceFile, fields: YAMLMapping) throws(Diagnostic) -> String {
        let segments: [String]
        var location = SourceLocation(path: file.path, line: 1, column: 1)
        if let written = try fields.string("slug") {
            location = fields.location(of: "slug")
            let trimmed = written.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            for segment in trimmed where !Slug.isValid(segment) {
                throw Diagnostic.error("slug '\(Diagnostic.excerpt(written))' is not a URL path: use lowercase letters, digits, "
                                       + "'-', '_' and '.' in each segment between '/', not starting with '.' nor containing '..'",
                                       at: location, hint: "for example 'slug: \(Slug.derive(from: segment, orElse: "about"))'")
            }
            for segment in trimmed {
                if let problem = Slug.lengthProblem(segment, what: "slug", at: location) { throw problem }
            }
            segments = trimmed
        } else {
            let relative = file.path.hasPrefix(folder + "/") ? String(file.path.dropFirst(folder.count + 1)) : file.path
            var parts = relative.split(separator: "/").map(String.init)
            if let last = parts.last, last.hasSuffix(".md") { parts[parts.count - 1] = String(last.dropLast(3)) }
            if parts.last == "index" { parts.removeLast() }
            segments = parts.map { Slug.derive(from: $0, orElse: "page") }
        }
        guard let first = segments.first else {
            throw Diagnostic.error("this page would be the front page, which is the feed's", at: location,
                                   hint: "give it a path of its own: rename the file (content/pages/about.md is at /about/), or add 'slug: about'")
        }
        if Alias.isSitePlace(Substring(first)) {
            throw Diagnostic.error("this page would be at /\(segments.joined(separator: "/"))/, under /\(first), which is marsgen's own",
                                   at: location,
                                   hint: "marsgen writes /journal/, /sol/, /crew/, /tags/, /page/, /search/, /theme/ and the feed's files; "
                                       + "give the page another path with 'slug:'")
        }
        return segments.joined(separator: "/")
    }
}
