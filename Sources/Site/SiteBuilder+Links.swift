import Content
import Diagnostics
import Feed
import Foundation
import GFM
import SiteConfig

/// The three kinds of content file, each in a folder of `content/`.
enum ContentKind: CaseIterable {
    case journal, messages, weather

    /// The site-relative folder its files are in.
    var folder: String {
        switch self {
        case .journal: "content/journal"
        case .messages: "content/messages"
        case .weather: "content/weather"
        }
    }

    /// The kind of the content file at the site-relative `path`, by its folder.
    init?(path: String) {
        guard let kind = Self.allCases.first(where: { path.hasPrefix($0.folder + "/") }) else { return nil }
        self = kind
    }

    /// The warning for the file at `path` in a content folder when it is not a Markdown file
    /// (`.md`), which marsgen does not read: a `.markdown` or `.txt` file's text, or an image
    /// kept beside its entry, would otherwise be left out without a word. Nil for a `.md` file.
    static func unreadFile(at path: String) -> Diagnostic? {
        guard !path.hasSuffix(".md") else { return nil }
        let name = String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
        let dot = name.lastIndex(of: ".")
        let (stem, ending) = dot.map { (String(name[..<$0]), name[$0...].lowercased()) } ?? (name, "")
        let hint = [".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".txt", ".text", ""].contains(ending)
            ? "marsgen reads Markdown files named '….md': rename it '\(stem).md'"
            : "files to copy as they are go in static/ (static/img/\(name)), and a link to one is written from the site's root: ![…](img/\(name))"
        return .warning("'\(name)' does not end in '.md': marsgen reads only Markdown files so named here, and nothing on the site comes from it",
                        at: SourceLocation(path: path), hint: hint)
    }

    /// Parses a file of this kind into a record of what it holds (its stat and hash not set).
    ///
    /// - Parameter earlier: For a message log that only grew since it was last parsed under
    ///   the same context, what that parse gave (see ``SiteBuilder/earlierParse(of:from:)``):
    ///   its earlier messages are taken as they are (see ``MessageLogLoader``), where
    ///   appending to a log of 20,000 messages parsed them all again, about 0.4 s.
    func parse(_ file: SourceFile, content: ContentContext, log: inout DiagnosticLog,
               appendedTo earlier: MessageLogLoader.EarlierParse? = nil) throws(Diagnostic) -> BuildState.SourceRecord {
        var record = BuildState.SourceRecord(size: 0, modified: 0, changed: 0, hash: "")
        var links = LinkUses()
        switch self {
        case .journal: record.journalEntries = [try JournalLoader.load(file, context: content, log: &log, links: &links)]
        case .messages:
            record.messages = try MessageLogLoader.load(file, context: content, log: &log, links: &links, appendedTo: earlier)
        case .weather: record.weatherReports = [try WeatherLoader.load(file, context: content, log: &log, links: &links)]
        }
        record.linkUses = links
        return record
    }
}

extension SiteBuilder {
    /// Writes every link from one content file to another (`[yesterday](sol-04.md)`) as the
    /// URL of the page the other is shown on.
    ///
    /// Where such a link leads depends on other files (an entry's slug, a log's first
    /// message), so the loaders write it where it likely leads (see
    /// ``ContentContext/likelyTarget``), and record it. Once every file is read, the files
    /// whose links would now be written otherwise than their records say are parsed again
    /// with the targets known: on a first build a log linking to a log, and those linking to a
    /// draft, an entry with a slug of its own or a report named after another sol; after an
    /// edit, also those linking to a file whose page moved (a slug changed, a log's first
    /// message), or that was added or removed. A
    /// link to a file that is not content of the site is an error at the link, and one to a
    /// draft a warning, as is one to a file `--keep-going` left out for its errors.
    func resolveLinks(_ context: inout BuildContext) throws(Diagnostic) {
        var linking: [(path: String, uses: [ContentLinkUse])]
        (linking, context.siteLinking) = Self.linkingFiles(in: context.state.sources)
        guard !linking.isEmpty else { return }
        // The files this build read recorded where their links likely lead, not where the
        // last build wrote them: that such a guess was wrong is nothing to explain.
        let changed = context.isIncremental && !context.crewChanged && context.resizedImages.isEmpty ? context.changedInputs : nil
        func wasRead(_ path: String) -> Bool { changed.map { $0.sortedIndex(of: path) != nil } ?? true }
        while true {
            let links = try contentLinks(context)
            var stale: [String] = []
            for (path, uses) in linking {
                guard let moved = uses.first(where: { use in
                    let now = links.resolution(of: use.target)
                    return now == ContentLinkUse.unresolved || now != use.resolution
                }) else { continue }
                stale.append(path)
                // For --explain: the file did not change, one of its links did.
                if moved.resolution != ContentLinkUse.unresolved, !wasRead(path), let target = links.targets[moved.target] {
                    context.relinked[path] = "its link to \(moved.target) now leads to "
                        + (target.hasErrors ? "a file left out for its errors" : target.isDraft ? "a draft" : target.url)
                }
            }
            // Kept when none is stale too: "Load pages" writes its links with it.
            context.contentLinks = links
            guard !stale.isEmpty else { break }
            let leftOut = context.contentWithErrors.count
            try parseAgain(stale.sorted(), context: &context)
            // A file parsed again wrote its links with fragments to the pages they lead to now,
            // which "Check site links" checks, from the records parsing again left.
            let relinked: [(path: String, uses: [ContentLinkUse])]
            (relinked, context.siteLinking) = Self.linkingFiles(in: context.state.sources)
            // --keep-going left out a file parsed again (a link of its own leads nowhere): the
            // links to it, written to its page, now lead nowhere too; and its own links to the
            // site's pages are not checked. Until none is left out.
            guard context.contentWithErrors.count > leftOut else { break }
            linking = relinked
        }
    }

