import Content
import Diagnostics
import Feed
import Foundation
import Images

// The content steps: the crew, the logs, entries and reports (reusing what the last build
// parsed of the files that did not change), and the library they make.

extension SiteBuilder {
    func loadCrew(_ context: inout BuildContext) throws(Diagnostic) {
        startReadingTemplates(&context)
        context.contentLogStart = context.log.entries.count
        guard reader.exists(CrewLoader.path) else {
            context.log.warn("no crew file; every author will be unknown", at: SourceLocation(path: CrewLoader.path),
                             hint: "add content/crew.yml with one entry per crew member")
            context.crewChanged = context.previousRecord(of: CrewLoader.path) != nil || context.goneInputs.contains(CrewLoader.path)
            return
        }
        let bytes = try reader.bytes(CrewLoader.path)
        var record = try sourceRecord(CrewLoader.path, bytes: bytes)
        let file = try SourceFile(path: CrewLoader.path, bytes: bytes)
        // Under watch, the crew as the last build parsed the same file.
        if let kept = options.memory?.crew(hash: record.hash) {
            context.crew = kept.crew
            context.log.merge(kept.log)
        } else {
            var log = DiagnosticLog()
            context.crew = try CrewLoader.load(file, log: &log)
            options.memory?.keepCrew(context.crew, log: log, hash: record.hash)
            context.log.merge(log)
        }
        context.crewChanged = context.previousRecord(of: CrewLoader.path)?.hash != record.hash
        // Bios and portraits, every build: a handful, written with the sizes the static
        // files give now. Their links are checked with the site's ("Check site links").
        var content = ContentContext(config: try context.requireConfig(), crew: context.crew)
        let imageSizes = context.imageSizes
        content.imageSize = { imageSizes[$0] }
        var links = LinkUses()
        var log = DiagnosticLog()
        context.crew.profiles = try CrewLoader.profiles(in: file, crew: context.crew, context: content, links: &links, log: &log)
        context.log.merge(log)
        record.siteLinks = links.site
        context.state.sources[CrewLoader.path] = record
    }

    func contentContext(_ context: BuildContext) throws(Diagnostic) -> ContentContext {
        let config = try context.requireConfig()
        var content = ContentContext(config: config, crew: context.crew)
        content.links = context.contentLinks
        let imageSizes = context.imageSizes
        content.imageSize = { imageSizes[$0] }
        if content.links == nil {
            // Most entries take their slug from their file's name, and most reports are named
            // after their sol: a link to one is written right the first time. So is a link to
            // a log from the files read after the logs, from the log's record. "Resolve links"
            // parses again the files where a guess was wrong.
            let site = SiteLinks(config: config)
            let logs = try firstMessages(context)
            let (journal, weather) = (ContentKind.journal.folder + "/", ContentKind.weather.folder + "/")
            content.likelyTarget = { path in
                guard path.hasSuffix(".md") else { return nil }
                if path.hasPrefix(journal) { return Self.target(ofEntry: Slug.derive(fromFileAt: path), site: site) }
                if let first = logs[path] { return Self.target(ofLog: first, site: site) }
                guard path.hasPrefix(weather), let sol = Self.solNumber(inNameOf: path) else { return nil }
                return Self.target(ofReport: WeatherReport.identifier(sourcePath: path), sol: sol, site: site)
            }
        }
        return content
    }

    /// The first message of each log whose record the state holds, where links to the log
    /// lead: once "Load message logs" ran, this build's logs; before, the previous build's (a
    /// guess, as any).
    func firstMessages(_ context: BuildContext) throws(Diagnostic) -> [String: Message] {
        var firsts: [String: Message] = [:]
        for path in try files(under: ContentKind.messages.folder, context: context) {
            if let first = context.state.sources[path]?.messages.first { firsts[path] = first }
        }
        return firsts
    }

    /// The last run of digits in the name of the file at `path` (`sol-04.md` → 4), as the sol a
    /// weather report there is likely for; nil without one.
    static func solNumber(inNameOf path: String) -> Int? {
        let name = path.utf8.split(separator: UInt8(ascii: "/")).last ?? []
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let digits = name.reversed().drop { !isDigit($0) }.prefix(while: isDigit)
        return digits.isEmpty ? nil : Int(String(decoding: digits.reversed(), as: UTF8.self))
    }

