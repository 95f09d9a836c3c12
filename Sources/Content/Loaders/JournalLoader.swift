import Diagnostics
import GFM
import Images
import SiteConfig

/// Reads journal entries from `content/journal/**/*.md`.
///
///     ---
///     title: Dust on the panels
///     author: lewis
///     sol: 12
///     time: "14:02"
///     tags: [power, eva]
///     description: Panels at 71% after the storm   # else the start of the text
///     image: img/panels.jpg                         # else the text's first image
///     aliases: [/posts/dust-on-the-panels/]         # old addresses, sent on here
///     toc: true                                     # its page lists its headings
///     ---
///     Markdown body…
public enum JournalLoader {
    static let knownKeys: Set<String> = ["title", "author", "date", "sol", "time", "tags", "draft", "slug", "description", "image", "aliases", "toc", "extra"]
    /// Hugo's and Zola's names for keys an entry has, lowercased (`authors` is a likely
    /// misspelling already).
    static let otherGeneratorsKeys: [String: String] = [
        "categories": "tags", "keywords": "tags", "taxonomies": "tags", "url": "slug", "path": "slug",
        "publishdate": "date", "summary": "description",
    ]

    /// Parses one journal entry.
    ///
    /// - Throws: A ``Diagnostic`` for bad front matter, a missing or bad date, an unknown author
    ///   or an invalid slug.
    public static func load(_ file: SourceFile, context: ContentContext, log: inout DiagnosticLog) throws(Diagnostic) -> JournalEntry {
        var links = LinkUses()
        return try load(file, context: context, log: &log, links: &links)
    }