    /// The files whose records hold links to other content files, with those links, and
    /// those with links or images to the site's pages and files, for "Check site links".
    /// Most sites have no such links: one look at each record says so.
    static func linkingFiles(in sources: RecordTable<BuildState.SourceRecord>)
        -> (files: [(path: String, uses: [ContentLinkUse])], site: [(path: String, record: BuildState.SourceRecord)]) {
        var files: [(path: String, uses: [ContentLinkUse])] = []
        var site: [(path: String, record: BuildState.SourceRecord)] = []
        sources.forEach { path, record in
            guard record.holdsLinks else { return }
            let uses = record.linkUses
            if !uses.files.isEmpty { files.append((path, uses.files)) }
            if !uses.site.isEmpty { site.append((path, record)) }
        }
        return (files, site)
    }

    /// Where links to each content file lead, from the records of this build.
    func contentLinks(_ context: BuildContext) throws(Diagnostic) -> ContentLinks {
        let site = SiteLinks(config: try context.requireConfig())
        var targets: [String: ContentLinks.Target] = [:]
        context.state.sources.forEach { path, record in
            guard path.hasPrefix("content/") else { return }
            if let entry = record.journalEntries.first {
                targets[path] = Self.target(ofEntry: entry.slug, isDraft: !isPublished(entry), site: site)
            } else if let message = record.messages.first {
                targets[path] = Self.target(ofLog: message, site: site)
            } else if let report = record.weatherReports.first {
                targets[path] = Self.target(ofReport: report.diffIdentifier, sol: report.sol, site: site)
            }
        }
        targets.merge(standalonePageTargets(context, site: site)) { entry, _ in entry }
        for path in context.contentWithErrors where targets[path] == nil { targets[path] = .withErrors }
        if options.keepsGoing {
            // "Check content" leaves out the second (in path order) of two entries with one
            // slug, or of two reports for one sol, by ContentLibrary's rule: a link to one of
            // those leads nowhere, as a link to any file with errors does, and says so.
            var conflicts: [Diagnostic] = []
            _ = ContentLibrary(crew: context.crew, journalEntries: context.journalEntries, messages: [],
                               weatherReports: context.weatherReports, conflicts: &conflicts)
            for path in conflicts.compactMap(\.location?.path) { targets[path] = .withErrors }
        }
        return ContentLinks(targets: targets)
    }

    /// Where a link to a journal entry's file leads: the entry's page.
    static func target(ofEntry slug: String, isDraft: Bool = false, site: SiteLinks) -> ContentLinks.Target {
        let url = site.journal(slug: slug)
        return ContentLinks.Target(url: url, page: url, isDraft: isDraft, ids: .journalEntry(slug: slug),
                                   anchor: SiteLinks.entryAnchorPrefix + slug)
    }

    /// Where a link to a message log's file leads: its first message's place on its sol's page.
    static func target(ofLog first: Message, site: SiteLinks) -> ContentLinks.Target {
        ContentLinks.Target(url: site.permalink(for: first), page: site.sol(first.sol))
    }

