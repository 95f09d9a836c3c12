import Content
import Diagnostics
import Dispatch
import Foundation
import Feed
import Rendering

/// The last build's state, kept in memory by a process that builds one site again and again
/// (`marsgen watch` and `marsgen serve`), so a rebuild need not read it back from disk.
///
/// It is only a shortcut: a build uses it when the index on disk names the very state it
/// holds (by token), so a build made meanwhile by another marsgen process is never missed.
///
/// The state is still saved to disk after every build, but off the build's path: the
/// build hands it over and returns as soon as its pages are in place, and the next build
/// waits until that save is done (see ``waitForSave()``). Until then no index exists on
/// disk, so a process killed meanwhile leaves a full build for next time, never a wrong one.
///
/// A watcher can also tell it which inputs changed (``noteChanges(_:)``). Then a build
/// need not list and stat every input: it takes the listing the previous build left here
/// and looks again only at the paths the watcher named. That holds only for listings made
/// after watching began (``startTrustingChanges()``), and never across dropped events.
public final class BuildMemory: @unchecked Sendable {
    /// Rows of long lists (the sol index) as the last build rendered them, so a build that
    /// changes one row renders only that one.
    let rows = RowCache()
    /// The sections the last build showed, so a build re-renders only those of objects that changed.
    let sections = SectionCache()
    private let lock = NSLock()
    /// What the last planner read of the objects (see ``PagePlanner/readObjects``).
    private var readObjects: ReadObjects?
    /// Copies of the remembered state's page and source records, for the next build to
    /// change (see ``SpareTables``).
    private var spareTables: SpareTables?
    /// The objects of the content files of the state last saved (see ``KeptContent``).
    private var keptContent: KeptContent?
    /// The crew as the last build parsed it, by the hash of the crew file, with its warnings.
    private var crew: (hash: String, crew: Crew, log: DiagnosticLog)?
    /// The templates as the last build compiled them, by the hashes of the site's templates.
    private var templates: (key: String, library: TemplateLibrary)?
    private var remembered: BuildState?
    private var rememberedIndex: (index: BuildIndex, file: FileStat)?
    /// The index of a site whose `.marsgen/` cannot be written: kept here only (see
    /// ``keepOnly(_:index:)``).
    private var indexInMemoryOnly: BuildIndex?
    private var saveProblem: String?
    private let saves = DispatchQueue(label: "marsgen.build-state-save")
    /// When watching began (the build clock, ns since the epoch); nil: changes are not reported.
    private var watchingSince: Int64?
    /// The paths reported changed since the last build took the listing; nil: unknown
    /// (events were dropped).
    private var pendingChanges: Set<String>? = []
    private var listing: InputListing?

    /// Creates an empty memory; the first build reads the state from disk.
    public init() {}

    /// Called once a watcher is running: from now on every change is reported through
    /// ``noteChanges(_:)``, so listings made from now on can be kept up to date by them.
    public func startTrustingChanges() {
        lock.withLock { watchingSince = FileStat.now }
    }

    /// Records site-relative paths a watcher saw created, changed or deleted (files or
    /// folders), before the build that should see them.
    public func noteChanges(_ paths: [String]) {
        lock.withLock { pendingChanges?.formUnion(paths) }
    }

    /// Records that changes may have been missed (the kernel dropped events): the next build
    /// lists and stats every input.
    public func noteUnknownChanges() {
        lock.withLock { pendingChanges = nil }
    }

    /// The listing to bring up to date and the paths to look at again, when the listing is
    /// one of ``stateToken`` made while watching. Both leave memory: a build that gets nil
    /// lists everything, which covers every change so far, and a build that fails leaves no
    /// listing, so the next one lists everything too.
    func takeListing(stateToken: String) -> (listing: InputListing, changed: Set<String>)? {
        lock.withLock {
            defer {
                listing = nil
                pendingChanges = []
            }
            guard let listing, let watchingSince, let pendingChanges, listing.stateToken == stateToken,
                  listing.listedAt >= watchingSince, !listing.hasLinks else { return nil }
            return (listing, pendingChanges)
        }
    }

    /// Keeps the listing a successful build used.
    func keepListing(_ listing: InputListing) {
        lock.withLock { self.listing = listing }
    }

