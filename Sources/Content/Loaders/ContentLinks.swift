import Diagnostics
import GFM
import SiteConfig

/// Where links from one content file to another lead: the page each journal entry, message
/// log and weather report is shown on, by the file's site-relative path.
///
/// A writer links to yesterday's entry as their editor does, by file (`[yesterday](sol-04.md)`,
/// relative to the file the link is in); the site writes the link as that entry's URL
/// (`/journal/dust-storm/`). Which URL that is depends on other files (a slug in front matter,
/// a log's first sol), so a build parses its files first, then makes this table, then parses
/// again the files whose links it resolves differently from the last time (see
/// ``ContentLinkUse``).
public struct ContentLinks: Sendable {
    /// The page a content file is shown on.
    public struct Target: Hashable, Sendable {
        /// Where a link to the file leads: an entry's page, or the first message's or the
        /// report's place on its sol's page (`/sol/3/#m-…`).
        public var url: String
        /// The page alone, for a link that names its own fragment (`sol-03.md#comms`).
        public var page: String
        /// A draft left out of this build: the link leads nowhere until it is published.
        public var isDraft: Bool
        /// A file left out of this build for its errors (`--keep-going`): the link leads
        /// nowhere until they are fixed. ``url`` and ``page`` are empty: what the file would
        /// show is not known.
        public var hasErrors: Bool
        /// What the ids in the file's text start with, for a link to one of its headings.
        public var ids: TextIDs
        /// The anchor of the file's object on ``page`` (`entry-dust-storm`), kept as written.
        public var anchor: String

        public init(url: String, page: String, isDraft: Bool = false, hasErrors: Bool = false, ids: TextIDs = .messageLog,
                    anchor: String = "") {
            (self.url, self.page, self.isDraft, self.hasErrors) = (url, page, isDraft, hasErrors)
            (self.ids, self.anchor) = (ids, anchor)
        }

        /// Where a link to the file leads that is written with `suffix` (`#timeline`, from its
        /// `#` or `?`; empty: ``url``). A fragment as GitHub writes a heading's
        /// (`sol-03.md#timeline`) leads to that heading's id (`#sol-03:timeline`), as it does
        /// on GitHub and in editors; one written as the page has it (an id with a `:`, the
        /// object's anchor, a footnote's) is kept.
        public func url(withSuffix suffix: String) -> String {
            guard !suffix.isEmpty else { return url }
            let fragment = suffix.dropFirst()
            guard suffix.hasPrefix("#"), !ids.headingPrefix.isEmpty, !fragment.isEmpty, !fragment.contains(":"),
                  fragment != anchor, !fragment.hasPrefix(ids.footnotePrefix + "fn") else { return page + suffix }
            return page + "#" + ids.headingPrefix + fragment
        }

        /// The target of a content file left out of this build for its errors.
        public static let withErrors = Target(url: "", page: "", hasErrors: true)
    }

    /// The targets by site-relative path (`content/journal/sol-04.md`).
    public var targets: [String: Target]

    /// What to do about a link to a draft, which the build leaves out: said of links to its
    /// file, to its page and to its anchor alike.
    public static let draftHint = "publish the entry (remove 'draft: true'), build with --drafts to see it, or remove the link"

    public init(targets: [String: Target] = [:]) {
        self.targets = targets
    }

    /// How a link to `path` is written, as ``ContentLinkUse/resolution`` records it.
    public func resolution(of path: String) -> String {
        Self.resolution(of: targets[path])
    }

    /// How a link to `target` is written, as ``ContentLinkUse/resolution`` records it.
    static func resolution(of target: Target?) -> String {
        guard let target else { return ContentLinkUse.unresolved }
        if target.hasErrors { return ContentLinkUse.toFileWithErrors }
        return target.isDraft ? "draft " + target.url : target.url
    }

    /// The name of a target in the same folder as `path` that `path`'s name is likely a typo
    /// of (see `isCloseMatch`), for an error's hint.
    public func nearName(to path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let (folder, name) = (path[...slash], path[path.index(after: slash)...])
        return String(name).closestMatch(among: targets.keys.filter { $0.hasPrefix(folder) && !$0.dropFirst(folder.count).contains("/") }
            .map { String($0.dropFirst(folder.count)) })
    }

    /// The site-relative path that `link`, in the file at `source`, leads to; nil for one
    /// that leads out of the site's folder.
    public static func targetPath(of link: MarkdownFileLink, in source: String) -> String? {
        sitePath(of: link.path, from: String(source[..<(source.lastIndex(of: "/") ?? source.startIndex)]))
    }

    /// The site-relative path that the relative `path` leads to from the site-relative
    /// `folder` (empty: the site's root), as a browser or an editor reads it: `.` and `..`
    /// applied, empty segments dropped; nil for one that leads out of the site's folder.
    public static func sitePath(of path: String, from folder: String) -> String? {
        var segments = folder.split(separator: "/", omittingEmptySubsequences: true)
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }
}

