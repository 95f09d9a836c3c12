import Content
import Diagnostics
import Feed

// The steps of the pages of their own (`content/pages/`): a site has a handful, so they are
// read and parsed every build, as the templates are, and kept in no record but their
// files' hashes. "Read pages" finds where each is before links are resolved (entries link
// to them by file); "Load pages" parses their text once every link's target is known.

extension SiteBuilder {
    /// What "Read pages" makes of a file of `content/pages/`.
    enum PageFile {
        /// A page, and where it is.
        case read(SourceFile, StandalonePageLoader.Head)
        /// A file not named `….md`, with its warning.
        case unread(Diagnostic)
    }

    /// Reads every file of `content/pages/` and the front matter of each page for where it is,
    /// on every core (a site with hundreds of pages reads them all on every build).
    func readStandalonePages(_ context: inout BuildContext) throws(Diagnostic) {
        context.pageFiles = []
        context.changedPageFiles = [:]
        for path in context.goneInputs where path.hasPrefix(StandalonePageLoader.folder + "/") { context.changedPageFiles[path] = "removed" }
        let reader = self.reader
        let read = try parallelMap(try files(under: StandalonePageLoader.folder, context: context)) {
            path throws(Diagnostic) -> (path: String, outcome: Result<(record: BuildState.SourceRecord, page: PageFile), Diagnostic>) in
            do throws(Diagnostic) {
                let bytes = try reader.bytes(path)
                let record = try sourceRecord(path, bytes: bytes)
                // A file not named `….md` makes no page: a warning, as in the other content folders.
                if let unread = ContentKind.unreadFile(at: path) { return (path, .success((record, .unread(unread)))) }
                let file = try SourceFile(path: path, bytes: bytes)
                return (path, .success((record, .read(file, try StandalonePageLoader.head(file)))))
            } catch {
                return (path, .failure(error))
            }
        }
        for (path, outcome) in read {
            switch outcome {
            case .success(let (record, page)):
                // Until replaced, the state holds the last build's record.
                let previous = context.state.sources[path]
                if previous?.hash != record.hash {
                    context.stateChanged = true
                    context.changedPageFiles[path] = previous == nil ? "added" : "updated"
                }
                switch page {
                case .read(let file, let head): context.pageFiles.append((file, head))
                case .unread(let warning): context.log.record(warning)
                }
                context.state.sources[path] = record
            case .failure(let error):
                try leaveOut(path, for: error, context: &context)
            }
        }
    }

    /// Parses the text of every page "Read pages" found, with every link's target known, on
    /// every core, and hands their links to the site's pages to "Check site links". A draft
    /// is left out unless `--drafts`.
    ///
    /// With `--keep-going`, a page whose text has an error is left out; the links to it were
    /// written before that was known, so the pages are parsed again without it, and the
    /// content files linking to it too (see ``resolveLinks(_:)``): each such link is then a
    /// warning that it leads nowhere, as one to any file left out for its errors.
    func loadStandalonePages(_ context: inout BuildContext) throws(Diagnostic) {
        context.standalonePages = []
        guard !context.pageFiles.isEmpty else { return }
        typealias Parsed = (page: StandalonePage, log: DiagnosticLog, links: LinkUses)
        var parsed: [Parsed] = []
        var leftOut = false
        let includesDrafts = options.includesDrafts
        // "Resolve links" made the table of targets already, unless no file links to another;
        // after a page is left out, it is made again without it.
        var links: ContentLinks
        if let known = context.contentLinks { links = known } else { links = try contentLinks(context) }
        while true {
            var content = try contentContext(context)
            content.links = links
            let shown = context.pageFiles.filter { Self.isPublished(isDraft: $0.head.isDraft, includesDrafts: includesDrafts) }
            let outcomes = try parallelMap(shown) { [content] file, head throws(Diagnostic) -> Result<Parsed, Diagnostic> in
                do throws(Diagnostic) {
                    var log = DiagnosticLog()
                    var links = LinkUses()
                    return .success((try StandalonePageLoader.load(file, head: head, context: content, log: &log, links: &links), log, links))
                } catch {
                    return .failure(error)
                }
            }
            parsed = []
            var failed = false
            for ((file, _), outcome) in zip(shown, outcomes) {
                switch outcome {
                case .success(let page): parsed.append(page)
                case .failure(let error):
                    try leaveOut(file.path, for: error, context: &context)
                    failed = true
                }
            }
            guard failed else { break }
            leftOut = true
            links = try contentLinks(context)
        }
        if leftOut { try resolveLinks(&context) }
        for (page, log, links) in parsed {
            context.log.merge(log)
            if !links.site.isEmpty { context.siteLinking.append((page.sourcePath, .holding(siteLinks: links.site))) }
            context.standalonePages.append(page)
        }
    }

    /// Where a link to each page's file leads, by its path.
    func standalonePageTargets(_ context: BuildContext, site: SiteLinks) -> [String: ContentLinks.Target] {
        var targets: [String: ContentLinks.Target] = [:]
        for (file, head) in context.pageFiles {
            let url = site.standalonePage(head.path)
            targets[file.path] = ContentLinks.Target(
                url: url, page: url, isDraft: !Self.isPublished(isDraft: head.isDraft, includesDrafts: options.includesDrafts),
                ids: StandalonePage.textIDs(path: head.path))
        }
        return targets
    }

    /// With `--keep-going`, leaves the page at `path` out for `error` (unrecorded, so the next
    /// build reads it again); otherwise throws it.
    func leaveOut(_ path: String, for error: Diagnostic, context: inout BuildContext) throws(Diagnostic) {
        guard options.keepsGoing else { throw error }
        context.log.record(error)
        context.state.sources[path] = nil
        context.stateChanged = true
        context.contentWithErrors.insert(path)
        context.pageFiles.removeAll { $0.file.path == path }
    }
}