    /// Where a link to a weather report's file leads: the report's place on its sol's page.
    static func target(ofReport identifier: String, sol: Int, site: SiteLinks) -> ContentLinks.Target {
        let (page, anchor) = (site.sol(sol), SiteLinks.anchor(kind: .weather, identifier: identifier))
        // The permalink is the page and the anchor: the identifier is hashed once, for every
        // report of the site each time links are resolved.
        return ContentLinks.Target(url: page + "#" + anchor, page: page, ids: .weatherReport(sol: sol), anchor: anchor)
    }

    /// Parses the content files at `paths` again, with ``BuildContext/contentLinks`` known,
    /// in place of what the loaders made of them: their records, warnings and objects.
    func parseAgain(_ paths: [String], context: inout BuildContext) throws(Diagnostic) {
        let content = try contentContext(context)
        let (reader, keepsGoing) = (self.reader, options.keepsGoing)
        let outcomes = try parallelMap(paths) { path throws(Diagnostic) -> (record: BuildState.SourceRecord?, log: DiagnosticLog) in
            var log = DiagnosticLog()
            do throws(Diagnostic) {
                guard let kind = ContentKind(path: path) else { return (nil, log) }
                return (try kind.parse(try SourceFile(path: path, bytes: try reader.bytes(path)), content: content, log: &log), log)
            } catch {
                // --keep-going: the file is left out, as when its first reading failed.
                guard keepsGoing else { throw error }
                log.record(error)
                return (nil, log)
            }
        }
        // What the first reading of these files said goes: this reading says it again.
        let again = Set(paths)
        context.log.removeAll { diagnostic in diagnostic.location.map { again.contains($0.path) } ?? false }
        for (path, outcome) in zip(paths, outcomes) {
            context.log.merge(outcome.log)
            guard var record = outcome.record, let first = context.state.sources[path] else {
                context.state.sources[path] = nil
                if outcome.record == nil { context.contentWithErrors.insert(path) }
                continue
            }
            (record.stat, record.hash) = (first.stat, first.hash)
            record.warnings = outcome.log.entries
            context.state.sources[path] = record
        }
        // Not a content file changed: another file did (and said so), or the first reading
        // did not know where links lead (a full build, a crew change).
        context.stateChanged = true
        // Each kind's objects in path order, as the loaders give them.
        let kinds = Set(paths.compactMap(ContentKind.init(path:)))
        let sources = context.state.sources
        for kind in kinds {
            let records = try files(under: kind.folder, context: context).compactMap { sources[$0] }
            switch kind {
            case .journal:
                context.journalEntries = records.flatMap(\.journalEntries).filter(isPublished)
            case .messages: context.messages = records.flatMap(\.messages)
            case .weather: context.weatherReports = records.flatMap(\.weatherReports)
            }
        }
    }
}

extension SiteBuilder {
    /// The navigation's links of the site's own (`nav:` in `marsgen.yml`), each to a content
    /// file (`content/pages/about.md`, or `pages/about.md` within `content/`, as a Markdown
    /// link to it is resolved) written as the URL of the page that file is on now: a slug
    /// changed moves the link with its page. One to a draft, or to a file `--keep-going` left
    /// out, is left out of the navigation with a warning at its `url:`.
    ///
    /// - Throws: A ``Diagnostic`` at the `url:` of one to a file that is not content of the site.
    func navigationLinks(_ context: inout BuildContext) throws(Diagnostic) -> [SiteConfiguration.NavigationLink] {
        let config = try context.requireConfig()
        guard config.navigationLinks.contains(where: { Self.contentFile(ofNavigationURL: $0.url) != nil }) else { return config.navigationLinks }
        let links: ContentLinks
        if let known = context.contentLinks { links = known } else { links = try contentLinks(context) }
        var resolved: [SiteConfiguration.NavigationLink] = []
        for var link in config.navigationLinks {
            guard let (path, suffix) = Self.contentFile(ofNavigationURL: link.url) else {
                resolved.append(link)
                continue
            }
            let location = link.location.value
            guard let target = links.targets[path] else {
                let folder = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
                let near = links.nearName(to: path).map { name in "did you mean '\(folder)/\(name)'?" }
                throw Diagnostic.error("'url' of a 'nav' link: \(path) is not a journal entry, message log, weather report or page of this site",
                                       at: location, hint: near ?? "a content file is written from the site's folder, like 'content/pages/about.md'; check the name, or give a page's URL")
            }
            guard !target.hasErrors, !target.isDraft else {
                context.log.warn("the 'nav' link '\(link.title)' leads to \(target.isDraft ? "a draft" : "a file left out for its errors"), \(path): it is left out of the navigation",
                                 at: location, hint: target.isDraft ? "publish it (remove 'draft: true'), or build with --drafts to see it" : "fix the errors in \(path)")
                continue
            }
            link.url = target.url(withSuffix: suffix)
            resolved.append(link)
        }
        return resolved
    }

