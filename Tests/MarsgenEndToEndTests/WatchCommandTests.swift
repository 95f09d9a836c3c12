import Foundation
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

        /// - Parameter combined: Standard output and error to one file, as `> log 2>&1` does.
        init(combined: Bool = false) throws {
            site = try SiteFixture.copyOfDemoSite()
            outURL = site.appendingPathComponent(".watch-out.log")
            errURL = site.appendingPathComponent(".watch-err.log")
            #expect(FileManager.default.createFile(atPath: outURL.path, contents: nil))
            #expect(FileManager.default.createFile(atPath: errURL.path, contents: nil))
            let binary: URL = try #require(SiteFixture.executable, "the marsgen executable was not built")
            process.executableURL = binary
            process.arguments = ["watch", "--source", site.path]
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = combined ? process.standardOutput : try FileHandle(forWritingTo: errURL)
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate() }
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
        let before = watch.page("index.html")
        try Data((good + "{{#unclosed}}\n").utf8).write(to: footer, options: .atomic)
        #expect(await watch.wait { watch.err.contains("build failed; the last good site stays in place") })
        #expect(watch.err.contains("templates/footer.mustache:"))
        #expect(watch.page("index.html") == before)

        try Data(good.utf8).write(to: footer, options: .atomic)
        #expect(await watch.wait { watch.out.contains("templates/footer.mustache changed → ") })
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
