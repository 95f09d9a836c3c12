import Content
import Diagnostics
import Feed
import Foundation
import ListDiff
import Rendering
import SiteConfig

/// Builds a site: a fixed list of named, timed steps from `marsgen.yml` to `public/`.
///
/// When the previous build left a usable state (see ``BuildState``), the build is
/// incremental: unchanged sources are not parsed again, pages whose inputs did not change
/// are not rendered, and only files whose bytes change are written.
///
///     let report = try SiteBuilder(options: BuildOptions(sourceDirectory: ".")).build()
///     print(report.summary)
public struct SiteBuilder: Sendable {
    /// What to build and where.
    public let options: BuildOptions

    /// The media types of the files a build writes whose extension does not say what they
    /// are, by output-relative path: for a server to send (the Atom feed is not any XML).
    public static let mediaTypes: [String: String] = [Page.atomOutputPath: "application/atom+xml; charset=utf-8"]

    /// Creates a builder.
    public init(options: BuildOptions) {
        self.options = options
    }

    /// The pipeline, in order. Full and incremental builds run the same steps.
    public var steps: [BuildStep] {
        [
            BuildStep(named: "Check paths", body: checkPaths),
            BuildStep(named: "Load configuration", body: loadConfiguration),
            BuildStep(named: "Load build index", body: loadBuildIndex),
            BuildStep(named: "Check for changes", body: checkForChanges),
            BuildStep(named: "Load build state", body: loadBuildState),
            BuildStep(named: "Load crew", body: loadCrew),
            // Logs first: links to a log from the entries and reports are then written right
            // the first time (see `contentContext(_:)`).
            BuildStep(named: "Load message logs", body: loadMessages),
            BuildStep(named: "Load journal entries", body: loadJournal),
            BuildStep(named: "Load weather reports", body: loadWeather),
            BuildStep(named: "Resolve links", body: resolveLinks),
            BuildStep(named: "Check content", body: checkContent),
            BuildStep(named: "Load templates", body: loadTemplates),
            BuildStep(named: "Plan pages", body: planPages),
            BuildStep(named: "Diff object list", body: diffObjects),
            BuildStep(named: "Render pages", body: renderPages),
            BuildStep(named: "Collect static files", body: collectStatic),
            BuildStep(named: "Check site links", body: checkSiteLinks),
            BuildStep(named: "Write output", body: writeOutput),
            BuildStep(named: "Save build state", body: saveBuildState),
        ]
    }

    /// Runs every step.
    ///
    /// - Returns: What the build did.
    /// - Throws: The first ``Diagnostic`` any step throws, tagged with the step's name. The
    ///   output directory is then exactly as it was before the build.
    public func build() throws(Diagnostic) -> BuildReport {
        var context = BuildContext(options: options)
        let clock = ContinuousClock()
        let start = clock.now
        // The previous build of this process may still be saving its state, under the lock.
        options.memory?.waitForSave()
        // Two builds of one site at once would interleave their writes: the second waits.
        // Only a folder that is a site gets a lock (and a .marsgen/ folder).
        if reader.exists(SiteConfiguration.fileName) {
            if SiteLock.isReadOnly(siteRoot: options.sourceDirectory) {
                context.keepsNoState = true
            } else {
                context.lock = try SiteLock.acquire(siteRoot: options.sourceDirectory) { holder in options.waitingForLock?(holder) }
            }
        }
        if let problem = options.memory?.takeSaveProblem() {
            context.log.warn("the previous build could not save its state: \(problem)", at: SourceLocation(path: statePath),
                             hint: "this build is a full build")
        }
        let logBeforeSteps = context.log
        try runSteps(&context, clock: clock)
        if context.readDamagedState {
            // A text restored from the state was damaged, and may be on a page rendered:
            // nothing was written. The sources alone decide now, as with --clean.
            context.staging?.discard()
            var full = BuildContext(options: options)
            (full.lock, full.keepsNoState, full.log) = (context.lock, context.keepsNoState, logBeforeSteps)
            context.lock = nil
            full.ignoresState = true
            full.report.notice = "a text in the build state was damaged; doing a full build"
            // What a process that builds again and again kept may hold the damaged texts.
            options.memory?.forgetAll()
            context = full
            try runSteps(&context, clock: clock)
        }
        // The state on disk is this build's when it saved one, else the previous build's.
        if let memory = options.memory, var listing = context.listing,
           let token = context.state.token.isEmpty ? context.previousIndex?.stateToken : context.state.token {
            listing.stateToken = token
            memory.keepListing(listing)
        }
        context.report.duration = clock.now - start
        context.report.warnings = context.log.inSourceOrder(.warning)
        context.report.errors = context.log.inSourceOrder(.error)
        if options.endsProcess {
            // The lock goes now; the rest goes with the process (see `BuildOptions.endsProcess`).
            context.lock = nil
            _ = Unmanaged.passRetained(Leftovers(context))
        } else if let memory = options.memory {
            // watch and serve: what the build held is freed in the background, not before the
            // rebuild's line is printed and open pages are told (1-3 ms at 10,000 entries).
            memory.free(Leftovers(context))
        }
        return context.report
    }

    /// Runs every step on `context`, until one finds the state damaged (see
    /// ``BuildContext/readDamagedState``).
    private func runSteps(_ context: inout BuildContext, clock: ContinuousClock) throws(Diagnostic) {
        for step in steps {
            // Nothing changed: the output is right as it is, and the rest has nothing to do.
            if context.isUpToDate, step.name != "Save build state" { continue }
            let stepStart = clock.now
            do {
                try step.body(&context)
            } catch {
                context.staging?.discard()
                var tagged = error
                if tagged.step == nil { tagged.step = step.name }
                throw tagged
            }
            context.report.steps.append((step.name, clock.now - stepStart))
            if context.readDamagedState { return }
        }
    }

    /// For `watch` and `serve`: reads the state the last build left on disk, in the
    /// background, when the memory does not hold it (a build that found nothing changed does
    /// not read it), so that the first rebuild after an edit need not. Does nothing without
    /// ``BuildOptions/memory``, or when the index does not name a readable state.
    public func preloadState() {
        guard let memory = options.memory else { return }
        let (indexPath, statePath, includesDrafts) = (self.indexPath, self.statePath, options.includesDrafts)
        memory.preload {
            guard let index = BuildIndex.load(from: indexPath),
                  let state = try? Self.loadState(at: statePath, namedBy: index).get() else { return nil }
            memory.keepContent(Self.keptContent(of: state, includesDrafts: includesDrafts))
            return state
        }
    }

    /// The state at `path`, when it is the one `index` names (by token).
    static func loadState(at path: String, namedBy index: BuildIndex) -> Result<BuildState, BuildState.StateProblem> {
        BuildState.load(from: path).flatMap { state in state.token == index.stateToken ? .success(state) : .failure(.unreadable) }
    }

    /// For `watch` and `serve`, once watching has begun: lists and stats every input in the
    /// background, and when each is as the index says, keeps that listing, so the first
    /// rebuild after an edit looks only at the paths the watcher reports instead of listing
    /// every input. A file is as the index says when it has the recorded size and
    /// modification time, and either that time is clearly older than the build that
    /// recorded it or its bytes, read here, have the recorded hash: a file saved just before
    /// that build (or just before `watch` started) would otherwise cost the first rebuild a
    /// full listing. Anything else (a file changed since, a link among the inputs) keeps
    /// nothing, and that rebuild lists everything as before.
    public func preloadListing() {
        guard let memory = options.memory else { return }
        let (indexPath, reader) = (self.indexPath, self.reader)
        memory.preloadListing {
            let listedAt = FileStat.now
            guard let index = BuildIndex.load(from: indexPath), let listed = try? reader.inputFiles(recordedIn: index), !listed.hasLinks,
                  listed.files.count == index.inputs.count,
                  case var recorded = IndexInputs.Walk(index.inputs),
                  listed.files.allSatisfy({ file in
                      recorded.input(at: file.path).map {
                          Self.isAsRecorded(file.path, file.stat, $0, recordedBy: index.scanStartedAt, reader: reader)
                      } ?? false
                  }) else { return nil }
            return Self.listing(listed, stateToken: index.stateToken, listedAt: listedAt)
        }
    }

    /// Whether the input at `path`, with `stat` now, is the one `recorded` by the build that
    /// started reading at `scanStartedAt`: its stat alone tells when it is clearly older than
    /// that build; within the window a coarse clock leaves (``FileStat/racyWindow``), a file
    /// with the recorded stat is read and hashed. Only for a listing made once a watcher
    /// runs: a change after the read is reported.
    private static func isAsRecorded(_ path: String, _ stat: FileStat, _ recorded: BuildIndex.Input, recordedBy scanStartedAt: Int64,
                                      reader: SiteReader) -> Bool {
        if stat.isUnchanged(from: recorded, recordedBy: scanStartedAt) { return true }
        guard stat.isRecorded(in: recorded), let bytes = try? reader.bytes(path) else { return false }
        return contentHash(of: bytes) == recorded.hash
    }

