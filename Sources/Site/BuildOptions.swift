/// What to build and where.
public struct BuildOptions: Sendable {
    /// The site's root directory (holding `marsgen.yml`).
    public var sourceDirectory: String
    /// Where the site is written; `public/` under the source by default.
    public var outputDirectory: String
    /// Whether entries with `draft: true` are built.
    public var includesDrafts: Bool
    /// Whether to ignore the build state and build everything (`--clean`).
    public var isClean: Bool

    /// Creates options.
    public init(sourceDirectory: String, outputDirectory: String? = nil, includesDrafts: Bool = false, isClean: Bool = false) {
        let source = SitePaths.absolute(sourceDirectory)
        self.sourceDirectory = source
        self.outputDirectory = outputDirectory.map(SitePaths.absolute) ?? SitePaths.join(source, "public")
        self.includesDrafts = includesDrafts
        self.isClean = isClean
    }
}
