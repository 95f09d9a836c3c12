/// What to build and where.
public struct BuildOptions: Sendable {
    /// The site's root directory (holding `marsgen.yml`).
    public var sourceDirectory: String
    /// Where the site is written; `public/` under the source by default.
    public var outputDirectory: String
    /// Whether entries with `draft: true` are built.
    public var includesDrafts: Bool

    /// Creates options.
    public init(sourceDirectory: String, outputDirectory: String? = nil, includesDrafts: Bool = false) {
        let source = SitePaths.absolute(sourceDirectory)
        self.sourceDirectory = source
        self.outputDirectory = outputDirectory.map(SitePaths.absolute) ?? SitePaths.join(source, "public")
        self.includesDrafts = includesDrafts
    }
}
