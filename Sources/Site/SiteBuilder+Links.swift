import Content
import Diagnostics
import Feed

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

    /// Parses a file of this kind into a record of what it holds (its stat and hash not set).
    func parse(_ file: SourceFile, content: ContentContext, log: inout DiagnosticLog) throws(Diagnostic) -> BuildState.SourceRecord {
        var record = BuildState.SourceRecord(size: 0, modified: 0, hash: "")
        var links: [ContentLinkUse] = []
        switch self {
        case .journal: record.journalEntries = [try JournalLoader.load(file, context: content, log: &log, links: &links)]
        case .messages: record.messages = try MessageLogLoader.load(file, context: content, log: &log, links: &links)
        case .weather: record.weatherReports = [try WeatherLoader.load(file, context: content, log: &log, links: &links)]
        }
        record.links = links
        return record
    }
}

extension SiteBuilder {
    /// Writes every link from one content file to another (`[yesterday](sol-04.md)`) as the
    /// URL of the page the other is shown on.
    ///
    /// Where such a link leads depends on other files (an entry's slug, a log's first
    /// message), so the loaders write it without knowing, and record it. Once every file is
    /// read, the files whose links would now be written otherwise than their records say are
    /// parsed again with the targets known: on a first build every file with such links;
    /// after an edit, only those linking to a file whose page moved (a slug changed), or that
    /// was added or removed. A link to a file that is not content of the site is an error at
    /// the link, and one to a draft a warning.
    func resolveLinks(_ context: inout BuildContext) throws(Diagnostic) {
        // Most sites have no such links: one look at each record says so.
        var linking: [(path: String, uses: [ContentLinkUse])] = []
        for (path, record) in context.state.sources where !record.links.isEmpty { linking.append((path, record.links)) }
        guard !linking.isEmpty else { return }
        let links = try contentLinks(context)
        let stale = linking.filter { _, uses in
            uses.contains { use in
                let now = links.resolution(of: use.target)
                return now == ContentLinkUse.unresolved || now != use.resolution
            }
        }.map(\.path)
        guard !stale.isEmpty else { return }
        context.contentLinks = links
        try parseAgain(stale.sorted(), context: &context)
    }

    /// Where links to each content file lead, from the records of this build.
    func contentLinks(_ context: BuildContext) throws(Diagnostic) -> ContentLinks {
        let site = SiteLinks(config: try context.requireConfig())
        var targets: [String: ContentLinks.Target] = [:]
        for (path, record) in context.state.sources where path.hasPrefix("content/") {
            if let entry = record.journalEntries.first {
                let url = site.journal(slug: entry.slug)
                targets[path] = ContentLinks.Target(url: url, page: url, isDraft: !isPublished(entry))
            } else if let message = record.messages.first {
                targets[path] = ContentLinks.Target(url: site.permalink(for: message), page: site.sol(message.sol))
            } else if let report = record.weatherReports.first {
                targets[path] = ContentLinks.Target(url: site.permalink(for: report), page: site.sol(report.sol))
            }
        }
        return ContentLinks(targets: targets)
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
                continue
            }
            (record.size, record.modified, record.hash) = (first.size, first.modified, first.hash)
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
