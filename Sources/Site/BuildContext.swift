import Content
import Diagnostics
import Feed
import Rendering
import SiteConfig

/// Everything a build knows, filled in step by step.
public struct BuildContext {
    /// What to build and where.
    public let options: BuildOptions
    /// The site configuration (after "Load configuration").
    public internal(set) var config: SiteConfiguration?
    /// The crew (after "Load crew").
    public internal(set) var crew = Crew(members: [])
    /// The loaded content (after "Check content").
    public internal(set) var library: ContentLibrary?
    /// The templates (after "Load templates").
    public internal(set) var templates: TemplateLibrary?
    /// The pages to write (after "Plan pages").
    public internal(set) var pages: [Page] = []
    /// The rendered output, by output-relative path (after "Render pages").
    public internal(set) var rendered: [String: [UInt8]] = [:]
    /// Files copied as they are: output-relative path → absolute source path.
    public internal(set) var copies: [String: String] = [:]
    /// Theme assets, by output-relative path, unless `static/` replaces them.
    public internal(set) var themeAssets: [String: [UInt8]] = [:]
    /// Warnings so far.
    public internal(set) var log = DiagnosticLog()
    /// What the build did.
    public internal(set) var report = BuildReport()

    var journalEntries: [JournalEntry] = []
    var messages: [Message] = []
    var weatherReports: [WeatherReport] = []

    init(options: BuildOptions) {
        self.options = options
    }

    func requireConfig() throws(Diagnostic) -> SiteConfiguration {
        guard let config else { throw Diagnostic.error("internal: configuration not loaded") }
        return config
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
