import Content
import Diagnostics
import Feed
import Foundation
import SiteConfig

/// Builds a site: a fixed list of named, timed steps from `marsgen.yml` to `public/`.
///
/// When the previous build left a usable state (see ``BuildState``), the build is
/// incremental: unchanged sources are not parsed again, pages whose inputs did not change
/// are not rendered, and only files whose bytes change are written.
///
/// The steps are in one file per stage: `SiteBuilder+Changes.swift` (configuration, index,
/// what changed, the last state), `+Content.swift` (reading the content), `+Links.swift`
/// (links between content files and to the site's pages), `+Pages.swift` (templates,
/// planning, the diff, rendering) and `+Output.swift` (static files, writing, saving).
///
///     let report = try SiteBuilder(options: BuildOptions(sourceDirectory: ".")).build()
///     print(report.summary)
public struct SiteBuilder: Sendable {
    /// What to build and where.
    public let options: BuildOptions

    /// The media types of the files a build writes whose extension does not say what they
    /// are, by file name (the site's Atom feed and each tag's): for a server to send (an Atom
    /// feed is not any XML).
    public static let mediaTypes: [String: String] = [Page.atomOutputPath: "application/atom+xml; charset=utf-8"]

    /// Where `.marsgen/` keeps this output's files: named once per builder, since naming
    /// them may resolve symbolic links (an output outside the site).
    let statePath: String
    let rowsPath: String
    let sectionsPath: String
    /// The JSON state of marsgen before state format 3, removed by the first build that saves.
    let legacyStatePath: String

    /// Creates a builder.
    public init(options: BuildOptions) {
        self.options = options
        let (root, output) = (options.sourceDirectory, options.outputDirectory)
        statePath = BuildState.path(siteRoot: root, output: output)
        rowsPath = RenderedRows.path(siteRoot: root, output: output)
        sectionsPath = RenderedSections.path(siteRoot: root, output: output)
        legacyStatePath = BuildState.legacyPath(siteRoot: root, output: output)
    }

    /// The pipeline, in order. Full and incremental builds run the same steps.
    public var steps: [BuildStep] {
        [
            BuildStep(named: "Check paths", body: checkPaths),
            BuildStep(named: "Load configuration", body: loadConfiguration),
            BuildStep(named: "Load build index", body: loadBuildIndex),
            BuildStep(named: "Check for changes", body: checkForChanges),
            BuildStep(named: "Load build state", body: loadBuildState),
            // Before the content: its images are written with their files' sizes.
            BuildStep(named: "Read static files", body: readStaticFiles),
            BuildStep(named: "Load crew", body: loadCrew),
            // Logs first: links to a log from the entries and reports are then written right
            // the first time (see `contentContext(_:)`).
            BuildStep(named: "Load message logs", body: loadMessages),
            BuildStep(named: "Load journal entries", body: loadJournal),
            BuildStep(named: "Load weather reports", body: loadWeather),
            // Before links are resolved: entries link to pages by their files.
            BuildStep(named: "Read pages", body: readStandalonePages),
            BuildStep(named: "Resolve links", body: resolveLinks),
            BuildStep(named: "Load pages", body: loadStandalonePages),
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
        var warnings: [Diagnostic] = []
        return try build(warningsBeforeFailure: &warnings)
    }

    /// ``build()``, giving on failure the warnings the build found before its error (an
    /// unknown key above an error in `marsgen.yml`, say), which the error would otherwise
    /// hide until it is fixed.
    public func build(warningsBeforeFailure warnings: inout [Diagnostic]) throws(Diagnostic) -> BuildReport {
        var context = BuildContext(options: options)
        do {
            return try build(&context)
        } catch {
            warnings = context.log.inSourceOrder(.warning)
            throw error
        }
    }

    private func build(_ context: inout BuildContext) throws(Diagnostic) -> BuildReport {
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
    var indexPath: String { BuildIndex.path(forState: statePath) }
    /// Where the state's chunks are, which is also the key its damaged texts are reported under.
    var chunkDirectory: String { BuildState.chunkDirectory(forState: statePath) }
}

/// What a build leaves unfreed on its way out: for the process's end, or for the memory's
/// background queue (see ``BuildMemory/free(_:)``).
final class Leftovers {
    let context: BuildContext
    init(_ context: BuildContext) { self.context = context }
}