    /// What the last planner read of its objects, which leaves memory: the planner that
    /// takes it updates it in place.
    func takeReadObjects() -> ReadObjects? {
        lock.withLock {
            defer { readObjects = nil }
            return readObjects
        }
    }

    /// Keeps what a planner read of its objects, for the next one.
    func keepReadObjects(_ objects: ReadObjects) {
        lock.withLock { readObjects = objects }
    }

    /// The objects of the content files of the state named by `stateToken`, if this process
    /// saved that state.
    func keptContent(stateToken: String) -> KeptContent? {
        lock.withLock { keptContent?.stateToken == stateToken ? keptContent : nil }
    }

    /// Keeps the objects of the content files of a state just saved.
    func keepContent(_ content: KeptContent) {
        lock.withLock { keptContent = content }
    }

    /// The crew parsed from a crew file with hash `hash`, and the warnings it gave, if the
    /// last build parsed that file.
    func crew(hash: String) -> (crew: Crew, log: DiagnosticLog)? {
        lock.withLock { crew?.hash == hash ? crew.map { ($0.crew, $0.log) } : nil }
    }

    /// Keeps the crew parsed from a crew file with hash `hash`.
    func keepCrew(_ crew: Crew, log: DiagnosticLog, hash: String) {
        lock.withLock { self.crew = (hash, crew, log) }
    }

    /// The templates compiled from the site's templates named by `key`, if the last build did.
    func templates(key: String) -> TemplateLibrary? {
        lock.withLock { templates?.key == key ? templates?.library : nil }
    }

    /// Keeps the templates compiled from the site's templates named by `key`.
    func keepTemplates(_ library: TemplateLibrary, key: String) {
        lock.withLock { templates = (key, library) }
    }

    /// The index last saved by this process, when the file at its path is still the one saved.
    func index(current file: FileStat?) -> BuildIndex? {
        lock.withLock {
            guard let rememberedIndex, let file, rememberedIndex.file == file else { return nil }
            return rememberedIndex.index
        }
    }

    /// The index kept by ``keepOnly(_:index:)``, for a site whose `.marsgen/` cannot be written.
    func indexKeptOnly() -> BuildIndex? {
        lock.withLock { indexInMemoryOnly }
    }

    /// Keeps `state` and the index that names it here and nowhere else: the site's
    /// `.marsgen/` cannot be written (a site mounted read-only), and a watching process need
    /// not rebuild it in full on every change for that. `state` nil: the index alone changed
    /// (it learnt the stats of touched files). `index` nil: forget both, as a build that
    /// touches the output does first; the next build is then a full one.
    func keepOnly(_ state: BuildState?, index: BuildIndex?) {
        // The next build changes a few records: copies of its own, made here.
        let spare = state.map(SpareTables.init(copying:))
        lock.withLock {
            indexInMemoryOnly = index
            guard index != nil else {
                remembered = nil
                spareTables = nil
                return
            }
            if let state, let spare {
                remembered = state
                spareTables = spare
            }
        }
    }

    /// Forgets everything made from an earlier build's state or output (the state, its
    /// objects, rendered rows and sections), as when the state turned out damaged: the next
    /// build is a full one, and renders everything afresh.
    func forgetAll() {
        waitForSave()
        lock.withLock {
            (remembered, spareTables, rememberedIndex, indexInMemoryOnly) = (nil, nil, nil, nil)
            (keptContent, readObjects, listing) = (nil, nil, nil)
        }
        rows.removeAll()
        sections.keep([:], key: "")
    }

    /// Remembers the index just saved, with the stat of its file.
    func rememberIndex(_ index: BuildIndex, file: FileStat?) {
        lock.withLock { rememberedIndex = file.map { (index, $0) } }
    }

    /// The state remembered, when it is the one named by `token`.
    func state(token: String) -> BuildState? {
        lock.withLock { remembered?.token == token ? remembered : nil }
    }

    /// Copies of the page and source records of the state named by `token`, made for a
    /// build to change: they leave memory.
    func takeSpareTables(token: String) -> SpareTables? {
        lock.withLock {
            defer { spareTables = nil }
            guard let spareTables, spareTables.token == token else { return nil }
            return spareTables
        }
    }