    /// The site-relative path of the content file a `nav:` link's `url` names, and what
    /// follows the path (`#crew`); nil for a URL that is not a Markdown file's path.
    static func contentFile(ofNavigationURL url: String) -> (path: String, suffix: String)? {
        let end = url.firstIndex { $0 == "#" || $0 == "?" } ?? url.endIndex
        let written = url[..<end]
        guard written.hasSuffix(".md"), !written.hasPrefix("/"), !written.contains(":"),
              let path = ContentLinks.sitePath(of: String(written), from: "") else { return nil }
        return (path.hasPrefix("content/") ? path : "content/" + path, String(url[end...]))
    }

    /// Warns about each link or image whose URL, relative to the site's root or from the
    /// host's root, names neither a page of this build nor a static or theme file
    /// (`![](img/dust-devl.svg)`): the browser would get a 404, and nothing else would say so.
    /// One from the host's root but outside the site's base path (`/img/a.png` under
    /// `/mission/`) is a warning when the site has what it names below its base path: the
    /// base path was forgotten, which a site served from the host's root would not show.
    ///
    /// Run once pages are planned and static files collected, on every build (full or
    /// incremental): whether such a link leads somewhere depends on other files. Only the
    /// files that hold such links are looked at, as "Resolve links" found them.
    func checkSiteLinks(_ context: inout BuildContext) throws(Diagnostic) {
        let config = try context.requireConfig()
        var linking = context.siteLinking
        // The site's picture for link previews is checked as an entry's `image:` is, at its
        // key; so are the navigation's links of the site's own to its pages, at their `url:`.
        func check(_ written: String, at location: SourceLocation?, isImage: Bool) {
            guard let location, LeadImage.url(written: written, basePath: config.basePath).utf8.first == UInt8(ascii: "/"),
                  let link = MarkdownSiteLink(written, basePath: config.basePath, line: location.line, column: location.column, isImage: isImage)
            else { return }
            linking.append((location.path, .holding(siteLinks: [link])))
        }
        check(config.image, at: config.imageLocation.value, isImage: true)
        // Links to content files as the pages were planned with them: written as their pages' URLs.
        for link in context.navigationLinks ?? config.navigationLinks { check(link.url, at: link.location.value, isImage: false) }
        guard !linking.isEmpty else { return }
        // Links are compared as their paths are held: percent-escapes decoded.
        let (basePath, unchecked) = (config.basePath, config.uncheckedLinks.map { $0.removingPercentEncoding ?? $0 })
        let (pages, files) = (context.state.pages, context.state.files)
        func exists(_ output: String) -> Bool { pages[output] != nil || files[output] != nil }
        // A site whose every entry shows an image has tens of thousands of these: each is
        // looked up as written when it can be, in runs on every core, and only the broken
        // ones are sorted.
        let runs = stride(from: 0, to: linking.count, by: 512).map { $0..<min($0 + 512, linking.count) }
        let isShown = self.isPublished
        // The pages of their own by output path: a link to one of their headings is checked too.
        let links = SiteLinks(config: config)
        let standalonePages = Dictionary(context.standalonePages.map { (links.standalonePageAddress($0.path).outputPath, $0) }) { first, _ in first }
        typealias Use = (path: String, link: MarkdownSiteLink, target: String?)
        let checked = try parallelMap(runs) { run throws(Diagnostic) -> (broken: [Use], anchored: [Use], toHeadings: [Use]) in
            var broken: [Use] = [], anchored: [Use] = [], toHeadings: [Use] = []
            // A draft left out of this build shows its links nowhere.
            for (path, record) in linking[run] where record.journalEntries.allSatisfy(isShown) {
                for link in record.siteLinks {
                    if !unchecked.isEmpty, case let written = link.written(basePath: basePath), unchecked.contains(where: written.hasPrefix) {
                        continue
                    }
                    // nil: the path climbs above the site's root (`../x`).
                    let target = Self.isPlainPath(link.path) ? link.path : Self.sitePath(link.path)
                    let found = target.map { target in
                        target.isEmpty || target.utf8.last == UInt8(ascii: "/") ? exists(target + "index.html")
                            : exists(target) || exists(target + "/index.html")
                    } ?? false
                    // Outside the base path, only what the site has is a mistake: anything
                    // else may be another site's on the same host.
                    if link.origin == .outsideBasePath ? found : !found {
                        broken.append((path, link, target))
                    } else if found, link.origin != .outsideBasePath, let page = target.flatMap(Self.objectPage) {
                        if SiteLinks.isObjectAnchor(link.fragment) {
                            anchored.append((path, link, page))
                        } else if link.fragment.contains(":"), TextIDs.owner(ofHeadingID: link.fragment) != nil {
                            toHeadings.append((path, link, page))
                        }
                    } else if found, link.origin != .outsideBasePath, link.fragment.contains(":"), let target,
                              case let page = target.isEmpty || target.hasSuffix("/") ? target + "index.html" : target + "/index.html",
                              standalonePages[page] != nil {
                        toHeadings.append((path, link, page))
                    }
                }
            }
            return (broken, anchored, toHeadings)
        }
        var broken = checked.flatMap(\.broken)
        let anchored = checked.flatMap(\.anchored)
        let toHeadings = checked.flatMap(\.toHeadings)
        // Only a link that leads nowhere asks which entries are drafts.
        var drafts: Drafts?
        let sources = context.state.sources
        let draftsOfSite = { () -> Drafts in
            if let drafts { return drafts }
            let found = Drafts(in: sources, links: links, isShown: isShown)
            drafts = found
            return found
        }
        if !anchored.isEmpty, let library = context.library {
            misplacedAnchors(anchored, library: library, links: links, drafts: draftsOfSite, log: &context.log)
        }
        if !toHeadings.isEmpty, let library = context.library {
            missingHeadings(toHeadings, library: library, standalonePages: standalonePages, links: links, drafts: draftsOfSite, log: &context.log)
        }
        guard !broken.isEmpty else { return }
        broken.sort { ($0.path, $0.link.line, $0.link.column) < ($1.path, $1.link.line, $1.link.column) }
        let outputs = Array(pages.keys) + Array(files.keys)
        for (path, link, target) in broken {
            let what = link.kindName
            let written = Diagnostic.excerpt(link.written(basePath: basePath))
            let location = SourceLocation(path: path, line: link.line, column: link.column)
            if link.origin == .outsideBasePath {
                context.log.warn("\(what) '\(written)' leads outside the site, whose base path is \(basePath)", at: location,
                                 hint: "did you mean '\(basePath + link.path)'? A URL from the host's root starts with the base path; "
                                     + "or write it relative to the site's root, as '\(link.path)'")
                continue
            }
            // A draft's page: the build leaves it out, and says so rather than that nothing is there.
            if let page = target.flatMap(Self.objectPage), let draft = draftsOfSite().byPage[page] {
                context.log.warn("\(what) '\(written)' leads to the page of a draft: \(draft) is left out of the site", at: location,
                                 hint: ContentLinks.draftHint)
                continue
            }
            let near = target.flatMap { Self.nearOutput(to: $0, among: outputs) }
            context.log.warn("\(what) '\(written)' leads to \(target == nil ? "above the site's root" : "no page or file of the site")",
                             at: location,
                             hint: near.map { "did you mean '\(link.origin == .hostRoot ? basePath + $0 : $0)'?" }
                                 ?? Self.hint(forBroken: link, basePath: basePath))
        }
    }

