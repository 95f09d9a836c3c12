import Foundation
import Glibc
import Site
import Testing

/// `marsgen watch` as a user runs it: one line per rebuild, failures that keep the last
/// good site, recovery on the next good save, and a clean exit on Ctrl-C.
@Suite("marsgen watch")
struct WatchCommandTests {
    final class Watching {
        let site: URL
        let process = Process()
        let outURL: URL
        let errURL: URL

        /// - Parameters:
        ///   - combined: Standard output and error to one file, as `> log 2>&1` does.
        ///   - asNobody: Run as the user `nobody` (the test runs as root), with `output` as
        ///     the output folder: the site is then one it may read but not write.
        init(combined: Bool = false, asNobody output: URL? = nil, arguments extra: [String] = []) throws {
            site = try SiteFixture.copyOfDemoSite()
            outURL = site.appendingPathComponent(".watch-out.log")
            errURL = site.appendingPathComponent(".watch-err.log")
            #expect(FileManager.default.createFile(atPath: outURL.path, contents: nil))
            #expect(FileManager.default.createFile(atPath: errURL.path, contents: nil))
            let binary: URL = try #require(SiteFixture.executable, "the marsgen executable was not built")
            process.executableURL = binary
            process.arguments = ["watch", "--source", site.path] + extra
            if let output {
                // Readable by all, writable by its owner (root) only.
                try SiteFixture.shell("chmod -R a+rX,go-w '\(site.path)'")
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = SiteFixture.asNobody + [binary.path, "watch", "--source", site.path, "--output", output.path]
            }
            process.currentDirectoryURL = site
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = combined ? process.standardOutput : try FileHandle(forWritingTo: errURL)
            try process.run()
        }

        deinit {
            // Waited for: a watch still saving its index would make the site's folder again.
            if process.isRunning { process.terminate(); process.waitUntilExit() }
            try? FileManager.default.removeItem(at: site)
        }

        var out: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
        var err: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

        func page(_ relative: String) -> String {
            (try? String(contentsOf: site.appendingPathComponent("public/" + relative), encoding: .utf8)) ?? ""
        }

        func wait(upTo seconds: Double = 20, until condition: () -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition()
        }
    }

