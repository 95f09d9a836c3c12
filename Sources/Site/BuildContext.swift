import Content
import Diagnostics
import Feed
import GFM
import Images
import ListDiff
import Rendering
import SiteConfig

/// Everything a build knows, filled in step by step.
public struct BuildContext {
    /// What to build and where.
    public let options: BuildOptions
    /// The site configuration (after "Load configuration").
    public internal(set) var config: SiteConfiguration?
    /// Whether the last build showed drafts and this one does not, or the other way round:
    /// an incremental build all the same, but one with changes, even when no file changed.
    var draftsToggled = false
    /// The crew (after "Load crew").
    public internal(set) var crew = Crew(members: [])
    /// The loaded content (after "Check content").
    public internal(set) var library: ContentLibrary?
    /// The templates (after "Load templates").
    public internal(set) var templates: TemplateLibrary?
    /// Every page of the site (after "Plan pages"); only those whose inputs changed since the
    /// previous build are planned in full.
    public internal(set) var pages: [PagePlan] = []
    /// Warnings so far.
    public internal(set) var log = DiagnosticLog()
    /// What the build did.
    public internal(set) var report = BuildReport()

    /// This build's hold on the site (see `SiteLock`), released when the context goes, or
    /// once the state is saved when that happens after the build.
    var lock: SiteLock?
    /// The site folder is read-only (see `SiteLock.isReadOnly(siteRoot:)`): this build
    /// neither reads nor saves a state, and takes no lock.
    var keepsNoState = false
    /// The previous build's index, when it can be used for an incremental build.
    var previousIndex: BuildIndex?
    /// A full build that ignores the state (as `--clean` does), with the notice already given.
    var ignoresState = false
    /// Whether `.marsgen/` held a state of the output under the name older marsgens gave it,
    /// now removed: this build is a full one (see ``BuildState/removeOtherStates(siteRoot:keeping:)``).
    var hadOlderState = false
    /// A text restored from the previous build's state did not match its check (see
    /// ``StoredText``): the build stopped before writing, to start again as a full one.
    var readDamagedState = false
    /// The stat of every input file, taken by "Check for changes", so reading sources need
    /// not stat them again.
    var inputStats: [String: FileStat] = [:]
    /// The files "Check for changes" listed, by input folder, so reading sources need not
    /// walk the folders again.
    var inputListing: [String: [String]] = [:]
    /// Every input with its stat, as "Check for changes" found it, for a watched rebuild to
    /// update (see ``BuildMemory``).
    var listing: InputListing?
    /// How many inputs "Check for changes" listed.
    var listedInputCount = 0
    /// The input folders as this build listed them, for its index (see
    /// ``BuildIndex/folders``); nil when it did not list them itself, or met a link.
    var inputFolders: [InputFolder]?
    /// For an incremental build, the inputs that differ from the previous build's index (of
    /// those listed, or of those a watcher reported; see ``BuildMemory``), sorted. Every other
    /// input is as the previous build read it, and ``state`` starts with the previous build's
    /// records of the sources.
    var changedInputs: [String]?
    /// What "Check for changes" hands "Load build state" when inputs changed: the index, the
    /// inputs that differ from it (sorted), and whether a watcher's report named them.
    var stateToLoad: (index: BuildIndex, differing: [String], watched: Bool)?
    /// The previous build's state, when it can be used for an incremental build and some
    /// input changed. Its sources' records have moved to ``state`` (see
    /// ``previousRecord(of:)``): its `sources` is empty.
    var previous: BuildState?
    /// How many sources the previous build recorded.
    var previousSourceCount = 0
    /// The inputs the previous build recorded that are gone.
    var goneInputs: [String] = []
    /// No input changed since the previous build: the output is already right.
    var isUpToDate = false
    /// The previous index with refreshed stats, when an up-to-date build found files whose
    /// stat changed but whose bytes did not.
    var refreshedIndex: BuildIndex?
    /// The state this build will leave.
    var state: BuildState
    /// Whether the crew file changed since the previous build (every author may render differently).
    var crewChanged = true
    /// The templates being read and compiled on another core (see `startReadingTemplates`).
    var pendingTemplates: BackgroundWork<Result<SiteBuilder.ReadTemplates, Diagnostic>>?
    /// Whether a content file's bytes differ from the previous build's (one added, edited,
    /// removed, or now failing): with the crew file changed but no content file, every page
    /// that changed did so through the crew file, and `--explain` says so.
    var contentFileChanged = false
    /// Under watch, a copy of the previous build's page records that this build may change
    /// without copying them first (see ``SpareTables``).
    var sparePages: RecordTable<BuildState.PageRecord>?
    /// The hash of each template's source, by name.
    var templateHashes: [String: String] = [:]
    /// Whether this build's state differs from the previous one, so it must be saved.
    var stateChanged = false
    /// How the object list changed since the previous build.
    var objectChanges = ObjectChanges()
    /// How many objects at each end of the object list are the previous build's, unchanged:
    /// the save keeps their chunks without comparing them.
    var sharedObjects = SharedEnds.none