    /// Warns about each of `uses` (a link to a sol's page or an entry's, `target` being the
    /// page's output path, with the anchor of a message, a report or an entry after its `#`)
    /// whose anchor is not shown on that page: the object moved to another sol, or has
    /// another anchor now (a message's changes with its time and author, an entry's with its
    /// slug), and the browser would show the page's top.
    func misplacedAnchors(_ uses: [(path: String, link: MarkdownSiteLink, target: String?)], library: ContentLibrary,
                          links: SiteLinks, drafts: () -> Drafts, log: inout DiagnosticLog) {
        // Where each anchor linked to is shown, among the pages checked: its sol's, and an
        // entry's own. Each kind is looked for its own way: a site has tens of thousands of
        // messages, and hashing every identifier for an anchor took 65 ms a build.
        let fragments = Set(uses.map(\.link.fragment))
        var shownOn: [String: (solPage: String, ownPage: String?)] = [:]
        let entryPrefix = SiteLinks.entryAnchorPrefix
        let slugs = Set(fragments.filter { $0.hasPrefix(entryPrefix) }.map { $0.dropFirst(entryPrefix.count) })
        for entry in library.journalEntries where slugs.contains(Substring(entry.slug)) {
            shownOn[entryPrefix + entry.slug] = (links.outputPath(for: links.sol(entry.sol)), links.outputPath(for: links.journal(slug: entry.slug)))
        }
        if fragments.contains(where: { $0.hasPrefix(SiteLinks.anchorPrefix(for: .weather)) }) {
            for report in library.weatherReports {
                let anchor = links.anchor(for: report)
                if fragments.contains(anchor) { shownOn[anchor] = (links.outputPath(for: links.sol(report.sol)), nil) }
            }
        }
        // A message's anchor is made from its time, which fixes its sol: it is looked for on
        // the sols linked to only, and a message found nowhere there has another anchor now.
        let messagePrefix = SiteLinks.anchorPrefix(for: .message)
        let messageSols = Set(uses.compactMap { use in use.link.fragment.hasPrefix(messagePrefix) ? use.target.flatMap(Self.sol(ofPage:)) : nil })
        if !messageSols.isEmpty {
            for message in library.messages where messageSols.contains(message.sol) {
                let anchor = links.anchor(for: message)
                if fragments.contains(anchor) { shownOn[anchor] = (links.outputPath(for: links.sol(message.sol)), nil) }
            }
        }
        for (path, link, target) in uses.sorted(by: { ($0.path, $0.link.line, $0.link.column) < ($1.path, $1.link.line, $1.link.column) }) {
            let place = shownOn[link.fragment]
            guard let target, place?.solPage != target, place?.ownPage != target else { continue }
            let (written, prefix) = Self.shown(link, basePath: links.basePath)
            let page = prefix + target.dropLast("index.html".count)
            let location = SourceLocation(path: path, line: link.line, column: link.column)
            if place == nil, link.fragment.hasPrefix(entryPrefix), let draft = drafts().bySlug[String(link.fragment.dropFirst(entryPrefix.count))] {
                log.warn("link '\(written)' leads to the anchor of a draft: \(draft) is left out of the site", at: location,
                         hint: ContentLinks.draftHint)
                continue
            }
            let hint: String
            if let place {
                // An entry at its own page, anything else at its sol's.
                hint = "did you mean '\(prefix)\((place.ownPage ?? place.solPage).dropLast("index.html".count))#\(link.fragment)'?"
            } else {
                hint = "copy the link again from the page it is on: a message's anchor changes with its time and author, an entry's with its slug"
            }
            log.warn("link '\(written)' leads to \(page), where nothing has the anchor '\(Diagnostic.excerpt(link.fragment))'",
                     at: location, hint: hint)
        }
    }

