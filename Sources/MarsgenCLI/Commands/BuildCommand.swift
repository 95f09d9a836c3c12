import ArgumentParser
import Diagnostics
import Site
import SiteConfig

/// `marsgen build`: builds the site into the output directory.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site into public/.",
        discussion: """
            Builds incrementally when the last build left its state in .marsgen/: only pages whose \
            bytes change are written. On any error the output directory is left exactly as it was.
            """
    )

    @OptionGroup var paths: SitePathOptions

    @Flag(name: .long, help: "Include entries marked 'draft: true'.")
    var drafts = false

    @Flag(name: .long, help: "Ignore the last build's state and write every file anew.")
    var clean = false

    @Flag(name: .long, help: "Leave out content files with errors, build the rest, and list every error at the end.")
    var keepGoing = false

    @Flag(name: .long, help: "Print every page written or deleted, with the reason.")
    var explain = false

    @Flag(name: .shortAndLong, help: "Print nothing but warnings and errors.")
    var quiet = false

    @Flag(name: .long, help: "Print each build step with its duration.")
    var verbose = false

    func run() throws {
        var options = paths.buildOptions(includesDrafts: drafts, isClean: clean, keepsGoing: keepGoing)
        let shown = Console.shownFolder(paths.source)
        options.endsProcess = true
        options.waitingForLock = { holder in
            Console.error("note: waiting for another marsgen\(holder.map { " (pid \($0))" } ?? "") building this site to finish")
        }
        let report: BuildReport
        var warnings: [Diagnostic] = []
        do {
            report = try SiteBuilder(options: options).build(warningsBeforeFailure: &warnings)
        } catch {
            // The warnings found before it, then the error, last, where the terminal shows it.
            for warning in warnings { Console.report(warning, shownAfter: shown) }
            Console.report(error, shownAfter: shown)
            throw ExitCode.failure
        }
        for warning in report.warnings { Console.report(warning, shownAfter: shown) }
        if let notice = report.notice, !quiet, !clean { Console.out("note: \(notice)") }
        if explain {
            for line in report.explanations { Console.out(line) }
        }
        if verbose { Console.printSteps(of: report) }
        if !quiet { Console.out(report.summary) }
        guard report.errors.isEmpty else {
            // Listed last, together, so they are what the terminal shows.
            for error in report.errors { Console.report(error, shownAfter: shown) }
            let count = report.errors.count == 1 ? "1 error" : "\(report.errors.count) errors"
            Console.report(Diagnostic.error("\(count); the site was built without the files that have them",
                                            hint: "fix them and build again"))
            throw ExitCode.failure
        }
    }
}

/// `--source`, `--output`, `--force` and `--base-url`, shared by commands that build a site.
struct SitePathOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The site's folder, holding marsgen.yml.", valueName: "dir"))
    var source = "."

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: <source>/public).", valueName: "dir"))
    var output: String?

    @Flag(name: .long, help: "Build into an output folder that holds files this site does not make (they are deleted).")
    var force = false

    @Option(name: .long, help: ArgumentHelp("Build the site for this address instead of marsgen.yml's base_url (a preview of it elsewhere).",
                                            valueName: "url"))
    var baseURL: String?

    func validate() throws {
        if let baseURL, let (problem, hint) = SiteConfiguration.problem(withBaseURL: baseURL) {
            throw ValidationError("--base-url \(problem): \(hint)")
        }
    }

    /// Build options for these paths.
    func buildOptions(includesDrafts: Bool, isClean: Bool = false, keepsGoing: Bool = false) -> BuildOptions {
        var options = BuildOptions(sourceDirectory: source, outputDirectory: output, includesDrafts: includesDrafts,
                                   isClean: isClean, keepsGoing: keepsGoing)
        options.replacesOtherFiles = force
        options.baseURL = baseURL
        return options
    }
}

func formatMilliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = (seconds * 10_000 + attoseconds / 100_000_000_000_000)
    return "\(tenths / 10).\(tenths % 10)"
}