    func loadJournal(_ context: inout BuildContext) throws(Diagnostic) {
        let includesDrafts = options.includesDrafts
        context.journalEntries = try load(.journal, context: &context, kept: \.journal) {
            Self.journalObjects($0, &$1, includesDrafts: includesDrafts)
        }
    }

    /// Whether this build shows `entry`: a draft only with `--drafts`.
    func isPublished(_ entry: JournalEntry) -> Bool {
        Self.isPublished(entry, includesDrafts: options.includesDrafts)
    }

    static func isPublished(_ entry: JournalEntry, includesDrafts: Bool) -> Bool {
        isPublished(isDraft: entry.isDraft, includesDrafts: includesDrafts)
    }

    /// Whether a build with `--drafts` or not (`includesDrafts`) shows a draft or not (`isDraft`).
    static func isPublished(isDraft: Bool, includesDrafts: Bool) -> Bool {
        !isDraft || includesDrafts
    }

    func loadMessages(_ context: inout BuildContext) throws(Diagnostic) {
        context.messages = try load(.messages, context: &context, kept: \.messages, objects: Self.messageObjects)
    }

    func loadWeather(_ context: inout BuildContext) throws(Diagnostic) {
        context.weatherReports = try load(.weather, context: &context, kept: \.weather, objects: Self.weatherObjects)
    }

    // What each kind's loader takes from a file's record: read files and kept ones alike
    // (see ``keptContent(of:includesDrafts:)``).

    /// The entry of a journal entry's record, unless it is a draft a build leaves out.
    static func journalObjects(_ record: BuildState.SourceRecord, _ entries: inout [JournalEntry], includesDrafts: Bool) {
        for entry in record.journalEntries where isPublished(entry, includesDrafts: includesDrafts) { entries.append(entry) }
    }

    static func messageObjects(_ record: BuildState.SourceRecord, _ messages: inout [Message]) {
        messages.append(contentsOf: record.messages)
    }

    static func weatherObjects(_ record: BuildState.SourceRecord, _ reports: inout [WeatherReport]) {
        reports.append(contentsOf: record.weatherReports)
    }

    /// Reads the files of `kind` (see ``readSources(_:in:context:parse:objects:)``), or, when
    /// none of them changed since the previous build of this process, takes the objects and
    /// warnings it kept of them (see ``KeptContent``).
    func load<Object>(_ kind: ContentKind, context: inout BuildContext, kept: KeyPath<KeptContent, KeptContent.Kind<Object>>,
                      objects: (BuildState.SourceRecord, inout [Object]) -> Void) throws(Diagnostic) -> [Object] {
        let paths = try files(under: kind.folder, context: context)
        // Not after `--drafts` was turned on or off (the first build of `watch --drafts` on
        // an output built without): the objects come from the records, with this setting.
        if let previous = context.previous, let changed = context.changedInputs, !context.crewChanged, !context.draftsToggled,
           context.resizedImages.isEmpty,
           let taken = options.memory?.keptContent(stateToken: previous.token)?[keyPath: kept],
           // The same files as the state's records (a file added would be among the changed
           // inputs, one gone among the gone ones), none of them changed.
           taken.fileCount == paths.count, changed.sortedRun(under: kind.folder).isEmpty,
           context.goneInputs.sortedRun(under: kind.folder).isEmpty {
            for warning in taken.warnings { context.log.record(warning) }
            return taken.objects
        }
        let content = try contentContext(context)
        return try readSources(paths, in: kind.folder, context: &context, parse: { file, earlier, log throws(Diagnostic) in
            try kind.parse(file, content: content, log: &log, appendedTo: earlier)
        }, objects: objects)
    }