    /// Files to write: output-relative path → bytes.
    var writes: [String: [UInt8]] = [:]
    /// Pages a build has already written into its staging directory, as it rendered them
    /// (holding every page's bytes until the end would need the whole site in memory).
    var staged: [String] = []
    /// Of `staged`, `writes` and `copies`, the paths whose file in the output a full build
    /// kept, having the same bytes (see ``OutputWriter/keepsIdenticalFiles``): not written.
    var kept: Set<String> = []
    /// The output's writer as "Check paths" made it: what the output is (a link, a mount
    /// point) is looked at once a build.
    var outputWriter: OutputWriter?
    /// The staging directory's writer, once a build has started writing.
    var staging: OutputWriter?
    /// For a full build, the files of the old output (see ``SiteBuilder/oldOutputFiles(in:)``),
    /// listed beside the rendering: what this build does not make is reported deleted.
    var oldOutputFiles: BackgroundWork<[String]>?
    /// Files to copy: output-relative path → absolute source path.
    var copies: [String: String] = [:]
    /// Output-relative paths to delete.
    var deletes: [String] = []
    /// Every output-relative path this build writes, stages or copies (kept files included).
    var madePaths: [String] { Array(writes.keys) + Array(copies.keys) + staged }

    /// The previous build's pages that this one does not produce, once rendering knows.
    var pagesGone: [String]?
    /// The pages this build produces that the previous one did not (incremental builds).
    var pagesAdded: [String] = []
    /// The pages and sources this build may have added to the previous build's state, for
    /// its save (see ``BuildState/sorted(_:known:added:)``).
    var addedKeys: BuildState.AddedKeys {
        BuildState.AddedKeys(pages: pagesAdded, sources: changedInputs ?? [])
    }
    /// How many diagnostics the log held when the site's files began to be read: the
    /// warnings after it are the site's (see ``BuildIndex/warnings``).
    var contentLogStart = 0
    /// Rendered rows of long lists, read from and saved to `.marsgen/` (`marsgen build`;
    /// `watch` and `serve` keep theirs in ``BuildMemory``).
    var renderedRows: RowCache?
    /// The sections this build rendered or took from `.marsgen/`, under their cache key, to
    /// save there when any was rendered anew (`marsgen build`; see ``RenderedSections``).
    var renderedSections: (key: String, sections: [UInt64: String])?

    /// The navigation's links of the site's own as the pages were planned with them: those to
    /// content files written as their pages' URLs (see `SiteBuilder.navigationLinks(_:)`).
    var navigationLinks: [SiteConfiguration.NavigationLink]?
    /// Where links between content files lead, once "Resolve links" has worked it out for
    /// files it reads again; nil before (see ``ContentLinks``).
    var contentLinks: ContentLinks?
    /// The files "Resolve links" parsed again because one of their links now leads elsewhere,
    /// and those read again because one of their images changed size, with which and how,
    /// for `--explain`.
    var relinked: [String: String] = [:]
    /// The content files `--keep-going` left out for their errors: a link to one is a warning
    /// (it leads nowhere until they are fixed), not a second error that leaves out the file
    /// holding it too.
    var contentWithErrors: Set<String> = []
    /// The files of the pages of their own, each with where it is (after "Read pages").
    var pageFiles: [(file: SourceFile, head: StandalonePageLoader.Head)] = []
    /// The files of pages of their own whose bytes differ from the last build's, or that were
    /// added or removed since, each with how (`updated`, `added`, `removed`), for `--explain`
    /// (after "Read pages").
    var changedPageFiles: [String: String] = [:]
    /// The pages of their own this build shows (after "Load pages").
    var standalonePages: [StandalonePage] = []
    /// The content files with links or images to the site's pages and files, which "Check
    /// site links" looks at (found by "Resolve links").
    var siteLinking: [(path: String, record: BuildState.SourceRecord)] = []