    /// Warns about each of `uses` (a link to an entry's page or a sol's, `target` being the
    /// page's output path, with a heading's id after its `#`: `dust-storm:timeline`, or
    /// `w:452:forecast`) that leads to no heading: the entry has no heading with that text (or
    /// no longer), is shown elsewhere, or is no more; the browser would show the page's top.
    /// A link to another content file (`sol-04.md#timeline`) is told as written, with the
    /// fragment to write in the hint.
    func missingHeadings(_ uses: [(path: String, link: MarkdownSiteLink, target: String?)], library: ContentLibrary,
                         standalonePages: [String: StandalonePage], links: SiteLinks, drafts: () -> Drafts, log: inout DiagnosticLog) {
        // Each use with whose heading it names, found once.
        let owned = uses.compactMap { use in TextIDs.owner(ofHeadingID: use.link.fragment).map { (use, $0) } }
        let owners = Set(owned.map(\.1))
        // A page of its own shows its text alone, its headings' ids after its last segment.
        var pageTexts: [String: (pages: [String], ids: [String], teaserIDs: [String]?)] = [:]
        for (output, page) in standalonePages where owned.contains(where: { $0.0.target == output }) {
            pageTexts[output] = ([output], HeadingIDs.ids(in: page.bodyHTML, prefix: StandalonePage.textIDs(path: page.path).headingPrefix), nil)
        }
        // Each owner linked to, with the pages showing its text (its own, its sol's) and its
        // headings' ids; an entry with a teaser shows on its sol's page only the teaser's.
        var texts: [TextIDs.Owner: (pages: [String], ids: [String], teaserIDs: [String]?)] = [:]
        func add(_ owner: TextIDs.Owner, pages: [String], html: String, teaser: String? = nil) {
            let prefix = TextIDs.headingPrefix(of: owner)
            texts[owner] = (pages.map(links.outputPath(for:)), HeadingIDs.ids(in: html, prefix: prefix),
                            teaser.map { HeadingIDs.ids(in: $0, prefix: prefix) })
        }
        for entry in library.journalEntries where owners.contains(.journalEntry(slug: entry.slug)) {
            add(.journalEntry(slug: entry.slug), pages: [links.journal(slug: entry.slug), links.sol(entry.sol)], html: entry.bodyHTML,
                teaser: entry.hasTeaser ? entry.teaser.text : nil)
        }
        for report in library.weatherReports where owners.contains(.weatherReport(sol: report.sol)) {
            add(.weatherReport(sol: report.sol), pages: [links.sol(report.sol)], html: report.notesHTML)
        }
        for ((path, link, target), owner) in owned.sorted(by: { ($0.0.path, $0.0.link.line, $0.0.link.column) < ($1.0.path, $1.0.link.line, $1.0.link.column) }) {
            guard let target else { continue }
            let place = pageTexts[target] ?? texts[owner]
            let location = SourceLocation(path: path, line: link.line, column: link.column)
            let (written, prefix) = Self.shown(link, basePath: links.basePath)
            let page = prefix + target.dropLast("index.html".count)
            if let place, place.pages.contains(target), place.ids.contains(link.fragment) {
                guard target != place.pages[0], let teaserIDs = place.teaserIDs, !teaserIDs.contains(link.fragment) else { continue }
                log.warn("link '\(written)' leads to a heading that \(page) does not show: it is after the entry's <!--more-->",
                         at: location, hint: "link to the entry's own page, '\(prefix + place.pages[0].dropLast("index.html".count))#\(link.fragment)'")
                continue
            }
            if place == nil, case .journalEntry(let slug) = owner, let draft = drafts().bySlug[slug] {
                log.warn("link '\(written)' leads to a heading of a draft: \(draft) is left out of the site", at: location,
                         hint: ContentLinks.draftHint)
                continue
            }
            let headingPrefix = TextIDs.headingPrefix(of: owner)
            var hint = "copy the link again from the page it is on: a heading's id changes with its text and its entry's slug"
            if let place {
                // The id to write, as the link was written: a file's fragment without the prefix.
                func shownAs(_ id: String) -> String {
                    link.origin == .contentFile ? link.fileLink.prefix { $0 != "#" } + "#" + id.dropFirst(headingPrefix.count)
                        : prefix + (place.pages.contains(target) ? target : place.pages[0]).dropLast("index.html".count) + "#" + id
                }
                if place.ids.contains(link.fragment) {
                    hint = "did you mean '\(shownAs(link.fragment))'?"
                } else if let near = link.fragment.closestMatch(among: place.ids) {
                    hint = "did you mean '\(shownAs(near))'?"
                } else if place.ids.isEmpty {
                    hint = "it has no headings: link to the page alone, or add the heading"
                } else {
                    hint = "its headings: " + place.ids.prefix(8).map { "'\(shownAs($0))'" }.joined(separator: ", ")
                        + (place.ids.count > 8 ? ", …" : "")
                }
            }
            log.warn("link '\(written)' leads to \(page), where no heading has the id '\(Diagnostic.excerpt(link.fragment))'",
                     at: location, hint: hint)
        }
    }

