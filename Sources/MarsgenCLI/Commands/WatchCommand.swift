import ArgumentParser
import Diagnostics
import Foundation
import Site
import Watch

/// `marsgen watch`: builds, then rebuilds on every save.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Build the site, then rebuild it incrementally on every save.",
        discussion: """
            Watches content/, templates/, static/ and marsgen.yml. A burst of changes (an editor's \
            save, a git checkout) becomes one rebuild once nothing has changed for 50 ms. A failed \
            rebuild prints the error and leaves the last good site in place; the next good save \
            recovers by itself.
            """
    )

    @OptionGroup var paths: SitePathOptions
    @OptionGroup var watching: WatchOptions

    @Flag(name: .shortAndLong, help: "Print nothing but warnings and errors.")
    var quiet = false

    func run() async throws {
        let site = LiveSite(options: watching.buildOptions(paths), source: paths.source, quiet: quiet, verbose: watching.verbose)
        _ = try site.buildFirst()
        try site.watchUntilStopped(mode: watching.mode)
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// Options shared by `watch` and `serve`.
struct WatchOptions: ParsableArguments {
    @Flag(name: .long, help: "Include entries marked 'draft: true'.")
    var drafts = false

    @Flag(name: .long, help: "Scan for changes instead of using the kernel's notifications (network shares, containers).")
    var poll = false

    @Option(name: .long, help: ArgumentHelp("How often --poll scans, in milliseconds (default: 300; at least 10); implies --poll.",
                                            valueName: "ms"))
    var pollInterval: Int?

    @Flag(name: .long, help: "Print each build step with its duration, after every build.")
    var verbose = false

    var mode: WatchMode {
        // An interval given alone asks for polling too: it has no other meaning.
        poll || pollInterval != nil ? .polling(interval: .milliseconds(max(10, pollInterval ?? 300))) : .automatic
    }

    func buildOptions(_ paths: SitePathOptions) -> BuildOptions {
        paths.buildOptions(includesDrafts: drafts)
    }
}