/// A link from a content file to another, as a build wrote it: kept with the file's parsed
/// objects, so that the next build parses the file again only when the link would now be
/// written differently (the entry it leads to got another slug, was removed, or added).
public struct ContentLinkUse: Hashable, Sendable {
    /// The site-relative path of the file the link leads to (or as written, when it leads
    /// out of the site).
    public var target: String
    /// The URL it was written as (`draft ` before it for a draft's), or ``unresolved``.
    public var resolution: String

    /// The resolution of a link written before the targets were known, or to no target.
    public static let unresolved = ""
    /// The resolution of a link to a file left out for its errors (`--keep-going`): not a
    /// URL, so fixing the file changes it, and the linking file is parsed again.
    public static let toFileWithErrors = "errors"

    public init(target: String, resolution: String) {
        (self.target, self.resolution) = (target, resolution)
    }
}

/// The links a content file holds that a build keeps with its parsed objects: those to other
/// content files, and those to the site's pages and static files (`![](img/map.png)`), which
/// each build checks against what the site holds.
public struct LinkUses: Hashable, Sendable {
    /// Links to other content files, as written.
    public var files: [ContentLinkUse]
    /// Links and images whose URL is relative to the site's root, where they start in the file.
    public var site: [MarkdownSiteLink]

    public init(files: [ContentLinkUse] = [], site: [MarkdownSiteLink] = []) {
        (self.files, self.site) = (files, site)
    }
}

extension ContentContext {
    /// Parses a content file's Markdown, writing each link to another content file as
    /// ``links`` says (when known), and recording each in `uses`, with its links to the site's
    /// pages and files.
    ///
    /// - Throws: With ``links`` known, a ``Diagnostic`` at the first link to a file that is
    ///   not a journal entry, message log, weather report or page of this site.
    func markdown(_ text: String, firstLine: Int, ids: TextIDs, in file: SourceFile,
                  uses: inout LinkUses, log: inout DiagnosticLog) throws(Diagnostic) -> MarkdownDocument {
        var found: [ContentLinkUse] = []
        var problem: Diagnostic?
        var drafts: [(MarkdownFileLink, String)] = []
        let links = self.links
        var withErrors: [(MarkdownFileLink, String)] = []
        // A link with a fragment is checked, as a site link's is, against the page it leads
        // to, with the site's links ("Check site links"), once every page is known.
        var anchored: [MarkdownSiteLink] = []
        let basePath = config.basePath
        func written(_ link: MarkdownFileLink, to target: ContentLinks.Target) -> String {
            let url = target.url(withSuffix: link.suffix)
            if link.suffix.count > 1, link.suffix.hasPrefix("#"), !target.isDraft,
               let site = MarkdownSiteLink(resolving: link, to: url, basePath: basePath) {
                anchored.append(site)
            }
            return url
        }
        let document = MarkdownDocument(parsing: text, firstLine: firstLine, options: markdownOptions(ids: ids), imageSize: imageSize) { link in
            guard let path = ContentLinks.targetPath(of: link, in: file.path) else {
                found.append(ContentLinkUse(target: link.path, resolution: ContentLinkUse.unresolved))
                if links != nil, problem == nil {
                    problem = Diagnostic.error("link to '\(Diagnostic.excerpt(link.path))' leads out of the site's folder",
                                               at: file.location(line: link.line, column: link.column),
                                               hint: "link to another entry, log, report or page by its file, relative to this one, or to a page by its URL")
                }
                return nil
            }
            guard let links else {
                // Written where it likely leads, and recorded so: if it leads elsewhere, the
                // file is parsed again once the targets are known.
                let likely = likelyTarget?(path)
                found.append(ContentLinkUse(target: path, resolution: ContentLinks.resolution(of: likely)))
                return likely.map { written(link, to: $0) }
            }
            found.append(ContentLinkUse(target: path, resolution: links.resolution(of: path)))
            guard let target = links.targets[path] else {
                if problem == nil {
                    let near = links.nearName(to: path).map { name in
                        "did you mean '\(link.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().map { $0 + "/" }.joined())\(name)'?"
                    }
                    problem = Diagnostic.error("link to '\(Diagnostic.excerpt(link.path))': \(path) is not a journal entry, message log, weather report or page of this site",
                                               at: file.location(line: link.line, column: link.column),
                                               hint: near ?? "links to other content files are relative to this file's folder; check the name, or link to a page by its URL")
                }
                return nil
            }
            if target.hasErrors {
                // Its page is not known: the link is left as written, and said to lead nowhere.
                withErrors.append((link, path))
                return nil
            }
            if target.isDraft { drafts.append((link, path)) }
            return written(link, to: target)
        }
        if let problem { throw problem }
        for (link, path) in withErrors {
            log.warn("link to '\(Diagnostic.excerpt(link.path))': \(path) has errors and is left out of this build, so the link leads nowhere",
                     at: file.location(line: link.line, column: link.column),
                     hint: "fix the errors reported for that file; the next build then writes this link to its page")
        }
        for (link, path) in drafts {
            log.warn("link to '\(Diagnostic.excerpt(link.path))', a draft: \(path) is left out of the site, so the link leads nowhere",
                     at: file.location(line: link.line, column: link.column),
                     hint: ContentLinks.draftHint)
        }
        uses.files += found
        uses.site += document.siteLinks + anchored
        return document
    }
}
