import Content
import Diagnostics
import Feed
import Foundation
import Rendering
import SiteConfig

/// Builds a site: a fixed list of named, timed steps from `marsgen.yml` to `public/`.
///
///     let report = try SiteBuilder(options: BuildOptions(sourceDirectory: ".")).build()
///     print(report.summary)
public struct SiteBuilder {
    /// What to build and where.
    public let options: BuildOptions

    /// Creates a builder.
    public init(options: BuildOptions) {
        self.options = options
    }

    /// The default pipeline, in order.
    public var steps: [BuildStep] {
        [
            BuildStep(named: "Check paths", body: checkPaths),
            BuildStep(named: "Load configuration", body: loadConfiguration),
            BuildStep(named: "Load crew", body: loadCrew),
            BuildStep(named: "Load journal entries", body: loadJournal),
            BuildStep(named: "Load message logs", body: loadMessages),
            BuildStep(named: "Load weather reports", body: loadWeather),
            BuildStep(named: "Check content", body: checkContent),
            BuildStep(named: "Load templates", body: loadTemplates),
            BuildStep(named: "Plan pages", body: planPages),
            BuildStep(named: "Render pages", body: renderPages),
            BuildStep(named: "Collect static files", body: collectStatic),
            BuildStep(named: "Write output", body: writeOutput),
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
        for step in steps {
            let stepStart = clock.now
            do {
                try step.body(&context)
            } catch {
                var tagged = error
                if tagged.step == nil { tagged.step = step.name }
                throw tagged
            }
            context.report.steps.append((step.name, clock.now - stepStart))
        }
        context.report.duration = clock.now - start
        context.report.warnings = context.log.entries
        return context.report
    }

    var reader: SiteReader { SiteReader(root: options.sourceDirectory) }

    // MARK: - Steps

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
        for protected in ["content", "templates", "static"] where SitePaths.isWithin(output, SitePaths.join(source, protected)) {
            throw Diagnostic.error("the output directory is inside \(protected)/", at: SourceLocation(path: output),
                                   hint: "the build replaces its output folder; choose one outside \(protected)/, such as public/")
        }
        try OutputWriter(output: output).validate()
    }

    func loadConfiguration(_ context: inout BuildContext) throws(Diagnostic) {
        guard reader.exists(SiteConfiguration.fileName) else {
            throw Diagnostic.error("no \(SiteConfiguration.fileName) in \(options.sourceDirectory)",
                                   hint: "run 'marsgen init DIR' to start a site, or pass --source with the site's folder")
        }
        let file = try reader.sourceFile(SiteConfiguration.fileName)
        context.config = try SiteConfiguration.parse(file.text, path: file.path, log: &context.log)
    }

    func loadCrew(_ context: inout BuildContext) throws(Diagnostic) {
        guard reader.exists(CrewLoader.path) else {
            context.log.warn("no crew file; every author will be unknown", at: SourceLocation(path: CrewLoader.path),
                             hint: "add content/crew.yml with one entry per crew member")
            return
        }
        context.crew = try CrewLoader.load(try reader.sourceFile(CrewLoader.path), log: &context.log)
    }

    func contentContext(_ context: BuildContext) throws(Diagnostic) -> ContentContext {
        ContentContext(config: try context.requireConfig(), crew: context.crew)
    }

    func loadJournal(_ context: inout BuildContext) throws(Diagnostic) {
        let content = try contentContext(context)
        for path in reader.files(under: "content/journal", suffix: ".md") {
            let entry = try JournalLoader.load(try reader.sourceFile(path), context: content, log: &context.log)
            if !entry.isDraft || options.includesDrafts { context.journalEntries.append(entry) }
        }
    }

    func loadMessages(_ context: inout BuildContext) throws(Diagnostic) {
        let content = try contentContext(context)
        for path in reader.files(under: "content/messages", suffix: ".md") {
            context.messages += try MessageLogLoader.load(try reader.sourceFile(path), context: content, log: &context.log)
        }
    }

    func loadWeather(_ context: inout BuildContext) throws(Diagnostic) {
        let content = try contentContext(context)
        for path in reader.files(under: "content/weather", suffix: ".md") {
            context.weatherReports.append(try WeatherLoader.load(try reader.sourceFile(path), context: content, log: &context.log))
        }
    }

    func checkContent(_ context: inout BuildContext) throws(Diagnostic) {
        context.library = try ContentLibrary(crew: context.crew, journalEntries: context.journalEntries,
                                             messages: context.messages, weatherReports: context.weatherReports)
        context.report.journalEntries = context.journalEntries.count
        context.report.messages = context.messages.count
        context.report.weatherReports = context.weatherReports.count
    }

    func loadTemplates(_ context: inout BuildContext) throws(Diagnostic) {
        context.templates = try TemplateLibrary(overrides: try reader.templateOverrides())
    }

    func planPages(_ context: inout BuildContext) throws(Diagnostic) {
        guard let library = context.library else { return }
        context.pages = PagePlanner(library: library, config: try context.requireConfig()).pages()
    }

    func renderPages(_ context: inout BuildContext) throws(Diagnostic) {
        guard let library = context.library, let templates = context.templates else { return }
        let adapter = FeedAdapter.standard(context: FeedContext(links: SiteLinks(config: try context.requireConfig())))
        var sections: [FeedSection] = []
        for object in library.allObjects { sections.append(try adapter.section(for: object)) }
        var renderer = PageRenderer(templates: templates, sections: sections)
        for page in context.pages {
            guard context.rendered[page.outputPath] == nil else {
                throw Diagnostic.error("two pages would be written to \(page.outputPath)",
                                       hint: "give one of the entries a different 'slug:'")
            }
            context.rendered[page.outputPath] = try renderer.render(page)
        }
        context.report.pagesWritten = context.pages.count
    }

    func collectStatic(_ context: inout BuildContext) throws(Diagnostic) {
        for path in reader.files(under: "static") {
            let relative = String(path.dropFirst("static/".count))
            guard context.rendered[relative] == nil else {
                throw Diagnostic.error("static file would overwrite the generated page \(relative)", at: SourceLocation(path: path),
                                       hint: "rename or move the file in static/")
            }
            context.copies[relative] = SitePaths.join(options.sourceDirectory, path)
        }
        for (path, bytes) in DefaultTheme.assets where context.copies[path] == nil {
            context.rendered[path] = bytes
        }
        context.report.filesCopied = context.copies.count + DefaultTheme.assets.keys.filter { context.copies[$0] == nil }.count
    }

    func writeOutput(_ context: inout BuildContext) throws(Diagnostic) {
        try OutputWriter(output: options.outputDirectory).write(pages: context.rendered, copies: context.copies)
    }
}