    /// For `watch` and `serve`, when they stop: gives the index on disk the folder records
    /// (see ``BuildIndex/folders``) that rebuilds under a watcher leave out, since they take
    /// the watcher's word for what changed and list no folder themselves. Without them, the
    /// next `marsgen build` reads every input folder again (three times as long to find what
    /// changed on a large site) instead of stat'ing the files it knows.
    ///
    /// Under the site's lock, the inputs are listed afresh, each folder stat'ed before its
    /// entries are read, as a build lists them; only when the listing holds exactly the
    /// paths the index holds are its folders recorded. A folder that changed after the last
    /// build started reading still looks changed to the next build, which reads it again.
    /// Does nothing when the index has folder records already, cannot be read, or a link
    /// was met.
    public func recordInputFolders() {
        guard let lock = try? SiteLock.acquire(siteRoot: options.sourceDirectory, waiting: { _ in }) else { return }
        withExtendedLifetime(lock) {
            guard var index = BuildIndex.load(from: indexPath), index.folders.isEmpty,
                  let listed = try? reader.inputFiles(), !listed.hasLinks, let folders = listed.folders, !folders.isEmpty,
                  listed.files.count == index.inputs.count,
                  zip(listed.files, index.inputs.paths).allSatisfy({ $0.path == $1 }) else { return }
            index.folders = folders
            try? index.save(to: indexPath)
        }
    }

    var reader: SiteReader { SiteReader(root: options.sourceDirectory) }
    var statePath: String { BuildState.path(siteRoot: options.sourceDirectory, output: options.outputDirectory) }
    var indexPath: String { BuildIndex.path(forState: statePath) }
    /// Where the state's chunks are, which is also the key its damaged texts are reported under.
    var chunkDirectory: String { BuildState.chunkDirectory(forState: statePath) }
    var rowsPath: String { RenderedRows.path(siteRoot: options.sourceDirectory, output: options.outputDirectory) }
    var sectionsPath: String { RenderedSections.path(siteRoot: options.sourceDirectory, output: options.outputDirectory) }
    /// The JSON state of marsgen before state format 3, removed by the first build that saves.
    var legacyStatePath: String { BuildState.legacyPath(siteRoot: options.sourceDirectory, output: options.outputDirectory) }

    // MARK: - Configuration and state