    /// Parses one journal entry, adding its links to other content files and to the site's pages and files to `links`.
    public static func load(_ file: SourceFile, context: ContentContext, log: inout DiagnosticLog,
                            links: inout LinkUses) throws(Diagnostic) -> JournalEntry {
        let matter = try FrontMatter(splitting: file)
        let fields = matter.fields
        fields.warnAboutUnknownKeys(knownKeys, into: &log, context: "journal front matter", otherNames: otherGeneratorsKeys)
        guard let authorID = try fields.string("author") else {
            throw fields.missingKey("author", hint: "add 'author: <crew id>' with an id from content/crew.yml")
        }
        let author = try context.author(authorID, at: fields.location(of: "author"))
        let moment = try matter.moment(in: context, what: "this entry")

        let slug: String
        if let explicit = try fields.string("slug") {
            guard Slug.isValid(explicit) else {
                throw Diagnostic.error("slug '\(explicit)' is not a single URL segment: use lowercase letters, digits, "
                                       + "'-', '_' and '.', not starting with '.' nor containing '..'",
                                       at: fields.location(of: "slug"),
                                       hint: "for example 'slug: \(Slug.derive(from: explicit) == "entry" ? "dust-on-the-panels" : Slug.derive(from: explicit))'")
            }
            if let problem = Slug.lengthProblem(explicit, what: "slug", at: fields.location(of: "slug")) { throw problem }
            // /journal/<slug>/ would be a folder named like the journal's own page, /journal/index.html.
            guard explicit != "index.html" else {
                throw Diagnostic.error("slug 'index.html' is the name of the journal page's file", at: fields.location(of: "slug"),
                                       hint: "slugs appear in URLs, /journal/<slug>/: choose another")
            }
            slug = explicit
        } else {
            slug = Slug.derive(fromFileAt: file.path)
        }
        let title = try fields.string("title")
        let description = try fields.string("description")
        // A draft is not for readers yet: one just started (`marsgen new entry`) has no text.
        if matter.body.allSatisfy(\.isWhitespace), try fields.bool("draft") != true {
            log.warn("this entry has no text after its front matter", at: file.location(line: matter.bodyFirstLine),
                     hint: "write the entry below the closing '---', or add 'draft: true' until it is ready")
        }
        let written = try fields.strings("tags")
        let tags = written.filter { !$0.allSatisfy(\.isWhitespace) }
        if tags.count < written.count {
            // It would name a tag page of nothing, shown as an empty pill.
            log.warn("an empty tag is left out", at: fields.location(of: "tags"), hint: "write a word for it, or remove it")
        }
        let aliases = try Alias.paths(in: fields, of: "the entry", example: "'/posts/2038/landing/' or '/landing.html'")
        let document = try context.markdown(matter.body, firstLine: matter.bodyFirstLine, ids: .journalEntry(slug: slug), in: file,
                                            uses: &links, log: &log)
        let image = try leadImage(fields, document: document, basePath: context.config.basePath, imageSize: context.imageSize,
                                  links: &links, log: &log)
        let contents = try tableOfContents(of: document, fields: fields, what: "this entry", example: "## Timeline", log: &log)
        let broken = document.htmlBreakingAtMore(anchor: JournalEntry.continueAnchorHTML)
        for note in broken.notes { warn(about: note, in: file, log: &log) }
        return JournalEntry(
            sourcePath: file.path,
            explicitTitle: title.flatMap { $0.isEmpty ? nil : $0 },
            slug: slug,
            author: author,
            instant: moment.instant,
            sol: moment.sol,
            lmst: moment.lmst,
            tags: tags,
            isDraft: try fields.bool("draft") ?? false,
            bodyHTML: broken.html,
            description: description.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } ?? document.summary(),
            aliases: aliases,
            image: image.url,
            imageAlt: image.alt,
            imageSize: image.size,
            teaser: broken.teaser ?? "",
            tableOfContents: contents,
            wordCount: ReadingTime.words(inHTML: broken.html),
            extra: try fields.extra("extra")
        )
    }

    /// The table of contents of `document` when its front matter (`fields`) says `toc: true`,
    /// as HTML; empty otherwise. One asked for of a text without headings is a warning that
    /// names it (`what`) and gives a heading for `example`.
    static func tableOfContents(of document: MarkdownDocument, fields: YAMLMapping, what: String, example: String,
                                log: inout DiagnosticLog) throws(Diagnostic) -> String {
        guard try fields.bool("toc") == true else { return "" }
        let contents = TableOfContents.html(document.outline)
        if contents.isEmpty {
            log.warn("toc: true, but \(what) has no headings to list", at: fields.location(of: "toc"),
                     hint: "its page lists the headings ('\(example)') written outside lists and quotes; add some, or remove 'toc'")
        }
        return contents
    }

    /// Warns about a `<!--more-->` marker that made no break, or no other.
    static func warn(about note: MoreMarkerNote, in file: SourceFile, log: inout DiagnosticLog) {
        let location = file.location(line: note.line, column: note.column)
        switch note {
        case .nothingBefore:
            log.warn("<!--more--> has nothing before it: the entry is shown whole everywhere", at: location,
                     hint: "move it below the paragraphs that pages listing the entry should show, or remove it")
        case .nothingAfter:
            log.warn("<!--more--> has nothing after it: the entry is shown whole everywhere", at: location,
                     hint: "move it above what only the entry's own page should show, or remove it")
        case .repeated(_, _, let firstLine):
            log.warn("a second <!--more--> is left out: only the first, on line \(firstLine), counts", at: location,
                     hint: "keep one <!--more-->, on a line of its own")
        case .notOnItsOwnLine:
            log.warn("<!--more--> within a paragraph, list, quote or footnote breaks nothing", at: location,
                     hint: "write it on a line of its own, with a blank line before and after, outside lists and quotes")
        }
    }

    /// The image a link to the entry's page is previewed with: front matter's `image:`, a
    /// URL written as the text's links are (relative to the site's root, from the host's
    /// root, or `https:`), checked as their images are; else the text's first image (see
    /// ``MarkdownDocument/leadImage()``). Its URL is escaped as the page writes it, and is
    /// empty when the entry has none; its size is the file's, for a static image of the site
    /// (`imageSize` gives it by the path from the site's root).
    ///
    /// - Throws: A ``Diagnostic`` for an `image:` no preview could fetch (`data:`, `//host/…`).
    /// - Parameter isPreview: Whether the image is for link previews alone, which show no SVG
    ///   image (a warning); else it is shown on the page too (a crew member's portrait).
    static func leadImage(_ fields: YAMLMapping, document: MarkdownDocument, basePath: String, imageSize: ((String) -> ImageSize?)?,
                          links: inout LinkUses, log: inout DiagnosticLog,
                          isPreview: Bool = true) throws(Diagnostic) -> (url: String, alt: String, size: ImageSize?) {
        // A quoted value may hold spaces around the URL.
        guard let given = try fields.string("image"), case let written = String(given.trimmingSpaces), !written.isEmpty else {
            return document.leadImage().map { (LinkEscaping.escaped($0.url), $0.alt, $0.size) } ?? ("", "", nil)
        }
        let location = fields.location(of: "image")
        let url = LeadImage.url(written: written, basePath: basePath)
        guard LeadImage.isFetchable(url) else {
            throw Diagnostic.error("image '\(Diagnostic.excerpt(written))' is not an address a link preview can fetch", at: location,
                                   hint: "give a file of the site, like 'img/landing.jpg' (relative to the site's root, as in the text), or an https:// URL")
        }
        if isPreview, LeadImage.isSVG(url) {
            log.warn("image '\(Diagnostic.excerpt(written))' is an SVG image, which link previews do not show", at: location,
                     hint: "give a PNG, JPEG or WebP image for previews (about 1200 × 630 pixels shows well everywhere)")
        }
        var size: ImageSize?
        if url.utf8.first == UInt8(ascii: "/"),
           var link = MarkdownSiteLink(written, basePath: basePath, line: location.line, column: location.column, isImage: true) {
            // Recorded with the size it was given, as the text's images are: a build whose
            // file gives another parses the entry again.
            if link.origin != .outsideBasePath { size = imageSize?(link.path) }
            link.imageSize = size
            links.site.append(link)
        }
        return (LinkEscaping.escaped(url), "", size)
    }
}