    /// How a warning quotes `link`, a link with a fragment, and what the pages it names are
    /// written after: as the link names them (from the host's root with the base path, or
    /// relative to the site's root), or, for a link to another content file, from the host's
    /// root, since the file's path is not the page's.
    static func shown(_ link: MarkdownSiteLink, basePath: String) -> (written: String, pagePrefix: String) {
        switch link.origin {
        case .contentFile: (Diagnostic.excerpt(link.fileLink), basePath)
        case .hostRoot: (Diagnostic.excerpt(link.written(basePath: basePath) + "#" + link.fragment), basePath)
        case .relative, .outsideBasePath: (Diagnostic.excerpt(link.written(basePath: basePath) + "#" + link.fragment), "")
        }
    }

    /// The journal entries a build leaves out as drafts, each by its slug and by its page's
    /// output path, with its file: for the warning about a link to one. (Two drafts with one
    /// slug: the first file by path.)
    struct Drafts {
        var bySlug: [String: String] = [:]
        var byPage: [String: String] = [:]

        init(in sources: RecordTable<BuildState.SourceRecord>, links: SiteLinks, isShown: (JournalEntry) -> Bool) {
            sources.forEach { path, record in
                for entry in record.journalEntries where !isShown(entry) {
                    if let other = bySlug[entry.slug], other < path { continue }
                    bySlug[entry.slug] = path
                    byPage[links.outputPath(for: links.journal(slug: entry.slug))] = path
                }
            }
        }
    }