    /// The size of each image of the site (see ``ImageSize``), by its path from the site's
    /// root (`img/crater.png`): the static files', and the theme's where no static file takes
    /// its place (after "Read static files").
    var imageSizes: [String: ImageSize] = [:]
    /// The paths (from the site's root) of the images whose size may differ from the previous
    /// build's: a static image added, changed or gone. A content file with an image of one is
    /// parsed again when the size it was written with is not the size now (see ``mayReuse(_:)``).
    var resizedImages: Set<String> = []
    /// The record of each static file, by its path in the site (`static/img/crater.png`), as
    /// "Read static files" found it, for "Collect static files" to copy what changed.
    var staticRecords: [(path: String, record: BuildState.SourceRecord)] = []

    var journalEntries: [JournalEntry] = []
    var messages: [Message] = []
    var weatherReports: [WeatherReport] = []

    /// What a step is done with but keeps, so that it goes with the build's ``Leftovers``
    /// (with the process, or on watch's background queue) rather than being freed before
    /// the build's line: the planner (the 10,000 journal plans it kept for a next planner)
    /// and the index just saved (13,400 paths and hashes), about 0.7 ms of releases.
    var heldUntilEnd: [Any] = []

    var isIncremental: Bool { previous != nil }

    /// The previous build's record of the source at `path`, while this build has not replaced
    /// it: an incremental build's state starts with those records, moved there rather than
    /// copied (tens of thousands of them; an edit replaces one).
    func previousRecord(of path: String) -> BuildState.SourceRecord? {
        previous == nil ? nil : state.sources[path]
    }

    /// Whether what was parsed from a file holds for this build's crew and images: each of
    /// its images of the site was written with the size its file now gives (see
    /// ``resizedImages``), and the crew did not change, or every author `record` names is
    /// still the member it was (same name and role). A file by a renamed member is parsed
    /// again; those by the others are not, as adding a member changes none of them. Nothing
    /// else a loader reads depends on the crew or the static files.
    func mayReuse(_ record: BuildState.SourceRecord) -> Bool {
        if resizedImage(in: record) != nil { return false }
        guard crewChanged else { return true }
        let isCurrent = { (author: CrewMember) in crew.member(id: author.id) == author }
        return record.journalEntries.allSatisfy { isCurrent($0.author) } && record.messages.allSatisfy { isCurrent($0.author) }
    }

    /// The first image of the site in `record` that was written with another size than its
    /// file now gives it (see ``resizedImages``).
    func resizedImage(in record: BuildState.SourceRecord) -> MarkdownSiteLink? {
        guard !resizedImages.isEmpty, record.holdsLinks else { return nil }
        return record.siteLinks.first { link in
            link.isImage && link.origin != .outsideBasePath && resizedImages.contains(link.path) && link.imageSize != imageSizes[link.path]
        }
    }

    init(options: BuildOptions) {
        self.options = options
        self.state = BuildState(formatVersion: BuildState.formatVersion, marsgenVersion: BuildState.marsgenVersion,
                                outputDirectory: options.recordedOutput, configurationHash: "", scanStartedAt: FileStat.now,
                                sources: [:], templates: [:], objects: [], pages: [:], files: [:])
    }

    func requireConfig() throws(Diagnostic) -> SiteConfiguration {
        guard let config else { throw Diagnostic.error("internal: configuration not loaded") }
        return config
    }
}

/// The object-list diff, as sets of identifiers, for explaining why pages changed.
struct ObjectChanges {
    var inserted: Set<String> = []
    var deleted: Set<String> = []
    var updated: Set<String> = []
    var moved: Set<String> = []

    var summary: String {
        "\(updated.count) updated, \(inserted.count) inserted, \(deleted.count) deleted, \(moved.count) moved"
    }
}

/// One named step of a build; the runner times it and tags its errors with its name.
public struct BuildStep {
    /// The step's name, as printed (`Load journal entries`).
    public let name: String
    let body: (inout BuildContext) throws(Diagnostic) -> Void

    /// Creates a step.
    public init(named name: String, body: @escaping (inout BuildContext) throws(Diagnostic) -> Void) {
        self.name = name
        self.body = body
    }
}

/// marsgen's version: what `marsgen --version` prints, and what every build records in its
/// state and index. A build that finds another version recorded does a full build, since
/// another version may write other pages from the same input.
public enum MarsgenVersion {
    /// The version string.
    public static let current = "0.23.0"
}

extension BuildState {
    /// The version of marsgen that writes this state (see ``MarsgenVersion``).
    static let marsgenVersion = MarsgenVersion.current
}