    /// The objects and warnings the content files of `state` give the loaders, by kind, for
    /// the next build of this process (see ``KeptContent``). `state` must be as just saved
    /// or loaded: its records are read in path order from its chunks.
    static func keptContent(of state: BuildState, includesDrafts: Bool) -> KeptContent {
        var kept = KeptContent(stateToken: state.token)
        func add<Object>(_ record: BuildState.SourceRecord, to kind: inout KeptContent.Kind<Object>,
                         _ objects: (BuildState.SourceRecord, inout [Object]) -> Void) {
            kind.fileCount += 1
            objects(record, &kind.objects)
            kind.warnings += record.warnings
        }
        for chunk in state.chunks.sources.chunks {
            for (path, record) in zip(chunk.keys, chunk.items) {
                switch ContentKind(path: path) {
                case .journal?: add(record, to: &kept.journal) { journalObjects($0, &$1, includesDrafts: includesDrafts) }
                case .messages?: add(record, to: &kept.messages, messageObjects)
                case .weather?: add(record, to: &kept.weather, weatherObjects)
                case nil: continue
                }
            }
        }
        return kept
    }

    /// The files of one of ``SiteReader/inputFolders``, sorted: as "Check for changes"
    /// listed them, or listed now.
    func files(under directory: String, context: BuildContext) throws(Diagnostic) -> [String] {
        try files(under: directory, listed: context.inputListing[directory])
    }

    /// The files of one of ``SiteReader/inputFolders``: `listed` when given, or listed now.
    func files(under directory: String, listed: [String]?) throws(Diagnostic) -> [String] {
        if let listed { return listed }
        let suffix = SiteReader.inputFolders.first { $0.directory == directory }?.suffix
        return try reader.files(under: directory, suffix: suffix)
    }

    /// Reads and parses content files on every core, or reuses what the previous build parsed
    /// from them (see ``readIfChanged(_:context:)``). A crew change means the files by the
    /// members whose entry changed or went are parsed again (see ``BuildContext/mayReuse(_:)``).
    /// Records go into the state, warnings and errors into the log, and the objects `objects`
    /// takes from each record come back, all in `paths` order (the files of the input folder `folder`).
    func readSources<Object>(_ paths: [String], in folder: String, context: inout BuildContext,
                             parse: (SourceFile, MessageLogLoader.EarlierParse?, inout DiagnosticLog) throws(Diagnostic) -> BuildState.SourceRecord,
                             objects: (BuildState.SourceRecord, inout [Object]) -> Void) throws(Diagnostic) -> [Object] {
        // The inputs that do not differ from the previous build's index are as it read them,
        // and their records are already in this build's state (see "Check for changes").
        var reused: [BuildState.SourceRecord?] = []
        var toRead = paths
        if let changedInputs = context.changedInputs {
            reused.reserveCapacity(paths.count)
            toRead = []
            // `paths` and the changed inputs are both sorted: where each changed one is in
            // `paths` is a binary search, and the others are told apart by position, without
            // comparing 10,000 paths scattered in memory one by one.
            let changedPositions = changedInputs.compactMap { paths.sortedIndex(of: $0) }
            var nextChanged = 0
            let byPosition = context.previous.flatMap {
                Self.records(of: paths, under: folder, in: $0.chunks.sources, changed: changedInputs)
            }
            // Otherwise the previous build's records in path order, as its state was loaded or
            // saved (until then its chunks hold none), walked beside `paths`: each is found
            // with a comparison or two instead of a search. The state holds the same ones.
            var recorded = byPosition == nil ? context.previous?.chunks.sources.walk() : nil
            for (position, path) in paths.enumerated() {
                var old: BuildState.SourceRecord?
                if nextChanged < changedPositions.count, changedPositions[nextChanged] == position {
                    nextChanged += 1
                } else {
                    old = byPosition?[position] ?? recorded?.item(at: path) ?? context.state.sources[path]
                    assert(old == context.state.sources[path], "the previous state's chunks differ from its sources at \(path)")
                }
                if context.crewChanged || !context.resizedImages.isEmpty, let record = old, !context.mayReuse(record) {
                    if let image = context.resizedImage(in: record) {
                        context.relinked[path] = "its image \(image.path) is now "
                            + (context.imageSizes[image.path].map { "\($0)" } ?? "of no size marsgen can read, or gone")
                    }
                    old = nil
                }
                if old == nil { toRead.append(path) }
                reused.append(old)
            }
        }
        let outcomes = try read(toRead, context: context, parse: parse)
        var taken: [Object] = []
        taken.reserveCapacity(paths.count)
        var next = 0
        for (position, path) in paths.enumerated() {
            if position < reused.count, let record = reused[position] {
                for warning in record.warnings { context.log.record(warning) }
                objects(record, &taken)
                continue
            }
            let outcome = outcomes[next]
            next += 1
            guard let record = outcome.record else {
                context.log.merge(outcome.log ?? DiagnosticLog())
                context.stateChanged = true
                context.contentFileChanged = true
                context.state.sources[path] = nil
                context.contentWithErrors.insert(path)
                continue
            }
            // Until replaced below, the state holds the previous build's record.
            if context.state.sources[path]?.hash != record.hash { context.contentFileChanged = true }
            if let fileLog = outcome.log {
                context.log.merge(fileLog)
                context.stateChanged = true
            } else {
                for warning in record.warnings { context.log.record(warning) }
                if outcome.restated { context.stateChanged = true }
            }
            context.state.sources[path] = record
            objects(record, &taken)
        }
        return taken
    }