    /// The output path of the page `target` (a site path) names, when it is a sol's page or a
    /// journal entry's: the pages whose anchors the check knows.
    static func objectPage(_ target: String) -> String? {
        var parts = target.split(separator: "/", omittingEmptySubsequences: false)
        if parts.last == "index.html" || parts.last == "" { parts.removeLast() }
        guard parts.count == 2, let name = parts.last, !name.isEmpty else { return nil }
        switch parts[0] {
        case "sol" where name.allSatisfy({ $0.isASCII && $0.isNumber }) && (name == "0" || name.first != "0"):
            break
        case "journal" where name != "page":
            break
        default:
            return nil
        }
        return "\(parts[0])/\(name)/index.html"
    }

    /// The sol whose page `page` (an output path from ``objectPage(_:)``) is.
    static func sol(ofPage page: String) -> Int? {
        guard page.hasPrefix("sol/") else { return nil }
        return Int(page.dropFirst("sol/".count).prefix { $0 != "/" })
    }

    /// What to do about `link`, which leads nowhere, when no name is close to it.
    static func hint(forBroken link: MarkdownSiteLink, basePath: String) -> String {
        // `<a href="sol-04.md">` in raw HTML: only Markdown's links lead to content files.
        if link.path.lowercased().hasSuffix(".md"), !link.isImage {
            return "only a Markdown link ([text](\(link.path))) leads to the page of a content file"
        }
        let fix = "where static/ is copied: put the file in static/ at that path, or fix the URL"
        guard link.origin == .hostRoot else { return "relative URLs start at the site's root, \(fix)" }
        return "the site's root is \(basePath), \(fix); "
            + "if it is served beside the site, add how its URL begins to 'unchecked_links' in \(SiteConfiguration.fileName)"
    }

    /// Whether `path` is already as ``sitePath(_:)`` would write it: no empty, `.` or `..`
    /// segment (but an empty last one, after a folder's `/`).
    static func isPlainPath(_ path: String) -> Bool {
        var segmentLength = 0, dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if segmentLength == 0 || dots == segmentLength { return false }
                (segmentLength, dots) = (0, 0)
            } else {
                segmentLength += 1
                if byte == UInt8(ascii: "."), dots == segmentLength - 1 { dots += 1 }
            }
        }
        // `a/.` or `a/..`: only a dot or two after the last slash; `..x` is a name.
        return !(segmentLength > 0 && dots == segmentLength && dots <= 2) && !path.isEmpty
    }

    /// `path` (a link's, relative to the site's root) with `.` and `..` applied and empty
    /// segments dropped, ending in `/` when it names a folder; nil when it climbs above the root.
    static func sitePath(_ path: String) -> String? {
        guard let joined = ContentLinks.sitePath(of: path, from: "") else { return nil }
        guard !joined.isEmpty else { return "" }
        // `img/`, `img/.` and `img/x/..` name a folder.
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return last == "" || last == "." || last == ".." ? joined + "/" : joined
    }

    /// The output in `target`'s folder whose name `target`'s is likely a typo of, as a link
    /// would name it (a page by its folder, `journal/dust/`), for a warning's hint.
    static func nearOutput(to target: String, among outputs: [String]) -> String? {
        let trimmed = target.hasSuffix("/") ? String(target.dropLast()) : target
        guard !trimmed.isEmpty else { return nil }
        let slash = trimmed.lastIndex(of: "/")
        let folder = slash.map { String(trimmed[...$0]) } ?? ""
        let name = String(slash.map { trimmed[trimmed.index(after: $0)...] } ?? trimmed[...])
        var candidates: [String] = []
        for output in outputs where output.hasPrefix(folder) {
            let form = output.hasSuffix("/index.html") ? String(output.dropLast("index.html".count)) : output
            let rest = form.dropFirst(folder.count)
            let own = rest.hasSuffix("/") ? rest.dropLast() : rest
            guard !own.isEmpty, !own.contains("/"), String(own).isCloseMatch(for: name) else { continue }
            candidates.append(form)
        }
        return candidates.sorted().first
    }
}
