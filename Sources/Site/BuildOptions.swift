/// What to build and where.
public struct BuildOptions: Sendable {
    /// The site's root directory (holding `marsgen.yml`).
    public private(set) var sourceDirectory: String
    /// Where the site is written; `public/` under the source by default.
    public private(set) var outputDirectory: String
    /// The output folder as the build state records it: relative to the site folder when
    /// inside it (`public`), so the state follows the site when its folder moves. Found once
    /// (it may resolve links), with the two paths it is made from.
    let recordedOutput: String
    /// Whether entries with `draft: true` are built.
    public var includesDrafts: Bool
    /// The URL the site is built for instead of its `base_url` (`--base-url`: a preview of
    /// it at another address); one ``SiteConfiguration/problem(withBaseURL:)`` accepts.
    public var baseURL: String?
    /// Whether to ignore the build state and build everything (`--clean`).
    public var isClean: Bool
    /// Whether a content file with an error is left out, instead of stopping the build
    /// (`--keep-going`). Errors in the configuration, the crew file or templates still stop it.
    public var keepsGoing: Bool
    /// Whether a full build may replace an output folder holding files this site does not
    /// make (`--force`). Without it, such a build stops with an error before touching the
    /// folder, unless this site was built into it before: `--output ~/Documents` must not
    /// delete someone's documents.
    public var replacesOtherFiles = false
    /// Called when another build of the same site holds its lock, with that build's pid when
    /// known; this build then waits for it to finish.
    public var waitingForLock: (@Sendable (_ holder: Int32?) -> Void)?
    /// Where a process that rebuilds the site keeps the last build's state between builds;
    /// `nil` (a single build) reads it from disk.
    public var memory: BuildMemory?
    /// Whether the process exits as soon as this build returns (`marsgen build`). What the
    /// build held (tens of thousands of objects and records on a large site) is then left
    /// for the system to reclaim with the process, instead of being freed one object at a
    /// time on the way out: that took 40 ms of a 10,000-entry rebuild.
    public var endsProcess = false
    /// Whether a build that finds nothing changed still loads the state, the content and the
    /// templates and plans every page (writing none), so that ``memory`` holds all of it for
    /// the next build: the first build of `marsgen watch` and `marsgen serve`, whose next
    /// build is the one a person waits for after a save.
    public var preparesNextBuild = false

    /// Creates options.
    public init(sourceDirectory: String, outputDirectory: String? = nil, includesDrafts: Bool = false, isClean: Bool = false,
                keepsGoing: Bool = false) {
        let source = SitePaths.absolute(sourceDirectory)
        self.sourceDirectory = source
        self.outputDirectory = outputDirectory.map(SitePaths.absolute) ?? SitePaths.join(source, "public")
        recordedOutput = SitePaths.recorded(self.outputDirectory, siteRoot: source)
        self.includesDrafts = includesDrafts
        self.isClean = isClean
        self.keepsGoing = keepsGoing
    }
}