    /// The previous build's records of `paths`, the files of the input folder `folder`
    /// (sorted), by position, taken from `recorded` (its sources' chunks) without comparing a
    /// path: when the records under `folder` are as many as `paths` and each changed input
    /// among `paths` has one, they are of the same paths (a file added since is a changed
    /// input, and has none), in the same order. Nil otherwise: the paths are compared.
    static func records(of paths: [String], under folder: String, in recorded: ChunkedList<BuildState.SourceRecord>,
                        changed: [String]) -> [BuildState.SourceRecord]? {
        let run = recorded.run(under: folder)
        guard run.count == paths.count,
              changed[changed.sortedRun(under: folder)].allSatisfy({ recorded.item(at: $0) != nil }) else { return nil }
        assert(recorded.keysAndItems(in: run).keys == paths, "the records under \(folder) are of other paths than its files")
        return recorded.items(in: run)
    }

    /// What reading one source gave: its record (nil when `--keep-going` left it out), the
    /// log of a file parsed again, and whether its record differs from the previous one.
    typealias SourceOutcome = (record: BuildState.SourceRecord?, log: DiagnosticLog?, restated: Bool)

    /// Reads `paths` on every core, as ``readSources(_:in:context:parse:objects:)`` does. Its own
    /// function, so that the copy of the context the readers share is gone before the
    /// records are stored (the state's table is then not copied).
    func read(_ paths: [String], context: BuildContext,
              parse: (SourceFile, MessageLogLoader.EarlierParse?, inout DiagnosticLog) throws(Diagnostic) -> BuildState.SourceRecord) throws(Diagnostic)
        -> [SourceOutcome] {
        let keepsGoing = options.keepsGoing
        return try parallelMap(paths) { path throws(Diagnostic) -> SourceOutcome in
            do throws(Diagnostic) {
                switch try readIfChanged(path, context: context) {
                case .unchanged(let record, let restated):
                    return (record, nil, restated)
                case .changed(let bytes, let fresh, let previous):
                    var fileLog = DiagnosticLog()
                    if let unread = ContentKind.unreadFile(at: path) {
                        var record = fresh
                        fileLog.record(unread)
                        record.warnings = fileLog.entries
                        return (record, fileLog, true)
                    }
                    let earlier = previous.flatMap { Self.earlierParse(of: bytes, from: $0) }
                    var record = try parse(try SourceFile(path: path, bytes: bytes), earlier, &fileLog)
                    (record.stat, record.hash) = (fresh.stat, fresh.hash)
                    record.warnings = fileLog.entries
                    return (record, fileLog, true)
                }
            } catch {
                // --keep-going: the file is left out and its error reported at the end. It gets
                // no record in the state, so the next build reads it again.
                guard keepsGoing else { throw error }
                var fileLog = DiagnosticLog()
                fileLog.record(error)
                return (nil, fileLog, true)
            }
        }
    }