    /// Remembers `state` and runs `save` (which writes it and returns it as written, with
    /// the chunks the next save can reuse) in the background.
    func remember(_ state: BuildState, savingWith save: @escaping @Sendable (BuildState) -> BuildState) {
        let replaced = lock.withLock {
            defer { (remembered, spareTables) = (state, nil) }
            return (remembered, spareTables)
        }
        saves.async { [self] in
            // The state replaced goes here, off the build's path: the tables the build took
            // copies of are its alone by now, and freeing them took 1-2 ms of a watched rebuild.
            withExtendedLifetime(replaced) {}
            let saved = save(state)
            // Made here, off the next build's path (see `SpareTables`).
            let spare = SpareTables(copying: saved)
            lock.withLock {
                if remembered?.token == saved.token {
                    remembered = saved
                    spareTables = spare
                }
            }
        }
    }

    /// When no state is remembered, runs `load` in the background (as a save runs: the next
    /// build waits for it) and remembers the state it returns.
    func preload(_ load: @escaping @Sendable () -> BuildState?) {
        guard lock.withLock({ remembered == nil }) else { return }
        saves.async { [self] in
            guard lock.withLock({ remembered == nil }), let state = load() else { return }
            let spare = SpareTables(copying: state)
            lock.withLock {
                guard remembered == nil else { return }
                remembered = state
                spareTables = spare
            }
        }
    }

    /// Once watching has begun, runs `list` in the background (the next build waits for it)
    /// and keeps the listing it returns, when the listing kept is older than watching: the
    /// first rebuild can then look only at the paths the watcher reports.
    func preloadListing(_ list: @escaping @Sendable () -> InputListing?) {
        saves.async { [self] in
            guard let since = lock.withLock({ watchingSince }), let fresh = list(), fresh.listedAt >= since else { return }
            lock.withLock {
                if listing.map({ $0.listedAt < since }) ?? true { listing = fresh }
            }
        }
    }

    /// Frees what a build held on the background queue, after the save under way: off the
    /// path from a rebuild's end to its line and the live update. The next build waits for it,
    /// as for a save.
    func free(_ leftovers: Leftovers) {
        let box = UncheckedBox(leftovers)
        saves.async { withExtendedLifetime(box) {} }
    }

    /// Records why a save in the background failed, for the next build to report.
    func recordSaveProblem(_ problem: String) {
        lock.withLock {
            saveProblem = problem
            remembered = nil
        }
    }

    /// Why the last save in the background failed, once.
    func takeSaveProblem() -> String? {
        lock.withLock {
            defer { saveProblem = nil }
            return saveProblem
        }
    }

    /// Returns once the last state handed over is on disk (or could not be saved).
    public func waitForSave() {
        saves.sync {}
    }
}

/// Every input file of a build, as a watched rebuild can update it from the paths a watcher
/// reports: sorted paths and their stats, the state they belong to, and when they were listed.
struct InputListing {
    /// The token of the state whose sources these are.
    var stateToken: String
    /// When the build that listed them started (ns since the epoch, like ``FileStat/now``).
    var listedAt: Int64
    /// Site-relative paths, sorted.
    var paths: [String]
    var stats: [String: FileStat]
    /// Whether a symbolic link was met: its target may change where no watcher looks.
    var hasLinks: Bool
}

/// Copies of a remembered state's two large tables (its page records and its source
/// records), made off a build's path, in the background, for the next build to change.
///
/// A build takes the remembered state's tables as its own and changes a few records of
/// each; while the memory still holds the state, the first change would copy the whole
/// table (19,500 page records, 13,400 source records, each key and record retained), in
/// the build a person waits for: the source table's copy was 3–12 ms of a watched rebuild.
struct SpareTables: Sendable {
    /// The token of the state they were copied from.
    let token: String
    let pages: RecordTable<BuildState.PageRecord>
    let sources: RecordTable<BuildState.SourceRecord>

    init(copying state: BuildState) {
        token = state.token
        // Reserving room forces a table of one's own: a shared one is copied first. (A table
        // made from the state's chunks holds only the records set since: nothing to copy.)
        var pages = state.pages
        pages.reserveCapacity(pages.count)
        var sources = state.sources
        sources.reserveCapacity(sources.count)
        (self.pages, self.sources) = (pages, sources)
    }
}
