import Foundation
@testable import MarsgenCLI
import Site
import Testing

@Suite(.serialized) struct BuildGuaranteeTests {
    @Test("two builds of the same input are byte-identical")
    func deterministic() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let first = site.appendingPathComponent("first"), second = site.appendingPathComponent("second")
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, outputDirectory: first.path)).build()
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, outputDirectory: second.path)).build()
        let a = try SiteFixture.snapshot(first), b = try SiteFixture.snapshot(second)
        #expect(a.count > 50)
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, bytes) in a { #expect(b[path] == bytes, "\(path) differs between builds") }
    }

    /// Each broken input fails with `path:line:column: error:` and leaves the output as it was.
    @Test("a failed build leaves public/ exactly as it was", arguments: [
        ("content/journal/sol-03-power.md", "---\ntitle: x\nauthor: [vega\n---\n", "content/journal/sol-03-power.md:3:"),
        ("content/journal/sol-03-power.md", "---\nauthor: vega\n---\nNo date.\n", "content/journal/sol-03-power.md:2:1: error: missing date"),
        ("content/journal/sol-03-power.md", "---\nauthor: nobody\nsol: 3\n---\n", "content/journal/sol-03-power.md:2:9: error: unknown crew id 'nobody'"),
        ("content/messages/habitat.md", "---\nsol: 3\n---\n## 10:00\nHi\n", "content/messages/habitat.md:4:1: error: message heading '10:00' names no author"),
        ("content/weather/sol-03.md", "---\nsol: 3\ntemperature: -4\nhigh: 0\nlow: -9\nsunrise: \"06:00\"\nsunset: \"18:00\"\ncondition: sunny\n---\n",
         "content/weather/sol-03.md:8:12: error: unknown weather condition 'sunny'"),
        ("templates/cell-message.mustache", "<p>{{#sender}}</p>\n", "templates/cell-message.mustache:"),
        ("marsgen.yml", "title: x\nbase_url: https://x.org/\n", "marsgen.yml:1:1: error: missing required key 'mission'"),
    ])
    func failureKeepsOutput(path: String, text: String, expected: String) throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let output = site.appendingPathComponent("public")
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        try Data("keep me".utf8).write(to: output.appendingPathComponent(".gitkeep"))
        let before = try SiteFixture.snapshot(output)

        try SiteFixture.write(text, to: path, in: site)
        let result = try SiteFixture.run(["build", "--source", site.path])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix(expected), "stderr was: \(result.err)")
        #expect(result.err.contains("  hint: ") || path.hasPrefix("templates/"))
        #expect(try SiteFixture.snapshot(output) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
    }

    @Test("invalid UTF-8 fails at the offending byte")
    func invalidUTF8() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let bytes = Array("---\nauthor: vega\nsol: 3\n---\nCaf".utf8) + [0xE9] + Array("\n".utf8)
        try Data(bytes).write(to: site.appendingPathComponent("content/journal/latin1.md"))
        let result = try SiteFixture.run(["build", "--source", site.path])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("content/journal/latin1.md:5:4: error: the file is not valid UTF-8"))
    }

    @Test("errors and warnings show the site's paths from where marsgen runs, so a terminal or an editor opens them")
    func pathsFromWhereMarsgenRuns() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try SiteFixture.write("---\nauthor: vega\nsol: 3\n---\nSee ![x](img/nowhere.png).\n", to: "content/journal/sol-03-note.md", in: site)
        let (parent, name) = (site.deletingLastPathComponent(), site.lastPathComponent)
        let warning = "content/journal/sol-03-note.md:5:5: warning: image 'img/nowhere.png' leads to no page or file of the site"
        let runs: [(arguments: [String], folder: URL, shown: String)] = [
            (["--source", name], parent, "\(name)/"),
            (["--source", "./\(name)/"], parent, "./\(name)/"),
            (["--source", site.path], parent, "\(site.path)/"),
            (["--source", site.path], site, ""),
            (["--source", "."], site, ""),
            (["--source", ".."], site.appendingPathComponent("content"), "../"),
        ]
        for run in runs {
            let result = try SiteFixture.run(["build"] + run.arguments, in: run.folder)
            #expect(result.status == 0, "\(run.arguments): \(result.err)")
            #expect(result.err.hasPrefix(run.shown + warning), "\(run.arguments) from \(run.folder.path): \(result.err)")
        }
        try SiteFixture.write("---\nauthor: sam\nsol: 3\n---\nHi.\n", to: "content/journal/sol-03-note.md", in: site)
        let failed = try SiteFixture.run(["build", "--source", name], in: parent)
        #expect(failed.status == 1)
        #expect(failed.err.hasPrefix("\(name)/content/journal/sol-03-note.md:2:9: error: unknown crew id 'sam'"), "\(failed.err)")
    }

    @Test("a rebuild replaces the output and keeps its top-level dot files")
    func rebuildKeepsDotFiles() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let output = site.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: output.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("ref".utf8).write(to: output.appendingPathComponent(".git/HEAD"))
        // A file an earlier build made that this one does not.
        try SiteFixture.write("stale", to: "static/stale.html", in: site)
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        try FileManager.default.removeItem(at: site.appendingPathComponent("static/stale.html"))
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: true)).build()
        let files = try SiteFixture.snapshot(output)
        #expect(files[".git/HEAD"] == Data("ref".utf8))
        #expect(files["stale.html"] == nil)
        #expect(files["index.html"] != nil)
    }

    @Test("--keep-going builds what it can, lists every error at the end and exits 1; the next build reads the files again")
    func keepGoing() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try SiteFixture.write("---\ntitle: x\nauthor: sam\nsol: 3\n---\nBody\n", to: "content/journal/a-bad.md", in: site)
        try SiteFixture.write("---\nchannel: x\nsol: 3\n---\n## 10:00\nHi\n", to: "content/messages/bad.md", in: site)
        let result = try SiteFixture.run(["build", "--source", site.path, "--keep-going"])
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.first == "content/journal/a-bad.md:3:9: error: unknown crew id 'sam'")
        #expect(lines.contains("content/messages/bad.md:5:1: error: message heading '10:00' names no author"))
        #expect(lines.contains("error: 2 errors; the site was built without the files that have them"))
        #expect(result.out.contains("Built 31 journal entries, 47 messages, 14 weather reports"))
        let output = site.appendingPathComponent("public")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("journal/sol-03-power/index.html").path))
        // Without --keep-going the same site stops at the first error and writes nothing new:
        // the logs' (they are read first).
        let strict = try SiteFixture.run(["build", "--source", site.path])
        #expect(strict.status == 1)
        #expect(strict.err.hasPrefix("content/messages/bad.md:5:1: error:"))
        // Fixed: the next build takes the files in.
        try SiteFixture.write("---\ntitle: x\nauthor: vega\nsol: 3\n---\nBody\n", to: "content/journal/a-bad.md", in: site)
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/messages/bad.md"))
        let fixed = try SiteFixture.run(["build", "--source", site.path])
        #expect(fixed.status == 0, "\(fixed.err)")
        #expect(fixed.out.contains("Built 32 journal entries"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("journal/a-bad/index.html").path))
    }

    @Test("a second build of the same site waits for the first, and says for whom")
    func oneBuildAtATime() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let stateDirectory = site.appendingPathComponent(".marsgen")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        // This test process plays the first build: it holds the lock, with its pid in the file.
        let descriptor = open(stateDirectory.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }

        let binary: URL = try #require(SiteFixture.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["build", "--source", site.path, "--quiet"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        usleep(1_500_000)
        #expect(process.isRunning, "the second build did not wait")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public").path))
        flock(descriptor, LOCK_UN)
        close(descriptor)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(message.contains("note: waiting for another marsgen (pid \(getpid())) building this site to finish"))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/index.html").path))
    }

    @Test("drafts are built only with --drafts")
    func drafts() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let result = try SiteFixture.run(["build", "--source", site.path, "--drafts", "--quiet"])
        #expect(result.status == 0)
        #expect(result.out.isEmpty)
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/journal/sol-08-draft-notes/index.html").path))
    }

    @Test("--base-url builds the site for another address (a preview): links, feed and sitemap, no robots.txt under a path; the same again writes nothing; without it, a full build for base_url; an address base_url would refuse is a usage error")
    func baseURLOverride() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        _ = try SiteFixture.run(["build", "--source", site.path, "--quiet"])
        let preview = try SiteFixture.run(["build", "--source", site.path, "--base-url", "https://preview.example.net/pr-7"])
        #expect(preview.status == 0, "\(preview.err)")
        #expect(preview.out.hasPrefix("note: the address the site is built for (--base-url) or the settings in marsgen.yml changed; doing a full build\n"),
                "\(preview.out)")
        var files = try SiteFixture.snapshot(site.appendingPathComponent("public"))
        let front = String(decoding: try #require(files["index.html"]), as: UTF8.self)
        #expect(front.contains("<link rel=\"stylesheet\" href=\"/pr-7/theme/marsgen.css"), "\(front)")
        #expect(front.contains("<link rel=\"canonical\" href=\"https://preview.example.net/pr-7/\">"))
        #expect(!front.contains("kasei-station.example.org"))
        #expect(String(decoding: try #require(files["feed.xml"]), as: UTF8.self).contains("<id>https://preview.example.net/pr-7/</id>"))
        #expect(String(decoding: try #require(files["sitemap.xml"]), as: UTF8.self).contains("<loc>https://preview.example.net/pr-7/sol/1/</loc>"))
        // Under a path, no robots.txt: crawlers read only the host's.
        #expect(files["robots.txt"] == nil)
        let again = try SiteFixture.run(["build", "--source", site.path, "--base-url", "https://preview.example.net/pr-7/"])
        #expect(again.out.contains("→ 0 pages written, 0 deleted, 85 unchanged"), "\(again.out)")
        let back = try SiteFixture.run(["build", "--source", site.path])
        #expect(back.out.contains("(--base-url)") && back.out.contains("(full build)"), "\(back.out)")
        files = try SiteFixture.snapshot(site.appendingPathComponent("public"))
        let fresh = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: fresh) }
        _ = try SiteFixture.run(["build", "--source", fresh.path, "--quiet"])
        #expect(files == (try SiteFixture.snapshot(fresh.appendingPathComponent("public"))))
        for (url, message) in [("ftp://example.org/", "--base-url must be an absolute http(s) URL, not 'ftp://example.org/'"),
                               ("https://example.org/?x=1", "--base-url cannot have a query or a fragment")] {
            let refused = try SiteFixture.run(["build", "--source", site.path, "--base-url", url])
            #expect(refused.status == 64 && refused.err.contains(message), "\(refused.err)")
        }
    }

    @Test("a static file replaces the theme's file of the same path")
    func staticOverride() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try SiteFixture.write("body{}", to: "static/theme/marsgen.css", in: site)
        try SiteFixture.write("hello", to: "static/robots.txt", in: site)
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        let files = try SiteFixture.snapshot(site.appendingPathComponent("public"))
        #expect(files["theme/marsgen.css"] == Data("body{}".utf8))
        #expect(files["robots.txt"] == Data("hello".utf8))
    }

    @Test("an output directory inside content/ or that is a file is refused")
    func badOutput() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let inside = try SiteFixture.run(["build", "--source", site.path, "--output", site.appendingPathComponent("content/out").path])
        #expect(inside.status == 1)
        #expect(inside.err.contains("error: the output directory is inside content/"))
        try Data().write(to: site.appendingPathComponent("afile"))
        let file = try SiteFixture.run(["build", "--source", site.path, "--output", site.appendingPathComponent("afile").path])
        #expect(file.status == 1)
        #expect(file.err.contains("error: the output path is a file"))
    }

    @Test("an output folder that is a symbolic link into the site's own folders, or to the site itself, is refused, --force or not; so is a site folder linked into the output")
    func outputLinkedIntoTheSite() throws {
        let files = FileManager.default
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? files.removeItem(at: site) }
        let public_ = site.appendingPathComponent("public")
        // The site's files but the build's own lock and state, which a refused build may take.
        func sources() throws -> [String: Data] { try SiteFixture.snapshot(site).filter { !$0.key.hasPrefix(".marsgen/") } }
        let before = try sources()
        let throughLink = " (its path leads there through a symbolic link)"
        for (destination, error) in [("static", "the output directory is inside static/"),
                                     ("content/out", "the output directory is inside content/"),
                                     (site.path, "the output directory would contain the site itself")] {
            try? files.removeItem(at: public_)
            try files.createSymbolicLink(atPath: public_.path, withDestinationPath: destination)
            // The site's own `public` link, as `marsgen build` and `watch` find it by default.
            for force in [false, true] {
                let result = try SiteFixture.run(["build", "--source", site.path] + (force ? ["--force"] : []))
                #expect(result.status == 1, "public -> \(destination)")
                #expect(result.err.contains("error: \(error)\(throughLink)"), "public -> \(destination): \(result.err)")
            }
            try files.removeItem(at: public_)
            #expect(try sources() == before, "public -> \(destination) changed the site")
        }
        // `templates` kept in the output folder, linked from the site: a full build replaces it.
        try files.createDirectory(at: public_, withIntermediateDirectories: true)
        try files.moveItem(at: site.appendingPathComponent("templates"), to: public_.appendingPathComponent("templates"))
        try files.createSymbolicLink(atPath: site.appendingPathComponent("templates").path, withDestinationPath: "public/templates")
        let linked = try SiteFixture.run(["build", "--source", site.path, "--force"])
        #expect(linked.status == 1)
        #expect(linked.err.contains("error: the output directory would contain templates/\(throughLink)"), "\(linked.err)")
        #expect(files.fileExists(atPath: public_.appendingPathComponent("templates/footer.mustache").path))
    }

    @Test("a folder holding files the site does not make is not replaced without --force; one as the site's last build left it is")
    func foreignFilesInOutput() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        // `--output ~/Documents` by mistake: a folder of someone's own files.
        let documents = site.appendingPathComponent("documents")
        try SiteFixture.write("precious", to: "documents/photos/cat.jpg", in: site)
        try SiteFixture.write("notes", to: "documents/notes.txt", in: site)
        try SiteFixture.write("a deploy's", to: "documents/.nojekyll", in: site)
        let before = try SiteFixture.snapshot(documents)
        for command in ["build", "watch", "serve"] {
            let refused = try SiteFixture.run([command, "--source", site.path, "--output", documents.path]
                                              + (command == "serve" ? ["--port", "0"] : []))
            #expect(refused.status == 1, "\(command)")
            #expect(refused.err.contains("error: the output folder holds 'notes.txt', 'photos', which this site does not make; "
                                         + "a full build would delete them"), "\(command): \(refused.err)")
            #expect(refused.err.contains("hint: build into an empty or new folder, move them out (what the site should publish goes in "
                                         + "static/), or pass --force to delete them"))
            #expect(try SiteFixture.snapshot(documents) == before, "\(command)")
        }
        let forced = try SiteFixture.run(["build", "--source", site.path, "--output", documents.path, "--force"])
        #expect(forced.status == 0, "\(forced.err)")
        let built = try SiteFixture.snapshot(documents)
        #expect(built["notes.txt"] == nil && built["photos/cat.jpg"] == nil && built[".nojekyll"] == Data("a deploy's".utf8))
        // As the last build left it, the folder is the site's: a full build replaces it.
        let again = try SiteFixture.run(["build", "--source", site.path, "--output", documents.path, "--clean"])
        #expect(again.status == 0, "\(again.err)")
        #expect(try SiteFixture.snapshot(documents) == built)
        // A file put in it by hand since would go with the next full build: that is refused too.
        try SiteFixture.write("a verification file", to: "documents/google123.html", in: site)
        let stray = try SiteFixture.run(["build", "--source", site.path, "--output", documents.path, "--clean"])
        #expect(stray.status == 1 && stray.err.contains("error: the output folder holds 'google123.html', which this site does not make"))
        try FileManager.default.removeItem(at: documents.appendingPathComponent("google123.html"))
        // The same path, another folder: the inode of the old one, reused at once, is not enough.
        try FileManager.default.removeItem(at: documents)
        try SiteFixture.write("mine", to: "documents/mine.txt", in: site)
        let remade = try SiteFixture.run(["build", "--source", site.path, "--output", documents.path])
        #expect(remade.status == 1 && remade.err.contains("error: the output folder holds 'mine.txt', which this site does not make"))
        // An output holding only what the site makes (a build's whose state is gone) is fine.
        try FileManager.default.removeItem(at: documents.appendingPathComponent("mine.txt"))
        try FileManager.default.removeItem(at: site.appendingPathComponent(".marsgen"))
        #expect(try SiteFixture.run(["build", "--source", site.path, "--output", documents.path]).status == 0)
    }

    @Test("what the last build wrote is the site's, though the output folder changed since: a static folder removed goes with the full build; edited by hand, it is refused")
    func removedStaticFolderAfterOutputChanged() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let output = site.appendingPathComponent("public")
        for edited in [false, true] {
            try SiteFixture.write("patch", to: "static/assets/patch.txt", in: site)
            #expect(try SiteFixture.run(["build", "--source", site.path]).status == 0)
            try FileManager.default.removeItem(at: site.appendingPathComponent("static/assets"))
            if edited { try SiteFixture.write("mine now", to: "public/assets/patch.txt", in: site) }
            // The output folder changes as when a build staging inside it was killed.
            let staging = output.appendingPathComponent(".marsgen-staging-999999")
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
            try FileManager.default.removeItem(at: staging)
            let result = try SiteFixture.run(["build", "--source", site.path])
            if edited {
                #expect(result.status == 1 && result.err.contains("error: the output folder holds 'assets', which this site does not make"),
                        "\(result.err)")
            } else {
                #expect(result.status == 0, "\(result.err)")
                #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("assets").path))
            }
        }
    }
}