    /// What `record` holds of a message log whose bytes are now `bytes`, when the file only
    /// grew since (its first bytes are those whose hash and size the record holds: an
    /// append) and the record has messages, gave no warning and links to no other content
    /// file (where such a link leads is settled by "Resolve links", for the whole file).
    /// The record's conditions come first: an entry's or a report's bytes are not hashed again.
    static func earlierParse(of bytes: [UInt8], from record: BuildState.SourceRecord) -> MessageLogLoader.EarlierParse? {
        guard !record.messages.isEmpty, record.warnings.isEmpty, record.linkUses.files.isEmpty,
              record.size > 0, record.size < Int64(bytes.count) else { return nil }
        var prefix = ContentHash()
        prefix.combine(bytes: bytes[..<Int(record.size)])
        guard prefix.shortDescription == record.hash else { return nil }
        return MessageLogLoader.EarlierParse(messages: record.messages, siteLinks: record.linkUses.site)
    }

    /// A source file as the previous build left it, or its new bytes.
    enum SourceRead {
        /// Same stat (and clearly older than the previous build's start), or same hash:
        /// the previous record, with the current stat; `restated` when that stat is new.
        case unchanged(BuildState.SourceRecord, restated: Bool)
        /// The file's bytes and a fresh record (stat and hash, no parsed objects), and the
        /// previous record when its objects are still valid for what did not change (see
        /// ``earlierParse(of:from:)``).
        case changed(bytes: [UInt8], record: BuildState.SourceRecord, previous: BuildState.SourceRecord?)
    }

    /// Decides whether `path` changed since the previous build, reading it only when its
    /// stat does not settle the question.
    func readIfChanged(_ path: String, context: BuildContext) throws(Diagnostic) -> SourceRead {
        let stat = context.inputStats[path] ?? FileStat(path: SitePaths.join(options.sourceDirectory, path))
        let old = context.previousRecord(of: path).flatMap { context.mayReuse($0) ? $0 : nil }
        if let old, let stat, let previous = context.previous,
           stat.isUnchanged(from: old.stat, recordedBy: previous.scanStartedAt) {
            return .unchanged(old, restated: false)
        }
        let bytes = try reader.bytes(path)
        let fresh = try sourceRecord(path, bytes: bytes, stat: stat)
        if var old, old.hash == fresh.hash {
            let restated = old.stat != fresh.stat
            old.stat = fresh.stat
            return .unchanged(old, restated: restated)
        }
        return .changed(bytes: bytes, record: fresh, previous: old)
    }

    func sourceRecord(_ path: String, bytes: [UInt8], stat: FileStat? = nil) throws(Diagnostic) -> BuildState.SourceRecord {
        // A file that cannot be stat'ed now (gone since) is recorded with no times: the next build reads it again.
        let stat = stat ?? FileStat(path: SitePaths.join(options.sourceDirectory, path))
            ?? FileStat(size: Int64(bytes.count), modified: 0, changed: 0)
        return BuildState.SourceRecord(size: stat.size, modified: stat.modified, changed: stat.changed, hash: Self.contentHash(of: bytes))
    }

    /// The hash a source's record and the index hold of its bytes, and the state of a static
    /// or theme file's: ``ContentHash/shortDescription``, which a string holds inline (the 16
    /// digits of its `description` made two allocations a source on every rebuild, the
    /// state's record and the index's input, 26,800 at 10,000 entries).
    static func contentHash(of bytes: [UInt8]) -> String {
        var hash = ContentHash()
        hash.combine(bytes: bytes)
        return hash.shortDescription
    }

    func checkContent(_ context: inout BuildContext) throws(Diagnostic) {
        if options.keepsGoing {
            var conflicts: [Diagnostic] = []
            context.library = ContentLibrary(crew: context.crew, journalEntries: context.journalEntries, messages: context.messages,
                                             weatherReports: context.weatherReports, standalonePages: context.standalonePages,
                                             conflicts: &conflicts)
            for conflict in conflicts {
                context.log.record(conflict)
                // The file stays unrecorded, so the next build looks at it again.
                if let path = conflict.location?.path { context.state.sources[path] = nil }
            }
        } else {
            context.library = try ContentLibrary(crew: context.crew, journalEntries: context.journalEntries,
                                                 messages: context.messages, weatherReports: context.weatherReports,
                                                 standalonePages: context.standalonePages)
        }
        context.report.journalEntries = context.library?.journalEntries.count ?? 0
        context.report.messages = context.library?.messages.count ?? 0
        context.report.weatherReports = context.library?.weatherReports.count ?? 0
    }
}