    @Test("a site folder it may not write (mounted read-only) is built in full once, then rebuilt from a state kept in memory",
          .enabled(if: getuid() == 0, "needs root, to run marsgen as another user"))
    func readOnlySite() async throws {
        // The output in a folder open to all; the site readable by all, writable by root only.
        let shared = try SiteFixture.temporaryDirectory("read-only-watch")
        defer { try? FileManager.default.removeItem(at: shared) }
        let webRoot = shared.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: webRoot, withIntermediateDirectories: false)
        try SiteFixture.shell("chmod 777 '\(shared.path)' '\(webRoot.path)'")
        try SiteFixture.openParents(of: shared)
        let watch = try Watching(asNobody: webRoot)
        #expect(await watch.wait { watch.out.contains("Watching content/") }, "\(watch.out)\(watch.err)")
        #expect(watch.out.contains("note: the site folder is read-only, so the build state is kept in memory only: full build"))
        // Each save after the first build is an incremental one, as with a state on disk.
        try Data("\nOne more line.\n".utf8).append(to: watch.site.appendingPathComponent("content/journal/sol-07-bags.md"))
        #expect(await watch.wait { watch.out.contains("content/journal/sol-07-bags.md changed → ") })
        try Data("\n## Sol 14 21:30 vega\nRead-only, rebuilt.\n".utf8).append(to: watch.site.appendingPathComponent("content/messages/habitat.md"))
        #expect(await watch.wait { watch.out.contains("content/messages/habitat.md changed → ") })
        try FileManager.default.removeItem(at: watch.site.appendingPathComponent("content/journal/sol-05-chess.md"))
        #expect(await watch.wait { watch.out.contains("content/journal/sol-05-chess.md changed → ") })
        let rebuilds = watch.out.split(separator: "\n").filter { $0.contains(" changed → ") }
        #expect(rebuilds.count == 3 && rebuilds.allSatisfy { $0.range(of: #"→ [1-9]\d? pages written, [01] deleted in"#, options: .regularExpression) != nil },
                "\(rebuilds)")
        watch.process.interrupt()
        watch.process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: watch.site.appendingPathComponent(".marsgen").path))
        // What a clean build of the site as it is now makes.
        let clean = try SiteFixture.temporaryDirectory("read-only-clean")
        defer { try? FileManager.default.removeItem(at: clean) }
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: watch.site.path, outputDirectory: clean.path, isClean: true)).build()
        #expect(try SiteFixture.snapshot(webRoot) == SiteFixture.snapshot(clean))
    }

    @Test("in a log of both outputs, a rebuild's warnings come after its line, not before it")
    func warningsAfterTheirLine() async throws {
        let watch = try Watching(combined: true)
        #expect(await watch.wait { watch.out.contains("Watching content/") })
        try Data("---\ntitle: Empty\nauthor: vega\nsol: 9\n---\n".utf8)
            .write(to: watch.site.appendingPathComponent("content/journal/sol-09-empty.md"))
        let warning = "content/journal/sol-09-empty.md:6:1: warning: this entry has no text after its front matter"
        #expect(await watch.wait { watch.out.contains(warning) })
        let lines = watch.out.split(separator: "\n").map(String.init)
        let line = try #require(lines.firstIndex { $0.contains("content/journal/sol-09-empty.md changed → ") }, "\(lines)")
        #expect(lines.firstIndex(of: warning) == line + 1, "\(lines)")
        watch.process.interrupt()
        watch.process.waitUntilExit()
    }

    @Test("serve on a port in use says so at once, before building anything")
    func servePortInUse() throws {
        // A port held by a listening socket of this process.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let result = try SiteFixture.run(["serve", "--source", site.path, "--port", String(port)])
        #expect(result.status == 1)
        #expect(result.err.contains("error: port \(port) is already in use (127.0.0.1:\(port))"), "\(result.err)")
        #expect(!result.out.contains("Built"), "\(result.out)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path))
    }

    @Test("--poll-interval alone watches by polling, at that interval; a save is seen")
    func pollIntervalAlone() async throws {
        let watch = try Watching(arguments: ["--poll-interval", "250"])
        #expect(await watch.wait { watch.out.contains("Watching content/") }, "\(watch.out)\(watch.err)")
        #expect(watch.out.contains("Watching content/, templates/, static/ and marsgen.yml (polling every 250 ms)"), "\(watch.out)")
        try Data("\n## Sol 14 21:30 vega\nPolled.\n".utf8).append(to: watch.site.appendingPathComponent("content/messages/habitat.md"))
        #expect(await watch.wait { watch.out.contains("content/messages/habitat.md changed → ") }, "\(watch.out)\(watch.err)")
        watch.process.interrupt()
        watch.process.waitUntilExit()
    }

    @Test("saves rebuild with one line each; a broken template keeps the last good site until fixed; Ctrl-C exits 0 and leaves the folders recorded")
    func watchSession() async throws {
        let watch = try Watching()
        #expect(await watch.wait { watch.out.contains("Watching content/, templates/, static/ and marsgen.yml (inotify)") })
        #expect(watch.out.contains("(full build)"))

        try Data("\n## Sol 14 21:30 vega\nWatched and rebuilt.\n".utf8).append(to: watch.site.appendingPathComponent("content/messages/habitat.md"))
        #expect(await watch.wait { watch.out.contains("content/messages/habitat.md changed → ") })
        #expect(watch.out.range(of: #"content/messages/habitat\.md changed → \d+ pages written, 0 deleted in \d+ ms"#,
                                options: .regularExpression) != nil)
        #expect(watch.page("index.html").contains("Watched and rebuilt."))

        let footer = watch.site.appendingPathComponent("templates/footer.mustache")
        let good = try String(contentsOf: footer, encoding: .utf8)
        // An entry with a misspelt key: a warning, on every build until it is fixed.
        let misspelt = watch.site.appendingPathComponent("content/journal/sol-14-misspelt.md")
        try Data("---\ntitel: Watched\nauthor: vega\nsol: 14\ntime: \"22:00\"\n---\nText.\n".utf8).write(to: misspelt, options: .atomic)
        #expect(await watch.wait { watch.out.contains("content/journal/sol-14-misspelt.md changed → ") })
        let before = watch.page("index.html")
        try Data((good + "{{#unclosed}}\n").utf8).write(to: footer, options: .atomic)
        #expect(await watch.wait { watch.err.contains("build failed; the last good site stays in place") })
        // The failed build's warnings, found before its error, are printed with it.
        let failure = try #require(watch.err.components(separatedBy: "build failed; the last good site stays in place").last)
        #expect(failure.contains("content/journal/sol-14-misspelt.md:2:1: warning: unknown key 'titel'"), "\(failure)")
        #expect(failure.contains("templates/footer.mustache:"))
        #expect(watch.page("index.html") == before)

        try Data(good.utf8).write(to: footer, options: .atomic)
        #expect(await watch.wait { watch.out.contains("templates/footer.mustache changed → ") })
        try FileManager.default.removeItem(at: misspelt)
        #expect(await watch.wait { watch.out.components(separatedBy: "content/journal/sol-14-misspelt.md changed → ").count == 3 })
        #expect(watch.process.isRunning)
        // One more save, rebuilt from the watcher's report alone (the failed build made the
        // one after it list every input).
        try Data("\n## Sol 14 21:40 vega\nOnce more.\n".utf8).append(to: watch.site.appendingPathComponent("content/messages/habitat.md"))
        #expect(await watch.wait { watch.out.components(separatedBy: "content/messages/habitat.md changed → ").count == 3 })

        kill(watch.process.processIdentifier, SIGINT)
        watch.process.waitUntilExit()
        #expect(watch.process.terminationReason == .exit)
        #expect(watch.process.terminationStatus == 0)

        // Rebuilds under the watcher list no folder; on its way out, watch records them in
        // the index, so that the next `marsgen build` need not read every folder again.
        let state = watch.site.appendingPathComponent(".marsgen")
        let indexes = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasSuffix(".index") }
        let index = try String(contentsOf: state.appendingPathComponent(try #require(indexes.first)), encoding: .utf8)
        #expect(indexes.count == 1)
        #expect(index.contains("\nfolder ") && index.contains(" content/journal\n") && index.contains(" content/messages\n"))
        // That index is the site as it is: nothing to do, and an entry added after is built.
        let unchanged = try SiteFixture.run(["build", "--source", watch.site.path])
        #expect(unchanged.status == 0 && unchanged.out.contains("→ 0 pages written, 0 deleted"), "\(unchanged.out)\(unchanged.err)")
        try SiteFixture.write("---\ntitle: After the watch\nauthor: vega\nsol: 15\ntime: \"09:00\"\n---\nLater.\n",
                              to: "content/journal/after-the-watch.md", in: watch.site)
        let added = try SiteFixture.run(["build", "--source", watch.site.path])
        #expect(added.status == 0 && watch.page("journal/after-the-watch/index.html").contains("Later."), "\(added.out)\(added.err)")
    }
}

private extension Data {
    func append(to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
