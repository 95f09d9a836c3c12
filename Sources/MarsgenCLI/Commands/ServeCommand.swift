import ArgumentParser
import Diagnostics
import Foundation
import Server
import Site

/// `marsgen serve`: builds, watches and serves the site, with live updates in open pages.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build, watch and serve the site; open pages update live as you save.",
        discussion: """
            Serves the output folder on loopback (127.0.0.1) unless --host names another address. \
            Open pages follow every rebuild without a reload: new sections slide in, removed ones \
            fade out, changed ones are replaced in place. Build errors show in the page until \
            fixed. The live-update script is added to pages as they are served, never written \
            into the output folder.
            """
    )

    @OptionGroup var paths: SitePathOptions
    @OptionGroup var watching: WatchOptions

    @Option(name: .long, help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 8080

    @Flag(name: .long, help: "Open the site in the default browser.")
    var open = false

    @Flag(name: .long, help: "Serve the files as they are, without live updates.")
    var noLive = false

    @Flag(name: .shortAndLong, help: "Print nothing but the address, warnings and errors.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        let options = watching.buildOptions(paths)
        let site = LiveSite(options: options, source: paths.source, quiet: quiet, verbose: watching.verbose)
        let live = noLive ? nil : LiveUpdates()
        // A port in use is found before the first build, which may take seconds; the base
        // path the server needs comes from that build.
        do {
            try await SiteServer(configuration: .init(root: options.outputDirectory, host: host, port: port)).checkAddress()
        } catch let diagnostic as Diagnostic {
            Console.report(diagnostic)
            throw ExitCode.failure
        }
        let first = try site.buildFirst()
        let basePath = (try? first.get().basePath) ?? "/"
        let server = SiteServer(configuration: .init(root: options.outputDirectory, host: host, port: port, basePath: basePath, live: live,
                                                      mediaTypes: SiteBuilder.mediaTypes))
        let quiet = quiet
        site.onBuild = { result in
            // A new `base_url` path moves the site: the server follows before open pages hear of it.
            if case .success(let report) = result, server.moveSite(to: report.basePath), !quiet {
                Console.out("base_url's path is now \(report.basePath): serving the site there")
            }
            live?.publish(SiteUpdate(result))
        }
        try site.watchUntilStopped(mode: watching.mode)

        let shouldOpen = open
        let host = host
        do {
            try await server.run { port in
                let address = host.contains(":") ? "[\(host)]" : host
                let url = "http://\(address):\(port)\(basePath)"
                Console.out("Serving \(options.outputDirectory) at \(url)\(live == nil ? "" : " with live updates")")
                if shouldOpen { Self.openInBrowser(url) }
            }
        } catch let diagnostic as Diagnostic {
            site.stop()
            Console.report(diagnostic)
            throw ExitCode.failure
        }
    }

    private static func openInBrowser(_ url: String) {
        #if os(macOS)
        let opener = "/usr/bin/open"
        #else
        let opener = "/usr/bin/xdg-open"
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Console.error("note: cannot open a browser (\(opener)); open \(url) yourself")
        }
    }
}
