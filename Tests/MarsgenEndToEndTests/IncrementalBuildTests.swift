import Diagnostics
import Foundation
@testable import Site
import Testing

/// One case each of what an incremental build must get right, on a copy of the demo site.
@Suite(.serialized) final class IncrementalBuildTests {
    let site: URL
    var output: URL { site.appendingPathComponent("public") }

    /// The memories of this test's watched builds (see ``optionsWithMemory()``).
    private var memories: [BuildMemory] = []

    /// Each test's copy of the demo site goes with it, once the state its watched builds
    /// save in the background is written (else a save could make `.marsgen/` again after).
    deinit {
        for memory in memories { memory.waitForSave() }
        try? FileManager.default.removeItem(at: site)
    }

    init() throws {
        site = try SiteFixture.copyOfDemoSite()
        _ = try build()
    }

    func build(clean: Bool = false) throws -> BuildReport {
        try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: clean)).build()
    }

    func modificationTimes() throws -> [String: Date] {
        var times: [String: Date] = [:]
        for path in try SiteFixture.snapshot(output).keys {
            let attributes = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)
            times[path] = attributes[.modificationDate] as? Date
        }
        return times
    }

    /// A web server's folder, `www`, in a folder of its own (removed by the caller), so that
    /// nothing else's files are beside it.
    func webServerFolder() throws -> (server: URL, webRoot: URL) {
        let server = try SiteFixture.temporaryDirectory("web-server")
        let webRoot = server.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: webRoot, withIntermediateDirectories: false)
        return (server, webRoot)
    }

    func edit(_ relative: String, _ change: (String) -> String) throws {
        let url = site.appendingPathComponent(relative)
        try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    @Test("pages moved out of the output or removed with their section by hand are written again; a deploy repository in it changes nothing")
    func outputChangedByHand() throws {
        let files = FileManager.default
        let complete = try SiteFixture.snapshot(output)
        // A deploy that moves the pages out (`mv public/* /srv/www/`).
        let deployed = try SiteFixture.temporaryDirectory("deployed")
        defer { try? files.removeItem(at: deployed) }
        for name in try files.contentsOfDirectory(atPath: output.path) where !name.hasPrefix(".") {
            try files.moveItem(at: output.appendingPathComponent(name), to: deployed.appendingPathComponent(name))
        }
        let afterMove = try build()
        #expect(afterMove.notice?.contains("the output directory changed since the last build") == true)
        #expect(try SiteFixture.snapshot(output) == complete)
        // A section removed (`rm -r public/journal`), and then one sol's page with its folder.
        try files.removeItem(at: output.appendingPathComponent("journal"))
        _ = try build()
        #expect(try SiteFixture.snapshot(output) == complete)
        try files.removeItem(at: output.appendingPathComponent("sol/3"))
        _ = try build()
        #expect(try SiteFixture.snapshot(output) == complete)
        // A repository kept in the output for deploys changes with every commit, inside `.git`:
        // the next build stays incremental.
        try files.createDirectory(at: output.appendingPathComponent(".git/objects"), withIntermediateDirectories: true)
        _ = try build()
        try Data("ref".utf8).write(to: output.appendingPathComponent(".git/HEAD"))
        try files.createDirectory(at: output.appendingPathComponent(".git/objects/ab"), withIntermediateDirectories: true)
        let afterCommit = try build()
        #expect(afterCommit.notice == nil && afterCommit.pagesWritten == 0)
    }

    @Test("an output folder that is a symbolic link (to a web server's folder) stays a link; the folder it points to gets the site")
    func outputIsALink() throws {
        let files = FileManager.default
        let (server, webRoot) = try webServerFolder()
        defer { try? files.removeItem(at: server) }
        try files.removeItem(at: output)
        try files.createSymbolicLink(atPath: output.path, withDestinationPath: webRoot.path)
        for clean in [false, true] {
            _ = try build(clean: clean)
            #expect(try files.destinationOfSymbolicLink(atPath: output.path) == webRoot.path, "clean: \(clean)")
            #expect(files.fileExists(atPath: webRoot.appendingPathComponent("journal/sol-07-bags/index.html").path), "clean: \(clean)")
        }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 40 today.") }
        let edited = try build()
        #expect(edited.notice == nil && edited.pagesWritten > 0)
        let page = try String(contentsOf: webRoot.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
        #expect(page.contains("We did 40 today."))
        // No staging folder is left beside the link or beside the folder it points to.
        for parent in [site, server] {
            #expect(try files.contentsOfDirectory(atPath: parent.path).filter { $0.contains(".staging-") || $0.contains(".old-") } == [])
        }
    }

    @Test("an output folder that is a mount point (a Docker volume) gets full and incremental builds in place, and stays mounted",
          .enabled(if: SiteFixture.canMount, "needs root and mount"))
    func outputIsAMountPoint() throws {
        let expected = try SiteFixture.snapshot(output)
        try FileManager.default.removeItem(at: output)
        try SiteFixture.mountTemporaryFileSystem(at: output)
        defer { SiteFixture.unmount(output) }
        try Data("deploy".utf8).write(to: output.appendingPathComponent(".nojekyll"))
        // What an older build of the site left in the volume: a page the site no longer makes.
        try FileManager.default.createDirectory(at: output.appendingPathComponent("journal/gone"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: output.appendingPathComponent("journal/gone/index.html"))
        // The first build sees another folder there, and builds in full.
        for clean in [false, true] {
            let report = try build(clean: clean)
            #expect(report.isFullBuild, "clean: \(clean)")
            var built = try SiteFixture.snapshot(output)
            #expect(built.removeValue(forKey: ".nojekyll") != nil)
            #expect(built == expected, "clean: \(clean)")
            #expect(try SiteFixture.shell("mountpoint -q '\(output.path)'") == 0)
        }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 40 today.") }
        let edited = try build()
        #expect(!edited.isFullBuild && edited.notice == nil && edited.pagesWritten > 0)
        let page = try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
        #expect(page.contains("We did 40 today."))
        // The staging folder inside came and went: the next build trusts the output as it is.
        let next = try build()
        #expect(next.notice == nil && next.pagesWritten == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".marsgen-") } == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.path).filter { $0.contains(".staging-") } == [])
    }

    @Test("an output folder the user may write in a folder they may not (a web server's) gets the site in place",
          .enabled(if: getuid() == 0, "needs root, to run marsgen as another user"))
    func outputInAFolderNotWritable() throws {
        let files = FileManager.default
        let (server, webRoot) = try webServerFolder()
        defer { try? files.removeItem(at: server) }
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: server.path)
        try files.setAttributes([.posixPermissions: 0o777], ofItemAtPath: webRoot.path)
        for arguments in [["build", "--source", site.path, "--output", webRoot.path],
                          ["build", "--source", site.path, "--output", webRoot.path, "--clean"]] {
            let result = try SiteFixture.runAsNobody(arguments, site: site)
            #expect(result.status == 0, "\(arguments): \(result.err)")
            #expect(try SiteFixture.snapshot(webRoot) == SiteFixture.snapshot(output), "\(arguments)")
        }
        #expect(try files.contentsOfDirectory(atPath: server.path) == ["www"])
    }

    @Test("a site folder marsgen may not write (mounted read-only) is built in full each time, into a folder of a sticky /tmp-like one",
          .enabled(if: getuid() == 0, "needs root, to run marsgen as another user"))
    func readOnlySite() throws {
        let files = FileManager.default
        let binary = try #require(SiteFixture.executable, "the marsgen executable was not built")
        try files.removeItem(at: site.appendingPathComponent(".marsgen"))
        // Readable by all, writable by its owner (root) only; the folders above it passable.
        try SiteFixture.shell("chmod -R a+rX,go-w '\(site.path)'")
        try SiteFixture.openParents(of: site)
        // A sticky folder, as /tmp is, holding an output folder root made for everyone: only
        // root may rename it, so the site goes into it in place.
        let shared = try SiteFixture.temporaryDirectory("sticky")
        defer { try? files.removeItem(at: shared) }
        let webRoot = shared.appendingPathComponent("www")
        try files.createDirectory(at: webRoot, withIntermediateDirectories: false)
        try SiteFixture.shell("chmod 1777 '\(shared.path)' && chmod 777 '\(webRoot.path)'")
        for _ in 0..<2 {
            let result = try SiteFixture.run(SiteFixture.asNobody + [binary.path, "build",
                                              "--source", site.path, "--output", webRoot.path], executable: "/usr/bin/setpriv")
            #expect(result.status == 0, "\(result.err)")
            #expect(result.out.contains("note: the site folder is read-only, so no build state is kept in .marsgen/: full build"))
            #expect(try SiteFixture.snapshot(webRoot) == SiteFixture.snapshot(output))
        }
        #expect(!files.fileExists(atPath: site.appendingPathComponent(".marsgen").path))
        #expect(try files.contentsOfDirectory(atPath: shared.path) == ["www"])
    }

    @Test("after a build with sudo, another user's build keeps no state in the root-owned .marsgen/, and an old site it cannot remove fails nothing",
          .enabled(if: getuid() == 0, "needs root, to run marsgen as another user"))
    func stateFolderOfAnotherUser() throws {
        let binary = try #require(SiteFixture.executable, "the marsgen executable was not built")
        // Root built the site (init); the site folder and the output are open to all, but not
        // .marsgen/ nor the pages' folders root made.
        try SiteFixture.shell("chmod -R a+rX '\(site.path)' && chmod 777 '\(site.path)' '\(output.path)'")
        try SiteFixture.openParents(of: site)
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 40 today.") }
        let result = try SiteFixture.run(SiteFixture.asNobody + [binary.path, "build", "--source", site.path],
                                         executable: "/usr/bin/setpriv")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("note: cannot write .marsgen/ (another user's? sudo chown it back), so no build state is kept: full build"))
        let page = try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
        #expect(page.contains("We did 40 today."))
    }

    @Test("a static file whose name is as long as a name can be is updated by an incremental build")
    func longStaticFileName() throws {
        // 251 bytes of name: its temporary file, `.<name>.marsgen-<pid>`, must be cut short.
        for name in [String(repeating: "a", count: 247) + ".txt", String(repeating: "é", count: 125) + ".txt"] {
            try SiteFixture.write("one", to: "static/\(name)", in: site)
            _ = try build()
            try SiteFixture.write("two", to: "static/\(name)", in: site)
            let edited = try build()
            #expect(!edited.isFullBuild && edited.written == [name])
            #expect(try String(contentsOf: output.appendingPathComponent(name), encoding: .utf8) == "two")
        }
    }

    @Test("watch and serve save the state after the build; the next build, in this process or another, finds it")
    func stateSavedInBackground() throws {
        var options = BuildOptions(sourceDirectory: site.path)
        options.memory = BuildMemory()
        _ = try SiteBuilder(options: options).build()
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 40 today.") }
        let remembered = try SiteBuilder(options: options).build()
        #expect(!remembered.isFullBuild && remembered.written.contains("journal/sol-07-bags/index.html"))
        // Another process has no memory: it reads the state the background save wrote, and
        // waits for the site lock while that save holds it.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 40 today.", with: "We did 41 today.") }
        let fromDisk = try build()
        #expect(!fromDisk.isFullBuild)
        #expect(fromDisk.notice == nil)
        #expect(fromDisk.written == ["crew/okoro/index.html", "feed.xml", "journal/sol-07-bags/index.html",
                                     "page/3/index.html", "search/part-1.json", "sol/7/index.html"])
        options.memory?.waitForSave()
        #expect(try build().written.isEmpty)
    }

    @Test("a build trusts the folders the last build recorded and whose stat did not change: it still sees every file added, removed, moved or edited")
    func recordedFolders() throws {
        // A folder is trusted once it is clearly older than the build that recorded it: the
        // copy of the demo site is 2 s old before that build.
        Thread.sleep(forTimeInterval: 2.2)
        _ = try build(clean: true)
        let indexes = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent(".marsgen").path)
            .filter { $0.hasSuffix(".index") }
        #expect(indexes.count == 1)
        let index = try String(contentsOf: site.appendingPathComponent(".marsgen/" + (indexes.first ?? "")), encoding: .utf8)
        for folder in ["content/journal", "content/messages", "content/weather", "static", "templates"] {
            #expect(index.contains(" \(folder)\n"), "\(folder) recorded")
        }
        func expectSameAsClean(_ step: String) throws {
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(step)")
        }
        // A message edited in place: its folder's stat does not change, the file's does.
        try edit("content/messages/habitat.md") { $0 + "\n## 23:59 okoro\nEdited in place.\n" }
        #expect(try !build().written.isEmpty)
        try expectSameAsClean("message edited in place")
        // An entry in a new subfolder, one removed, one renamed: the journal is read again;
        // the other folders are taken from the record, and their files are all still there.
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content/journal/extra"), withIntermediateDirectories: true)
        try SiteFixture.write("---\ntitle: In a subfolder\nauthor: okoro\nsol: 9\n---\nFiled away.\n", to: "content/journal/extra/filed.md", in: site)
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/journal/sol-05-chess.md"))
        try FileManager.default.moveItem(at: site.appendingPathComponent("content/journal/sol-04-isru.md"),
                                         to: site.appendingPathComponent("content/journal/sol-04-isru-renamed.md"))
        let report = try build()
        #expect(!report.isFullBuild && report.written.contains("journal/filed/index.html"))
        try expectSameAsClean("entries added, removed and renamed")
    }

    @Test("under watch, a rebuild that lists the inputs (no report to go by) with the index this process remembered sees every file")
    func recordedFoldersRemembered() throws {
        // Folders clearly older than the build that records them are trusted (see recordedFolders).
        Thread.sleep(forTimeInterval: 2.2)
        var options = BuildOptions(sourceDirectory: site.path, isClean: true)
        let memory = BuildMemory()
        options.memory = memory
        _ = try SiteBuilder(options: options).build()
        options.isClean = false
        // Not watching yet: the next rebuild lists every input, from the index kept in memory.
        try edit("content/messages/habitat.md") { $0 + "\n## 23:59 okoro\nEdited in place.\n" }
        #expect(try !SiteBuilder(options: options).build().written.isEmpty)
        memory.waitForSave()
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
    }

    @Test("watch and serve read the state in the background after a build that found nothing changed; the rebuild after an edit uses it")
    func statePreloaded() throws {
        _ = try build()
        let (options, memory) = optionsWithMemory()
        let builder = SiteBuilder(options: options)
        // As watch starts: nothing changed, so the build itself does not read the state.
        #expect(try builder.build().written.isEmpty)
        builder.preloadState()
        memory.waitForSave()
        // Only a state read before can make the next build incremental.
        try spoilStateFile()
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 42 today.") }
        let report = try builder.build()
        #expect(!report.isFullBuild && report.notice == nil)
        #expect(report.written.contains("journal/sol-07-bags/index.html"))
        #expect(try entryPageSays("We did 42 today."))
        // Saved in the background as usual: another process reads it.
        memory.waitForSave()
        #expect(try build().written.isEmpty)
    }

    @Test("the first build of watch and serve, though nothing changed, leaves in memory the state, the index and the plans' reading of every object for the first rebuild")
    func firstBuildPreparesTheNext() throws {
        _ = try build()
        var (options, memory) = optionsWithMemory()
        options.preparesNextBuild = true
        let first = try SiteBuilder(options: options).build()
        #expect(first.written.isEmpty && first.deleted.isEmpty && !first.isFullBuild)
        #expect(first.pagesUnchanged == (try build()).pagesUnchanged)
        memory.waitForSave()
        // What planning read of every object is kept for the next planner to update.
        let read = try #require(memory.takeReadObjects())
        memory.keepReadObjects(read)
        // Only the state this first build kept can make the next build incremental.
        try spoilStateFile()
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 42 today.") }
        options.preparesNextBuild = false
        let report = try SiteBuilder(options: options).build()
        #expect(!report.isFullBuild && report.notice == nil)
        #expect(report.written.contains("journal/sol-07-bags/index.html"))
        #expect(try entryPageSays("We did 42 today."))
        memory.waitForSave()
        // The state saved from memory is whole: another process builds on it, and its site
        // is the one a clean build makes.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 42 today.", with: "We did 43 today.") }
        #expect(try build().written.contains("journal/sol-07-bags/index.html"))
        let incremental = try SiteFixture.snapshot(output)
        _ = try build(clean: true)
        #expect(SiteFixture.differences(incremental, from: try SiteFixture.snapshot(output)).isEmpty)
    }

    /// Spoils the state file on disk, keeping its size, so that the index still names it but
    /// a build that reads it finds it unreadable.
    func spoilStateFile() throws {
        let stateDirectory = site.appendingPathComponent(".marsgen")
        let stateFile = try #require(try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).first { $0.hasSuffix(".state") })
        let statePath = stateDirectory.appendingPathComponent(stateFile).path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: statePath)[.size] as? Int)
        try Data(repeating: 0x2A, count: size).write(to: URL(fileURLWithPath: statePath))
    }

    /// A build with memory that was told `reported` changed (as a watcher tells it), and
    /// whether its page for sol-07-bags says `text`.
    func watchedBuild(_ options: BuildOptions, reported: [String]) throws -> BuildReport {
        options.memory?.noteChanges(reported)
        return try SiteBuilder(options: options).build()
    }

    /// Dates every source an hour back and builds clean, so the next builds trust stats
    /// (files saved within two seconds of a build are always hashed again, which would hide a
    /// file a build failed to look at).
    func backdateSources() throws {
        let files = FileManager.default
        let hourAgo = Date().addingTimeInterval(-3600)
        for folder in ["content", "templates", "static"] {
            let base = site.appendingPathComponent(folder)
            guard let walker = files.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walker {
                try files.setAttributes([.modificationDate: hourAgo], ofItemAtPath: base.appendingPathComponent(relative).path)
            }
        }
        _ = try build(clean: true)
    }

    /// Options with a memory, as `marsgen watch` builds.
    func optionsWithMemory() -> (BuildOptions, BuildMemory) {
        var options = BuildOptions(sourceDirectory: site.path)
        let memory = BuildMemory()
        options.memory = memory
        memories.append(memory)
        return (options, memory)
    }

    /// Options with a memory, as `marsgen watch` builds, on backdated sources.
    func watchedOptions() throws -> (BuildOptions, BuildMemory) {
        try backdateSources()
        return optionsWithMemory()
    }

    func entryPageSays(_ text: String) throws -> Bool {
        try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8).contains(text)
    }

    @Test("a watched rebuild takes the kinds of content none of whose files changed as the last build left them, their warnings included, and equals a clean build")
    func keptContentTaken() throws {
        try SiteFixture.write("---\ntitle: Empty\nauthor: okoro\nsol: 7\n---\n", to: "content/journal/sol-07-empty.md", in: site)
        let (options, memory) = try watchedOptions()
        let emptyEntry = "this entry has no text after its front matter"
        #expect(try SiteBuilder(options: options).build().warnings.contains { $0.message == emptyEntry })
        // As watch starts: the state is read in the background, and what its files give kept.
        SiteBuilder(options: options).preloadState()
        memory.startTrustingChanges()
        func equalsCleanBuild() throws -> Bool {
            memory.waitForSave()
            return try SiteFixture.snapshot(output) == cleanBuildSnapshot()
        }
        // A message appended: the entries and reports are those the last build left.
        try edit("content/messages/habitat.md") { $0 + "\n## 23:59 okoro\nAppended while watching.\n" }
        let appended = try watchedBuild(options, reported: ["content/messages/habitat.md"])
        #expect(appended.written.contains("sol/1/index.html"))
        #expect(appended.warnings.contains { $0.message == emptyEntry })
        #expect(try equalsCleanBuild())
        // An entry edited: the messages, the one just appended among them, are those it left.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 44 today.") }
        let edited = try watchedBuild(options, reported: ["content/journal/sol-07-bags.md"])
        #expect(edited.warnings.contains { $0.message == emptyEntry })
        #expect(try String(contentsOf: output.appendingPathComponent("sol/1/index.html"), encoding: .utf8).contains("Appended while watching."))
        #expect(try equalsCleanBuild())
        // The entry with the warning gets text: the warning goes, and stays gone.
        try edit("content/journal/sol-07-empty.md") { $0 + "Now with text.\n" }
        #expect(try !watchedBuild(options, reported: ["content/journal/sol-07-empty.md"]).warnings.contains { $0.message == emptyEntry })
        try edit("content/messages/habitat.md") { $0 + "\n## 23:58 arden\nOne more.\n" }
        #expect(try !watchedBuild(options, reported: ["content/messages/habitat.md"]).warnings.contains { $0.message == emptyEntry })
        #expect(try equalsCleanBuild())
    }

    @Test("a watched rebuild looks only at the reported paths, yet sees a change made before watching began")
    func changeBeforeWatching() throws {
        let (options, memory) = try watchedOptions()
        _ = try SiteBuilder(options: options).build()
        // Saved after that build listed the inputs, before the watcher started: never reported.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 39 today.") }
        memory.startTrustingChanges()
        try edit("content/journal/sol-12-harvest.md") { $0 + "\nA reported line.\n" }
        _ = try watchedBuild(options, reported: ["content/journal/sol-12-harvest.md"])
        #expect(try entryPageSays("We did 39 today."))
        // From here on the listing is trusted: a reported edit is seen, and only it is looked at.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 39 today.", with: "We did 40 today.") }
        let report = try watchedBuild(options, reported: ["content/journal/sol-07-bags.md"])
        #expect(report.written.contains("journal/sol-07-bags/index.html"))
        #expect(try entryPageSays("We did 40 today."))
        try SiteFixture.write("---\ntitle: Reported\nauthor: okoro\nsol: 7\n---\nNew.\n", to: "content/journal/sol-07-new.md", in: site)
        #expect(try watchedBuild(options, reported: ["content/journal/sol-07-new.md"]).written.contains("journal/sol-07-new/index.html"))
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/journal/sol-07-new.md"))
        #expect(try watchedBuild(options, reported: ["content/journal/sol-07-new.md"]).deleted.contains("journal/sol-07-new/index.html"))
    }

    @Test("under watch, a file behind a symbolic link (the crew file, an entry) saved elsewhere in the site is read again when the watcher reports the link")
    func linkedFilesReported() throws {
        let files = FileManager.default
        try files.createDirectory(at: site.appendingPathComponent("shared"), withIntermediateDirectories: true)
        for (path, target) in [("content/crew.yml", "shared/crew.yml"), ("content/journal/sol-07-bags.md", "shared/bags.md")] {
            try files.moveItem(at: site.appendingPathComponent(path), to: site.appendingPathComponent(target))
            let depth = path.split(separator: "/").count - 1
            try files.createSymbolicLink(atPath: site.appendingPathComponent(path).path,
                                         withDestinationPath: String(repeating: "../", count: depth) + target)
        }
        // Backdated through the links, so that only a look at them finds the saves below.
        let (options, memory) = try watchedOptions()
        memory.startTrustingChanges()
        try edit("shared/bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 41 today.") }
        #expect(try watchedBuild(options, reported: ["content/journal/sol-07-bags.md"]).written.contains("journal/sol-07-bags/index.html"))
        #expect(try entryPageSays("We did 41 today."))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
        try edit("shared/crew.yml") { $0.replacingOccurrences(of: "Daniel Okoro", with: "Daniel K. Okoro") }
        #expect(try watchedBuild(options, reported: ["content/crew.yml"]).written.contains("crew/okoro/index.html"))
        #expect(try entryPageSays("Daniel K. Okoro"))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
    }

    @Test("a listing made in the background once watching began serves the first rebuild, unless a file changed before it")
    func listingPreloaded() throws {
        func page(_ slug: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent("journal/\(slug)/index.html"), encoding: .utf8)
        }
        // A change between the first build and the start of watching, never reported: the
        // listing made after sees it differ from the index and is not kept.
        do {
            let (options, memory) = try watchedOptions()
            _ = try SiteBuilder(options: options).build()
            try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 43 today.") }
            memory.startTrustingChanges()
            SiteBuilder(options: options).preloadListing()
            memory.waitForSave()
            _ = try watchedBuild(options, reported: [])
            #expect(try entryPageSays("We did 43 today."))
        }
        // Nothing changed before: the listing is kept, and the first rebuild looks only at the
        // reported path (a change no watcher reported is not seen, as under a watcher it
        // cannot happen).
        let (options, memory) = try watchedOptions()
        _ = try SiteBuilder(options: options).build()
        memory.startTrustingChanges()
        SiteBuilder(options: options).preloadListing()
        memory.waitForSave()
        try edit("content/journal/sol-12-harvest.md") { $0 + "\nA reported line.\n" }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 43 today.", with: "We did 44 today.") }
        let report = try watchedBuild(options, reported: ["content/journal/sol-12-harvest.md"])
        #expect(report.written.contains("journal/sol-12-harvest/index.html"))
        #expect(try page("sol-12-harvest").contains("A reported line."))
        #expect(try entryPageSays("We did 43 today."))

        // A file saved just before the first build, too recently for its stat alone to say it is
        // as that build read it: the listing reads and hashes it, finds what the index
        // recorded, and is kept (an unreported change elsewhere is not seen).
        do {
            let (options, memory) = try watchedOptions()
            try edit("content/journal/sol-12-harvest.md") { $0 + "\nSaved just before the build.\n" }
            _ = try SiteBuilder(options: options).build()
            memory.startTrustingChanges()
            SiteBuilder(options: options).preloadListing()
            memory.waitForSave()
            try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 44 today.", with: "We did 45 today.") }
            _ = try watchedBuild(options, reported: [])
            #expect(try page("sol-12-harvest").contains("Saved just before the build."))
            #expect(try entryPageSays("We did 44 today."))
        }
        // Such a file changed after that build with the same size and modification time (a
        // coarse clock), before watching began: its hash differs, the listing is not kept, and
        // the first rebuild finds the change.
        let (again, memoryAgain) = try watchedOptions()
        try edit("content/journal/sol-12-harvest.md") { $0 + "\nSaved just before the build, again.\n" }
        _ = try SiteBuilder(options: again).build()
        let harvest = site.appendingPathComponent("content/journal/sol-12-harvest.md").path
        var saved = stat()
        #expect(stat(harvest, &saved) == 0)
        try edit("content/journal/sol-12-harvest.md") { $0.replacingOccurrences(of: "the build, again.", with: "the build, later.") }
        let times = [saved.st_atim, saved.st_mtim]
        #expect(utimensat(AT_FDCWD, harvest, times, 0) == 0)
        memoryAgain.startTrustingChanges()
        SiteBuilder(options: again).preloadListing()
        memoryAgain.waitForSave()
        _ = try watchedBuild(again, reported: [])
        #expect(try page("sol-12-harvest").contains("Saved just before the build, later."))
    }

    @Test("under watch, the sol index (its rows kept between builds) equals a clean build after a row or its template changes")
    func solIndexRows() throws {
        let (options, memory) = try watchedOptions()
        memory.startTrustingChanges()
        _ = try SiteBuilder(options: options).build()
        func solIndex(_ root: URL) throws -> String {
            try String(contentsOf: root.appendingPathComponent("sol/index.html"), encoding: .utf8)
        }
        func expectSameAsClean(_ step: String) throws {
            let clean = try cleanBuildSnapshot()["sol/index.html"].map { String(decoding: $0, as: UTF8.self) }
            #expect(try solIndex(output) == clean, "\(step)")
        }
        // A row's values change: one more entry on sol 7.
        try SiteFixture.write("---\ntitle: Row\nauthor: okoro\nsol: 7\n---\nOne more.\n", to: "content/journal/sol-07-row.md", in: site)
        #expect(try watchedBuild(options, reported: ["content/journal/sol-07-row.md"]).written.contains("sol/index.html"))
        try expectSameAsClean("entry added")
        // The row template changes: every row is rendered again, none comes from before.
        try SiteFixture.write("<li class=\"custom\"><a href=\"{{url}}\">{{sol}}: {{entryCount}}</a></li>", to: "templates/sol-row.mustache", in: site)
        #expect(try watchedBuild(options, reported: ["templates/sol-row.mustache"]).written.contains("sol/index.html"))
        try expectSameAsClean("row template overridden")
        #expect(try solIndex(output).contains("<li class=\"custom\">"))
        // And back to the built-in one.
        try FileManager.default.removeItem(at: site.appendingPathComponent("templates/sol-row.mustache"))
        #expect(try watchedBuild(options, reported: ["templates/sol-row.mustache"]).written.contains("sol/index.html"))
        try expectSameAsClean("built-in row template again")
        #expect(try !solIndex(output).contains("<li class=\"custom\">"))
        // The configuration changes (every row links under the new base path): a full build,
        // whose rows kept in memory were made under the old configuration and must not be reused.
        try edit("marsgen.yml") {
            $0.replacingOccurrences(of: "base_url: https://kasei-station.example.org/", with: "base_url: https://example.org/kasei/")
        }
        #expect(try watchedBuild(options, reported: ["marsgen.yml"]).written.contains("sol/index.html"))
        try expectSameAsClean("base URL changed")
        #expect(try solIndex(output).contains("href=\"/kasei/sol/7/\""))
        // Bodies were parsed under the old base path too: their relative URLs follow the new one.
        let entry = try String(contentsOf: output.appendingPathComponent("journal/sol-06-dust-devil/index.html"), encoding: .utf8)
        #expect(entry.contains("src=\"/kasei/img/dust-devil.svg\""))
    }

    @Test("changes a failed watched rebuild was told of still reach the next one; dropped events mean a full look")
    func failedWatchedRebuild() throws {
        let (options, memory) = try watchedOptions()
        memory.startTrustingChanges()
        _ = try SiteBuilder(options: options).build()
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 39 today.") }
        try edit("content/journal/sol-12-harvest.md") { $0.replacingOccurrences(of: "author:", with: "author: [") }
        #expect(throws: Diagnostic.self) {
            try watchedBuild(options, reported: ["content/journal/sol-07-bags.md", "content/journal/sol-12-harvest.md"])
        }
        // Only the broken file is reported fixed: the earlier edit must still reach its page.
        try edit("content/journal/sol-12-harvest.md") { $0.replacingOccurrences(of: "author: [", with: "author:") }
        _ = try watchedBuild(options, reported: ["content/journal/sol-12-harvest.md"])
        #expect(try entryPageSays("We did 39 today."))
        // Events dropped: nothing reported, yet the change is found.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 39 today.", with: "We did 41 today.") }
        memory.noteUnknownChanges()
        _ = try watchedBuild(options, reported: [])
        #expect(try entryPageSays("We did 41 today."))
    }

    @Test("a no-op rebuild writes nothing and keeps every modification time")
    func noOp() throws {
        let before = try modificationTimes()
        let report = try build()
        #expect(!report.isFullBuild)
        #expect(report.written.isEmpty && report.deleted.isEmpty)
        #expect(report.pagesUnchanged == 85)
        #expect(try modificationTimes() == before)
    }

    @Test("a rebuild that changes nothing gives the same warnings as the build before it, touched files or not")
    func noOpWarnings() throws {
        try SiteFixture.write("---\ntitle: \"Blank\"\nauthor: tanaka\nsol: 3\ntime: \"10:00\"\n---\n", to: "content/journal/sol-03-blank.md", in: site)
        try edit("content/messages/habitat.md") { $0.replacingOccurrences(of: "---\n## ", with: "---\nA stray line.\n## ") }
        let first = try build()
        let expected = first.warnings.map(\.description)
        #expect(expected.count == 2 && expected.contains { $0.contains("no text after its front matter") })
        let noOp = try build()
        #expect(noOp.written.isEmpty && !noOp.isFullBuild)
        #expect(noOp.warnings.map(\.description) == expected)
        // Touched, not changed: the index learns the new time and keeps the warnings.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)],
                                              ofItemAtPath: site.appendingPathComponent("content/journal/sol-03-blank.md").path)
        #expect(try build().warnings.map(\.description) == expected)
        #expect(try build().warnings.map(\.description) == expected)
        // Fixed: the warning goes, and stays gone from the builds that change nothing.
        try edit("content/journal/sol-03-blank.md") { $0 + "Now with text.\n" }
        #expect(try build().warnings.count == 1)
        #expect(try build().warnings.count == 1)
    }

    @Test("editing an entry rewrites its page, its sol, its author, the feed pages that show it and the Atom feed")
    func editEntry() throws {
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 39 today.") }
        let report = try build()
        #expect(report.written == ["crew/okoro/index.html", "feed.xml", "journal/sol-07-bags/index.html",
                                   "page/3/index.html", "search/part-1.json", "sol/7/index.html"])
        #expect(report.explanations.contains("journal/sol-07-bags: journal/sol-07-bags.md updated"))
        #expect(report.written.count <= 6)
    }

    @Test("an edit after an entry's <!--more--> rewrites only its page (and the Atom feed, were it among its newest); a break moved or removed, the pages listing it too")
    func editAfterTheBreak() throws {
        let path = "content/journal/sol-04-sample-log.md"
        try edit(path) { $0.replacingOccurrences(of: "is the interesting one", with: "is the one that matters") }
        let after = try build()
        // (The entry, on sol 4, is older than the Atom feed's newest 50.) The search index
        // holds its whole text.
        #expect(after.written == ["journal/sol-04-sample-log/index.html", "search/part-1.json"])
        // The break moved below the table: the table reaches its sol's, its author's and the feed's pages.
        try edit(path) { $0.replacingOccurrences(of: "<!-- more -->\n\n", with: "").replacingOccurrences(of: "\n\nThe cemented", with: "\n\n<!--more-->\n\nThe cemented") }
        let moved = try build()
        #expect(Set(["crew/lindqvist/index.html", "journal/sol-04-sample-log/index.html", "sol/4/index.html"]).isSubset(of: moved.written))
        #expect(String(decoding: try Data(contentsOf: output.appendingPathComponent("sol/4/index.html")), as: UTF8.self).contains("KS-004-03"))
        try edit(path) { $0.replacingOccurrences(of: "<!--more-->\n\n", with: "") }
        let removed = try build()
        #expect(removed.written.contains("sol/4/index.html") && removed.written.contains("journal/sol-04-sample-log/index.html"))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
    }

    @Test("changing a slug deletes the old page and its directory, and updates its neighbours' links")
    func slugChange() throws {
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "author: okoro", with: "author: okoro\nslug: sandbags") }
        let report = try build()
        #expect(report.deleted == ["journal/sol-07-bags/index.html"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("journal/sol-07-bags").path))
        #expect(report.written.contains("journal/sandbags/index.html"))
        #expect(report.written.contains("journal/sol-07-sick-day/index.html"))
        #expect(report.written.contains("journal/sol-08-greenhouse-sprouts/index.html"))
    }

    @Test("a tag added to an entry gets its page and a line in the index; another spelling shares it; its last entry untagged deletes its page and folder")
    func tagPagesFollowTheirEntries() throws {
        func expectSameAsClean(_ step: String) throws {
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(step)")
        }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "tags: [hab, engineering]", with: "tags: [hab, engineering, Sandbags]") }
        let tagged = try build()
        #expect(!tagged.isFullBuild)
        // The entry's page and every list showing its section (its tags are in it), the new
        // tag's page and the index; the lists of its other tags only show its line, unchanged.
        #expect(tagged.written == ["crew/okoro/index.html", "feed.xml", "journal/sol-07-bags/index.html", "page/3/index.html",
                                   "search/part-1.json", "sitemap.xml", "sol/7/index.html", "tags/index.html", "tags/sandbags/index.html"])
        #expect(tagged.explanations.contains("tags/sandbags: new page"), "\(tagged.explanations)")
        #expect(tagged.explanations.contains("tags: a tag's count changed, or a tag came or went"), "\(tagged.explanations)")
        let page = try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
        #expect(page.contains("<a href=\"/tags/sandbags/\" rel=\"tag\">Sandbags</a>"))
        try expectSameAsClean("tagged")

        // Another entry tags it `sandbags`: one page, shown as `Sandbags` (a tie, first in
        // code point order), listing both entries.
        try edit("content/journal/sol-08-uplink.md") { $0.replacingOccurrences(of: "tags: [", with: "tags: [sandbags, ") }
        let shared = try build()
        #expect(shared.written.contains("tags/sandbags/index.html") && !shared.written.contains { $0.hasPrefix("tags/sandbags-") })
        let list = try String(contentsOf: output.appendingPathComponent("tags/sandbags/index.html"), encoding: .utf8)
        #expect(list.contains("2 journal entries tagged <span class=\"tag-name\">Sandbags</span>"))
        try expectSameAsClean("shared")

        // `comms` is on one entry: untagged, its page and folder go, and the index loses its line.
        try edit("content/journal/sol-03-comms-check.md") { $0.replacingOccurrences(of: "tags: [comms]", with: "tags: [radio]") }
        let untagged = try build()
        #expect(untagged.deleted == ["tags/comms/index.html"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("tags/comms").path))
        #expect(untagged.written.contains("tags/radio/index.html") && untagged.written.contains("tags/index.html"))
        try expectSameAsClean("untagged")
    }

    @Test("an alias gets a page sending readers on to its entry; a new slug rewrites it; removed, its page and folders go; a static file in its place is an error")
    func aliasesFollowTheirEntries() throws {
        func expectSameAsClean(_ step: String) throws {
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(step)")
        }
        func alias() throws -> String {
            try String(contentsOf: output.appendingPathComponent("posts/2038/bags/index.html"), encoding: .utf8)
        }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "tags: [", with: "aliases: [/posts/2038/bags, /bags.html]\ntags: [") }
        let added = try build()
        #expect(!added.isFullBuild)
        #expect(Set(["posts/2038/bags/index.html", "bags.html"]).isSubset(of: added.written))
        #expect(added.explanations.contains("posts/2038/bags: new page"), "\(added.explanations)")
        #expect(try alias().contains("<meta http-equiv=\"refresh\" content=\"0; url=/journal/sol-07-bags/\">"))
        #expect(try alias().contains("<link rel=\"canonical\" href=\"https://kasei-station.example.org/journal/sol-07-bags/\">"))
        try expectSameAsClean("added")

        // The entry's text edited: its aliases' pages are as they were.
        try edit("content/journal/sol-07-bags.md") { $0 + "\nOne more line.\n" }
        #expect(try !build().written.contains { $0.hasPrefix("posts/") || $0 == "bags.html" })

        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "tags: [", with: "slug: sandbags\ntags: [") }
        let moved = try build()
        #expect(Set(["posts/2038/bags/index.html", "bags.html"]).isSubset(of: moved.written))
        #expect(try alias().contains("url=/journal/sandbags/"))
        try expectSameAsClean("slug changed")

        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "aliases: [/posts/2038/bags, /bags.html]\n", with: "") }
        let removed = try build()
        #expect(removed.deleted == ["bags.html", "posts/2038/bags/index.html"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("posts/2038").path))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("posts/oxygen-plant/index.html").path))
        try expectSameAsClean("removed")

        // A static file where an alias's page goes: the error a page's path taken gives.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "tags: [", with: "aliases: [/bags.html]\ntags: [") }
        try SiteFixture.write("<p>bags</p>\n", to: "static/bags.html", in: site)
        #expect(throws: Diagnostic.self) { _ = try build() }
    }

    @Test("with tag_feeds, an entry's edit rewrites the feeds of its tags, and a tag's last entry untagged deletes its feed with its page")
    func tagFeedsFollowTheirEntries() throws {
        func expectSameAsClean(_ step: String) throws {
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(step)")
        }
        try edit("marsgen.yml") { $0 + "tag_feeds: true\n" }
        let full = try build()
        #expect(full.isFullBuild)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("tags/engineering/feed.xml").path))
        try expectSameAsClean("turned on")

        // `sol-07-bags` is tagged hab and engineering: both feeds hold its text.
        try edit("content/journal/sol-07-bags.md") { $0 + "\nOne more line.\n" }
        let edited = try build()
        #expect(edited.written == ["crew/okoro/index.html", "feed.xml", "journal/sol-07-bags/index.html", "page/3/index.html",
                                   "search/part-1.json", "sol/7/index.html", "tags/engineering/feed.xml", "tags/hab/feed.xml"])
        let feed = try String(contentsOf: output.appendingPathComponent("tags/hab/feed.xml"), encoding: .utf8)
        #expect(feed.contains("One more line."))
        try expectSameAsClean("edited")

        // `comms` is on one entry: untagged, its feed goes with its page and folder.
        try edit("content/journal/sol-03-comms-check.md") { $0.replacingOccurrences(of: "tags: [comms]", with: "tags: [radio]") }
        let untagged = try build()
        #expect(untagged.deleted == ["tags/comms/feed.xml", "tags/comms/index.html"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("tags/comms").path))
        #expect(untagged.written.contains("tags/radio/feed.xml"))
        try expectSameAsClean("untagged")

        // Turned off: every tag's feed goes.
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "tag_feeds: true\n", with: "") }
        #expect(try build().isFullBuild)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("tags/hab/feed.xml").path))
        try expectSameAsClean("turned off")
    }

    @Test("with crew_feeds, an entry's edit or a message rewrites its author's feed; a name changed in crew.yml rewrites that member's; turned off, every crew feed goes")
    func crewFeedsFollowTheirAuthors() throws {
        func expectSameAsClean(_ step: String) throws {
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(step)")
        }
        func feed(_ id: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent("crew/\(id)/feed.xml"), encoding: .utf8)
        }
        try edit("marsgen.yml") { $0 + "crew_feeds: true\n" }
        #expect(try build().isFullBuild)
        let crewPage = try String(contentsOf: output.appendingPathComponent("crew/okoro/index.html"), encoding: .utf8)
        #expect(crewPage.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Kasei Station Log: Daniel Okoro\" href=\"/crew/okoro/feed.xml\">"))
        try expectSameAsClean("turned on")

        // `sol-07-bags` is okoro's: his feed holds its text, no one else's changes.
        try edit("content/journal/sol-07-bags.md") { $0 + "\nOne more line.\n" }
        let edited = try build()
        #expect(edited.written == ["crew/okoro/feed.xml", "crew/okoro/index.html", "feed.xml", "journal/sol-07-bags/index.html",
                                   "page/3/index.html", "search/part-1.json", "sol/7/index.html"])
        #expect(try feed("okoro").contains("One more line."))
        try expectSameAsClean("edited")

        // A message of vega's, the site's newest object, leads her feed.
        _ = try appendLine("\n## 2038-11-16T19:00:00Z vega\nAll quiet on the ridge.\n", to: "content/messages/mission-control.md")
        let appended = try build()
        #expect(appended.written.contains("crew/vega/feed.xml") && !appended.written.contains("crew/okoro/feed.xml"), "\(appended.written)")
        let vega = try feed("vega")
        let first = vega.components(separatedBy: "<entry>").dropFirst().first ?? ""
        #expect(first.contains("All quiet on the ridge."), "\(first)")
        try expectSameAsClean("appended")

        // A new name: that member's feed, not the others'.
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "name: Ruth Arden", with: "name: Ruth Arden-Kim") }
        let renamed = try build()
        #expect(renamed.written.contains("crew/arden/feed.xml") && !renamed.written.contains("crew/vega/feed.xml"), "\(renamed.written)")
        #expect(try feed("arden").contains("<title>Kasei Station Log: Ruth Arden-Kim</title>"))
        try expectSameAsClean("renamed")

        try edit("marsgen.yml") { $0.replacingOccurrences(of: "crew_feeds: true\n", with: "") }
        #expect(try build().isFullBuild)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("crew/vega/feed.xml").path))
        try expectSameAsClean("turned off")
    }

    @Test("a sitemap that outgrows 'sitemap_max_urls' becomes an index of parts in an incremental build; shrunk back, it is one file again and its parts are deleted")
    func sitemapSplitAndJoined() throws {
        func sitemap() throws -> String { try String(contentsOf: output.appendingPathComponent("sitemap.xml"), encoding: .utf8) }
        func parts() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix("sitemap-") }.sorted()
        }
        func expectSameAsClean(_ step: String) throws {
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(step)")
        }
        let urls = try sitemap().components(separatedBy: "<url>").count - 1
        #expect(urls > 40)
        // Exactly as many URLs as a file may hold: still one file.
        try edit("marsgen.yml") { $0 + "sitemap_max_urls: \(urls)\n" }
        #expect(try build().isFullBuild)
        #expect(try sitemap().contains("<urlset") && parts().isEmpty)
        // A new entry on a new sol: two URLs more, so two parts and an index.
        try SiteFixture.write("---\ntitle: Far out\nauthor: okoro\nsol: 30\n---\nA long drive.\n", to: "content/journal/sol-30-far.md", in: site)
        let split = try build()
        #expect(!split.isFullBuild)
        #expect(try parts() == ["sitemap-1.xml", "sitemap-2.xml"])
        #expect(try sitemap().contains("<sitemapindex") && sitemap().contains("/sitemap-2.xml</loc>"))
        #expect(Set(["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"]).isSubset(of: split.written))
        #expect(split.explanations.contains("sitemap-2.xml: new page"), "\(split.explanations)")
        try expectSameAsClean("split")
        // Gone again: one file, the parts deleted.
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/journal/sol-30-far.md"))
        let joined = try build()
        #expect(!joined.isFullBuild)
        #expect(joined.deleted.sorted() == ["journal/sol-30-far/index.html", "sitemap-1.xml", "sitemap-2.xml", "sol/30/index.html"])
        #expect(try sitemap().contains("<urlset") && parts().isEmpty)
        try expectSameAsClean("joined")
    }

    @Test("a sol that loses its last object loses its page")
    func solLosesLastObject() throws {
        let sol1 = ["content/journal/sol-01-touchdown.md", "content/journal/sol-01-first-night.md", "content/weather/sol-01.md"]
        for path in sol1 { try FileManager.default.removeItem(at: site.appendingPathComponent(path)) }
        try edit("content/messages/habitat.md") { text in
            // The first three messages are on sol 1 (the log's default day).
            let start = text.range(of: "## Sol 2 06:35 tanaka")!.lowerBound
            return "---\nchannel: habitat\nsol: 1\n---\n" + text[start...]
        }
        let report = try build()
        #expect(report.deleted.contains("sol/1/index.html"))
        #expect(report.explanations.contains("sol/1: deleted, sol 1: lost last object"))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("sol/1").path))
        #expect(try SiteFixture.snapshot(output).keys.contains("sol/2/index.html"))
    }

    @Test("a cell template change rewrites exactly the pages that show that cell")
    func templateChange() throws {
        let built = try SiteFixture.snapshot(output)
        try SiteFixture.write("<div class=\"cell cell-detail\"><span class=\"detail-label\">{{label}}</span> <b>{{value}}</b></div>\n",
                              to: "templates/cell-weather-detail.mustache", in: site)
        let report = try build()
        let withWeather = built.filter { !$0.key.hasPrefix("theme/") && String(decoding: $0.value, as: UTF8.self).contains("detail-value") }.keys.sorted()
        #expect(report.written == withWeather)
        #expect(report.explanations.allSatisfy { $0.hasSuffix("template cell-weather-detail.mustache changed") })
    }

    @Test("a partial change rewrites every page whose layout uses it")
    func partialChange() throws {
        try edit("templates/footer.mustache") { $0.replacingOccurrences(of: "An invented mission", with: "A made-up mission") }
        let report = try build()
        // All but the old addresses (an entry's, the about page's), pages without the layout.
        let htmlPages = try SiteFixture.snapshot(output).keys.filter { $0.hasSuffix(".html") && !$0.hasPrefix("posts/") && !$0.hasPrefix("about-us/") }
        #expect(Set(report.written) == Set(htmlPages))
    }

    @Test("a parent template's change rewrites the pages whose template inherits from it ({{< parent}})")
    func parentTemplateChange() throws {
        try SiteFixture.write("{{<entry-frame}}{{$body}}<p class=\"inherited\">{{heading}}</p>{{/body}}{{/entry-frame}}\n",
                              to: "templates/page-entry.mustache", in: site)
        try SiteFixture.write("<div class=\"frame-1\">{{$body}}default{{/body}}</div>\n", to: "templates/entry-frame.mustache", in: site)
        let first = try build()
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        // The entries' pages, not the journal's list.
        let entries = try SiteFixture.snapshot(output).keys.filter { $0.hasPrefix("journal/") && $0.hasSuffix("/index.html") && $0 != "journal/index.html" }.sorted()
        #expect(!entries.isEmpty && Set(first.written).isSuperset(of: entries))
        try edit("templates/entry-frame.mustache") { $0.replacingOccurrences(of: "frame-1", with: "frame-2") }
        let report = try build()
        #expect(report.written == entries)
        let page = try String(contentsOf: output.appendingPathComponent(entries[0]), encoding: .utf8)
        #expect(page.contains("<div class=\"frame-2\"><p class=\"inherited\">"))
    }

    @Test("--explain names the crew file for what a renamed member's pages show, not the files of what they wrote")
    func crewRenameReason() throws {
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "name: Daniel Okoro", with: "name: Dan Okoro") }
        let report = try build()
        #expect(report.written.contains("crew/okoro/index.html") && report.written.contains("journal/sol-07-bags/index.html"))
        #expect(!report.explanations.isEmpty)
        #expect(report.explanations.allSatisfy { $0.hasSuffix(": crew.yml changed") }, "\(report.explanations)")
        // With a content file changed too, the pages of that file's objects name it again.
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "name: Dan Okoro", with: "name: Daniel Okoro") }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 39 today.") }
        #expect(try build().explanations.contains("journal/sol-07-bags: journal/sol-07-bags.md updated"))
    }

    @Test("a crew change parses again only the files by the members it changed, writes only the pages they show on, and equals a clean build")
    func crewChangeReadsItsAuthors() throws {
        /// The first object parsed from each content file, by path: the same one when the
        /// build reused what the previous build parsed.
        func firstObjects(_ sources: RecordTable<BuildState.SourceRecord>) -> [String: ObjectIdentifier] {
            Dictionary(uniqueKeysWithValues: sources.map { ($0.key, $0.value) }).compactMapValues { record in
                (record.journalEntries.first as AnyObject?) ?? (record.messages.first as AnyObject?)
                    ?? (record.weatherReports.first as AnyObject?)
            }.mapValues(ObjectIdentifier.init)
        }
        /// The content files an incremental build of the site as it is now parses again.
        func parsedFiles() throws -> Set<String> {
            let builder = SiteBuilder(options: BuildOptions(sourceDirectory: site.path))
            var context = BuildContext(options: builder.options)
            var before: [String: ObjectIdentifier] = [:]
            for step in builder.steps.prefix(while: { $0.name != "Resolve links" }) {
                try step.body(&context)
                if step.name == "Load build state" { before = firstObjects(context.state.sources) }
            }
            #expect(context.previous != nil && context.crewChanged)
            let after = firstObjects(context.state.sources)
            return Set(before.keys.filter { before[$0] != after[$0] })
        }
        // A member added: nothing they could have written was read before.
        try edit("content/crew.yml") { $0 + "zhou:\n  name: Li Zhou\n  role: Geologist\n" }
        #expect(try parsedFiles().isEmpty)
        var report = try build()
        #expect(report.written == ["crew/index.html", "crew/zhou/index.html", "sitemap.xml"], "\(report.written)")
        // A member renamed: the files with something by them, and only those.
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "name: Daniel Okoro", with: "name: Dan Okoro") }
        let byOkoro = try Set(SiteFixture.snapshot(site.appendingPathComponent("content")).compactMap { path, bytes in
            String(decoding: bytes, as: UTF8.self).contains(/author: okoro|## [^\n]*okoro/) ? "content/\(path)" : nil
        })
        #expect(byOkoro.count > 3 && byOkoro.contains("content/journal/sol-07-bags.md"))
        #expect(try parsedFiles() == byOkoro)
        report = try build()
        #expect(report.written.contains("journal/sol-07-bags/index.html") && report.written.contains("crew/index.html"))
        #expect(!report.written.contains("journal/sol-01-touchdown/index.html"))
        let incremental = try SiteFixture.snapshot(output)
        _ = try build(clean: true)
        #expect(try SiteFixture.snapshot(output) == incremental)
    }

    @Test("search: true: a message appended or an entry edited rewrites the search index, named by --explain; a weather report's edit too; turned off, the page, its index and their folder go")
    func searchIndexFollowsTheTexts() throws {
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:30 vega\nA needle in the regolith.\n", to: "content/messages/late.md", in: site)
        let appended = try build()
        #expect(!appended.isFullBuild && appended.written.contains("search/part-1.json"))
        #expect(appended.explanations.contains { $0.hasPrefix("search/part-1.json: message messages/late.md@") && $0.hasSuffix("/vega added") },
                "\(appended.explanations)")
        #expect(String(decoding: try Data(contentsOf: output.appendingPathComponent("search/part-1.json")), as: UTF8.self)
            .contains("\"text\":\"A needle in the regolith.\""))
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 39 today.") }
        let edited = try build()
        #expect(edited.explanations.contains("search/part-1.json: journal/sol-07-bags.md updated"), "\(edited.explanations)")
        // The index names its parts, which are as they were.
        #expect(!appended.written.contains("search/index.json") && !edited.written.contains("search/index.json"))
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
        // A report's notes are in the index too: its part is rewritten with them.
        try edit("content/weather/sol-03.md") { $0.replacingOccurrences(of: "Gusts to 18 m/s", with: "Gusts to 19 m/s") }
        let weather = try build()
        #expect(!weather.isFullBuild && weather.written.contains("search/part-1.json"), "\(weather.written)")
        #expect(weather.explanations.contains("search/part-1.json: weather weather/sol-03.md updated"), "\(weather.explanations)")
        #expect(String(decoding: try Data(contentsOf: output.appendingPathComponent("search/part-1.json")), as: UTF8.self).contains("Gusts to 19 m/s"))
        #expect(weather.pagesUnchanged + weather.pagesWritten == 85)
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
        // The setting off: a full build, which removes what it no longer makes.
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "search: true", with: "search: false") }
        let off = try build()
        #expect(off.isFullBuild)
        #expect(Set(off.deleted).isSuperset(of: ["search/index.html", "search/index.json", "search/part-1.json", "theme/search.js"]))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("search").path))
        let files = try SiteFixture.snapshot(output)
        #expect(files == (try cleanBuildSnapshot()))
        #expect(!files.contains { $0.key.hasSuffix(".html") && String(decoding: $0.value, as: UTF8.self).contains("/search/") })
    }

    @Test("an entry moved to another sol rewrites both sols' pages; --explain names it on the pages it left or shifted")
    func entryMovedToAnotherSol() throws {
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 7\n", with: "sol: 9\n") }
        let report = try build()
        #expect(report.written.contains("sol/7/index.html") && report.written.contains("sol/9/index.html"))
        #expect(report.explanations.contains("sol/9: journal/sol-07-bags.md updated"))
        // Sol 7 no longer shows it; its old neighbour links elsewhere; archive page 3 lost it to page 4.
        #expect(report.explanations.contains("sol/7: links or counts changed, journal/sol-07-bags.md updated"), "\(report.explanations)")
        #expect(report.explanations.contains("journal/sol-07-sick-day: order changed, journal/sol-07-bags.md updated"))
        #expect(report.explanations.contains("page/3: order changed, journal/sol-07-bags.md updated"))
        // With two edits in one build, which one changed such a page is not known: no name.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 9\n", with: "sol: 7\n") }
        try edit("content/journal/sol-08-greenhouse-sprouts.md") { $0 + "\nOne more line.\n" }
        let both = try build()
        #expect(both.explanations.contains("sol/9: order changed"), "\(both.explanations)")
    }

    @Test("--explain tells a new static file from a changed one, and names a removed one")
    func staticFileReasons() throws {
        try SiteFixture.write("mission patch\n", to: "static/patch.txt", in: site)
        #expect(try build().explanations == ["patch.txt: new static file"])
        try SiteFixture.write("mission patch, v2\n", to: "static/patch.txt", in: site)
        #expect(try build().explanations == ["patch.txt: static file changed"])
        try FileManager.default.removeItem(at: site.appendingPathComponent("static/patch.txt"))
        let report = try build()
        #expect(report.deleted == ["patch.txt"])
        #expect(report.explanations == ["patch.txt: deleted, static file removed"])
    }

    @Test("an entry that adds the first page of a folder a static file is named like is the error a full build gives, before anything is written; every clash is named")
    func staticFileWhereANewPageGoes() throws {
        // No object is on sol 40 yet: `static/sol/40` is copied as it is.
        try SiteFixture.write("not a folder\n", to: "static/sol/40", in: site)
        #expect(try build().explanations == ["sol/40: new static file"])
        let before = try SiteFixture.snapshot(output)
        try SiteFixture.write("---\ntitle: Far ahead\nauthor: okoro\nsol: 40\n---\nPlanning.\n",
                              to: "content/journal/sol-40-ahead.md", in: site)
        for clean in [false, true] {
            #expect {
                _ = try build(clean: clean)
            } throws: { error in
                let diagnostic = error as? Diagnostic
                return diagnostic?.location?.path == "static/sol/40"
                    && diagnostic?.message == "static file sol/40 and a generated page need the same name, one as a file and the other as a folder"
                    && diagnostic?.hint == "rename or move the file in static/"
            }
            #expect(try SiteFixture.snapshot(output) == before)
        }
        // Two more: one where a page's folder goes, one that takes a page's path; all are named.
        try SiteFixture.write("x\n", to: "static/crew", in: site)
        try SiteFixture.write("x\n", to: "static/feed.xml", in: site)
        #expect {
            _ = try build()
        } throws: { error in
            (error as? Diagnostic)?.hint == "rename or move the file in static/; so too static/feed.xml, static/sol/40"
        }
        for file in ["crew", "feed.xml", "sol/40"] {
            try FileManager.default.removeItem(at: site.appendingPathComponent("static/\(file)"))
        }
        let report = try build()
        #expect(report.written.contains("sol/40/index.html") && report.deleted == ["sol/40"])
        // And back: the page's folder goes, the static file takes its name, in one build.
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/journal/sol-40-ahead.md"))
        try SiteFixture.write("not a folder\n", to: "static/sol/40", in: site)
        let back = try build()
        #expect(!back.isFullBuild && back.deleted.contains("sol/40/index.html"))
        #expect(try SiteFixture.snapshot(output) == before)
    }

    @Test("a file in a content folder not named '.md', or in templates/ not named '.mustache', is a warning on every build until it is renamed or gone")
    func filesNotMarkdown() throws {
        try SiteFixture.write("---\ntitle: \"Later\"\nauthor: vega\nsol: 14\n---\nMore.\n", to: "content/journal/sol-14-later.markdown", in: site)
        let message = "'sol-14-later.markdown' does not end in '.md': marsgen reads only Markdown files so named here, and nothing on the site comes from it"
        let added = try build()
        #expect(!added.isFullBuild && added.pagesWritten == 0)
        #expect(added.warnings.map(\.message) == [message])
        #expect(added.warnings.first?.hint == "marsgen reads Markdown files named '….md': rename it 'sol-14-later.md'")
        #expect(try build().warnings.map(\.message) == [message])
        try FileManager.default.moveItem(at: site.appendingPathComponent("content/journal/sol-14-later.markdown"),
                                         to: site.appendingPathComponent("content/journal/sol-14-later.md"))
        let renamed = try build()
        #expect(renamed.warnings.isEmpty, "\(renamed.warnings)")
        #expect(renamed.written.contains("journal/sol-14-later/index.html"))
        let incremental = try SiteFixture.snapshot(output)
        #expect(try build(clean: true).warnings.isEmpty)
        #expect(try SiteFixture.snapshot(output) == incremental)
        // A template not named '.mustache': no page is written again, and the warning stays until it goes.
        try SiteFixture.write("<title>{{ page.title }}</title>\n", to: "templates/single.html", in: site)
        let template = try build()
        #expect(template.pagesWritten == 0)
        #expect(template.warnings.map(\.message) == ["'single.html' does not end in '.mustache': marsgen makes no page with it"])
        #expect(template.warnings.first?.hint?.contains("(templates/page-entry.mustache)") == true)
        #expect(try build().warnings.count == 1)
        try FileManager.default.removeItem(at: site.appendingPathComponent("templates/single.html"))
        #expect(try build().warnings.isEmpty)
    }

    @Test("a link to a heading is checked on every build: a heading renamed or removed makes it a warning, on incremental and no-op builds alike, until fixed")
    func linksToHeadings() throws {
        try edit("content/journal/sol-05-chess.md") { $0 + "\nSee [the plan](sol-14-two-weeks.md#next-fortnight) and [ours](journal/sol-14-two-weeks/#sol-14-two-weeks:what-we-have).\n" }
        let linked = try build()
        #expect(linked.warnings.isEmpty, "\(linked.warnings)")
        // The heading renamed: only the renamed entry's pages change, and the link that
        // leads to it is a warning, with the heading's new fragment.
        try edit("content/journal/sol-14-two-weeks.md") { $0.replacingOccurrences(of: "## Next fortnight", with: "## Next fortnights") }
        let renamed = try build()
        #expect(!renamed.isFullBuild && !renamed.written.contains("journal/sol-05-chess/index.html"))
        let expected = "link 'sol-14-two-weeks.md#next-fortnight' leads to /journal/sol-14-two-weeks/, where no heading has the id 'sol-14-two-weeks:next-fortnight'"
        #expect(renamed.warnings.map(\.message) == [expected], "\(renamed.warnings)")
        #expect(renamed.warnings.first?.hint == "did you mean 'sol-14-two-weeks.md#next-fortnights'?")
        #expect(renamed.warnings.first?.location?.path == "content/journal/sol-05-chess.md")
        #expect(try build().warnings.map(\.message) == [expected])
        // The other heading removed as well: the site link too.
        try edit("content/journal/sol-14-two-weeks.md") { $0.replacingOccurrences(of: "## What we have\n", with: "") }
        #expect(try build().warnings.count == 2)
        // Both back: no warning.
        try edit("content/journal/sol-14-two-weeks.md") {
            $0.replacingOccurrences(of: "## Next fortnights", with: "## Next fortnight")
                .replacingOccurrences(of: "\n- a hab", with: "\n## What we have\n\n- a hab")
        }
        let fixed = try build()
        #expect(fixed.warnings.isEmpty, "\(fixed.warnings)")
        let incremental = try SiteFixture.snapshot(output)
        #expect(try build(clean: true).warnings.isEmpty)
        #expect(try SiteFixture.snapshot(output) == incremental)
        // A slug of its own: the link by file follows it, fragment and all, and is checked
        // where it leads now (the file is read first with a guess, then parsed again), on an
        // incremental build and a clean one alike. The link by URL names the old page.
        try edit("content/journal/sol-14-two-weeks.md") { $0.replacingOccurrences(of: "sol: 14\n", with: "sol: 14\nslug: two-weeks\n") }
        for clean in [false, true] {
            let moved = try build(clean: clean)
            #expect(moved.warnings.map(\.message) == ["link 'journal/sol-14-two-weeks/' leads to no page or file of the site"],
                    "\(moved.warnings)")
            let chess = try String(contentsOf: output.appendingPathComponent("journal/sol-05-chess/index.html"), encoding: .utf8)
            #expect(chess.contains("href=\"/journal/two-weeks/#two-weeks:next-fortnight\""))
        }
    }

    @Test("a link to another entry's file follows that entry's slug; one to a file that went is an error at the link, the output untouched")
    func linksBetweenEntries() throws {
        try edit("content/journal/sol-05-chess.md") { $0 + "\nYesterday: [the bags](sol-07-bags.md#tally).\n" }
        try edit("content/journal/sol-07-bags.md") { $0 + "\n## Tally\n\n38 bags.\n" }
        _ = try build()
        let chess = output.appendingPathComponent("journal/sol-05-chess/index.html")
        // To the heading's id, which carries the entry's slug.
        #expect(try String(contentsOf: chess, encoding: .utf8).contains("href=\"/journal/sol-07-bags/#sol-07-bags:tally\""))
        // A new slug for the entry linked to: the page with the link is written again, and
        // the site is the one a clean build makes.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 7\n", with: "sol: 7\nslug: bags\n") }
        let report = try build()
        #expect(report.written.contains("journal/sol-05-chess/index.html"), "\(report.written)")
        // --explain says which link moved: the file itself was not edited.
        #expect(report.explanations.contains("journal/sol-05-chess: journal/sol-05-chess.md updated: its link to content/journal/sol-07-bags.md now leads to /journal/bags/"),
                "\(report.explanations)")
        #expect(try String(contentsOf: chess, encoding: .utf8).contains("href=\"/journal/bags/#bags:tally\""))
        var incremental = try SiteFixture.snapshot(output)
        #expect(try build(clean: true).pagesWritten > 0)
        #expect(try SiteFixture.snapshot(output) == incremental)
        // The file with the link edited: read before the targets are known, it writes the link
        // where an entry named like its file would be, wrongly here, and is parsed again;
        // --explain says the file changed, not its link.
        try edit("content/journal/sol-05-chess.md") { $0 + "\nMore chess.\n" }
        let edited = try build()
        #expect(edited.explanations.contains("journal/sol-05-chess: journal/sol-05-chess.md updated"), "\(edited.explanations)")
        #expect(try String(contentsOf: chess, encoding: .utf8).contains("href=\"/journal/bags/#bags:tally\""))
        incremental = try SiteFixture.snapshot(output)
        #expect(try build(clean: true).pagesWritten > 0)
        #expect(try SiteFixture.snapshot(output) == incremental)
        // The entry linked to removed: an error at the link, and nothing written.
        let bags = site.appendingPathComponent("content/journal/sol-07-bags.md")
        let text = try Data(contentsOf: bags)
        try FileManager.default.removeItem(at: bags)
        #expect {
            _ = try build()
        } throws: { error in
            let diagnostic = error as? Diagnostic
            return diagnostic?.location?.path == "content/journal/sol-05-chess.md" && diagnostic?.location?.line != nil
                && diagnostic?.message == "link to 'sol-07-bags.md': content/journal/sol-07-bags.md is not a journal entry, message log, weather report or page of this site"
        }
        #expect(try SiteFixture.snapshot(output) == incremental)
        // Back as a draft: the site builds, and the link's warning is given again by builds that change nothing.
        try text.write(to: bags)
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "slug: bags\n", with: "slug: bags\ndraft: true\n") }
        let draft = try build()
        #expect(draft.warnings.map(\.message).contains { $0.hasPrefix("link to 'sol-07-bags.md', a draft") }, "\(draft.warnings)")
        #expect(try build().warnings.map(\.message).contains { $0.hasPrefix("link to 'sol-07-bags.md', a draft") })
    }

    @Test("a link to a weather report's file leads to its place on its sol's page, also when the file is named after another sol")
    func linksToWeather() throws {
        try edit("content/weather/sol-03.md") { $0.replacingOccurrences(of: "sol: 3\n", with: "sol: 20\n") }
        try appendLine("[moved](../weather/sol-03.md) [named](../weather/sol-04.md)", to: "content/journal/sol-05-chess.md")
        func places() throws -> [String] {
            let chess = try String(contentsOf: output.appendingPathComponent("journal/sol-05-chess/index.html"), encoding: .utf8)
            return chess.matches(of: /href="(\/sol\/[0-9]+\/#w-[0-9a-f]+)"/).map { String($0.1) }
        }
        func shown(_ sol: Int) throws -> String {
            let page = try String(contentsOf: output.appendingPathComponent("sol/\(sol)/index.html"), encoding: .utf8)
            return try #require(page.firstMatch(of: /id="(w-[0-9a-f]{12})"/)?.1).description
        }
        for clean in [true, false] {
            if !clean { try appendLine("Check.", to: "content/journal/sol-05-chess.md") }
            let report = try build(clean: clean)
            #expect(report.isFullBuild == clean)
            #expect(try places() == ["/sol/20/#\(try shown(20))", "/sol/4/#\(try shown(4))"])
        }
        let incremental = try SiteFixture.snapshot(output)
        _ = try build(clean: true)
        #expect(try SiteFixture.snapshot(output) == incremental)
    }

    @Test("a link to a log's file leads to its first message, written right the first time by the entries and reports; a new first message moves it")
    func linksToLogs() throws {
        try appendLine("[the EVA](../messages/eva-ops.md)", to: "content/journal/sol-05-chess.md")
        try appendLine("[the EVA](../messages/eva-ops.md)", to: "content/weather/sol-03.md")
        /// The anchor of the log's first message on its sol's page (oldest first).
        func firstMessage() throws -> String {
            let page = try String(contentsOf: output.appendingPathComponent("sol/2/index.html"), encoding: .utf8)
            return try #require(page.firstMatch(of: /id="(m-[0-9a-f]{12})" data-diff-id="message:content\/messages\/eva-ops\.md@/)?.1).description
        }
        func linked(from page: String) throws -> [String] {
            let html = try String(contentsOf: output.appendingPathComponent(page), encoding: .utf8)
            return html.matches(of: /href="(\/sol\/2\/#m-[0-9a-f]+)"/).map { String($0.1) }
        }
        for clean in [true, false] {
            if !clean { try appendLine("Check.", to: "content/journal/sol-05-chess.md") }
            #expect(try build(clean: clean).isFullBuild == clean)
            #expect(try linked(from: "journal/sol-05-chess/index.html") == ["/sol/2/#\(try firstMessage())"])
            #expect(try linked(from: "sol/3/index.html") == ["/sol/2/#\(try firstMessage())"])
        }
        // The logs are read first: when the entries and reports are, where each link to a log
        // leads is known, and "Resolve links" finds nothing to parse again.
        let builder = SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: true))
        var context = BuildContext(options: builder.options)
        for step in builder.steps.prefix(while: { $0.name != "Resolve links" }) { try step.body(&context) }
        let links = try builder.contentLinks(context)
        let uses = context.state.sources.values.flatMap(\.links).filter { $0.target == "content/messages/eva-ops.md" }
        #expect(uses.count == 2 && uses.allSatisfy { $0.resolution == links.resolution(of: $0.target) }, "\(uses)")
        // An earlier first message: the pages linking to the log follow, and say why.
        let before = try firstMessage()
        try edit("content/messages/eva-ops.md") { $0.replacingOccurrences(of: "## 09:55 arden", with: "## 09:50 vega\nRadio check.\n\n## 09:55 arden") }
        let report = try build()
        #expect(try firstMessage() != before)
        #expect(try linked(from: "journal/sol-05-chess/index.html") == ["/sol/2/#\(try firstMessage())"])
        #expect(report.explanations.contains("journal/sol-05-chess: journal/sol-05-chess.md updated: its link to content/messages/eva-ops.md now leads to /sol/2/#\(try firstMessage())"),
                "\(report.explanations)")
        let incremental = try SiteFixture.snapshot(output)
        _ = try build(clean: true)
        #expect(try SiteFixture.snapshot(output) == incremental)
    }

    @Test("--keep-going: a link to a file left out for its errors is a warning, and the file holding it stays in; fixed, the link leads to it")
    func linksToFilesWithErrors() throws {
        let chessLink = try appendLine("[the EVA](../messages/eva-ops.md)", to: "content/journal/sol-05-chess.md")
        let reportLink = try appendLine("[chess](../journal/sol-05-chess.md)", to: "content/weather/sol-03.md")
        func keepGoing(clean: Bool = false) throws -> BuildReport {
            try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: clean, keepsGoing: true)).build()
        }
        func leadsNowhere(_ report: BuildReport) -> [String] {
            warnings(report) { $0.message.contains("left out of this build") }
        }
        func errors(_ report: BuildReport) -> [String] { report.errors.map { "\($0.location?.description ?? ""): \($0.message)" } }
        let chessWarning = "content/journal/sol-05-chess.md:\(chessLink):1: link to '../messages/eva-ops.md': content/messages/eva-ops.md has errors and is left out of this build, so the link leads nowhere (fix the errors reported for that file; the next build then writes this link to its page)"
        let chessPage = output.appendingPathComponent("journal/sol-05-chess/index.html")

        // The log broken: the entry linking to it is built, its link left as written.
        try edit("content/messages/eva-ops.md") { $0.replacingOccurrences(of: "sol: 2\n", with: "sol: two\n") }
        var snapshots: [[String: Data]] = []
        for clean in [false, true, false] {
            let report = try keepGoing(clean: clean)
            #expect(errors(report) == ["content/messages/eva-ops.md:3:6: 'sol' must be a whole number, not 'two'"])
            #expect(leadsNowhere(report) == [chessWarning], "clean: \(clean)")
            let page = try String(contentsOf: chessPage, encoding: .utf8)
            #expect(page.contains("href=\"/../messages/eva-ops.md\""))
            snapshots.append(try SiteFixture.snapshot(output))
        }
        // The incremental builds, the one after the edit and the one after nothing changed,
        // give what a clean build gives.
        #expect(snapshots[0] == snapshots[1] && snapshots[2] == snapshots[1])

        // An entry left out while its links were written (one of them leads nowhere): the
        // report linking to it follows, in the same build.
        let typo = try appendLine("[bags](sol-07-bagz.md)", to: "content/journal/sol-05-chess.md")
        for clean in [false, true] {
            let report = try keepGoing(clean: clean)
            #expect(Set(errors(report)) == [
                "content/messages/eva-ops.md:3:6: 'sol' must be a whole number, not 'two'",
                "content/journal/sol-05-chess.md:\(typo):1: link to 'sol-07-bagz.md': content/journal/sol-07-bagz.md is not a journal entry, message log, weather report or page of this site",
            ])
            #expect(leadsNowhere(report) == [
                "content/weather/sol-03.md:\(reportLink):1: link to '../journal/sol-05-chess.md': content/journal/sol-05-chess.md has errors and is left out of this build, so the link leads nowhere (fix the errors reported for that file; the next build then writes this link to its page)",
            ], "clean: \(clean)")
            #expect(!FileManager.default.fileExists(atPath: chessPage.path))
            let sol3 = try String(contentsOf: output.appendingPathComponent("sol/3/index.html"), encoding: .utf8)
            #expect(sol3.contains("href=\"/../journal/sol-05-chess.md\""))
            snapshots.append(try SiteFixture.snapshot(output))
        }
        #expect(snapshots[3] == snapshots[4])

        // Both fixed: an incremental build writes the links to their pages, and equals a clean
        // build. (Why it says the report's page changed depends on the clock: files this test
        // wrote moments before a build are read again, not reused.)
        try edit("content/journal/sol-05-chess.md") { $0.replacingOccurrences(of: "sol-07-bagz.md", with: "sol-07-bags.md") }
        try edit("content/messages/eva-ops.md") { $0.replacingOccurrences(of: "sol: two\n", with: "sol: 2\n") }
        let fixed = try build()
        #expect(fixed.errors.isEmpty && leadsNowhere(fixed).isEmpty)
        #expect(fixed.explanations.contains { $0.hasPrefix("sol/3: weather weather/sol-03.md updated") })
        let chess = try String(contentsOf: chessPage, encoding: .utf8)
        #expect(chess.contains(/href="\/sol\/2\/#m-[0-9a-f]{12}"/))
        let incremental = try SiteFixture.snapshot(output)
        _ = try build(clean: true)
        #expect(try SiteFixture.snapshot(output) == incremental)
    }

    @Test("--keep-going: a link to an entry left out for its slug, or a report for its sol, leads nowhere and says so; the conflict gone, it leads to its page")
    func linksToConflictsLeftOut() throws {
        let line = try appendLine("[the copy](sol-07-zcopy.md) [the gusts](../weather/sol-03b.md)", to: "content/journal/sol-05-chess.md")
        // Each second in path order: sol-07-bags.md keeps the slug, sol-03.md the sol.
        try SiteFixture.write("---\ntitle: Copy\nslug: sol-07-bags\nauthor: okoro\nsol: 7\n---\nA copy.\n",
                              to: "content/journal/sol-07-zcopy.md", in: site)
        try SiteFixture.write("---\nsol: 3\ntemperature: -40\nhigh: -10\nlow: -80\nsunrise: \"05:57\"\nsunset: \"17:50\"\ncondition: windy\n---\nGusts.\n",
                              to: "content/weather/sol-03b.md", in: site)
        func keepGoing(clean: Bool = false) throws -> BuildReport {
            try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: clean, keepsGoing: true)).build()
        }
        let hint = "(fix the errors reported for that file; the next build then writes this link to its page)"
        let chessPage = output.appendingPathComponent("journal/sol-05-chess/index.html")
        var snapshots: [[String: Data]] = []
        for clean in [false, true, false] {
            let report = try keepGoing(clean: clean)
            #expect(report.errors.map { "\($0.location?.path ?? ""): \($0.message)" } == [
                "content/journal/sol-07-zcopy.md: two journal entries have the slug 'sol-07-bags'",
                "content/weather/sol-03b.md: two weather reports are for sol 3",
            ])
            #expect(warnings(report) { $0.message.contains("left out of this build") } == [
                "content/journal/sol-05-chess.md:\(line):1: link to 'sol-07-zcopy.md': content/journal/sol-07-zcopy.md has errors and is left out of this build, so the link leads nowhere \(hint)",
                "content/journal/sol-05-chess.md:\(line):29: link to '../weather/sol-03b.md': content/weather/sol-03b.md has errors and is left out of this build, so the link leads nowhere \(hint)",
            ], "clean: \(clean)")
            let page = try String(contentsOf: chessPage, encoding: .utf8)
            #expect(page.contains("href=\"/sol-07-zcopy.md\">the copy"), "clean: \(clean)")
            #expect(!page.contains("href=\"/journal/sol-07-bags/\">the copy"))
            snapshots.append(try SiteFixture.snapshot(output))
        }
        #expect(snapshots[0] == snapshots[1] && snapshots[2] == snapshots[1])

        // The copy gets a slug of its own and the report a sol of its own: the links lead to
        // their pages, in an incremental build equal to a clean one.
        try edit("content/journal/sol-07-zcopy.md") { $0.replacingOccurrences(of: "slug: sol-07-bags", with: "slug: sol-07-copy") }
        try edit("content/weather/sol-03b.md") { $0.replacingOccurrences(of: "sol: 3\n", with: "sol: 15\n") }
        let fixed = try keepGoing()
        #expect(fixed.errors.isEmpty)
        #expect(warnings(fixed) { $0.message.contains("left out of this build") }.isEmpty)
        let page = try String(contentsOf: chessPage, encoding: .utf8)
        #expect(page.contains("href=\"/journal/sol-07-copy/\">the copy"))
        #expect(page.contains(/href="\/sol\/15\/#w-[0-9a-f]{12}">the gusts/))
        let incremental = try SiteFixture.snapshot(output)
        _ = try build(clean: true)
        #expect(try SiteFixture.snapshot(output) == incremental)
    }

    @Test("a link or image to no page or file of the site is a warning at it, from every build, full or incremental, until a page or file is there")
    func siteLinks() throws {
        // The demo's own image and links lead somewhere: no warning.
        #expect(try build(clean: true).warnings.isEmpty)
        try edit("content/journal/sol-05-chess.md") {
            $0 + "\n![map](img/map%20v2.png) [bags](journal/sol-07-bags/) [sol](sol/5/#w-x) [feed](feed.xml) [bag](journal/sol-07-bag/)\n"
        }
        func siteLinkWarnings(_ report: BuildReport) -> [String] {
            report.warnings.filter { $0.message.contains("leads to") }.map { "\($0.location?.description ?? ""): \($0.message) (\($0.hint ?? ""))" }
        }
        let lines = try #require(try String(contentsOf: site.appendingPathComponent("content/journal/sol-05-chess.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("![map]") }) + 1
        let broken = [
            "content/journal/sol-05-chess.md:\(lines):1: image 'img/map v2.png' leads to no page or file of the site (relative URLs start at the site's root, where static/ is copied: put the file in static/ at that path, or fix the URL)",
            "content/journal/sol-05-chess.md:\(lines):90: link 'journal/sol-07-bag/' leads to no page or file of the site (did you mean 'journal/sol-07-bags/'?)",
        ]
        #expect(try siteLinkWarnings(build()) == broken)
        // A build that changes nothing says so again.
        #expect(try siteLinkWarnings(build()) == broken)
        // The image's file added: its warning goes, in an incremental build.
        try SiteFixture.write("png\n", to: "static/img/map v2.png", in: site)
        let added = try build()
        #expect(!added.isFullBuild && siteLinkWarnings(added) == [broken[1]])
        // The entry linked to gets another slug: the link that led to it leads nowhere now,
        // and the one written with the new slug leads somewhere.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 7\n", with: "sol: 7\nslug: sol-07-bag\n") }
        #expect(try siteLinkWarnings(build()) == [broken[1].replacingOccurrences(of: ":90: link 'journal/sol-07-bag/'", with: ":26: link 'journal/sol-07-bags/'")
            .replacingOccurrences(of: "did you mean 'journal/sol-07-bags/'?", with: "did you mean 'journal/sol-07-bag/'?")])
        // A draft's links are not shown anywhere, so not checked.
        try edit("content/journal/sol-05-chess.md") { $0.replacingOccurrences(of: "sol: 5\n", with: "sol: 5\ndraft: true\n") }
        #expect(try siteLinkWarnings(build()).isEmpty)
    }

    @Test("links from the host's root and URLs in raw HTML are checked too; outside the base path, only one the site could answer is a warning")
    func hostRootAndRawHTMLLinks() throws {
        try edit("marsgen.yml") {
            $0.replacingOccurrences(of: "base_url: https://kasei-station.example.org/", with: "base_url: https://kasei-station.example.org/mission/")
                + "unsafe_html: true\n"
        }
        #expect(try build().warnings.isEmpty)
        try edit("content/journal/sol-05-chess.md") {
            $0 + "\n[a](/mission/journal/sol-07-bag/) ![b](/img/dust-devil.svg) [c](/other/app/) [d](/mission/sol/5/) [e](/mission/downloads/a.zip)\n\n"
                + "<p><img src=\"img/nope.png\" alt=\"\"> <a href=\"/mission/feed.xml\">feed</a> <a href=\"sol-07-bags.md\">bags</a> <video src=\"clips/none.mp4\"></video></p>\n"
        }
        let lines = try #require(try String(contentsOf: site.appendingPathComponent("content/journal/sol-05-chess.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("[a](/mission") }) + 1
        func siteLinkWarnings(_ report: BuildReport) -> [String] {
            report.warnings.filter { $0.message.contains("leads") }.map { "\($0.location?.description ?? ""): \($0.message) (\($0.hint ?? ""))" }
        }
        let expected = [
            "content/journal/sol-05-chess.md:\(lines):1: link '/mission/journal/sol-07-bag/' leads to no page or file of the site (did you mean '/mission/journal/sol-07-bags/'?)",
            "content/journal/sol-05-chess.md:\(lines):35: image '/img/dust-devil.svg' leads outside the site, whose base path is /mission/ "
                + "(did you mean '/mission/img/dust-devil.svg'? A URL from the host's root starts with the base path; or write it relative to the site's root, as 'img/dust-devil.svg')",
            "content/journal/sol-05-chess.md:\(lines + 2):14: image 'img/nope.png' leads to no page or file of the site "
                + "(relative URLs start at the site's root, where static/ is copied: put the file in static/ at that path, or fix the URL)",
            "content/journal/sol-05-chess.md:\(lines + 2):82: link 'sol-07-bags.md' leads to no page or file of the site "
                + "(only a Markdown link ([text](sol-07-bags.md)) leads to the page of a content file)",
            // Named by its element: neither a link nor an image.
            "content/journal/sol-05-chess.md:\(lines + 2):119: <video src> 'clips/none.mp4' leads to no page or file of the site "
                + "(relative URLs start at the site's root, where static/ is copied: put the file in static/ at that path, or fix the URL)",
        ]
        let unchecked = "content/journal/sol-05-chess.md:\(lines):99: link '/mission/downloads/a.zip' leads to no page or file of the site "
            + "(the site's root is /mission/, where static/ is copied: put the file in static/ at that path, or fix the URL; "
            + "if it is served beside the site, add how its URL begins to 'unchecked_links' in marsgen.yml)"
        #expect(try siteLinkWarnings(build()) == Array(expected.prefix(2)) + [unchecked] + expected.suffix(3))
        // A URL the site does not make but its server does (marsgen.yml says how it begins,
        // escaped or not) is not checked.
        try edit("marsgen.yml") { $0 + "unchecked_links: [/mission/down%6Coads/]\n" }
        #expect(try siteLinkWarnings(build()) == expected)
        // Left as written, the page links where the writer said.
        let chess = try String(contentsOf: output.appendingPathComponent("journal/sol-05-chess/index.html"), encoding: .utf8)
        #expect(chess.contains("src=\"/img/dust-devil.svg\"") && chess.contains("src=\"/mission/img/nope.png\""))
        // The image's file added: its warning goes, in an incremental build.
        try SiteFixture.write("png\n", to: "static/img/nope.png", in: site)
        let added = try build()
        #expect(!added.isFullBuild && siteLinkWarnings(added) == [expected[0], expected[1], expected[3], expected[4]])
        // Raw HTML left out of the pages (the default) holds no links.
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "unsafe_html: true\n", with: "") }
        try FileManager.default.removeItem(at: site.appendingPathComponent("static/img/nope.png"))
        #expect(try siteLinkWarnings(build()) == Array(expected.prefix(2)))
    }

    @Test("an image's file given another size, made unreadable, removed or added: the pages showing it are written again with its size, from the command line and under watch")
    func imageSizes() throws {
        let page = "journal/sol-06-dust-devil/index.html"
        func image() throws -> String {
            let html = try String(contentsOf: output.appendingPathComponent(page), encoding: .utf8)
            guard let start = html.range(of: "<img src=\"/img/dust-devil.svg\""), let end = html[start.upperBound...].range(of: "/>") else { return "" }
            return String(html[start.lowerBound..<end.upperBound])
        }
        let alt = "alt=\"The dust devil over the solar field, from the east camera\""
        #expect(try image() == "<img src=\"/img/dust-devil.svg\" \(alt) width=\"640\" height=\"260\" decoding=\"async\" />")
        let svg = site.appendingPathComponent("static/img/dust-devil.svg")
        let original = try String(contentsOf: svg, encoding: .utf8)
        func resize(_ size: String) throws {
            try Data(original.replacingOccurrences(of: "width=\"640\" height=\"260\"", with: size).utf8).write(to: svg)
        }
        let shown = Set(["journal/sol-06-dust-devil/index.html", "sol/6/index.html", "crew/arden/index.html"])
        // From the command line: each build incremental, the entry's pages written and no other, as a clean build writes them.
        for (size, expected) in [("width=\"320\" height=\"130\"", " width=\"320\" height=\"130\""), ("width=\"50%\" height=\"50%\"", "")] {
            try resize(size)
            let report = try build()
            #expect(!report.isFullBuild)
            #expect(try image() == "<img src=\"/img/dust-devil.svg\" \(alt)\(expected) decoding=\"async\" />")
            #expect(Set(report.written).isSuperset(of: shown), "\(report.written)")
            // Every page written shows the image; so does the feed.
            for path in report.written where path != "img/dust-devil.svg" {
                #expect(try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8).contains("/img/dust-devil.svg"), "\(path)")
            }
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(size)")
        }
        #expect(try build().written.isEmpty)
        // Under watch: told of the file alone, as a watcher tells.
        let (options, _) = try watchedOptions()
        try resize("width=\"100\" height=\"40\"")
        let watched = try watchedBuild(options, reported: ["static/img/dust-devil.svg"])
        #expect(watched.explanations.contains("journal/sol-06-dust-devil: journal/sol-06-dust-devil.md updated: its image img/dust-devil.svg is now 100×40"),
                "\(watched.explanations)")
        #expect(try image().contains(" width=\"100\" height=\"40\" "))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "watched")
        try FileManager.default.removeItem(at: svg)
        _ = try watchedBuild(options, reported: ["static/img/dust-devil.svg"])
        #expect(try image() == "<img src=\"/img/dust-devil.svg\" \(alt) decoding=\"async\" />")
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "removed")
        try Data(original.utf8).write(to: svg)
        _ = try watchedBuild(options, reported: ["static/img/dust-devil.svg"])
        #expect(try image().contains(" width=\"640\" height=\"260\" "))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "added again")
        // Another static file changed: no content file is read again.
        try SiteFixture.write("User-agent: *\n", to: "static/robots.txt", in: site)
        #expect(try watchedBuild(options, reported: ["static/robots.txt"]).written == ["robots.txt"])
        // An entry's link-preview picture (its text's first image) gives its page's Open Graph size.
        func previewSize() throws -> [String] {
            let html = try String(contentsOf: output.appendingPathComponent("journal/sol-01-touchdown/index.html"), encoding: .utf8)
            return html.split(separator: "\n").filter { $0.contains("og:image:width") || $0.contains("og:image:height") }.map(String.init)
        }
        #expect(try previewSize() == ["<meta property=\"og:image:width\" content=\"1200\">", "<meta property=\"og:image:height\" content=\"630\">"])
        var png = [UInt8](try Data(contentsOf: site.appendingPathComponent("static/img/kasei-horizon.png")))
        // Its header says 1024 × 512 now.
        png.replaceSubrange(16..<24, with: [0, 0, 0x04, 0x00, 0, 0, 0x02, 0x00])
        try Data(png).write(to: site.appendingPathComponent("static/img/kasei-horizon.png"))
        _ = try watchedBuild(options, reported: ["static/img/kasei-horizon.png"])
        #expect(try previewSize() == ["<meta property=\"og:image:width\" content=\"1024\">", "<meta property=\"og:image:height\" content=\"512\">"])
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "preview picture resized")
    }

    @Test("the site's picture given another size: a full build that says why, every page without a picture of its own showing the new size; a settings change is told as before")
    func siteImageSize() throws {
        func previewSize(_ page: String) throws -> [String] {
            let html = try String(contentsOf: output.appendingPathComponent(page), encoding: .utf8)
            return html.split(separator: "\n").filter { $0.contains("og:image:width") || $0.contains("og:image:height") }.map(String.init)
        }
        func metas(_ width: Int, _ height: Int) -> [String] {
            ["<meta property=\"og:image:width\" content=\"\(width)\">", "<meta property=\"og:image:height\" content=\"\(height)\">"]
        }
        #expect(try previewSize("index.html") == metas(1200, 630))
        #expect(try previewSize("sol/3/index.html") == metas(1200, 630))
        // The JPEG's frame header says 1080 × 1080 now.
        let jpeg = site.appendingPathComponent("static/img/kasei-station.jpg")
        var bytes = [UInt8](try Data(contentsOf: jpeg))
        let frame = try #require((2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(frame + 5..<frame + 9, with: [0x04, 0x38, 0x04, 0x38])
        try Data(bytes).write(to: jpeg)
        let resized = try build()
        #expect(resized.isFullBuild)
        #expect(resized.notice == "the picture marsgen.yml's image: names changed size; doing a full build")
        #expect(try previewSize("index.html") == metas(1080, 1080))
        #expect(try previewSize("sol/3/index.html") == metas(1080, 1080))
        // An entry's own picture keeps its own size.
        #expect(try previewSize("journal/sol-01-touchdown/index.html") == metas(1200, 630))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
        #expect(try !build().isFullBuild)
        // Another host's picture has no size; a settings change says so, as ever.
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "image: img/kasei-station.jpg", with: "image: https://cdn.example.org/patch.jpg") }
        let remote = try build()
        #expect(remote.notice == "the settings in marsgen.yml changed; doing a full build")
        #expect(try previewSize("index.html").isEmpty)
    }

    @Test("an entry's extra: shown by the site's templates where they say, an edit of it rewriting the pages that show the entry; the site's extra in the layout")
    func extraValues() throws {
        let cell = try builtInTemplate("cell-journal-text")
        try SiteFixture.write(cell.replacingOccurrences(of: "{{{body}}}", with: "{{#extra}}<p class=\"mood\">{{extra.mood}}{{#extra.eva}} · {{lead}}{{/extra.eva}}</p>{{/extra}}{{{body}}}"),
                              to: "templates/cell-journal-text.mustache", in: site)
        try edit("marsgen.yml") { $0 + "extra:\n  crew_size: 5\n" }
        let layout = try builtInTemplate("layout")
        try SiteFixture.write(layout.replacingOccurrences(of: "</body>", with: "<!-- crew of {{site.extra.crew_size}} --></body>"),
                              to: "templates/layout.mustache", in: site)
        let first = try build()
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "author: okoro\n", with: "author: okoro\nextra:\n  mood: tense & tired\n  eva: { lead: vega }\n") }
        let report = try build()
        #expect(!report.isFullBuild && report.warnings.isEmpty)
        func page(_ path: String) throws -> String { try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8) }
        #expect(try page("journal/sol-07-bags/index.html").contains("<p class=\"mood\">tense &amp; tired · vega</p>"))
        #expect(try page("sol/7/index.html").contains("<p class=\"mood\">tense &amp; tired · vega</p>"))
        #expect(try page("index.html").contains("<!-- crew of 5 --></body>"))
        #expect(try !page("journal/sol-07-sick-day/index.html").contains("class=\"mood\""))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
        // An edit of the value alone rewrites the pages that show the entry, as a clean build writes them.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "tense & tired", with: "calm") }
        let edited = try build()
        #expect(!edited.isFullBuild && edited.written.contains("journal/sol-07-bags/index.html") && edited.written.contains("sol/7/index.html"))
        #expect(try page("journal/sol-07-bags/index.html").contains("<p class=\"mood\">calm · vega</p>"))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
        // A weather report's, in its summary cell.
        let summary = try builtInTemplate("cell-weather-summary")
        try SiteFixture.write(summary + "{{#extra}}<span class=\"tau\">τ {{extra.tau}}</span>{{/extra}}", to: "templates/cell-weather-summary.mustache", in: site)
        try edit("content/weather/sol-03.md") { $0.replacingOccurrences(of: "condition: windy\n", with: "condition: windy\nextra:\n  tau: 0.9\n") }
        let weather = try build()
        #expect(!weather.isFullBuild && weather.warnings.isEmpty && weather.written.contains("sol/3/index.html"))
        #expect(try page("sol/3/index.html").contains("<span class=\"tau\">τ 0.9</span>"))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
        // The site's is a setting: a full build.
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "crew_size: 5", with: "crew_size: 6") }
        let site = try build()
        #expect(site.isFullBuild && site.notice == "the settings in marsgen.yml changed; doing a full build")
        #expect(try page("sol/3/index.html").contains("<!-- crew of 6 --></body>"))
    }

    @Test("the journal's list rows give each entry's extra to a site's journal-list; an edit of it rewrites the lists showing the row, a text edit does not")
    func listRowsShowExtra() throws {
        let list = try builtInTemplate("journal-list")
        try SiteFixture.write(list.replacingOccurrences(of: "</li>", with: "{{#extra}}<span class=\"mood\">{{extra.mood}}</span>{{/extra}}</li>"),
                              to: "templates/journal-list.mustache", in: site)
        let first = try build()
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        func page(_ path: String) throws -> String { try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8) }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "author: okoro\n", with: "author: okoro\nextra:\n  mood: tense & tired\n") }
        let moody = try build()
        #expect(!moody.isFullBuild && moody.written.contains("journal/index.html") && moody.written.contains("tags/hab/index.html"))
        #expect(try page("journal/index.html").contains("<span class=\"mood\">tense &amp; tired</span>"))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "tense & tired", with: "calm") }
        let calm = try build()
        #expect(calm.written.contains("journal/index.html") && calm.written.contains("tags/engineering/index.html"))
        #expect(try page("journal/index.html").contains("<span class=\"mood\">calm</span>"))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
        // The text is not in a row: the lists stay as they were.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 40 today.") }
        let text = try build()
        #expect(!text.written.contains("journal/index.html") && !text.written.contains("tags/hab/index.html"))
        #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot())
    }

    /// The source of the built-in template `name`, for a site's own made from it.
    func builtInTemplate(_ name: String) throws -> String {
        try String(contentsOf: SiteFixture.repositoryRoot.appendingPathComponent("Sources/Rendering/Theme/\(name).mustache"), encoding: .utf8)
    }

    /// Appends `text` as a paragraph of its own to the file at `relative`: the number of its line.
    @discardableResult
    func appendLine(_ text: String, to relative: String) throws -> Int {
        try edit(relative) { $0 + "\n\(text)\n" }
        return try String(contentsOf: site.appendingPathComponent(relative), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).count - 1
    }

    /// The warnings of `report` that `include` takes, each as `place: message (hint)`.
    func warnings(_ report: BuildReport, where include: (Diagnostic) -> Bool) -> [String] {
        report.warnings.filter(include).map { "\($0.location?.description ?? ""): \($0.message) (\($0.hint ?? ""))" }
    }

    @Test("a link to a sol's or an entry's page with the anchor of something that page no longer shows is a warning, with where it is now")
    func misplacedAnchors() throws {
        let sol3 = try String(contentsOf: output.appendingPathComponent("sol/3/index.html"), encoding: .utf8)
        let weather = try #require(sol3.firstMatch(of: /id="(w-[0-9a-f]{12})"/)?.1)
        let line = try appendLine("[w](sol/3/#\(weather)) [e](/journal/sol-07-bags/#entry-sol-07-bags) [m](sol/3/#m-000000000000) [x](sol/3/#main)",
                                  to: "content/journal/sol-05-chess.md")
        func anchorWarnings(_ report: BuildReport) -> [String] { warnings(report) { $0.message.contains("anchor") } }
        let unknown = "content/journal/sol-05-chess.md:\(line):73: link 'sol/3/#m-000000000000' leads to sol/3/, where nothing has the anchor "
            + "'m-000000000000' (copy the link again from the page it is on: a message's anchor changes with its time and author, an entry's with its slug)"
        // Only the anchor nothing has; an id of the page's template (`main`) is not checked.
        #expect(try anchorWarnings(build()) == [unknown])
        // The report moves to another sol, keeping its anchor; the entry to another sol, keeping its page.
        try edit("content/weather/sol-03.md") { $0.replacingOccurrences(of: "sol: 3\n", with: "sol: 20\n") }
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 7\n", with: "sol: 8\n") }
        let moved = try build()
        #expect(!moved.isFullBuild)
        #expect(anchorWarnings(moved) == [
            "content/journal/sol-05-chess.md:\(line):1: link 'sol/3/#\(weather)' leads to sol/3/, where nothing has the anchor '\(weather)' "
                + "(did you mean 'sol/20/#\(weather)'?)",
            unknown,
        ])
        // Linked from the host's root, on a sol's page: its own page is suggested, with the base path.
        try edit("content/journal/sol-05-chess.md") {
            $0.replacingOccurrences(of: "[e](/journal/sol-07-bags/#entry-sol-07-bags)", with: "[e](/sol/7/#entry-sol-07-bags)")
        }
        #expect(try anchorWarnings(build())[1] == "content/journal/sol-05-chess.md:\(line):28: link '/sol/7/#entry-sol-07-bags' leads to /sol/7/, "
            + "where nothing has the anchor 'entry-sol-07-bags' (did you mean '/journal/sol-07-bags/#entry-sol-07-bags'?)")
    }

    @Test("a link to a draft's page or to its anchor says that the draft is left out, and stops once it is published")
    func linksToDrafts() throws {
        let line = try appendLine("[page](journal/sol-07-bags/) [anchor](/sol/7/#entry-sol-07-bags) [gone](journal/sol-07-bagz/)",
                                  to: "content/journal/sol-05-chess.md")
        func linkWarnings(_ report: BuildReport) -> [String] { warnings(report) { $0.message.hasPrefix("link '") } }
        let published = try build()
        #expect(linkWarnings(published).count == 1)
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 7\n", with: "sol: 7\ndraft: true\n") }
        let drafted = try build()
        #expect(!drafted.isFullBuild)
        let hint = "publish the entry (remove 'draft: true'), build with --drafts to see it, or remove the link"
        #expect(linkWarnings(drafted) == [
            "content/journal/sol-05-chess.md:\(line):1: link 'journal/sol-07-bags/' leads to the page of a draft: "
                + "content/journal/sol-07-bags.md is left out of the site (\(hint))",
            "content/journal/sol-05-chess.md:\(line):30: link '/sol/7/#entry-sol-07-bags' leads to the anchor of a draft: "
                + "content/journal/sol-07-bags.md is left out of the site (\(hint))",
            // Nothing has that name, draft or not: the usual warning.
            "content/journal/sol-05-chess.md:\(line):66: link 'journal/sol-07-bagz/' leads to no page or file of the site "
                + "(relative URLs start at the site's root, where static/ is copied: put the file in static/ at that path, or fix the URL)",
        ])
        // Built again with nothing changed, the warnings are the same.
        #expect(linkWarnings(try build()) == linkWarnings(drafted))
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "draft: true\n", with: "") }
        #expect(linkWarnings(try build()) == linkWarnings(published))
    }

    @Test("warnings come by file, line and column, whichever step found them, on clean and incremental builds alike")
    func warningsInSourceOrder() throws {
        // Found by three steps: loading (the front matter), the anchor check and the check of
        // links that lead nowhere, which the build runs in that order.
        try edit("content/journal/sol-05-chess.md") { $0.replacingOccurrences(of: "tags: [crew]", with: "tags: [crew]\ntitel: x") }
        let line = try appendLine("[a](missing/) [b](sol/3/#m-000000000000)", to: "content/journal/sol-05-chess.md")
        let earlier = try appendLine("[c](sol/1/#w-000000000000) [d](gone/)", to: "content/journal/sol-01-first-night.md")
        let expected = [
            "content/journal/sol-01-first-night.md:\(earlier):1", "content/journal/sol-01-first-night.md:\(earlier):28",
            "content/journal/sol-05-chess.md:7:1", "content/journal/sol-05-chess.md:\(line):1",
            "content/journal/sol-05-chess.md:\(line):15",
        ]
        func places(_ report: BuildReport) -> [String] { report.warnings.compactMap { $0.location?.description } }
        #expect(places(try build(clean: true)) == expected)
        // The first file's warnings replayed from the state, the second's found again.
        try appendLine("More.", to: "content/journal/sol-05-chess.md")
        let incremental = try build()
        #expect(!incremental.isFullBuild)
        #expect(places(incremental) == expected)
        #expect(places(try build()) == expected)
    }

    @Test("a change to a setting in marsgen.yml means a full build, with a notice; comments, blank lines, quoting and the keys' order do not")
    func configChange() throws {
        let before = try SiteFixture.snapshot(output)
        let times = try modificationTimes()
        func archivePages() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("page").path).count }
        let archivePagesBefore = try archivePages()
        // The same settings written another way: nothing to rebuild.
        try edit("marsgen.yml") { text in
            let lines = text.split(separator: "\n").map(String.init)
            let title = lines.filter { $0.hasPrefix("title: ") }.map { "title: \"\($0.dropFirst("title: ".count))\"" }
            return "# Kasei Station's settings\n\n" + lines.filter { !$0.hasPrefix("title: ") }.joined(separator: "\n")
                + "\n\n# The site's name, in every page's header.\n" + title.joined() + "   \n"
        }
        let rewritten = try build()
        #expect(!rewritten.isFullBuild && rewritten.notice == nil, "\(rewritten.notice ?? "")")
        #expect(rewritten.written.isEmpty && rewritten.deleted.isEmpty)
        #expect(try SiteFixture.snapshot(output) == before)
        #expect(try modificationTimes() == times)
        // Each kind of setting changed: a full build.
        let changes = [("page_size: 20", "page_size: 2"), ("language: en", "language: en-GB"),
                       ("longitude: -58.2", "longitude: -58.3"), ("first_sol: 1", "first_sol: 0"),
                       ("Log\"", "Log \""), ("name: Kasei Station", "name: Kasei")]
        for (old, new) in changes {
            var found = false
            try edit("marsgen.yml") { text in
                found = text.contains(old)
                return text.replacingOccurrences(of: old, with: new)
            }
            #expect(found, "\(old)")
            let report = try build()
            #expect(report.isFullBuild, "\(new)")
            #expect(report.notice == "the settings in marsgen.yml changed; doing a full build", "\(new)")
            #expect(!report.written.isEmpty, "\(new)")
        }
        // Two items a page: more archive pages than twenty a page gave.
        #expect(try archivePages() > archivePagesBefore)
        try edit("marsgen.yml") { $0 + "unchecked_links: [/downloads/]\n" }
        let unchecked = try build()
        #expect(unchecked.isFullBuild && unchecked.written.isEmpty)
    }

    @Test("a corrupt or truncated state or index means a full build, with a notice, and a correct site",
          arguments: ["state", "index"])
    func corruptState(part: String) throws {
        let stateDirectory = site.appendingPathComponent(".marsgen")
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)
        let stateFile = try #require(names.first { $0.hasSuffix("." + part) })
        let url = stateDirectory.appendingPathComponent(stateFile)
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        try expectFullBuildKeepingOutput(notice: "build state is unreadable; doing a full build")
    }

    /// Builds, and expects a full build that says `notice` and leaves the output as it was
    /// (no input changed), then an incremental build after it.
    func expectFullBuildKeepingOutput(notice: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let before = try SiteFixture.snapshot(output)
        let report = try build()
        #expect(report.isFullBuild, sourceLocation: sourceLocation)
        #expect(report.notice == notice, sourceLocation: sourceLocation)
        #expect(try SiteFixture.snapshot(output) == before, sourceLocation: sourceLocation)
        let next = try build()
        #expect(!next.isFullBuild && next.notice == nil, sourceLocation: sourceLocation)
    }

    @Test("an index with a byte changed, though it still parses, means a full build, with a notice: never the counts or stats it says")
    func damagedIndexByte() throws {
        let unchanged = try build()
        #expect(!unchanged.isFullBuild && unchanged.pagesWritten == 0 && unchanged.pagesUnchanged > 0)
        let stateDirectory = site.appendingPathComponent(".marsgen")
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)
        let url = stateDirectory.appendingPathComponent(try #require(names.first { $0.hasSuffix(".index") }))
        var bytes = [UInt8](try Data(contentsOf: url))
        // The count of pages the last build made, which a build that changes nothing repeats.
        let made = try #require(bytes.firstRange(of: Array("\nmade ".utf8)))
        let lastDigit = try #require(bytes[made.upperBound...].firstIndex(of: UInt8(ascii: "\n"))) - 1
        bytes[lastDigit] = bytes[lastDigit] == UInt8(ascii: "7") ? UInt8(ascii: "8") : UInt8(ascii: "7")
        try Data(bytes).write(to: url)
        let before = try SiteFixture.snapshot(output)
        let report = try build()
        #expect(report.isFullBuild)
        #expect(report.notice == "build state is unreadable; doing a full build")
        // A full build writes every page, as many as the last build made.
        #expect(report.pagesWritten + report.pagesUnchanged == unchanged.pagesUnchanged)
        #expect(try SiteFixture.snapshot(output) == before)
        let next = try build()
        #expect(!next.isFullBuild && next.pagesUnchanged == unchanged.pagesUnchanged)
    }

    @Test("a build that stopped after touching the output (no index left) means a full build, with a notice")
    func unfinishedBuild() throws {
        let stateDirectory = site.appendingPathComponent(".marsgen")
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)
        let index = try #require(names.first { $0.hasSuffix(".index") })
        try FileManager.default.removeItem(at: stateDirectory.appendingPathComponent(index))
        try expectFullBuildKeepingOutput(notice: "the last build did not finish; doing a full build")
    }

    @Test("the JSON state of marsgen before state format 3 means a full build, with a notice, and is removed")
    func legacyJSONState() throws {
        let stateDirectory = site.appendingPathComponent(".marsgen")
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)
        let state = try #require(names.first { $0.hasSuffix(".state") })
        // Those versions kept one file (no index), named from the output's absolute path.
        let legacy = URL(fileURLWithPath: BuildState.legacyPath(siteRoot: site.path, output: output.path)).lastPathComponent
        try FileManager.default.moveItem(at: stateDirectory.appendingPathComponent(state),
                                         to: stateDirectory.appendingPathComponent(legacy))
        for name in names where name.hasPrefix("build-") && name != state {
            try FileManager.default.removeItem(at: stateDirectory.appendingPathComponent(name))
        }
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:00 vega\nGood night.\n", to: "content/messages/late.md", in: site)
        let report = try build()
        #expect(report.isFullBuild)
        #expect(report.notice == "build state has format 2, not \(BuildState.formatVersion); doing a full build")
        #expect(try !FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).contains(legacy))
        #expect(try !build().isFullBuild)
    }

    @Test("a state left by another version of marsgen means a full build, with a notice, and a correct site")
    func olderVersion() throws {
        let stateDirectory = site.appendingPathComponent(".marsgen")
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)
        let url = stateDirectory.appendingPathComponent(try #require(names.first { $0.hasSuffix(".index") }))
        let text = try String(contentsOf: url, encoding: .utf8)
        // Without its last line, the check, which an index written by that version has of its own.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count > 3 && lines[1].hasPrefix("marsgen ") && lines.removeLast().isEmpty && lines.removeLast().hasPrefix("check "))
        let body = ([String(lines[0]), "marsgen 0.0.1"] + lines.dropFirst(2).map(String.init)).joined(separator: "\n") + "\n"
        try Data(BuildIndex.signed(Array(body.utf8))).write(to: url)
        let before = try SiteFixture.snapshot(output)
        let report = try build()
        #expect(report.isFullBuild)
        #expect(report.notice == "the last build was made by another version of marsgen; doing a full build")
        #expect(try SiteFixture.snapshot(output) == before)
        #expect(try !build().isFullBuild)
        // An index in another format (from an older marsgen) says the same.
        try (["marsgen-build-index 2"] + lines.dropFirst(1).map(String.init)).joined(separator: "\n")
            .write(to: url, atomically: true, encoding: .utf8)
        let older = try build()
        #expect(older.isFullBuild)
        #expect(older.notice == "the last build was made by another version of marsgen; doing a full build")
        #expect(try SiteFixture.snapshot(output) == before)
    }

    @Test("a state in another format, or with a damaged header, means a full build at once, though no input changed")
    func otherStateFormatWithoutEdits() throws {
        let stateDirectory = site.appendingPathComponent(".marsgen")
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)
        let url = stateDirectory.appendingPathComponent(try #require(names.first { $0.hasSuffix(".state") }))
        let magic = Array("marsgen-state\n".utf8)
        let before = try SiteFixture.snapshot(output)
        // The format is the number after the magic, zigzag-encoded in one byte; the file keeps
        // its size, so the index still names it.
        for (byte, notice) in [(UInt8(2 * (BuildState.formatVersion - 1)),
                                "build state has format \(BuildState.formatVersion - 1), not \(BuildState.formatVersion); doing a full build"),
                               (UInt8(ascii: "M"), "build state is unreadable; doing a full build")] {
            var bytes = [UInt8](try Data(contentsOf: url))
            try #require(Array(bytes.prefix(magic.count)) == magic && bytes[magic.count] == UInt8(2 * BuildState.formatVersion))
            bytes[byte == UInt8(ascii: "M") ? 0 : magic.count] = byte
            try Data(bytes).write(to: url)
            let report = try build()
            #expect(report.isFullBuild)
            #expect(report.notice == notice)
            #expect(try SiteFixture.snapshot(output) == before)
            let next = try build()
            #expect(!next.isFullBuild && next.notice == nil)
        }
    }

    /// Replaces `text` with `replacement` (as long) wherever it is in the state's chunk
    /// files, as damage on disk would; returns in how many files.
    func damageStateChunks(_ text: String, _ replacement: String) throws -> Int {
        let marsgen = site.appendingPathComponent(".marsgen")
        let folder = marsgen.appendingPathComponent(try #require(
            try FileManager.default.contentsOfDirectory(atPath: marsgen.path).first { $0.hasSuffix(".chunks") }))
        let (needle, patch) = (Array(text.utf8), Array(replacement.utf8))
        var damaged = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            var bytes = [UInt8](try Data(contentsOf: url))
            guard bytes.count >= needle.count,
                  let start = (0...(bytes.count - needle.count)).first(where: { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
            else { continue }
            bytes.replaceSubrange(start..<(start + needle.count), with: patch)
            try Data(bytes).write(to: url)
            damaged += 1
        }
        return damaged
    }

    /// The output of a clean build of the site as it is, into a folder of its own.
    func cleanBuildSnapshot() throws -> [String: Data] {
        try cleanBuild().files
    }

    /// A clean build of the site as it is, into a folder of its own: its report and output.
    func cleanBuild(includesDrafts: Bool = false) throws -> (report: BuildReport, files: [String: Data]) {
        let clean = try SiteFixture.temporaryDirectory("clean")
        defer { try? FileManager.default.removeItem(at: clean) }
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, outputDirectory: clean.path,
                                                           includesDrafts: includesDrafts, isClean: true)).build()
        return (report, try SiteFixture.snapshot(clean))
    }

    @Test("a text damaged in the state's chunks, on a page a build renders, is found before anything is written: the build starts again as a full one, and the site is right")
    func damagedTextOnRenderedPage() throws {
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:00 vega\nMarker text alpha.\n", to: "content/messages/late.md", in: site)
        #expect(try !build().isFullBuild)
        #expect(try damageStateChunks("Marker text alpha", "Marker text alphA") == 1)
        // A newer message: the front page, which shows both, is rendered again.
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:30 vega\nMarker text beta.\n", to: "content/messages/later.md", in: site)
        let report = try build()
        #expect(report.isFullBuild)
        #expect(report.notice == "a text in the build state was damaged; doing a full build")
        let front = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(front.contains("Marker text alpha.") && front.contains("Marker text beta.") && !front.contains("alphA"))
        let differences = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
        #expect(differences.isEmpty, "\(differences)")
        // The state the full build saved is sound: the next edit is incremental again.
        try edit("content/messages/later.md") { $0.replacingOccurrences(of: "beta", with: "gamma") }
        let next = try build()
        #expect(!next.isFullBuild && next.notice == nil && next.written.contains("index.html"))
    }

    @Test("under watch, a damaged text found by a rebuild means a full build that trusts nothing kept, then rebuilds as before")
    func damagedTextUnderWatch() throws {
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:00 vega\nMarker text alpha.\n", to: "content/messages/late.md", in: site)
        #expect(try !build().isFullBuild)
        #expect(try damageStateChunks("Marker text alpha", "Marker text alphA") == 1)
        let (options, memory) = try watchedOptions()
        // backdateSources() built clean: the state on disk is new. Damage it again, then let
        // watch read it, as it does when it starts.
        #expect(try damageStateChunks("Marker text alpha", "Marker text alphA") == 1)
        SiteBuilder(options: options).preloadState()
        memory.startTrustingChanges()
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:30 vega\nMarker text beta.\n", to: "content/messages/later.md", in: site)
        let report = try watchedBuild(options, reported: ["content/messages/later.md"])
        #expect(report.isFullBuild && report.notice == "a text in the build state was damaged; doing a full build")
        memory.waitForSave()
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
        try edit("content/messages/later.md") { $0.replacingOccurrences(of: "beta", with: "gamma") }
        let next = try watchedBuild(options, reported: ["content/messages/later.md"])
        #expect(!next.isFullBuild && next.notice == nil)
        memory.waitForSave()
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
    }

    @Test("a text damaged in the state's chunks that a save would copy is not saved: the site is right, and the next build is a full one")
    func damagedTextCopiedBySave() throws {
        // An old message, on no page a new newest message renders again (the search index,
        // which shows every message, is turned off); its log's record is in the chunk that
        // the new log's record changes.
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "search: true", with: "search: false") }
        #expect(try build().isFullBuild)
        #expect(try damageStateChunks("suits green, airlock at 0 kPa", "suits green, airlock at 0 KPA") == 1)
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:30 vega\nMarker text beta.\n", to: "content/messages/later.md", in: site)
        let report = try build()
        #expect(!report.isFullBuild && report.written.contains("index.html"))
        #expect(report.warnings.contains { $0.message.contains("cannot save the build state: a text in the build state was damaged") })
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
        let next = try build()
        #expect(next.isFullBuild)
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
        let page = try SiteFixture.snapshot(output).filter { String(decoding: $0.value, as: UTF8.self).contains("suits green, airlock at") }
        #expect(!page.isEmpty && page.values.allSatisfy { !String(decoding: $0, as: UTF8.self).contains("KPA") })
        try edit("content/messages/later.md") { $0.replacingOccurrences(of: "beta", with: "gamma") }
        #expect(try !build().isFullBuild)
    }

    @Test("a touched file with the same bytes changes nothing, and is not hashed again next time")
    func touchedFile() throws {
        let path = site.appendingPathComponent("content/journal/sol-07-bags.md").path
        let later = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 10).rounded(.down))
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        let indexURL = try #require(try FileManager.default.contentsOfDirectory(
            at: site.appendingPathComponent(".marsgen"), includingPropertiesForKeys: nil).first { $0.pathExtension == "index" })
        let before = try String(contentsOf: indexURL, encoding: .utf8)
        let report = try build()
        #expect(!report.isFullBuild && report.written.isEmpty && report.pagesUnchanged == 85)
        let after = try String(contentsOf: indexURL, encoding: .utf8)
        #expect(before != after)
        let stat = try FileManager.default.attributesOfItem(atPath: path)
        let size = try #require(stat[.size] as? Int)
        #expect(after.contains("input \(size) \(Int64(later.timeIntervalSince1970) * 1_000_000_000) "))
    }

    /// Edits `relative` keeping its size, then sets its access and modification times back to
    /// what they were (as `touch -r` or `cp -p` do): only its status-change time tells.
    func editKeepingSizeAndTime(_ relative: String, _ change: (String) -> String) throws {
        let path = site.appendingPathComponent(relative).path
        var before = stat()
        #expect(stat(path, &before) == 0)
        try edit(relative, change)
        let times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_size == before.st_size && after.st_mtim.tv_sec == before.st_mtim.tv_sec
                && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    }

    @Test("an edit that keeps the file's size and modification time (touch -r, cp -p) is found, from the command line and under watch")
    func editKeepingSizeAndTime() throws {
        try backdateSources()
        try editKeepingSizeAndTime("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 39 today.") }
        let report = try build()
        #expect(!report.isFullBuild && report.written.contains("journal/sol-07-bags/index.html"))
        #expect(try entryPageSays("We did 39 today."))
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
        // Under watch, the reported file is looked at by its stat first, as the state recorded it.
        let (options, memory) = try watchedOptions()
        _ = try SiteBuilder(options: options).build()
        memory.startTrustingChanges()
        try editKeepingSizeAndTime("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 39 today.", with: "We did 40 today.") }
        #expect(try watchedBuild(options, reported: ["content/journal/sol-07-bags.md"]).written.contains("journal/sol-07-bags/index.html"))
        #expect(try entryPageSays("We did 40 today."))
    }

    @Test("two files of the same size and modification time swapped by renames are both read again")
    func swappedFiles() throws {
        // Two entries written in one tick of a coarse clock (a checkout) look alike but for their bytes.
        let entry = { (name: String) in "---\ntitle: \(name)\nauthor: okoro\nsol: 7\ntime: \"10:00\"\n---\n\(name) was here.\n" }
        try SiteFixture.write(entry("Alpha"), to: "content/journal/sol-07-alpha.md", in: site)
        try SiteFixture.write(entry("Bravo"), to: "content/journal/sol-07-bravo.md", in: site)
        try backdateSources()
        let (alpha, bravo) = (site.appendingPathComponent("content/journal/sol-07-alpha.md"),
                              site.appendingPathComponent("content/journal/sol-07-bravo.md"))
        let swap = site.appendingPathComponent("content/journal/swap.tmp")
        let files = FileManager.default
        try files.moveItem(at: alpha, to: swap)
        try files.moveItem(at: bravo, to: alpha)
        try files.moveItem(at: swap, to: bravo)
        let report = try build()
        #expect(!report.isFullBuild)
        let page = try String(contentsOf: output.appendingPathComponent("journal/sol-07-alpha/index.html"), encoding: .utf8)
        #expect(page.contains("Bravo was here."))
        #expect(try SiteFixture.snapshot(output) == (try cleanBuildSnapshot()))
    }

    @Test("a source file dated past 2262, beyond 64 bits of nanoseconds, is built, and its next edit found")
    func farFutureTime() throws {
        let path = site.appendingPathComponent("content/journal/sol-07-bags.md").path
        // 2500-01-01: its nanoseconds since 1970 do not fit in a signed 64-bit number.
        let times = [timespec(tv_sec: 16_725_225_600, tv_nsec: 0), timespec(tv_sec: 16_725_225_600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
        #expect(try !build().isFullBuild)
        #expect(try build().written.isEmpty)
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "We did 38 today.", with: "We did 39 today.") }
        #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
        #expect(try build().written.contains("journal/sol-07-bags/index.html"))
        #expect(try entryPageSays("We did 39 today."))
    }

    @Test("an added file that is not content (a note in content/) does not make a build stale")
    func unrelatedFile() throws {
        try SiteFixture.write("just notes", to: "content/NOTES.txt", in: site)
        let report = try build()
        #expect(!report.isFullBuild && report.written.isEmpty)
    }

    @Test("messages appended to a log (its earlier messages taken as the last build parsed them) give what a clean build gives; so does a link reference definition appended, which changes an earlier message")
    func messagesAppended() throws {
        try edit("content/messages/habitat.md") { $0 + "\n## Sol 4 18:00 vega\nWhere is [the manual]?\n" }
        _ = try build()
        for (step, tail) in [("a message", "\n## Sol 4 18:05 okoro\nIn the airlock, with ![the hab](img/dust-devil.svg).\n"),
                             ("text to the last message", "Second thoughts: the galley.\n"),
                             ("the same sender at the same time", "\n## Sol 4 18:05 okoro\nAnd again at 18:05.\n"),
                             ("a link reference definition", "\n[the manual]: https://example.org/manual\n")] {
            try edit("content/messages/habitat.md") { $0 + tail }
            let report = try build()
            #expect(!report.isFullBuild && report.written.contains("sol/4/index.html"), "\(step)")
            #expect(try SiteFixture.snapshot(output) == cleanBuildSnapshot(), "\(step)")
        }
        #expect(try String(contentsOf: output.appendingPathComponent("sol/4/index.html"), encoding: .utf8)
            .contains("<a href=\"https://example.org/manual\">the manual</a>"))
    }

    @Test("a new newest message rewrites the front page and at most one archive page")
    func newestObject() throws {
        try SiteFixture.write("---\nchannel: habitat\nsol: 14\n---\n## 23:00 vega\nGood night.\n", to: "content/messages/late.md", in: site)
        let report = try build()
        let archive = report.written.filter { $0.hasPrefix("page/") }
        #expect(report.written.contains("index.html"))
        #expect(archive.count <= 1)
        #expect(report.written.count <= 8)
    }

    @Test("the state kept for an output folder that no longer exists goes with the next build; the others stay")
    func missingOutputState() throws {
        let marsgen = site.appendingPathComponent(".marsgen")
        func stateFiles() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: marsgen.path).filter { $0.hasPrefix("build-") })
        }
        let ours = try stateFiles()
        #expect(ours.contains { $0.hasSuffix(".state") } && ours.contains { $0.hasSuffix(".chunks") })
        // Two more output folders, outside the site and with a newline in one name.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-outputs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let dist = elsewhere.appendingPathComponent("dist")
        let odd = elsewhere.appendingPathComponent("odd\nname")
        for folder in [dist, odd] {
            _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, outputDirectory: folder.path)).build()
        }
        let all = try stateFiles()
        #expect(all.count == ours.count * 3)
        // Both still exist: nothing goes.
        _ = try build()
        #expect(try stateFiles() == all)
        try FileManager.default.removeItem(at: dist)
        try FileManager.default.removeItem(at: odd)
        // Even a build of a folder that is gone keeps its own files (it builds them anew).
        try FileManager.default.removeItem(at: output)
        #expect(try build().isFullBuild)
        #expect(try stateFiles() == ours)
    }

    @Test("a site folder moved or renamed with its output keeps its build state: the next build is incremental, and right")
    func siteFolderMoved() throws {
        let files = FileManager.default
        let moved = site.deletingLastPathComponent().appendingPathComponent(site.lastPathComponent + " renamed")
        try files.moveItem(at: site, to: moved)
        // The suite removes `site` when done: back there whatever happens.
        defer { try? files.moveItem(at: moved, to: site) }
        func build(_ folder: URL) throws -> BuildReport {
            try SiteBuilder(options: BuildOptions(sourceDirectory: folder.path)).build()
        }
        let untouched = try build(moved)
        #expect(!untouched.isFullBuild && untouched.notice == nil)
        #expect(untouched.written.isEmpty)
        let entry = moved.appendingPathComponent("content/journal/sol-06-dust-devil.md")
        try Data((try String(contentsOf: entry, encoding: .utf8) + "\nThe devil left a track 40 m long.\n").utf8).write(to: entry)
        let edited = try build(moved)
        #expect(!edited.isFullBuild)
        #expect(edited.written.contains("journal/sol-06-dust-devil/index.html"))
        // At most six, as the bench's target says, and the search index (`search: true`).
        #expect(edited.written.count <= 7 && edited.written.contains("search/part-1.json"))
        // `.marsgen/` names the output from the site folder, so it has one state, not one per place.
        let names = try files.contentsOfDirectory(atPath: moved.appendingPathComponent(".marsgen").path)
        #expect(names.filter { $0.hasSuffix(".index") }.count == 1)
        let clean = try SiteFixture.temporaryDirectory("clean")
        defer { try? files.removeItem(at: clean) }
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: moved.path, outputDirectory: clean.path, isClean: true)).build()
        let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(moved.appendingPathComponent("public")),
                                                                        from: try SiteFixture.snapshot(clean))
        #expect(same, "missing \(missing), extra \(extra), different \(different)")
    }

    @Test("a copy of the site with its output and state builds in full once, saying its output is not the folder the last build wrote")
    func siteFolderCopied() throws {
        let files = FileManager.default
        let copy = site.deletingLastPathComponent().appendingPathComponent(site.lastPathComponent + "-copy")
        try files.copyItem(at: site, to: copy)
        defer { try? files.removeItem(at: copy) }
        let copiedOutput = copy.appendingPathComponent("public")
        let before = try SiteFixture.snapshot(copiedOutput)
        let first = try SiteBuilder(options: BuildOptions(sourceDirectory: copy.path)).build()
        #expect(first.isFullBuild)
        #expect(first.notice == "the output directory is not the one the last build wrote (a copy, or made anew?); doing a full build")
        #expect(try SiteFixture.snapshot(copiedOutput) == before)
        let next = try SiteBuilder(options: BuildOptions(sourceDirectory: copy.path)).build()
        #expect(!next.isFullBuild && next.notice == nil)
        // The original is as it was: its next build finds nothing to do.
        let original = try build()
        #expect(!original.isFullBuild && original.written.isEmpty)
    }

    @Test("the output folder spelt through a symbolic link to the site, or the site through one, has the one state: no full build")
    func outputThroughLink() throws {
        let link = site.deletingLastPathComponent().appendingPathComponent(site.lastPathComponent + "-link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: site.path)
        defer { try? FileManager.default.removeItem(at: link) }
        let spellings: [BuildOptions] = [
            BuildOptions(sourceDirectory: site.path, outputDirectory: link.appendingPathComponent("public").path),
            BuildOptions(sourceDirectory: link.path),
            BuildOptions(sourceDirectory: link.path, outputDirectory: output.path),
            BuildOptions(sourceDirectory: site.path),
        ]
        for options in spellings {
            let report = try SiteBuilder(options: options).build()
            #expect(!report.isFullBuild && report.notice == nil, "\(options.sourceDirectory) → \(options.outputDirectory): \(report.notice ?? "")")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent(".marsgen").path)
        #expect(names.filter { $0.hasSuffix(".index") }.count == 1)
    }

    @Test("a state an older marsgen kept for the output under its absolute path goes, and means a full build with a notice")
    func stateUnderAbsolutePath() throws {
        let marsgen = site.appendingPathComponent(".marsgen")
        let ours = try #require(try FileManager.default.contentsOfDirectory(atPath: marsgen.path).first { $0.hasSuffix(".index") })
        #expect(try String(contentsOf: marsgen.appendingPathComponent(ours), encoding: .utf8).contains("\noutput public\n"))
        // What marsgen 0.11.2 would leave after building into the same folder since: its own
        // index (named, as it named every output, from the absolute path), and its state.
        let older = URL(fileURLWithPath: BuildState.legacyPath(siteRoot: site.path, output: output.path)).deletingPathExtension()
        #expect(older.lastPathComponent + ".index" != ours)
        let text = try String(contentsOf: marsgen.appendingPathComponent(ours), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count > 3 && lines.removeLast().isEmpty && lines.removeLast().hasPrefix("check "))
        lines[1] = "marsgen 0.11.2"
        lines[2] = "output \(output.path)"
        try Data(BuildIndex.signed(Array((lines.joined(separator: "\n") + "\n").utf8))).write(to: older.appendingPathExtension("index"))
        try Data("older".utf8).write(to: older.appendingPathExtension("state"))
        try expectFullBuildKeepingOutput(notice: "the last build was made by another version of marsgen; doing a full build")
        let names = try FileManager.default.contentsOfDirectory(atPath: marsgen.path)
        #expect(!names.contains { $0.hasPrefix(older.lastPathComponent) })
        #expect(names.contains(ours))
    }

    @Test("a build state gone while the output holds a site means a full build with a notice; a first build into an empty folder has none")
    func stateRemoved() throws {
        try FileManager.default.removeItem(at: site.appendingPathComponent(".marsgen"))
        try expectFullBuildKeepingOutput(notice: "no build state for this output folder in .marsgen/; doing a full build")
        let empty = try SiteFixture.temporaryDirectory("empty-output")
        defer { try? FileManager.default.removeItem(at: empty) }
        try Data().write(to: empty.appendingPathComponent(".gitkeep"))
        let first = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, outputDirectory: empty.path)).build()
        #expect(first.isFullBuild && first.notice == nil)
    }

    @Test("a page of its own: its edit writes its page alone; its navigation title every page; a slug's change the entries linking to it; a draft or a removal takes it out of the navigation; each build equal to a clean one")
    func standalonePages() throws {
        func expectSameAsClean(_ step: String) throws {
            let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
            #expect(same, "\(step): missing \(missing), extra \(extra), different \(different)")
        }
        func explained(_ report: BuildReport) -> Set<String> { Set(report.explanations) }
        let htmlPages = try SiteFixture.snapshot(output).filter { String(decoding: $0.value, as: UTF8.self).contains("<nav class=\"nav\"") }.keys
        #expect(try String(contentsOf: output.appendingPathComponent("journal/index.html"), encoding: .utf8)
            .contains("<a href=\"/about/\">About</a>"))

        try edit("content/pages/about.md") { $0 + "\nA line more.\n" }
        let text = try build()
        // Its page, and the part of the search index that holds the pages of their own.
        #expect(text.written == ["about/index.html", "search/pages.json"])
        #expect(explained(text) == ["about: pages/about.md updated", "search/pages.json: pages/about.md updated"])
        try expectSameAsClean("text")

        // Its name in the navigation is on every page with the site's header (the 404's too).
        try edit("content/pages/about.md") { $0.replacingOccurrences(of: "nav_title: About", with: "nav_title: The station") }
        let renamed = try build()
        #expect(Set(htmlPages).subtracting(renamed.written).isEmpty, "\(Set(htmlPages).subtracting(renamed.written).sorted())")
        #expect(explained(renamed).contains("journal/sol-07-bags: navigation changed: pages/about.md updated"))
        #expect(try String(contentsOf: output.appendingPathComponent("sol/3/index.html"), encoding: .utf8)
            .contains("<a href=\"/about/\">The station</a>"))
        try expectSameAsClean("navigation title")

        // An entry links to it by file; the page moves: the entry's pages follow, the old page goes.
        try edit("content/journal/sol-07-bags.md") { $0 + "\nSee [who we are](../pages/about.md#the-crew).\n" }
        _ = try build()
        #expect(try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
            .contains("href=\"/about/#about:the-crew\""))
        try edit("content/pages/about.md") { $0.replacingOccurrences(of: "nav: true", with: "nav: true\nslug: station") }
        let moved = try build()
        #expect(moved.deleted == ["about/index.html"])
        #expect(explained(moved).contains("journal/sol-07-bags: journal/sol-07-bags.md updated: its link to content/pages/about.md now leads to /station/"))
        #expect(try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
            .contains("href=\"/station/#station:the-crew\""))
        try expectSameAsClean("slug")

        // A draft: out of the site and its navigation, the link to it a warning; back with --drafts.
        try edit("content/pages/about.md") { $0.replacingOccurrences(of: "nav: true", with: "nav: true\ndraft: true") }
        let drafted = try build()
        // Its old address goes with it; the house rules, below it before it moved, stay.
        #expect(drafted.deleted == ["about-us/index.html", "station/index.html"])
        #expect(drafted.warnings.contains { $0.location?.path == "content/journal/sol-07-bags.md" && $0.message.contains("draft") })
        #expect(try !String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8).contains("The station"))
        try expectSameAsClean("draft")
        let shown = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, includesDrafts: true)).build()
        #expect(shown.written.contains("station/index.html") && !shown.isFullBuild)
        #expect(try String(contentsOf: output.appendingPathComponent("station/index.html"), encoding: .utf8).contains("class=\"draft\""))

        // Published again, then removed: the link to it is an error, which names pages among
        // what a link may lead to; without the link, it leaves the navigation.
        try edit("content/pages/about.md") { $0.replacingOccurrences(of: "draft: true\n", with: "") }
        _ = try build()
        try expectSameAsClean("published")
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/pages/about.md"))
        let broken = #expect(throws: Diagnostic.self) { _ = try self.build() }
        #expect(broken?.message == "link to '../pages/about.md': content/pages/about.md is not a journal entry, message log, weather report or page of this site")
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "\nSee [who we are](../pages/about.md#the-crew).\n", with: "") }
        let removed = try build()
        #expect(explained(removed).contains("index: navigation changed: pages/about.md removed"))
        #expect(removed.deleted == ["about-us/index.html", "station/index.html"])
        try expectSameAsClean("removed")
    }

    @Test("a page of its own's old addresses: each a page sending readers on, written alone when added, following the page when it moves, deleted when removed; each build equals a clean one")
    func standalonePageAliases() throws {
        func expectSameAsClean(_ step: String) throws {
            let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
            #expect(same, "\(step): missing \(missing), extra \(extra), different \(different)")
        }
        func page(_ path: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
        }
        // The demo's about page has one: /about-us/.
        #expect(try page("about-us/index.html").contains("<meta http-equiv=\"refresh\" content=\"0; url=/about/\">"))
        try edit("content/pages/about.md") { $0.replacingOccurrences(of: "aliases: [/about-us/]", with: "aliases: [/about-us, /team.html]") }
        let added = try build()
        // Not the page itself, whose bytes do not show its aliases, nor the sitemap, which lists none.
        #expect(added.written == ["team.html"])
        #expect(added.explanations == ["team.html: new page"])
        #expect(try page("team.html").contains("This page has moved: <a href=\"/about/\">About Kasei Station</a>"))
        try expectSameAsClean("added")

        // A link to an old address leads to a page of the site.
        try edit("content/journal/sol-07-bags.md") { $0 + "\nSee [the team](team.html).\n" }
        #expect(try build().warnings.isEmpty)

        try edit("content/pages/about.md") { $0.replacingOccurrences(of: "nav: true", with: "nav: true\nslug: station") }
        let moved = try build()
        #expect(moved.deleted == ["about/index.html"])
        #expect(Set(moved.explanations).isSuperset(of: ["about-us: pages/about.md updated", "team.html: pages/about.md updated"]))
        #expect(try page("team.html").contains("<link rel=\"canonical\" href=\"https://kasei-station.example.org/station/\">"))
        try expectSameAsClean("moved")

        try edit("content/pages/about.md") { $0.replacingOccurrences(of: ", /team.html]", with: "]") }
        let removed = try build()
        #expect(removed.deleted == ["team.html"] && removed.written.isEmpty)
        #expect(removed.warnings.map(\.message) == ["link 'team.html' leads to no page or file of the site"])
        try expectSameAsClean("removed")
    }

    @Test("a page of its own with a template of the site's own: rendered with it in the layout, its values checked as page-standalone's, written again alone when it changes; one missing or marsgen's other is an error at the page")
    func standalonePageTemplate() throws {
        try SiteFixture.write("---\ntitle: The roster\ntemplate: roster\n---\nFive crew.\n", to: "content/pages/roster.md", in: site)
        try SiteFixture.write("<h1>{{heading}}</h1>\n<div class=\"roster\">{{{body}}}</div>{{#sections}}{{/sections}}\n",
                              to: "templates/roster.mustache", in: site)
        let added = try build()
        let page = try String(contentsOf: output.appendingPathComponent("roster/index.html"), encoding: .utf8)
        #expect(page.contains("<h1>The roster</h1>\n<div class=\"roster\"><p>Five crew.</p>\n</div>"))
        #expect(page.contains("<nav class=\"nav\""))
        // Not "a partial no template uses"; a name page-standalone does not get is one its pages do not get.
        #expect(added.warnings.map(\.message) == ["'sections' is not a value 'roster' gets: it renders as nothing"])
        #expect(added.warnings.first?.location == SourceLocation(path: "templates/roster.mustache", line: 2, column: 37))

        try edit("templates/roster.mustache") { $0.replacingOccurrences(of: "{{#sections}}{{/sections}}", with: "<p>{{description}}</p>") }
        let edited = try build()
        #expect(edited.written == ["roster/index.html"] && edited.explanations == ["roster: template roster.mustache changed"])
        #expect(edited.warnings.isEmpty)

        try edit("content/pages/roster.md") { $0.replacingOccurrences(of: "template: roster", with: "template: rooster") }
        let missing = #expect(throws: Diagnostic.self) { _ = try self.build() }
        #expect(missing?.message == "template 'rooster' is not in templates/" && missing?.hint == "did you mean 'roster'?")
        #expect(missing?.location == SourceLocation(path: "content/pages/roster.md", line: 3, column: 11))
        try edit("content/pages/roster.md") { $0.replacingOccurrences(of: "template: rooster", with: "template: page-entry") }
        let builtIn = #expect(throws: Diagnostic.self) { _ = try self.build() }
        #expect(builtIn?.message == "template 'page-entry' is marsgen's for other pages, which give it other values")
        // Without it, the page is page-standalone's and the template one no page uses.
        try edit("content/pages/roster.md") { $0.replacingOccurrences(of: "template: page-entry\n", with: "") }
        let plain = try build()
        #expect(plain.written == ["roster/index.html"])
        #expect(plain.warnings.map(\.message) == ["template 'roster' is not one marsgen uses, nor a partial of one"])
        let (missingFiles, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
        #expect(same, "missing \(missingFiles), extra \(extra), different \(different)")
    }

    @Test("pages below a page of its own: listed on it, linking up to it; a subpage's edit of its description writes both, of its text its own alone; each build equals a clean one")
    func subpages() throws {
        func page(_ path: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
        }
        func expectSameAsClean(_ step: String) throws {
            let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
            #expect(same, "\(step): missing \(missing), extra \(extra), different \(different)")
        }
        // The demo's about page has its house rules below it.
        #expect(try page("about/index.html").contains("<a class=\"subpage\" href=\"/about/rules/\"><span class=\"subpage-title\">House rules</span>"))
        #expect(try page("about/rules/index.html").contains("<p class=\"page-parent\"><a href=\"/about/\">About Kasei Station</a></p>"))
        try SiteFixture.write("---\ntitle: Water\ndescription: Every litre\nweight: -1\n---\nLogged.\n", to: "content/pages/about/water.md", in: site)
        let added = try build()
        #expect(added.written == ["about/index.html", "about/water/index.html", "search/pages.json", "sitemap.xml"])
        #expect(try page("about/index.html").contains("<span class=\"subpage-title\">Water</span><span class=\"subpage-description\">Every litre</span></a></li>\n<li><a class=\"subpage\" href=\"/about/rules/\">"))
        try expectSameAsClean("added")
        try edit("content/pages/about/water.md") { $0.replacingOccurrences(of: "Logged.", with: "Logged, to the tenth.") }
        #expect(try build().written == ["about/water/index.html", "search/pages.json"])
        try edit("content/pages/about/water.md") { $0.replacingOccurrences(of: "Every litre", with: "Every drop") }
        let described = try build()
        #expect(described.written == ["about/index.html", "about/water/index.html"])
        #expect(described.explanations == ["about: pages/about/water.md updated", "about/water: pages/about/water.md updated"])
        try expectSameAsClean("described")
        // The page above goes: the pages below it link up to nothing.
        try FileManager.default.removeItem(at: site.appendingPathComponent("content/pages/about.md"))
        let removed = try build()
        #expect(Set(removed.written).isSuperset(of: ["about/rules/index.html", "about/water/index.html"]))
        #expect(try !page("about/rules/index.html").contains("page-parent"))
        #expect(removed.explanations.contains("about/rules: pages/about.md removed"))
        try expectSameAsClean("removed")
    }

    @Test("the site's own links in the navigation (nav: in marsgen.yml): on every page with the header, among the pages of their own; one to no page of the site a warning at its url")
    func navigationLinks() throws {
        try edit("marsgen.yml") { $0 + "\nnav:\n  - title: Mission home\n    url: https://example.org/kasei/\n  - title: First sol\n    url: sol/01/\n    weight: 2\n" }
        let added = try build()
        #expect(added.isFullBuild)
        let lines = try String(contentsOf: site.appendingPathComponent("marsgen.yml"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex(of: "    url: sol/01/")) + 1
        #expect(added.warnings.map(\.message) == ["link 'sol/01/' leads to no page or file of the site"])
        #expect(added.warnings.first?.location == SourceLocation(path: "marsgen.yml", line: line, column: 10))
        #expect(added.warnings.first?.hint == "did you mean 'sol/1/'?")
        let front = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(front.contains("<a href=\"/about/\">About</a>\n      <a href=\"https://example.org/kasei/\">Mission home</a>\n      <a href=\"/sol/01/\">First sol</a>"))
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "url: sol/01/", with: "url: sol/1/") }
        let fixed = try build()
        #expect(fixed.warnings.isEmpty)
        #expect(try String(contentsOf: output.appendingPathComponent("sol/1/index.html"), encoding: .utf8)
            .contains("<a href=\"/sol/1/\" aria-current=\"page\">First sol</a>"))
        #expect(try build().written.isEmpty)
    }

    @Test("a crew member's bio edited writes their page alone; their portrait, their page and the crew index; a bio's link to no page is a warning at its place in crew.yml; each build equals a clean one")
    func crewProfiles() throws {
        func expectSameAsClean() throws {
            let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
            #expect(same, "missing \(missing), extra \(extra), different \(different)")
        }
        let page = try String(contentsOf: output.appendingPathComponent("crew/vega/index.html"), encoding: .utf8)
        #expect(page.contains("<img class=\"crew-portrait\" src=\"/img/crew/vega.svg\" alt=\"\" width=\"240\" height=\"240\" decoding=\"async\">"))
        #expect(page.contains("<div class=\"crew-bio prose\">\n<p>Twenty-two years flying test aircraft"))
        #expect(page.contains("<meta name=\"description\" content=\"Twenty-two years flying test aircraft"))
        // The bio edited: Vega's first page, nothing else (her messages and entries hold her name, not her bio).
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "Twenty-two years flying test aircraft", with: "Twenty-three years flying test aircraft") }
        let bio = try build()
        #expect(!bio.isFullBuild && bio.written == ["crew/vega/index.html"], "\(bio.written)")
        try expectSameAsClean()
        // The portrait another: her page and the crew index, with its size.
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "image: img/crew/vega.svg", with: "image: img/kasei-station.jpg") }
        let portrait = try build()
        #expect(Set(portrait.written) == ["crew/vega/index.html", "crew/index.html"], "\(portrait.written)")
        #expect(try String(contentsOf: output.appendingPathComponent("crew/index.html"), encoding: .utf8)
            .contains("<img class=\"crew-thumb\" src=\"/img/kasei-station.jpg\" alt=\"\" width=\"1200\" height=\"630\""))
        try expectSameAsClean()
        // A link in a bio to no page: a warning where it is written, until it is fixed.
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "[journal](journal/)", with: "[journal](jounral/)") }
        let broken = try build()
        let lines = try String(contentsOf: site.appendingPathComponent("content/crew.yml"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("[journal](jounral/)") }) + 1
        let column = try #require(lines[line - 1].range(of: "[journal]")).lowerBound.utf16Offset(in: lines[line - 1]) + 1
        #expect(broken.warnings.map(\.message) == ["link 'jounral/' leads to no page or file of the site"])
        #expect(broken.warnings.first?.location == SourceLocation(path: "content/crew.yml", line: line, column: column))
        #expect(broken.warnings.first?.hint == "did you mean 'journal/'?")
        #expect(try build().warnings.count == 1)
        try edit("content/crew.yml") { $0.replacingOccurrences(of: "[journal](jounral/)", with: "[journal](journal/)") }
        #expect(try build().warnings.isEmpty)
        try expectSameAsClean()
    }

    @Test("a link to a heading of a page of its own is checked as one to an entry's: a warning at a link to none, with the likeliest; an edit of the page's headings decides again")
    func standalonePageHeadingLinks() throws {
        func headingWarnings(_ report: BuildReport) -> [String] {
            report.warnings.filter { $0.message.contains("no heading has the id") }.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message) (\($0.hint ?? ""))" }
        }
        // The links' line: after the file's last.
        let line = try String(contentsOf: site.appendingPathComponent("content/journal/sol-07-bags.md"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count + 1
        try edit("content/journal/sol-07-bags.md") {
            $0 + "\n[crew](../pages/about.md#the-crew) [crw](../pages/about.md#the-crw) [how](about/#about:how-to-read) [ok](/about/#about:why-a-log) [rules](about/rules/#rules:none)\n"
        }
        let report = try build()
        #expect(headingWarnings(report) == [
            "\(line):36 link '../pages/about.md#the-crw' leads to /about/, where no heading has the id 'about:the-crw' (did you mean '../pages/about.md#the-crew'?)",
            "\(line):69 link 'about/#about:how-to-read' leads to about/, where no heading has the id 'about:how-to-read' "
                + "(its headings: 'about/#about:the-crew', 'about/#about:how-to-read-a-sol', 'about/#about:why-a-log')",
            "\(line):131 link 'about/rules/#rules:none' leads to about/rules/, where no heading has the id 'rules:none' (it has no headings: link to the page alone, or add the heading)",
        ])
        // The headings renamed in the page: the link that named one is warned about now, the
        // other's warning holds until the link is fixed.
        try edit("content/pages/about.md") { $0.replacingOccurrences(of: "## The crew\n", with: "## Crew\n").replacingOccurrences(of: "## How to read a sol\n", with: "## How to read\n") }
        let renamed = try build()
        #expect(!renamed.isFullBuild)
        let headings = "its headings: '../pages/about.md#crew', '../pages/about.md#how-to-read', '../pages/about.md#why-a-log'"
        #expect(headingWarnings(renamed) == [
            "\(line):1 link '../pages/about.md#the-crew' leads to /about/, where no heading has the id 'about:the-crew' (\(headings))",
            "\(line):36 link '../pages/about.md#the-crw' leads to /about/, where no heading has the id 'about:the-crw' (\(headings))",
            "\(line):131 link 'about/rules/#rules:none' leads to about/rules/, where no heading has the id 'rules:none' (it has no headings: link to the page alone, or add the heading)",
        ])
        #expect(try build().warnings.count == renamed.warnings.count)
    }

    @Test("a nav: link to a content file leads to its page, and moves with it; one to a draft is left out with a warning, one to no content file an error")
    func navigationLinksToContentFiles() throws {
        func expectSameAsClean() throws {
            let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
            #expect(same, "missing \(missing), extra \(extra), different \(different)")
        }
        func front() throws -> String { try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) }
        try edit("marsgen.yml") { $0 + "\nnav:\n  - title: Bags\n    url: content/journal/sol-07-bags.md\n  - title: The crew\n    url: pages/about.md#the-crew\n" }
        let added = try build()
        #expect(added.warnings.isEmpty && added.errors.isEmpty)
        // A heading's fragment as a Markdown link's to it is written: the page's id for it.
        #expect(try front().contains("<a href=\"/journal/sol-07-bags/\">Bags</a>\n      <a href=\"/about/#about:the-crew\">The crew</a>"))
        #expect(try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
            .contains("<a href=\"/journal/sol-07-bags/\" aria-current=\"page\">Bags</a>"))
        // The entry's slug changes: the link follows it on every page, as a clean build writes it.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 7\n", with: "sol: 7\nslug: bag-day\n") }
        let moved = try build()
        #expect(!moved.isFullBuild && moved.warnings.isEmpty)
        #expect(try front().contains("<a href=\"/journal/bag-day/\">Bags</a>"))
        try expectSameAsClean()
        // A draft: left out of the navigation, with a warning at the link's url:.
        try edit("content/journal/sol-07-bags.md") { $0.replacingOccurrences(of: "sol: 7\n", with: "sol: 7\ndraft: true\n") }
        let drafted = try build()
        let lines = try String(contentsOf: site.appendingPathComponent("marsgen.yml"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex(of: "    url: content/journal/sol-07-bags.md")) + 1
        #expect(drafted.warnings.map(\.message) == ["the 'nav' link 'Bags' leads to a draft, content/journal/sol-07-bags.md: it is left out of the navigation"])
        #expect(drafted.warnings.first?.location == SourceLocation(path: "marsgen.yml", line: line, column: 10))
        #expect(try !front().contains(">Bags</a>"))
        try expectSameAsClean()
        #expect(try build().warnings.count == 1)
        // No such content file: an error at its url:, with the likeliest name.
        try edit("marsgen.yml") { $0.replacingOccurrences(of: "url: content/journal/sol-07-bags.md", with: "url: content/journal/sol-07-bgas.md") }
        let missing = #expect(throws: Diagnostic.self) { _ = try self.build() }
        #expect(missing?.message == "'url' of a 'nav' link: content/journal/sol-07-bgas.md is not a journal entry, message log, weather report or page of this site")
        #expect(missing?.location == SourceLocation(path: "marsgen.yml", line: line, column: 10))
        #expect(missing?.hint == "did you mean 'content/journal/sol-07-bags.md'?")
    }

    @Test("--keep-going: a page of its own whose text has an error is left out, and the links to it, from an entry and another page, are warnings; fixed, each build equals a clean one")
    func standalonePageLeftOut() throws {
        func build(clean: Bool = false) throws -> BuildReport {
            try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: clean, keepsGoing: true)).build()
        }
        try SiteFixture.write("---\ntitle: Rules\n---\nSee [the plan](../journal/sol-99-none.md).\n", to: "content/pages/rules.md", in: site)
        try edit("content/pages/about.md") { $0 + "\nAnd the [rules](rules.md).\n" }
        try edit("content/journal/sol-07-bags.md") { $0 + "\nSee the [rules](../pages/rules.md).\n" }
        let report = try build()
        #expect(report.errors.map(\.location?.path) == ["content/pages/rules.md"])
        let leadingNowhere = report.warnings.filter { $0.message.contains("content/pages/rules.md has errors and is left out of this build") }
        #expect(Set(leadingNowhere.compactMap(\.location?.path)) == ["content/journal/sol-07-bags.md", "content/pages/about.md"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("rules").path))
        #expect(try build().written.isEmpty)
        try SiteFixture.write("---\ntitle: Rules\n---\nSee [the plan](../journal/sol-07-bags.md).\n", to: "content/pages/rules.md", in: site)
        let fixed = try build()
        #expect(fixed.errors.isEmpty && fixed.warnings.allSatisfy { !$0.message.contains("left out") })
        #expect(try String(contentsOf: output.appendingPathComponent("journal/sol-07-bags/index.html"), encoding: .utf8)
            .contains("<a href=\"/rules/\">rules</a>"))
        let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output), from: try cleanBuildSnapshot())
        #expect(same, "missing \(missing), extra \(extra), different \(different)")
    }

    @Test("removing the crew file, then bringing it back: each incremental build equals a clean one")
    func crewFileRemovedAndRestored() throws {
        let crew = site.appendingPathComponent("content/crew.yml")
        let text = try Data(contentsOf: crew)
        func expectSameAsClean() throws {
            let (missing, extra, different, same) = SiteFixture.differences(try SiteFixture.snapshot(output),
                                                                            from: try cleanBuildSnapshot())
            #expect(same, "missing \(missing), extra \(extra), different \(different)")
        }
        // Without a crew file every author is unknown, an error: first the authored content goes.
        for folder in ["content/journal", "content/messages", "content/pages"] {
            try FileManager.default.removeItem(at: site.appendingPathComponent(folder))
        }
        _ = try build()
        try expectSameAsClean()
        try FileManager.default.removeItem(at: crew)
        let removed = try build()
        #expect(!removed.isFullBuild)
        #expect(removed.warnings.contains { $0.message.contains("no crew file") })
        #expect(!removed.written.isEmpty || !removed.deleted.isEmpty)
        try expectSameAsClean()
        try text.write(to: crew)
        let restored = try build()
        #expect(!restored.isFullBuild)
        try expectSameAsClean()
    }

    /// Every output file's inode and modification time, by path.
    func fileIdentities() throws -> [String: [FileAttributeKey: Any]] {
        var found: [String: [FileAttributeKey: Any]] = [:]
        for path in try SiteFixture.snapshot(output).keys {
            found[path] = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)
        }
        return found
    }

    @Test("--drafts turned on, then off, with no file changed: an incremental build, or a full one (a setting changed too); either leaves the files whose bytes it does not change as they were, and counts only the others and the files it removed; --clean writes every file anew",
          arguments: [false, true])
    func draftsToggledKeepsIdenticalFiles(settingChanged: Bool) throws {
        let options = { (drafts: Bool, clean: Bool) in BuildOptions(sourceDirectory: self.site.path, includesDrafts: drafts, isClean: clean) }
        for drafts in [true, false] {
            if settingChanged {
                try edit("marsgen.yml") { text in
                    text.split(separator: "\n").filter { !$0.hasPrefix("unchecked_links:") }.joined(separator: "\n")
                        + "\nunchecked_links: [/elsewhere-\(drafts)/]\n"
                }
            }
            let before = try SiteFixture.snapshot(output)
            let identities = try fileIdentities()
            let report = try SiteBuilder(options: options(drafts, false)).build()
            #expect(report.isFullBuild == settingChanged)
            #expect(report.notice == (settingChanged ? "the settings in marsgen.yml changed; doing a full build"
                                      : drafts ? "drafts are included now (--drafts)" : "drafts are left out now (no --drafts)"))
            if !settingChanged {
                // --explain names the draft as the cause, not as a file added or removed.
                let draft = "draft journal/sol-08-draft-notes.md " + (drafts ? "shown (--drafts)" : "left out (no --drafts)")
                #expect(report.explanations.contains("feed.xml: \(draft)"), "\(report.explanations)")
                #expect(drafts || report.explanations.contains("journal/sol-08-draft-notes: deleted, \(draft)"))
            }
            let after = try SiteFixture.snapshot(output)
            let changed = Set(after.keys.filter { before[$0] != after[$0] })
            #expect(!changed.isEmpty && changed.count < after.count / 2, "a draft shows on a few pages: \(changed.sorted())")
            #expect(Set(report.written) == changed)
            #expect(report.deleted == before.keys.filter { after[$0] == nil }.sorted())
            // The draft is the only entry tagged `planning`: the tag's page goes with it.
            #expect(report.deleted == (drafts ? [] : ["journal/sol-08-draft-notes/index.html", "tags/planning/index.html"]))
            #expect(report.filesDeleted == report.deleted.count)
            #expect(report.pagesWritten + report.filesCopied == changed.count)
            let now = try fileIdentities()
            for path in after.keys where !changed.contains(path) {
                #expect(now[path]?[.systemFileNumber] as? Int == identities[path]?[.systemFileNumber] as? Int, "\(path) kept")
                #expect(now[path]?[.modificationDate] as? Date == identities[path]?[.modificationDate] as? Date, "\(path) kept")
            }
            for path in changed where before[path] != nil {
                #expect(now[path]?[.systemFileNumber] as? Int != identities[path]?[.systemFileNumber] as? Int, "\(path) written")
            }
            let (cleanReport, cleanFiles) = try cleanBuild(includesDrafts: drafts)
            #expect(cleanFiles == after)
            #expect(report.pagesWritten + report.pagesUnchanged == cleanReport.pagesWritten)
            // The index says which setting the output was built with: the same again is a no-op.
            let again = try SiteBuilder(options: options(drafts, false)).build()
            #expect(!again.isFullBuild && again.notice == nil && again.written.isEmpty && again.deleted.isEmpty)
        }
        let identities = try fileIdentities()
        // A file put in the output by hand (as --force allows) goes with a full build, which says so.
        try Data("by hand".utf8).write(to: output.appendingPathComponent("journal/notes.txt"))
        let report = try SiteBuilder(options: options(false, true)).build()
        #expect(report.pagesUnchanged == 0)
        #expect(report.deleted == ["journal/notes.txt"])
        #expect(report.explanations.contains("journal/notes.txt: deleted, no longer produced"))
        let now = try fileIdentities()
        for (path, attributes) in identities {
            #expect(now[path]?[.systemFileNumber] as? Int != attributes[.systemFileNumber] as? Int, "\(path) written by --clean")
        }
    }

    @Test("--clean rebuilds everything; the next build is incremental again")
    func clean() throws {
        let report = try build(clean: true)
        #expect(report.isFullBuild)
        #expect(report.pagesWritten == 85)
        #expect(try !build().isFullBuild)
    }
}