@Suite(.serialized) struct CommandLineTests {
    @Test("marsgen init scaffolds a site that builds at once")
    func initThenBuild() throws {
        let parent = try SiteFixture.temporaryDirectory("init")
        defer { try? FileManager.default.removeItem(at: parent) }
        let site = parent.appendingPathComponent("newsite")
        let result = try SiteFixture.run(["init", site.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("Built 1 journal entry, 2 messages, 1 weather report"))
        #expect(result.err.isEmpty, "\(result.err)")
        for path in ["marsgen.yml", "content/crew.yml", "public/index.html", "public/journal/first-light/index.html", "public/feed.xml",
                     "public/search/index.html", "public/search/part-1.json", "public/theme/search.js"] {
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(path).path), "missing \(path)")
        }
        let again = try SiteFixture.run(["init", site.path])
        #expect(again.status == 1)
        #expect(again.err.contains("\(site.path): error: the folder is not empty"))
        #expect(again.err.contains("hint: choose a new folder, or pass --force to add the starter files"))
        let onAFile = try SiteFixture.run(["init", site.appendingPathComponent("marsgen.yml").path])
        #expect(onAFile.status == 1 && onAFile.err.contains("marsgen.yml: error: a file is already there, not a folder"))
        let rebuild = try SiteFixture.run(["build"], in: site)
        #expect(rebuild.status == 0)
        #expect(result.out.hasSuffix("Next: edit \(site.path)/content/ and run 'marsgen build --source \(site.path)', "
                                     + "or 'marsgen serve --source \(site.path)' to see each save in the browser.\n"), "\(result.out)")
    }

    @Test("marsgen init --language starts a site in that language, its pages in the theme's words for it; a tag that is none is a usage error")
    func initInALanguage() throws {
        let parent = try SiteFixture.temporaryDirectory("init-de")
        defer { try? FileManager.default.removeItem(at: parent) }
        let site = parent.appendingPathComponent("station")
        let result = try SiteFixture.run(["init", site.path, "--language", "de-AT"])
        #expect(result.status == 0 && result.err.isEmpty, "\(result.err)")
        #expect(try String(contentsOf: site.appendingPathComponent("marsgen.yml"), encoding: .utf8).contains("\nlanguage: de-AT "))
        let front = try String(contentsOf: site.appendingPathComponent("public/index.html"), encoding: .utf8)
        #expect(front.contains("<html lang=\"de-AT\"") && front.contains(">Neueste Übertragungen</h1>"), "\(front)")
        let refused = try SiteFixture.run(["init", parent.appendingPathComponent("other").path, "--language", "german"])
        #expect(refused.status == 64 && refused.err.contains("--language must be a language tag like 'en', 'fr' or 'pt-BR', not 'german'"))
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("other").path))
    }

    @Test("marsgen init with no folder makes the site in the current one, and says what to run from there")
    func initHere() throws {
        let folder = try SiteFixture.temporaryDirectory("init-here")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try SiteFixture.run(["init"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("Created a site in the current folder\n"), "\(result.out)")
        #expect(result.out.hasSuffix("Next: edit content/ and run 'marsgen build', or 'marsgen serve' to see each save in the browser.\n"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("public/index.html").path))
        #expect(try SiteFixture.run(["init"], in: folder).status == 1)
    }

    @Test("a folder without marsgen.yml says what to do: rename the file it likely is, write marsgen's beside another generator's, or start a site",
          arguments: [
              ("marsgen.yaml", "rename marsgen.yaml to marsgen.yml"),
              ("hugo.toml", "hugo.toml here is Hugo's configuration; marsgen reads its own, marsgen.yml (title, base_url, mission: see README, "
                  + "Site configuration), or run 'marsgen init' in an empty folder for an example"),
              ("zola.toml", "zola.toml here is Zola's configuration; marsgen reads its own"),
              (nil, "run 'marsgen init' to start a site here, or pass --source with the site's folder"),
          ] as [(String?, String)])
    func noConfiguration(_ file: String?, _ hint: String) throws {
        let folder = try SiteFixture.temporaryDirectory("no-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        if let file { try Data("title: x\n".utf8).write(to: folder.appendingPathComponent(file)) }
        let result = try SiteFixture.run(["build"], in: folder)
        #expect(result.status == 1)
        #expect(result.err.contains("error: no marsgen.yml in "), "\(result.err)")
        #expect(result.err.contains("  hint: " + hint), "\(result.err)")
    }

    @Test("the next steps after init quote a folder the shell would split or expand", arguments: [
        ("ex1/", "ex1"), ("a b/", "\"a b\""), ("/tmp/$HOME`x`/", "\"/tmp/\\$HOME\\`x\\`\""), ("../site-2.0//", "../site-2.0"),
    ])
    func nextStepsQuoting(_ folder: String, _ source: String) {
        #expect(InitCommand.nextSteps(shownFolder: folder).contains("'marsgen build --source \(source)'"))
    }

    @Test("--version prints the version a build records in its index")
    func versionIsTheRecordedOne() throws {
        let printed = try SiteFixture.run(["--version"])
        #expect(printed.status == 0)
        #expect(printed.out == "\(MarsgenVersion.current)\n")
        let parent = try SiteFixture.temporaryDirectory("version")
        defer { try? FileManager.default.removeItem(at: parent) }
        let site = parent.appendingPathComponent("site")
        #expect(try SiteFixture.run(["init", site.path]).status == 0)
        let folder = site.appendingPathComponent(".marsgen")
        let indexes = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".index") }
        #expect(indexes.count == 1)
        for name in indexes {
            let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
            #expect(lines.contains("marsgen \(printed.out.dropLast())"), "\(lines.prefix(4))")
        }
    }

    @Test("marsgen sol --json prints the Mars24 worked example B")
    func solJSON() throws {
        let result = try SiteFixture.run(["sol", "--at", "2004-01-03T13:46:31Z", "--longitude", "184.702W", "--json",
                                          "--source", "/nonexistent"])
        #expect(result.status == 0)
        #expect(result.out == "{\"utc\":\"2004-01-03T13:46:31Z\",\"msd\":46215.54856,\"mtc\":\"13:09:55\",\"ls\":327.32416,\"sol\":null,\"lmst\":\"00:51:07\"}\n")
    }

    @Test("marsgen sol uses the site's mission and converts sol + LMST back to UTC")
    func solInSite() throws {
        let utc = try SiteFixture.run(["sol", "--sol", "12", "--lmst", "14:02"], in: SiteFixture.repositoryRoot)
        #expect(utc.status == 0)
        let instant = utc.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let back = try SiteFixture.run(["sol", "--at", instant, "--json"], in: SiteFixture.repositoryRoot)
        #expect(back.out.contains("\"sol\":12,\"lmst\":\"14:02:00\""))
        // A sol alone: when it begins, its noon (an entry dated by its sol alone is there), when it ends.
        let span = try SiteFixture.run(["sol", "--sol", "12", "--json"], in: SiteFixture.repositoryRoot)
        #expect(span.status == 0)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(span.out.utf8)) as? [String: Any])
        #expect(fields["sol"] as? Int == 12)
        for (field, sol, lmst) in [("start", 12, "00:00:00"), ("noon", 12, "12:00:00"), ("end", 13, "00:00:00")] {
            let instant = try #require(fields[field] as? String)
            let there = try SiteFixture.run(["sol", "--at", instant, "--json"], in: SiteFixture.repositoryRoot)
            #expect(there.out.contains("\"sol\":\(sol),\"lmst\":\"\(lmst)\""), "\(field): \(there.out)")
        }
        let text = try SiteFixture.run(["sol", "--sol", "12"], in: SiteFixture.repositoryRoot)
        #expect(text.out.hasPrefix("Sol    12  (Kasei Station)\nStart  \(fields["start"] as? String ?? "")  (LMST 00:00)\n"), "\(text.out)")
    }

    @Test("marsgen sol reads marsgen.yml as a build does: one it cannot read is the build's error, not a site without a mission")
    func solWithUnreadableConfiguration() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-sol-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: site) }
        // A named pipe: read as Foundation reads files, it waited for a writer for ever.
        #expect(mkfifo(site.appendingPathComponent("marsgen.yml").path, 0o644) == 0)
        let result = try SiteFixture.run(["sol", "--source", site.path])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("marsgen.yml:1:1: error: a named pipe, not a regular file"), "\(result.err)")
        // From the folder above, the path starts there, as a build's would.
        let above = try SiteFixture.run(["sol", "--source", site.lastPathComponent], in: site.deletingLastPathComponent())
        #expect(above.err.hasPrefix("\(site.lastPathComponent)/marsgen.yml:1:1: error: a named pipe"), "\(above.err)")
    }

    @Test("bad flags are usage errors, not crashes")
    func badFlags() throws {
        let result = try SiteFixture.run(["sol", "--at", "yesterday"])
        #expect(result.status != 0 && result.status < 128)
        #expect(result.err.contains("--at must be an ISO 8601 instant"))
        // Numbers a clock cannot take: they once stopped the process (an overflow, a NaN clock).
        for (arguments, message) in [
            (["sol", "--sol", "9223372036854775807", "--lmst", "10:00"], "--sol must be between "),
            (["sol", "--sol=-99999999999", "--lmst", "10:00"], "--sol must be between "),
            (["sol", "--longitude", "nan"], "--longitude must be degrees between -360 and 360"),
            (["sol", "--longitude", "1e308"], "--longitude must be degrees between -360 and 360"),
            (["sol", "--sol", "12", "--lmst", "7:30"], "--lmst must be HH:MM or HH:MM:SS, not '7:30' (did you mean '07:30'?)"),
            (["sol", "--sol", "12", "--lmst", "7:70"], "--lmst must be HH:MM or HH:MM:SS, not '7:70'\n"),
            (["sol", "--lmst", "10:00"], "--lmst needs --sol"),
            (["sol", "--sol", "12", "--at", "2038-11-14T11:25:49Z"], "give --at, or --sol (with or without --lmst), not both"),
            (["sol", "--sol", "9223372036854775807"], "--sol must be between "),
        ] {
            let refused = try SiteFixture.run(arguments, in: SiteFixture.repositoryRoot)
            #expect(refused.status != 0 && refused.status < 128, "\(arguments): \(refused.status)")
            #expect(refused.err.contains(message), "\(arguments): \(refused.err)")
        }
        let help = try SiteFixture.run(["build", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("--drafts"))
    }
}