    func checkPaths(_ context: inout BuildContext) throws(Diagnostic) {
        let source = options.sourceDirectory
        let output = options.outputDirectory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Diagnostic.error("the site directory does not exist", at: SourceLocation(path: source),
                                   hint: "pass --source with the folder holding marsgen.yml")
        }
        if SitePaths.isWithin(source, output) {
            throw Diagnostic.error("the output directory would contain the site itself", at: SourceLocation(path: output),
                                   hint: "write the site to a folder of its own, such as public/")
        }
        for protected in ["content", "templates", "static", ".marsgen"] where SitePaths.isWithin(output, SitePaths.join(source, protected)) {
            throw Diagnostic.error("the output directory is inside \(protected)/", at: SourceLocation(path: output),
                                   hint: "the build replaces its output folder; choose one outside \(protected)/, such as public/")
        }
        let writer = OutputWriter(output: output)
        try writer.validate()
        context.outputWriter = writer
        // Under the site lock: what a killed build left behind can go now.
        writer.removeAbandonedStaging()
        BuildState.removeAbandonedTemporaries(siteRoot: source)
        BuildState.removeStatesOfMissingOutputs(siteRoot: source, keeping: output)
    }

    func loadConfiguration(_ context: inout BuildContext) throws(Diagnostic) {
        guard let config = try Self.readConfiguration(with: reader, log: &context.log) else {
            throw Diagnostic.error("no \(SiteConfiguration.fileName) in \(options.sourceDirectory)",
                                   hint: "run 'marsgen init DIR' to start a site, or pass --source with the site's folder")
        }
        context.config = config
        context.report.basePath = config.basePath
        // The settings as parsed, not the file's text: a comment, blank lines or the keys'
        // order change no page, so they are no reason for a full build.
        var hash = ContentHash()
        hash.combine(bytes: config.settingsDigest)
        context.state.configurationHash = hash.description
    }

    /// The configuration of the site in `directory`, read and checked as a build reads it
    /// (its warnings aside), for commands that need it without building: nil when the site
    /// has no `marsgen.yml`.
    public static func configuration(ofSiteIn directory: String) throws(Diagnostic) -> SiteConfiguration? {
        var log = DiagnosticLog()
        return try readConfiguration(with: SiteReader(root: directory), log: &log)
    }

    /// The site's `marsgen.yml`, parsed; nil when there is none.
    static func readConfiguration(with reader: SiteReader, log: inout DiagnosticLog) throws(Diagnostic) -> SiteConfiguration? {
        guard reader.exists(SiteConfiguration.fileName) else { return nil }
        let file = try reader.sourceFile(SiteConfiguration.fileName)
        return try SiteConfiguration.parse(file.text, path: file.path, log: &log)
    }

    static let otherVersionNotice = "the last build was made by another version of marsgen; doing a full build"

    func loadBuildIndex(_ context: inout BuildContext) throws(Diagnostic) {
        guard !context.ignoresState else { return }
        guard !options.isClean else {
            context.report.notice = "--clean: full build"
            return
        }
        // A state this build cannot replace would describe the output as it was before this
        // build: the next build, trusting it, could leave pages as this one wrote them.
        // watch and serve keep theirs in memory instead, from the second build on.
        let index: BuildIndex
        if context.keepsNoState {
            guard let kept = options.memory?.indexKeptOnly() else {
                // .marsgen/ there but not writable: another user's (root's, after sudo).
                let isOthers = FileManager.default.fileExists(atPath: SitePaths.join(options.sourceDirectory, ".marsgen"))
                let why = isOthers ? "cannot write .marsgen/ (another user's? sudo chown it back)" : "the site folder is read-only"
                let state = options.memory != nil ? "the build state is kept in memory only"
                    : isOthers ? "no build state is kept" : "no build state is kept in .marsgen/"
                context.report.notice = "\(why), so \(state): full build"
                return
            }
            index = kept
        } else {
            guard FileManager.default.fileExists(atPath: indexPath) || FileManager.default.fileExists(atPath: statePath) else {
                return
            }
            // watch and serve: the index this process saved, unless another process saved one since.
            guard let saved = options.memory?.index(current: FileStat(path: indexPath)) ?? BuildIndex.load(from: indexPath),
                  FileStat(path: statePath)?.size == saved.stateSize else {
                if FileManager.default.fileExists(atPath: legacyStatePath) {
                    context.report.notice = BuildState.StateProblem.otherFormat(2).notice
                } else if !FileManager.default.fileExists(atPath: indexPath) {
                    // A build removes the index before it touches the output and saves it last.
                    context.report.notice = BuildState.StateProblem.unfinished.notice
                } else if BuildIndex.isOtherFormat(at: indexPath) {
                    context.report.notice = Self.otherVersionNotice
                } else {
                    context.report.notice = BuildState.StateProblem.unreadable.notice
                }
                return
            }
            // A state on disk of another format (marsgen upgraded) or with a damaged header
            // cannot serve the next edit: the build is a full one now, with its notice, not at
            // that edit. (watch and serve use the state they remember, when they do.)
            if options.memory?.state(token: saved.stateToken) == nil {
                let format = BuildState.format(ofStateAt: statePath)
                guard format == BuildState.formatVersion else {
                    context.report.notice = format.map { BuildState.StateProblem.otherFormat($0) }?.notice
                        ?? BuildState.StateProblem.unreadable.notice
                    return
                }
            }
            index = saved
        }
        var isDirectory: ObjCBool = false
        if index.marsgenVersion != BuildState.marsgenVersion {
            context.report.notice = Self.otherVersionNotice
        } else if index.configurationHash != context.state.configurationHash {
            context.report.notice = "the settings in \(SiteConfiguration.fileName) changed; doing a full build"
        } else if index.outputDirectory != options.outputDirectory
                    || !FileManager.default.fileExists(atPath: options.outputDirectory, isDirectory: &isDirectory)
                    || !isDirectory.boolValue {
            context.report.notice = "the output directory is missing; doing a full build"
        } else if index.outputFolders != OutputFolders.stamp(of: options.outputDirectory) {
            // Pages the records say are in place may not be: only a full build knows.
            context.report.notice = "the output directory changed since the last build (pages removed or moved by hand?); doing a full build"
        } else {
            context.previousIndex = index
            if index.includesDrafts != options.includesDrafts {
                context.draftsToggled = true
                context.report.notice = options.includesDrafts ? "drafts are included now (--drafts)" : "drafts are left out now (no --drafts)"
            }
        }
    }

    /// Compares every input file with the index: when none changed, the build is done;
    /// otherwise "Load build state" loads the state the index names, for an incremental build.
    ///
    /// Under a watcher (see ``BuildMemory``) only the paths it reported are looked at again;
    /// otherwise every input is listed and stat'ed. Either way, the inputs that differ from
    /// the index become ``BuildContext/changedInputs`` once the state is loaded: only those
    /// are read again.
    func checkForChanges(_ context: inout BuildContext) throws(Diagnostic) {
        guard var index = context.previousIndex else {
            // A full build lists its inputs here too, so that its index records the folders.
            let listed = try reader.inputFiles()
            context.inputFolders = listed.folders
            useListing(Self.listing(listed, stateToken: "", listedAt: context.state.scanStartedAt), context: &context)
            return
        }
        var listing: InputListing
        var changed: Bool
        /// Whether a watcher's report said which paths to look at.
        var watched = false
        /// The paths that differ from the index, or may (see `compare`), and whether a file
        /// was hashed again because its stat was unsure.
        let differing: Set<String>
        let rehashed: Bool
        if let taken = options.memory?.takeListing(stateToken: index.stateToken),
           let updated = updatedListing(taken.listing, changes: taken.changed) {
            listing = updated.listing
            let unsure = updated.touched.map { [stats = listing.stats] path in (path: path, stat: stats[path]) }
            changed = updated.addedOrRemoved
            watched = true
            // What the index recorded of the folders may be older than the watcher's
            // changes; the next build that lists the folders records them again, or
            // `recordInputFolders()` when the watcher stops.
            index.folders = []
            (differing, rehashed) = try compare(unsure, with: &index, changed: &changed)
        } else {
            // The listing stats each file as it lists it; it reads again only the folders
            // whose entries changed since the index recorded them.
            let listed = try reader.inputFiles(recordedIn: index)
            context.inputFolders = listed.folders
            index.folders = listed.folders ?? []
            changed = listed.files.count != index.inputs.count
            // The listing's table of stats by path (13,400 paths hashed at 10,000 entries)
            // and the comparison with the index need only the listed files: one on each core.
            let (made, compared) = inParallel({ [stateToken = index.stateToken, listedAt = context.state.scanStartedAt] in
                Self.listing(listed, stateToken: stateToken, listedAt: listedAt)
            }, { () -> Result<(Set<String>, Bool), Diagnostic> in
                do throws(Diagnostic) {
                    return .success(try compare(listed.files.lazy.map { ($0.path, Optional($0.stat)) }, with: &index, changed: &changed))
                } catch {
                    return .failure(error)
                }
            })
            listing = made
            (differing, rehashed) = try compared.get()
        }
        listing.listedAt = context.state.scanStartedAt
        if context.draftsToggled {
            // No file need have changed, but the object list has (the drafts'), and the
            // index and state must say which setting they were made with.
            changed = true
            context.stateChanged = true
        }
        if !changed, rehashed {
            // Every file that was unsure has just been hashed, after this build started: from
            // now on only files modified close to this start are unsure.
            index.scanStartedAt = context.state.scanStartedAt
        }
        context.listing = listing
        // Only stats changed (a touched file): the index learns them, so the next build need
        // not hash those files again (see `saveBuildState`).
        if !changed, index != context.previousIndex { context.refreshedIndex = index }
        if changed || (options.preparesNextBuild && options.memory != nil) {
            useListing(listing, context: &context)
        } else {
            context.isUpToDate = true
            context.report.isFullBuild = false
            context.report.journalEntries = index.journalEntries
            context.report.messages = index.messages
            context.report.weatherReports = index.weatherReports
            context.report.pagesUnchanged = index.pages
            // The site's files are as the last build read them: so are its warnings.
            for warning in index.warnings { context.log.record(warning) }
            return
        }
        context.stateToLoad = (index, differing.sorted(), watched)
    }

    /// Compares `files` (in path order) with the index's inputs. A file whose stat matches is
    /// as the index says; one that is new, gone or whose stat differs may differ. Until one
    /// is known to differ, a file whose stat alone changed (a touch, a copy with the same
    /// bytes) is hashed: the same bytes only refresh its stat in `index`. Once one differs
    /// (`changed`), the others whose stat differs are not hashed here: reading them decides.
    ///
    /// - Returns: The paths that differ, or may, and whether a file was hashed again.
    private func compare(_ files: some Sequence<(path: String, stat: FileStat?)>, with index: inout BuildIndex,
                         changed: inout Bool) throws(Diagnostic) -> (differing: Set<String>, rehashed: Bool) {
        var rehashed = false
        var differing: Set<String> = []
        // Both in path order: each lookup goes on from the last.
        var recorded = IndexInputs.Walk(index.inputs)
        for (path, stat) in files {
            guard let old = recorded.input(at: path), let stat else {
                differing.insert(path)
                changed = true
                continue
            }
            if stat.isUnchanged(from: old, recordedBy: index.scanStartedAt) {
                continue
            }
            if changed {
                differing.insert(path)
                continue
            }
            guard try sourceRecord(path, bytes: try reader.bytes(path), stat: stat).hash == old.hash else {
                differing.insert(path)
                changed = true
                continue
            }
            index.inputs[path] = BuildIndex.Input(stat, hash: old.hash)
            rehashed = true
        }
        return (differing, rehashed)
    }

    /// Loads the state the index names, when "Check for changes" found inputs that changed
    /// (or the build prepares the next one): from memory under `watch` and `serve`, else from
    /// disk, decoding its chunks. A step of its own, so that `--verbose` shows what loading
    /// the state costs apart from listing the inputs. Without a usable state, the build is a
    /// full one.
    func loadBuildState(_ context: inout BuildContext) throws(Diagnostic) {
        guard let (index, differing, watched) = context.stateToLoad, let listing = context.listing else { return }
        context.stateToLoad = nil
        /// A copy of the remembered state's source records, this build's own (see ``SpareTables``).
        var spareSources: RecordTable<BuildState.SourceRecord>?
        if let remembered = options.memory?.state(token: index.stateToken) {
            context.previous = remembered
            context.report.isFullBuild = false
            if watched, let spare = options.memory?.takeSpareTables(token: remembered.token) {
                (context.sparePages, spareSources) = (spare.pages, spare.sources)
            }
        }
        if context.previous == nil {
            switch Self.loadState(at: statePath, namedBy: index) {
            case .failure(let problem):
                context.report.notice = problem.notice ?? BuildState.StateProblem.unreadable.notice
            case .success(let state):
                context.previous = state
                context.report.isFullBuild = false
            }
        }
        guard context.previous != nil else {
            // Each source gets a record: growing the table one insert at a time would rehash it repeatedly.
            context.state.sources.reserveCapacity(listing.paths.count)
            return
        }
        // Every input that can have changed (all of them listed, or those a watcher reported)
        // was compared with the index, which names this very state: only those that differ
        // can differ from what the previous build read. The others keep their records as
        // they are, without a lookup each.
        context.changedInputs = differing
        // The records move rather than being copied: the state's table is then this build's
        // alone, and replacing a record does not copy the others first.
        context.previousSourceCount = context.previous?.sources.count ?? 0
        context.state.sources = spareSources ?? context.previous?.sources ?? [:]
        context.previous?.sources = [:]
        // Files can only have gone when the counts differ or a file came.
        if context.previousSourceCount != listing.stats.count || differing.contains(where: { context.state.sources[$0] == nil }) {
            context.goneInputs = context.state.sources.keys.filter { listing.stats[$0] == nil }.sorted()
            for path in context.goneInputs { context.state.sources[path] = nil }
            if context.goneInputs.contains(where: { $0.hasPrefix("content/") }) { context.contentFileChanged = true }
        }
    }

    /// `listed` as a listing to keep.
    static func listing(_ listed: ListedInputs, stateToken: String, listedAt: Int64) -> InputListing {
        var stats: [String: FileStat] = [:]
        stats.reserveCapacity(listed.files.count)
        for file in listed.files { stats[file.path] = file.stat }
        return InputListing(stateToken: stateToken, listedAt: listedAt, paths: listed.files.map(\.path), stats: stats,
                            hasLinks: listed.hasLinks)
    }

    /// Hands `listing` on to the steps that read the sources next: they need not list or
    /// stat them again.
    func useListing(_ listing: InputListing, context: inout BuildContext) {
        context.inputStats = listing.stats
        context.listedInputCount = listing.paths.count
        // The paths are sorted, so each folder's files are one run of them.
        for (directory, _) in SiteReader.inputFolders {
            context.inputListing[directory] = Array(listing.paths[listing.paths.sortedRun(under: directory)])
        }
    }

    /// `listing` brought up to date with the paths a watcher reported: each is looked at
    /// again (`lstat`), the files added or gone are added or removed. Nil when one of them
    /// needs a full listing: a folder came or went, or a link appeared.
    func updatedListing(_ listing: InputListing, changes: Set<String>)
        -> (listing: InputListing, touched: [String], addedOrRemoved: Bool)? {
        var listing = listing
        var touched: [String] = []
        var addedOrRemoved = false
        for path in changes.sorted() {
            let kind = SiteReader.inputKind(of: path)
            switch kind {
            case .none: continue
            case .folderOfInputs: return nil
            case .file, .underInputFolder: break
            }
            var info = stat()
            guard lstat(SitePaths.join(options.sourceDirectory, path), &info) == 0 else {
                if listing.stats.removeValue(forKey: path) != nil {
                    let index = listing.paths.sortedInsertionIndex(of: path)
                    if index < listing.paths.count, listing.paths[index] == path { listing.paths.remove(at: index) }
                    addedOrRemoved = true
                } else {
                    // A folder that held inputs went: list everything again.
                    let folder = path + "/"
                    let index = listing.paths.sortedInsertionIndex(of: folder)
                    if index < listing.paths.count, listing.paths[index].hasPrefix(folder) { return nil }
                }
                continue
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            guard kind == .file else { continue }
            if listing.stats.updateValue(FileStat(info), forKey: path) == nil {
                listing.paths.insert(path, at: listing.paths.sortedInsertionIndex(of: path))
                addedOrRemoved = true
            }
            touched.append(path)
        }
        return (listing, touched, addedOrRemoved)
    }

    // MARK: - Content

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
        let record = try sourceRecord(CrewLoader.path, bytes: bytes)
        // Under watch, the crew as the last build parsed the same file.
        if let kept = options.memory?.crew(hash: record.hash) {
            context.crew = kept.crew
            context.log.merge(kept.log)
        } else {
            var log = DiagnosticLog()
            context.crew = try CrewLoader.load(try SourceFile(path: CrewLoader.path, bytes: bytes), log: &log)
            options.memory?.keepCrew(context.crew, log: log, hash: record.hash)
            context.log.merge(log)
        }
        context.crewChanged = context.previousRecord(of: CrewLoader.path)?.hash != record.hash
        context.state.sources[CrewLoader.path] = record
    }

    func contentContext(_ context: BuildContext) throws(Diagnostic) -> ContentContext {
        let config = try context.requireConfig()
        var content = ContentContext(config: config, crew: context.crew)
        content.links = context.contentLinks
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
        !entry.isDraft || includesDrafts
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
           let taken = options.memory?.keptContent(stateToken: previous.token)?[keyPath: kept],
           // The same files as the state's records (a file added would be among the changed
           // inputs, one gone among the gone ones), none of them changed.
           taken.fileCount == paths.count, changed.sortedRun(under: kind.folder).isEmpty,
           context.goneInputs.sortedRun(under: kind.folder).isEmpty {
            for warning in taken.warnings { context.log.record(warning) }
            return taken.objects
        }
        let content = try contentContext(context)
        return try readSources(paths, in: kind.folder, context: &context, parse: { file, log throws(Diagnostic) in
            try kind.parse(file, content: content, log: &log)
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
                             parse: (SourceFile, inout DiagnosticLog) throws(Diagnostic) -> BuildState.SourceRecord,
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
                if context.crewChanged, let record = old, !context.mayReuse(record) { old = nil }
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
              parse: (SourceFile, inout DiagnosticLog) throws(Diagnostic) -> BuildState.SourceRecord) throws(Diagnostic)
        -> [SourceOutcome] {
        let keepsGoing = options.keepsGoing
        return try parallelMap(paths) { path throws(Diagnostic) -> SourceOutcome in
            do throws(Diagnostic) {
                switch try readIfChanged(path, context: context) {
                case .unchanged(let record, let restated):
                    return (record, nil, restated)
                case .changed(let bytes, let fresh):
                    var fileLog = DiagnosticLog()
                    var record = try parse(try SourceFile(path: path, bytes: bytes), &fileLog)
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

    /// A source file as the previous build left it, or its new bytes.
    enum SourceRead {
        /// Same stat (and clearly older than the previous build's start), or same hash:
        /// the previous record, with the current stat; `restated` when that stat is new.
        case unchanged(BuildState.SourceRecord, restated: Bool)
        /// The file's bytes and a fresh record (stat and hash, no parsed objects).
        case changed(bytes: [UInt8], record: BuildState.SourceRecord)
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
        return .changed(bytes: bytes, record: fresh)
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
                                             weatherReports: context.weatherReports, conflicts: &conflicts)
            for conflict in conflicts {
                context.log.record(conflict)
                // The file stays unrecorded, so the next build looks at it again.
                if let path = conflict.location?.path { context.state.sources[path] = nil }
            }
        } else {
            context.library = try ContentLibrary(crew: context.crew, journalEntries: context.journalEntries,
                                                 messages: context.messages, weatherReports: context.weatherReports)
        }
        context.report.journalEntries = context.library?.journalEntries.count ?? 0
        context.report.messages = context.library?.messages.count ?? 0
        context.report.weatherReports = context.library?.weatherReports.count ?? 0
    }

    // MARK: - Pages

    /// The site's templates as read from `templates/` and compiled with the built-in ones.
    struct ReadTemplates: Sendable {
        /// Each template file's record, for the state.
        var records: [(path: String, record: BuildState.SourceRecord)] = []
        /// The names the files give (`cell-message` for `templates/cell-message.mustache`).
        var names: [String] = []
        /// Names the files by path and hash: under watch, the same ones as last time are not
        /// compiled again.
        var key = ""
        var library: TemplateLibrary
    }

    /// Starts reading and compiling the templates on another core: they depend on nothing
    /// the content steps do, and those leave a core idle for most of an incremental build
    /// (1.5-2 ms of compiling at 10,000 entries). "Load templates" takes the result.
    func startReadingTemplates(_ context: inout BuildContext) {
        let listed = context.inputListing["templates"]
        context.pendingTemplates = BackgroundWork { [self] in
            do throws(Diagnostic) {
                defer { TemplateLibrary.warmUpValueLookups() }
                return .success(try readTemplates(listed: listed))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Reads every template file (those `listed`, or those found under `templates/`) and
    /// compiles the library they override.
    func readTemplates(listed: [String]?) throws(Diagnostic) -> ReadTemplates {
        var overrides: [String: TemplateLibrary.Source] = [:]
        var records: [(path: String, record: BuildState.SourceRecord)] = []
        var names: [String] = []
        var key = ""
        for path in try files(under: "templates", listed: listed) {
            let bytes = try reader.bytes(path)
            let file = try SourceFile(path: path, bytes: bytes)
            let name = String(path.dropFirst("templates/".count).dropLast(".mustache".count))
            overrides[name] = TemplateLibrary.Source(text: file.text, path: path)
            names.append(name)
            let record = try sourceRecord(path, bytes: bytes)
            records.append((path, record))
            key += "\(path)=\(record.hash)|"
        }
        let library: TemplateLibrary
        if let kept = options.memory?.templates(key: key) {
            library = kept
        } else {
            library = try TemplateLibrary(overrides: overrides)
        }
        return ReadTemplates(records: records, names: names, key: key, library: library)
    }

    func loadTemplates(_ context: inout BuildContext) throws(Diagnostic) {
        let read: ReadTemplates
        if let pending = context.pendingTemplates {
            context.pendingTemplates = nil
            read = try pending.value().get()
        } else {
            read = try readTemplates(listed: context.inputListing["templates"])
        }
        for (path, record) in read.records { context.state.sources[path] = record }
        let templates = read.library
        options.memory?.keepTemplates(templates, key: read.key)
        for name in templates.unusedOverrides(read.names) {
            let near = TemplateLibrary.builtInNames.sorted().first { $0.isCloseMatch(for: name) }
            let hint = near.map { "did you mean templates/\($0).mustache?" }
            context.log.warn("template '\(name)' is not one marsgen uses, nor a partial of one",
                             at: SourceLocation(path: "templates/\(name).mustache", line: 1, column: 1),
                             hint: hint ?? "name it after a built-in template (see README, Templates), or include it with {{> \(name)}}")
        }
        context.templates = templates
        context.templateHashes = templates.sourceHashes
        context.state.templates = templates.sourceHashes
    }

    func planPages(_ context: inout BuildContext) throws(Diagnostic) {
        guard let library = context.library else { return }
        let planner = PagePlanner(library: library, config: try context.requireConfig(), reusing: options.memory?.takeReadObjects())
        options.memory?.keepReadObjects(planner.readObjects)
        // The inputs hash leaves out the templates: when one changed, every page is planned.
        if let previous = context.previous, previous.templates == context.state.templates {
            // An inputs hash starts from the page's output path (see `PagePlan.inputs`): a set
            // of numbers answers as the records by path would, and far faster.
            var inputs = HashValueSet(minimumCapacity: previous.pages.count)
            previous.pages.forEach { inputs.insert($0.value.inputs.value) }
            let known = inputs
            context.pages = planner.plans { known.contains($0.value) }
        } else {
            context.pages = planner.plans()
        }
        context.state.objectList = ObjectList(planner.feedFingerprints, stamps: planner.feedStamps)
        context.heldUntilEnd.append(planner)
    }

    func diffObjects(_ context: inout BuildContext) throws(Diagnostic) {
        guard let previous = context.previous else { return }
        let objects = context.state.objectList
        let old = previous.objectList
        // Identifiers are unique in the object list, so the objects that a common prefix or
        // suffix keeps in place are neither inserted, deleted, updated nor moved: only the
        // middle needs the diff (after one edit, a handful of objects, not tens of thousands).
        // The ends are found by stamps, which stand for identifier and content hash as they
        // do in every page's inputs hash; only the middle's identifiers are read.
        let (oldStamps, newStamps) = (old.stamps, objects.stamps)
        let shorter = min(oldStamps.count, newStamps.count)
        var prefix = 0
        while prefix < shorter, oldStamps[prefix] == newStamps[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, oldStamps[oldStamps.count - 1 - suffix] == newStamps[newStamps.count - 1 - suffix] { suffix += 1 }
        context.sharedObjects = SharedEnds(prefix: prefix, suffix: suffix)
        let oldMiddle = old.fingerprints(in: prefix..<(old.count - suffix))
        let newMiddle = objects.fingerprints(in: prefix..<(objects.count - suffix))
        let result = listDiff(old: oldMiddle, new: newMiddle)
        if result.hasChanges || old.count != objects.count || previous.templates != context.state.templates
            || context.previousSourceCount != context.state.sources.count {
            context.stateChanged = true
        }
        var changes = ObjectChanges()
        changes.inserted = Set(result.inserts.map { newMiddle[$0].diffIdentifier })
        changes.deleted = Set(result.deletes.map { oldMiddle[$0].diffIdentifier })
        changes.updated = Set(result.updates.map { oldMiddle[$0].diffIdentifier })
        changes.moved = Set(result.moves.map { newMiddle[$0.to].diffIdentifier })
        context.objectChanges = changes
    }

    func renderPages(_ context: inout BuildContext) throws(Diagnostic) {
        guard context.library != nil, let templates = context.templates else { return }
        let adapter = FeedAdapter.standard(context: FeedContext(links: SiteLinks(config: try context.requireConfig())))
        var renderer = PageRenderer(templates: templates, sections: [])
        // The rows the last build left on disk, read only if a list is rendered (and, under
        // `watch` and `serve`, only by the first build that renders one). A full build
        // renders every row afresh: `--clean` must not trust anything kept.
        let path = rowsPath
        let rows = options.memory?.rows ?? RowCache()
        let load: @Sendable () -> [String: RowCache.RenderedList] = { RenderedRows.load(from: path) }
        rows.loadOnFirstUse(context.isIncremental ? load : nil)
        renderer.rowCache = rows
        if options.memory == nil { context.renderedRows = rows }
        renderer.cacheSalt = context.state.configurationHash
        // Pages of one template, layout and shape use the same templates: look them up once.
        var templatesByShape: [String: [String]] = [:]
        // The hashes of the output paths seen (see `PagePlan.place`), much faster to look up
        // than the paths; a hash seen before is then compared as paths.
        var seen = HashValueSet(minimumCapacity: context.pages.count)
        var planned: [(plan: Int, page: Page)] = []
        // The previous records, kept for every page made from the same inputs as last time
        // (the planner checked: the same page); the others are replaced or removed below.
        if let previous = context.previous {
            context.state.pages = context.sparePages ?? previous.pages
            context.sparePages = nil
        }
        // By index: a loop over the plans copied each of 19,600 (a retain and a release of
        // each of its strings) to read a number and find the handful with a page.
        for index in context.pages.indices {
            let place = context.pages[index].place
            if !seen.insert(place) {
                let outputPath = context.pages[index].outputPath
                if context.pages[..<index].contains(where: { $0.place == place && $0.outputPath == outputPath }) {
                    throw Diagnostic.error("two pages would be written to \(outputPath)", hint: "give one of the entries a different 'slug:'")
                }
            }
            guard let page = context.pages[index].page else {
                context.report.pagesUnchanged += 1
                continue
            }
            planned.append((index, page))
            let key = shape(of: page)
            if templatesByShape[key] == nil {
                templatesByShape[key] = renderer.templatesUsed(by: page, adapter: adapter).sorted()
            }
        }
        if let previous = context.previous {
            // Unplanned pages exist in the previous records (that is how the planner knew them
            // unchanged): when those and the planned ones that existed account for every
            // record, no page is gone and the records need no search.
            let unplanned = context.pages.count - planned.count
            let added = planned.lazy.map(\.page.outputPath).filter { previous.pages[$0] == nil }
            context.pagesAdded = Array(added)
            let plannedThatExisted = planned.count - context.pagesAdded.count
            var gone: [String] = []
            let goneCount = previous.pages.count - unplanned - plannedThatExisted
            if goneCount != 0 {
                // A recorded path whose hash is not among the planned pages' places (`seen`)
                // is gone, without making the plans' 19,600 output paths. Only a 64-bit
                // collision could hide one: then the count falls short, and paths decide.
                gone = previous.pages.keys.filter { path in
                    var hash = ContentHash()
                    hash.combine(path)
                    return !seen.contains(hash.value)
                }
                if gone.count != goneCount {
                    let paths = Set(context.pages.map(\.outputPath))
                    gone = previous.pages.keys.filter { !paths.contains($0) }
                }
                for path in gone { context.state.pages[path] = nil }
            }
            context.pagesGone = gone
        }
        let templateHashes = context.templateHashes
        let fingerprints = try parallelMap(planned) { _, page throws(Diagnostic) -> ContentHash in
            var fingerprint = PageFingerprint.of(page)
            for name in templatesByShape[shape(of: page)] ?? [] {
                fingerprint.combine(name)
                fingerprint.combine(templateHashes[name] ?? "?")
            }
            return fingerprint
        }

        // Same fingerprint as last time: same inputs, same bytes, so the page is not even rendered.
        var toRender: [Int] = []
        for (position, (plan, page)) in planned.enumerated() {
            let previous = context.previous?.pages[page.outputPath]
            if let previous, previous.fingerprint == fingerprints[position] {
                context.state.pages[page.outputPath] = BuildState.PageRecord(bytes: previous.bytes, fingerprint: previous.fingerprint,
                                                                             inputs: context.pages[plan].inputs)
                context.report.pagesUnchanged += 1
            } else {
                toRender.append(position)
            }
        }
        guard !toRender.isEmpty else { return }
        context.stateChanged = true

        // Each section once, then the pages, both on every core.
        var shown: [any FeedObject] = []
        var wanted: Set<String> = []
        for index in toRender {
            for item in planned[index].page.slots.values.joined() where wanted.insert(item.objectID).inserted {
                shown.append(item.object)
            }
        }
        // The sections of objects shown last time as they are now come from memory under
        // watch, from the file the last build left otherwise (not for a full build: `--clean`
        // must not trust anything kept).
        let cacheKey = sectionCacheKey(context)
        let kept: [UInt64: String]
        if let memory = options.memory {
            kept = memory.sections.sections(key: cacheKey)
        } else {
            kept = context.isIncremental && !shown.isEmpty ? RenderedSections.load(from: sectionsPath, key: cacheKey) : [:]
        }
        let stamps = shown.map(\.stamp)
        let sectionHTML = try parallelMap(Array(shown.indices)) { index throws(Diagnostic) -> String in
            if let html = kept[stamps[index]] { return html }
            return try renderer.html(for: try adapter.section(for: shown[index]))
        }
        let shownSections = Dictionary(zip(stamps, sectionHTML), uniquingKeysWith: { first, _ in first })
        options.memory?.sections.keep(shownSections, key: cacheKey)
        // What an edit's pages show, not what a full build or a template edit renders (every
        // object's, or thousands: megabytes to write for a next build that shows a few).
        if options.memory == nil, context.isIncremental, shownSections.count <= RenderedSections.mostKept,
           shownSections.count != kept.count || stamps.contains(where: { kept[$0] == nil }) {
            context.renderedSections = (cacheKey, shownSections)
        }
        let sections = Dictionary(uniqueKeysWithValues: zip(shown.map(\.diffIdentifier), sectionHTML))
        let pages = planned.map(\.page)
        // Each page whose bytes changed goes into the staging directory as soon as it is
        // rendered, so a build holds only the pages in hand (a template edit renders
        // thousands): a full build then swaps the directory into place, an incremental one
        // moves those pages into the output. A failed build only removes the directory.
        let staging = outputWriter(context)
        try staging.begin()
        context.staging = staging
        if !context.isIncremental {
            let output = staging.output
            context.oldOutputFiles = BackgroundWork { Self.oldOutputFiles(in: output) }
        }
        let previousBytes = toRender.map { context.previous?.pages[pages[$0].outputPath]?.bytes }
        let rendered = try parallelMap(Array(toRender.indices)) { position throws(Diagnostic) -> (hash: ContentHash, kept: Bool) in
            let page = pages[toRender[position]]
            let bytes = try renderer.render(page, sections: sections)
            var hash = ContentHash()
            hash.combine(bytes: bytes)
            guard hash != previousBytes[position] else { return (hash, false) }
            return (hash, try staging.stage(bytes, at: page.outputPath))
        }

        for (position, index) in toRender.enumerated() {
            let page = pages[index]
            let previous = context.previous?.pages[page.outputPath]
            let used = templatesByShape[shape(of: page)] ?? []
            let record = BuildState.PageRecord(bytes: rendered[position].hash, fingerprint: fingerprints[index],
                                               inputs: context.pages[planned[index].plan].inputs)
            context.state.pages[page.outputPath] = record
            if let previous, previous.bytes == record.bytes {
                context.report.pagesUnchanged += 1
                continue
            }
            context.staged.append(page.outputPath)
            if rendered[position].kept {
                context.kept.insert(page.outputPath)
                context.report.pagesUnchanged += 1
                continue
            }
            context.report.pagesWritten += 1
            let why = reason(for: page, templates: used, isNew: previous == nil, context: context)
            context.report.explanations.append("\(displayPath(page.outputPath)): \(why)")
        }
    }

    /// What a section's HTML depends on besides its object: the configuration, the templates
    /// and the crew file (objects' hashes already hold their authors' names and roles; the
    /// crew is in the key so that a section showing more of the crew stays right).
    func sectionCacheKey(_ context: BuildContext) -> String {
        var key = "\(context.state.configurationHash)|\(context.state.sources[CrewLoader.path]?.hash ?? "no crew")"
        for (name, hash) in context.templateHashes.sorted(by: { $0.key < $1.key }) { key += "|\(name)=\(hash)" }
        return key
    }

    /// Pages of one template, layout and shape use the same templates.
    func shape(of page: Page) -> String {
        "\(page.template)|\(page.layout ?? "")|\(page.slots.isEmpty)|\(page.rows.values.map(\.template).sorted())"
    }

    /// Why a page is written, for `--explain`.
    func reason(for page: Page, templates: [String], isNew: Bool, context: BuildContext) -> String {
        guard context.isIncremental else { return "full build" }
        guard !isNew else { return "new page" }
        if let template = templates.first(where: { context.previous?.templates[$0] != context.templateHashes[$0] }) {
            return "template \(template).mustache changed"
        }
        // A renamed crew member changes every object they wrote without their files
        // changing: naming one of those files would point at the wrong file.
        if context.crewChanged, !context.contentFileChanged {
            return "crew.yml changed"
        }
        // The sol index shows every object only as counts: naming one would mislead.
        if page.kind == .solIndex { return "a sol's counts or weather changed" }
        let changes = context.objectChanges
        let ids = page.objectIDs.sorted()
        let updated = ids.filter(changes.updated.contains)
        if let first = updated.first {
            // A file parsed again for its links alone was not edited (an edited file's links
            // are never recorded as moved): an edited one is the likelier cause; failing
            // that, say which link moved.
            func relinked(_ id: String) -> String? { sourcePath(of: id).flatMap { context.relinked[$0] } }
            if let id = updated.first(where: { relinked($0) == nil }) { return "\(shortName(id)) updated" }
            return "\(shortName(first)) updated: \(relinked(first) ?? "")"
        }
        if let id = ids.first(where: changes.inserted.contains) { return entered(id, added: true, context: context) }
        if let id = changes.deleted.sorted().first {
            return changes.deleted.count == 1 ? entered(id, added: false, context: context) : "\(changes.deleted.count) objects removed"
        }
        let change = ids.contains(where: changes.moved.contains) ? "order changed" : "links or counts changed"
        // The page shows no changed object now. When one object changed in the whole build,
        // it is what changed the page (it left the page, or moved or relinked what the page
        // shows): name it too. With several, which one did is not known here.
        if changes.updated.count + changes.inserted.count == 1,
           let cause = changes.updated.first.map({ "\(shortName($0)) updated" })
            ?? changes.inserted.first.map({ entered($0, added: true, context: context) }) {
            return "\(change), \(cause)"
        }
        return change
    }

    /// How the object `id`, added to the object list or removed from it, is named: a draft
    /// that `--drafts` alone brought in or took out (its file unchanged) says so.
    func entered(_ id: String, added: Bool, context: BuildContext) -> String {
        if let path = sourcePath(of: id), isDraftToggled(path, context: context) {
            return "draft \(shortName(id)) " + (added ? "shown (--drafts)" : "left out (no --drafts)")
        }
        return "\(shortName(id)) " + (added ? "added" : "removed")
    }

    /// Whether the content file at `path` is a draft this build shows and the last one did
    /// not, or the other way round, for `--drafts` alone (the file did not change).
    func isDraftToggled(_ path: String, context: BuildContext) -> Bool {
        context.draftsToggled && context.isIncremental && context.changedInputs?.sortedIndex(of: path) == nil
            && context.state.sources[path]?.journalEntries.first?.isDraft == true
    }

    /// The site-relative path of the file the object `id` comes from (`journal:content/journal/a.md`,
    /// `message:content/messages/hab.md@2038-…/vega`).
    func sourcePath(of id: String) -> String? {
        guard let colon = id.firstIndex(of: ":") else { return nil }
        let rest = id[id.index(after: colon)...]
        return String(rest[..<(rest.firstIndex(of: "@") ?? rest.endIndex)])
    }

    func shortName(_ id: String) -> String {
        id.replacingOccurrences(of: ":content/", with: " ").replacingOccurrences(of: "journal journal/", with: "journal/")
    }

    func displayPath(_ path: String) -> String {
        if path == "index.html" { return "index" }
        return path.hasSuffix("/index.html") ? String(path.dropLast("/index.html".count)) : path
    }

    // MARK: - Files

    func collectStatic(_ context: inout BuildContext) throws(Diagnostic) {
        var produced: Set<String> = []
        let staticPaths = try files(under: "static", context: context)
        let names = StaticNames(files: staticPaths.map { String($0.dropFirst("static/".count)) })
        let themeFiles = DefaultTheme.assets.keys.filter { !names.files.contains($0) }.sorted()
        // Files the previous build wrote beside these static files did not clash with them.
        let sameStaticFiles = context.previous.map { previous in names.files.allSatisfy { previous.files[$0] != nil } } ?? false
        let clashes = names.clashes(pages: context.state.pages, themeFiles: themeFiles,
                                    added: sameStaticFiles ? context.pagesAdded : nil)
        if !clashes.isEmpty { throw StaticNames.diagnostic(for: clashes) }
        for path in staticPaths {
            let relative = String(path.dropFirst("static/".count))
            produced.insert(relative)
            let record: BuildState.SourceRecord
            switch try readIfChanged(path, context: context) {
            case .unchanged(let old, _): record = old
            case .changed(_, let fresh): record = fresh
            }
            if context.state.sources.updateValue(record, forKey: path) != record { context.stateChanged = true }
            context.state.files[relative] = BuildState.FileRecord(bytes: record.hash)
            guard context.previous?.files[relative]?.bytes != record.hash else { continue }
            context.copies[relative] = SitePaths.join(options.sourceDirectory, path)
            // A full build counts and explains the files it writes once it knows which it kept.
            guard context.isIncremental else { continue }
            context.report.filesCopied += 1
            let why = context.previous?.files[relative] == nil ? "new static file" : "static file changed"
            context.report.explanations.append("\(relative): \(why)")
        }
        for (relative, bytes) in DefaultTheme.assets.sorted(by: { $0.key < $1.key }) where !produced.contains(relative) {
            // Recorded as a static file's bytes are (see `contentHash(of:)`).
            let hash = Self.contentHash(of: bytes)
            context.state.files[relative] = BuildState.FileRecord(bytes: hash)
            guard context.previous?.files[relative]?.bytes != hash else { continue }
            context.writes[relative] = bytes
            guard context.isIncremental else { continue }
            context.report.filesCopied += 1
            context.report.explanations.append("\(relative): theme file changed")
        }
        guard let previous = context.previous else { return }
        let (pages, files) = (context.state.pages, context.state.files)
        // Of the previous pages, only those planning found gone can be stale: not all 19,500 again.
        let candidates = (context.pagesGone ?? Array(previous.pages.keys)) + Array(previous.files.keys)
        let stale = Set(candidates.filter { pages[$0] == nil && files[$0] == nil })
        let draftPages = stale.isEmpty ? [:] : draftPagesLeftOut(context)
        for path in stale.sorted() {
            context.deletes.append(path)
            let reason = draftPages[path] ?? deletionReason(path, wasFile: previous.files[path] != nil)
            context.report.explanations.append("\(displayPath(path)): deleted, \(reason)")
        }
        context.report.filesDeleted = context.deletes.count
    }

    /// The pages of the drafts that turning `--drafts` off took out of the object list, by
    /// output path, each with its reason for `--explain`; empty for any other build.
    func draftPagesLeftOut(_ context: BuildContext) -> [String: String] {
        guard context.draftsToggled, !options.includesDrafts, let config = context.config else { return [:] }
        let links = SiteLinks(config: config)
        var reasons: [String: String] = [:]
        // Only an object this build took out of the object list can have left a page.
        for id in context.objectChanges.deleted.sorted() {
            guard let source = sourcePath(of: id), isDraftToggled(source, context: context),
                  let entry = context.state.sources[source]?.journalEntries.first else { continue }
            let path = links.journalAddress(slug: entry.slug).outputPath
            if reasons[path] == nil { reasons[path] = "draft \(shortName(id)) left out (no --drafts)" }
        }
        return reasons
    }

    /// Why `path` is no longer produced; `wasFile` when the previous build copied it (a
    /// static file) rather than generating it (static files may not share a page's path).
    func deletionReason(_ path: String, wasFile: Bool) -> String {
        if wasFile { return "static file removed" }
        if path.hasPrefix("sol/") { return "sol \(path.split(separator: "/").dropFirst().first ?? ""): lost last object" }
        if path.hasPrefix("page/") || path.hasPrefix("journal/page/") || path.contains("/page/") { return "fewer objects to page through" }
        if path.hasPrefix("journal/") { return "entry removed or its slug changed" }
        if path.hasPrefix("crew/") { return "crew member removed" }
        return "no longer produced"
    }

    /// The writer "Check paths" made for the output.
    func outputWriter(_ context: BuildContext) -> OutputWriter {
        var writer = context.outputWriter ?? OutputWriter(output: options.outputDirectory)
        // Only a full build stages what it did not change; `--clean` trusts nothing kept.
        writer.keepsIdenticalFiles = !context.isIncremental && !options.isClean
        return writer
    }

    func writeOutput(_ context: inout BuildContext) throws(Diagnostic) {
        // The state's texts are checked as they are read (see `StoredText`): after rendering,
        // before anything is written, is when a damaged one must be known.
        if DamagedTexts.take(in: chunkDirectory), context.previous != nil {
            context.readDamagedState = true
            return
        }
        if context.isIncremental, context.writes.isEmpty, context.copies.isEmpty, context.deletes.isEmpty, context.staged.isEmpty {
            context.staging?.discard()
            context.staging = nil
            return
        }
        if !context.isIncremental { try checkOutputHoldsOnlyTheSite(context) }
        // The state describes the output as it was; remove its index before touching the
        // output, so a build killed while writing leads to a full build, never to a wrong
        // site. (A state is only read when the index names it. Removing the state itself
        // here would free tens of megabytes on the build's path; the next save replaces it.)
        try? FileManager.default.removeItem(atPath: indexPath)
        if context.keepsNoState { options.memory?.keepOnly(nil, index: nil) }
        context.stateChanged = true
        if context.isIncremental {
            let staging = context.staging
            try IncrementalWriter(output: options.outputDirectory).apply(writes: context.writes, copies: context.copies,
                                                                       deletes: context.deletes,
                                                                       moves: staging.map { ($0.stagingPath, context.staged) })
            staging?.discard()
            context.staging = nil
        } else {
            let writer = context.staging ?? outputWriter(context)
            if context.staging == nil { try writer.begin() }
            context.staging = writer
            var kept: Set<String> = []
            for relative in context.writes.keys.sorted() {
                guard let bytes = context.writes[relative] else { continue }
                if try writer.stage(bytes, at: relative) { kept.insert(relative) }
            }
            // Listed before the old folder goes: its files this build does not make go with it.
            let old = context.oldOutputFiles?.value() ?? Self.oldOutputFiles(in: writer.output)
            context.oldOutputFiles = nil
            kept.formUnion(try writer.commit(copies: context.copies))
            context.staging = nil
            let files = (Array(context.writes.keys) + Array(context.copies.keys)).filter { !kept.contains($0) }.sorted()
            context.report.filesCopied = files.count
            context.report.explanations += files.map { "\($0): full build" }
            // The summary, --explain and open pages under `serve` hear of them as after an incremental build.
            let made = Set(context.madePaths)
            context.deletes = old.filter { !made.contains($0) }.sorted()
            context.report.filesDeleted = context.deletes.count
            context.report.explanations += context.deletes.map { "\(displayPath($0)): deleted, no longer produced" }
            context.kept.formUnion(kept)
        }
        let kept = context.kept
        context.report.written = context.madePaths.filter { !kept.contains($0) }.sorted()
        context.report.deleted = context.deletes.sorted()
    }

    /// A full build replaces everything in the output folder but its dot files: before it
    /// does, checks that nothing else is there than what this site makes (`--output
    /// ~/Documents` must not delete someone's documents), unless this site was built into
    /// this very folder before (its index records the folder, or, when a killed build took
    /// the index, its state remains), or `--force`.
    func checkOutputHoldsOnlyTheSite(_ context: BuildContext) throws(Diagnostic) {
        guard !options.replacesOtherFiles, !wasBuiltHere(context),
              let folder = FileSystem.OpenFolder(path: outputWriter(context).output) else { return }
        /// The name in the output folder that a file at the output-relative `path` is under.
        func topLevelName(_ path: String) -> String { path.firstIndex(of: "/").map { String(path[..<$0]) } ?? path }
        let made = Set(context.madePaths.map(topLevelName))
        var others = folder.entries.map(\.name).filter { !$0.hasPrefix(".") && !made.contains($0) }.sorted()
        guard !others.isEmpty else { return }
        // What the site's last build wrote, as it wrote it, is the site's though the folder
        // changed since (a build killed after staging inside it, a dot file added): a static
        // folder removed from the site then goes with the rest. Not a file of the same name
        // in a folder made anew at the same path, nor one edited by hand.
        if case .success(let previous) = BuildState.load(from: statePath), previous.outputDirectory == options.outputDirectory {
            let previouslyMade = Set((Array(previous.pages.keys) + Array(previous.files.keys)).map(topLevelName))
            others.removeAll { previouslyMade.contains($0) && Self.isAsWritten($0, by: previous, in: outputWriter(context).output) }
            guard !others.isEmpty else { return }
        }
        var named = others.prefix(3).map { "'\(Diagnostic.excerpt($0))'" }.joined(separator: ", ")
        if others.count > 3 { named += " and \(others.count - 3) more" }
        let them = others.count == 1 ? "it" : "them"
        throw Diagnostic.error("the output folder holds \(named), which this site does not make; a full build would delete \(them)",
                               at: SourceLocation(path: options.outputDirectory),
                               hint: "build into an empty or new folder, move \(them) out (what the site should publish goes in "
                                   + "static/), or pass --force to delete \(them)")
    }

    /// The files under the output folder `output` (output-relative paths) that a full build
    /// replaces: all but its top-level dot files, which it carries over (and the staging
    /// folder, when inside). A link is one file, not followed.
    static func oldOutputFiles(in output: String) -> [String] {
        FileSystem.filePaths(under: output, skipsTopLevel: { $0.hasPrefix(".") })
    }

    /// Whether every file at or under the top-level entry `name` of the output folder `output`
    /// is a page or file that `previous` records, with the bytes it records.
    static func isAsWritten(_ name: String, by previous: BuildState, in output: String) -> Bool {
        var paths: [String] = []
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: SitePaths.join(output, name), isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue {
            var plain = true
            FileSystem.walk(SitePaths.join(output, name)) { entry in
                guard !entry.isLink, plain else {
                    plain = false
                    return false
                }
                switch entry.kind {
                case .directory: return true
                case .file: paths.append(name + "/" + entry.relative)
                case .brokenLink, .directoryLoop, .undecodableName, .special: plain = false
                }
                return false
            }
            guard plain else { return false }
        } else {
            paths = [name]
        }
        return !paths.isEmpty && paths.allSatisfy { path in
            guard let data = FileManager.default.contents(atPath: SitePaths.join(output, path)) else { return false }
            let bytes = [UInt8](data)
            if let page = previous.pages[path] {
                var hash = ContentHash()
                hash.combine(bytes: bytes)
                return page.bytes == hash
            }
            return previous.files[path]?.bytes == Self.contentHash(of: bytes)
        }
    }

    /// Whether this site's last build left the output folder as it is now: the same folder,
    /// and nothing added to or removed from it since (its inode and status-change time are
    /// those the index recorded; an inode alone is reused at once by a folder made anew).
    func wasBuiltHere(_ context: BuildContext) -> Bool {
        guard let index = context.previousIndex ?? BuildIndex.load(from: indexPath) else {
            // A build killed while writing took the index, and left its state.
            return FileManager.default.fileExists(atPath: statePath)
        }
        var info = stat()
        guard stat(options.outputDirectory, &info) == 0 else { return false }
        return index.outputFolders.first { $0.path == "." } == InputFolder(path: ".", info)
    }

    func saveBuildState(_ context: inout BuildContext) throws(Diagnostic) {
        // A site whose .marsgen/ cannot be written: only watch and serve keep a state, in memory.
        guard !context.keepsNoState || options.memory != nil else { return }
        do {
            // A no-op incremental build leaves the state as it is, and the index too, but for
            // the stats it learnt (a touched file).
            if context.isUpToDate || (context.isIncremental && !context.stateChanged) {
                if context.keepsNoState {
                    if let refreshed = context.refreshedIndex { options.memory?.keepOnly(nil, index: refreshed) }
                    return
                }
                try context.refreshedIndex?.save(to: indexPath)
                // One that loaded the state anyway (see `BuildOptions.preparesNextBuild`): the
                // memory keeps it, with the source records this build took from it (the same,
                // as nothing changed), unless it holds the state already.
                if let memory = options.memory, var previous = context.previous,
                   let index = context.refreshedIndex ?? context.previousIndex {
                    previous.sources = context.state.sources
                    memory.preload { [previous] in previous }
                    memory.rememberIndex(index, file: FileStat(path: indexPath))
                }
                return
            }
            context.state.token = "\(context.state.scanStartedAt)-\(getpid())"
            try? FileManager.default.removeItem(atPath: indexPath)
            var index = BuildIndex(outputDirectory: options.outputDirectory, configurationHash: context.state.configurationHash,
                                   scanStartedAt: context.state.scanStartedAt, stateToken: context.state.token, stateSize: 0,
                                   inputs: [:])
            index.includesDrafts = options.includesDrafts
            index.journalEntries = context.report.journalEntries
            index.messages = context.report.messages
            index.weatherReports = context.report.weatherReports
            index.pages = context.state.pages.count
            index.warnings = context.log.entries[context.contentLogStart...].filter { $0.severity == .warning }
            // Only a listing that every file of is recorded: a file with an error left out of
            // the index would otherwise be left out of the next build's listing.
            if let folders = context.inputFolders, context.listedInputCount == context.state.sources.count { index.folders = folders }
            // After the last page is in place: what the next build compares the output with.
            index.outputFolders = OutputFolders.stamp(of: options.outputDirectory)
            if context.keepsNoState, let memory = options.memory {
                let sources = context.state.sources.sorted { $0.key < $1.key }
                index.inputs = IndexInputs(sortedPaths: sources.map(\.key), inputs: sources.map { BuildIndex.Input($0.value) })
                memory.keepOnly(context.state, index: index)
                return
            }
            if let memory = options.memory {
                // watch and serve: the pages are in place and the state is in memory; the
                // disk copy is written in the background, still under this build's lock.
                let held = UncheckedBox((lock: context.lock, previous: context.previous, builder: self, index: index,
                                         sharedObjects: context.sharedObjects, added: context.addedKeys))
                memory.remember(context.state) { state in
                    var state = state
                    do {
                        let builder = held.value.builder
                        let index = try builder.write(&state, index: held.value.index, reusing: held.value.previous,
                                                      sharedObjects: held.value.sharedObjects, added: held.value.added)
                        memory.rememberIndex(index, file: FileStat(path: builder.indexPath))
                        builder.saveRenderedRows(memory.rows)
                        memory.keepContent(Self.keptContent(of: state, includesDrafts: builder.options.includesDrafts))
                    } catch {
                        try? FileManager.default.removeItem(atPath: held.value.builder.indexPath)
                        memory.recordSaveProblem(error.localizedDescription)
                    }
                    withExtendedLifetime(held.value.lock) {}
                    return state
                }
                return
            }
            let saved = try write(&context.state, index: index, reusing: context.previous, sharedObjects: context.sharedObjects,
                                  added: context.addedKeys, lines: context.previousIndex?.lineSource)
            context.heldUntilEnd.append(saved)
            saveRenderedRows(context.renderedRows)
            // Only a cache, as the rows: a build that cannot save it renders them again next time.
            if let (key, sections) = context.renderedSections { try? RenderedSections.save(sections, key: key, to: sectionsPath) }
        } catch {
            // The site itself is complete; the next build will be a full one.
            try? FileManager.default.removeItem(atPath: indexPath)
            context.log.warn("cannot save the build state: \(error.localizedDescription)", at: SourceLocation(path: statePath),
                             hint: "the next build will be a full build")
        }
    }

    /// Saves the rows `cache` rendered since it was loaded or last saved, if any. Only a
    /// cache: a build that cannot save it renders those rows again next time.
    func saveRenderedRows(_ cache: RowCache?) {
        guard let rows = cache?.takeChanges() else { return }
        try? RenderedRows.save(rows, to: rowsPath)
    }

    /// Writes `state`, then the index that names it: the state first, so an index on disk
    /// always names a complete state.
    ///
    /// - Parameter lines: The input lines of the index the build read, to copy those that stay the same.
    /// - Returns: The index as saved.
    @discardableResult
    func write(_ state: inout BuildState, index: BuildIndex, reusing previous: BuildState?,
               sharedObjects: SharedEnds = .none, added: BuildState.AddedKeys = BuildState.AddedKeys(),
               lines: BuildIndex.LineSource? = nil) throws -> BuildIndex {
        var index = index
        // The index's inputs and lines are made from the sources as the state saves them
        // (sorted), while the other half of the state is encoded; the index is written after
        // the state.
        let (encoded, (inputs, inputLines)) = state.encodedForSaving(reusing: previous, sharedObjects: sharedObjects,
                                                                     added: added) { paths, records in
            let inputs = records.map(BuildIndex.Input.init)
            return (IndexInputs(sortedPaths: paths, inputs: inputs), BuildIndex.inputLines(paths: paths, records: inputs, reusing: lines) { $0 })
        }
        // Encoding copied texts restored from the previous state into new chunks: a damaged
        // one would be saved with a check made afresh, and trusted from then on.
        if DamagedTexts.take(in: chunkDirectory) { throw DamagedStateText() }
        index.inputs = inputs
        index.stateSize = try state.save(encoded, to: statePath)
        try? FileManager.default.removeItem(atPath: legacyStatePath)
        try index.save(to: indexPath, inputLines: inputLines, reusing: lines)
        return index
    }
}

/// A save that copied a text of the previous state whose bytes no longer match their check.
struct DamagedStateText: LocalizedError {
    var errorDescription: String? { "a text in the build state was damaged (its bytes no longer match their check)" }
}

/// What a build leaves unfreed on its way out: for the process's end, or for the memory's
/// background queue (see ``BuildMemory/free(_:)``).
final class Leftovers {
    let context: BuildContext
    init(_ context: BuildContext) { self.context = context }
}
