import Foundation
import Testing
@testable import Watch

@Suite("Site watcher")
struct SiteWatcherTests {
    @Test("an editor's atomic save (write a temporary file, rename it over the original) is one change of the original")
    func atomicSaveByRename() async throws {
        let site = try WatchFixture(files: ["content/journal/sol-01.md": "first"])
        try site.write("second", to: "content/journal/sol-01.md___jb_tmp___")
        #expect(rename(site.path("content/journal/sol-01.md___jb_tmp___"), site.path("content/journal/sol-01.md")) == 0)
        #expect(await site.wait { !site.changeSets.isEmpty })
        let sets = await site.settle()
        #expect(sets == [ChangeSet(paths: ["content/journal/sol-01.md"])])
    }

    @Test("vim's save (4913 probe, backup by rename, new file, backup removed) reports the file alone")
    func vimStyleSave() async throws {
        let site = try WatchFixture(files: ["content/journal/sol-01.md": "first"])
        try site.write("", to: "content/journal/4913")
        try FileManager.default.removeItem(atPath: site.path("content/journal/4913"))
        #expect(rename(site.path("content/journal/sol-01.md"), site.path("content/journal/sol-01.md~")) == 0)
        try site.write("second", to: "content/journal/sol-01.md")
        try FileManager.default.removeItem(atPath: site.path("content/journal/sol-01.md~"))
        #expect(await site.wait { !site.changeSets.isEmpty })
        #expect(await site.settle() == [ChangeSet(paths: ["content/journal/sol-01.md"])])
    }

    @Test("a deleted file is reported")
    func deletion() async throws {
        let site = try WatchFixture(files: ["content/journal/sol-01.md": "first"])
        try FileManager.default.removeItem(atPath: site.path("content/journal/sol-01.md"))
        #expect(await site.wait { site.reported.contains("content/journal/sol-01.md") })
    }

    @Test("a new folder with files in it is watched, and files written before its watch existed are reported")
    func newDirectoryWithFiles() async throws {
        let site = try WatchFixture()
        for name in ["a", "b", "c"] { try site.write(name, to: "content/journal/2039/\(name).md") }
        #expect(await site.wait { site.reported.isSuperset(of: ["content/journal/2039/a.md", "content/journal/2039/b.md", "content/journal/2039/c.md"]) })
        _ = await site.settle()
        site.forget()
        // The new folder is watched from now on.
        try site.write("later", to: "content/journal/2039/d.md")
        #expect(await site.wait { site.reported.contains("content/journal/2039/d.md") })
    }

    @Test("a file whose name is not UTF-8, alone or in a folder moved in, is reported as events dropped: only a full listing can name it",
          arguments: [WatchMode.automatic, .polling(interval: .milliseconds(30))])
    func undecodableName(_ mode: WatchMode) async throws {
        let site = try WatchFixture(mode: mode, files: ["content/journal/sol-01.md": "first"])
        /// Renames `from` to `to` with `é` as the Latin-1 byte E9, as an archive from an old system names it.
        func renameToLatin1(_ from: String, _ to: String) -> Int32 {
            var bytes = Array(site.path(to).utf8).flatMap { $0 == UInt8(ascii: "%") ? [UInt8(0xE9)] : [$0] }
            bytes.append(0)
            return bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { rename(site.path(from), $0.baseAddress) } }
        }
        try site.write("café", to: "content/journal/cafe.md")
        #expect(await site.wait { site.reported.contains("content/journal/cafe.md") })
        _ = await site.settle()
        site.forget()
        #expect(renameToLatin1("content/journal/cafe.md", "content/journal/caf%.md") == 0)
        #expect(await site.wait { site.changeSets.contains(where: \.isOverflow) })
        _ = await site.settle()
        site.forget()
        // A folder moved in is listed by the watcher itself, before any event from inside it.
        try site.write("x", to: "outside/2039/b.md")
        #expect(renameToLatin1("outside/2039/b.md", "outside/2039/b%.md") == 0)
        #expect(rename(site.path("outside/2039"), site.path("content/journal/2039")) == 0)
        #expect(await site.wait { site.changeSets.contains(where: \.isOverflow) })
    }

    @Test("a watched folder created after the start (static/) is picked up")
    func watchedFolderCreatedLater() async throws {
        let site = try WatchFixture()
        try site.write("body {}", to: "static/extra.css")
        #expect(await site.wait { site.reported.contains("static/extra.css") })
        _ = await site.settle()
        site.forget()
        try site.write("body { color: red }", to: "static/extra.css")
        #expect(await site.wait { site.reported.contains("static/extra.css") })
    }

    @Test("a folder renamed within the tree reports both places and keeps being watched")
    func renamedDirectory() async throws {
        let site = try WatchFixture(files: ["content/journal/old/a.md": "a"])
        #expect(rename(site.path("content/journal/old"), site.path("content/journal/new")) == 0)
        #expect(await site.wait { site.reported.isSuperset(of: ["content/journal/old", "content/journal/new/a.md"]) })
        _ = await site.settle()
        site.forget()
        try site.write("b", to: "content/journal/new/a.md")
        #expect(await site.wait { site.reported.contains("content/journal/new/a.md") })
        #expect(!site.reported.contains { $0.hasPrefix("content/journal/old/") })
    }

    @Test("a burst of 500 writes coalesces into one or two change sets, or one more per pause the writer took")
    func burstCoalesces() async throws {
        let site = try WatchFixture()
        // The watcher hands a set on after 50 ms without a change, or a second after the
        // set's first: on a loaded machine (`make test` runs other suites beside this one)
        // the writer can stall that long, and the burst then ends early, legitimately.
        let clock = ContinuousClock()
        let start = clock.now
        var last = start
        var pauses = 0
        for index in 0..<500 {
            try site.write("entry \(index)", to: "content/journal/burst-\(index).md")
            let now = clock.now
            if now - last >= .milliseconds(40) { pauses += 1 }
            last = now
        }
        let seconds = Int((last - start) / .seconds(1))
        #expect(await site.wait { site.reported.count >= 500 })
        let sets = await site.settle()
        #expect((1...(2 + pauses + seconds)).contains(sets.count), "\(pauses) pauses, \(seconds) s")
        #expect(Set(sets.flatMap(\.paths)) == Set((0..<500).map { "content/journal/burst-\($0).md" }))
    }

    @Test("editor temporary files, hidden files and files outside the watched places never trigger a change")
    func temporaryFilesIgnored() async throws {
        let site = try WatchFixture(files: ["content/journal/sol-01.md": "first"])
        for name in [".sol-01.md.swp", "sol-01.md~", "4913", ".#sol-01.md", "#sol-01.md#", "sol-01.md___jb_tmp___", ".DS_Store"] {
            try site.write("x", to: "content/journal/\(name)")
        }
        try site.write("x", to: "content/.git/index")
        try site.write("x", to: "README.md")
        try site.write("x", to: "public/index.html")
        try site.write("x", to: ".marsgen/build.index")
        try await Task.sleep(for: .milliseconds(500))
        #expect(site.changeSets.isEmpty)
    }

    @Test("the config file at the root is watched on its own")
    func configFile() async throws {
        let site = try WatchFixture(files: ["marsgen.yml": "title: A"])
        try site.write("title: B", to: "marsgen.yml")
        #expect(await site.wait { site.reported == ["marsgen.yml"] })
    }

    @Test("a file that a symbolic link in the watched places leads to, outside them, is reported as the link when it changes, in place or by an atomic save",
          arguments: [WatchMode.automatic, .polling(interval: .milliseconds(30))])
    func linkedFileOutsideChanged(_ mode: WatchMode) async throws {
        let site = try WatchFixture(mode: mode,
                                    files: ["shared/crew.yml": "vega: {}", "shared/entry.md": "first", "shared/site.yml": "title: A",
                                            "shared/other.md": "not linked"],
                                    links: ["content/crew.yml": "../shared/crew.yml", "content/journal/linked.md": "../../shared/entry.md",
                                            "marsgen.yml": "shared/site.yml"])
        // Another file beside them is not the site's.
        try site.write("still not linked", to: "shared/other.md")
        try await Task.sleep(for: .milliseconds(300))
        #expect(site.changeSets.isEmpty)
        try site.write("vega: {}\nokoro: {}", to: "shared/crew.yml")
        #expect(await site.wait { site.reported.contains("content/crew.yml") })
        // An editor's atomic save replaces the file behind the link with another.
        try site.write("second", to: "shared/entry.md.tmp")
        #expect(rename(site.path("shared/entry.md.tmp"), site.path("shared/entry.md")) == 0)
        #expect(await site.wait { site.reported.contains("content/journal/linked.md") })
        try site.write("title: B", to: "shared/site.yml")
        #expect(await site.wait { site.reported.contains("marsgen.yml") })
        _ = await site.settle()
        #expect(site.reported == ["content/crew.yml", "content/journal/linked.md", "marsgen.yml"])
    }

    @Test("a link made while watching, to a file or a folder elsewhere, is followed; one pointed elsewhere follows its new file only")
    func linksMadeWhileWatching() async throws {
        let site = try WatchFixture(files: ["shared/a.md": "a", "shared/b.md": "b", "shared/notes/n.md": "n"])
        try site.link("content/journal/a.md", to: "../../shared/a.md")
        try site.link("content/journal/notes", to: "../../shared/notes")
        #expect(await site.wait { site.reported.isSuperset(of: ["content/journal/a.md", "content/journal/notes"]) })
        _ = await site.settle()
        site.forget()
        try site.write("a, edited", to: "shared/a.md")
        try site.write("n, edited", to: "shared/notes/n.md")
        #expect(await site.wait { site.reported.isSuperset(of: ["content/journal/a.md", "content/journal/notes/n.md"]) })
        _ = await site.settle()
        site.forget()
        // `ln -sf`: a new link renamed over the old one.
        try site.link("content/journal/a.md.new", to: "../../shared/b.md")
        #expect(rename(site.path("content/journal/a.md.new"), site.path("content/journal/a.md")) == 0)
        #expect(await site.wait { site.reported.contains("content/journal/a.md") })
        _ = await site.settle()
        site.forget()
        try site.write("a, not the site's any more", to: "shared/a.md")
        try await Task.sleep(for: .milliseconds(300))
        #expect(site.changeSets.isEmpty)
        try site.write("b, edited", to: "shared/b.md")
        #expect(await site.wait { site.reported == ["content/journal/a.md"] })
    }

    @Test("polling notices writes, deletions and new folders")
    func polling() async throws {
        let site = try WatchFixture(mode: .polling(interval: .milliseconds(30)), files: ["content/journal/a.md": "a"])
        #expect(site.watcher.method == .polling(interval: .milliseconds(30)))
        try site.write("b", to: "content/journal/b.md")
        try FileManager.default.removeItem(atPath: site.path("content/journal/a.md"))
        try site.write("c", to: "content/journal/deep/c.md")
        #expect(await site.wait { site.reported == ["content/journal/a.md", "content/journal/b.md", "content/journal/deep/c.md"] })
    }

    @Test("polling notices a write in place that keeps the file's size and modification time (touch -r)")
    func pollingSeesTimeSetBack() async throws {
        let site = try WatchFixture(mode: .polling(interval: .milliseconds(30)), files: ["content/journal/a.md": "aaaa"])
        // Once a scan has seen b.md, one has seen a.md as it is now.
        try site.write("b", to: "content/journal/b.md")
        #expect(await site.wait { site.reported == ["content/journal/b.md"] })
        site.forget()
        let path = site.path("content/journal/a.md")
        var before = stat()
        #expect(stat(path, &before) == 0)
        let descriptor = open(path, O_WRONLY)
        #expect(descriptor >= 0)
        #expect(write(descriptor, "bbbb", 4) == 4)
        close(descriptor)
        let times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
        #expect(await site.wait { site.reported == ["content/journal/a.md"] })
    }

    @Test("when the kernel's watch limit is reached, the watcher says how to raise it and polls instead")
    func watchLimitFallsBackToPolling() async throws {
        let site = try WatchFixture(simulatedWatchLimit: 2, files: ["content/journal/a.md": "a"])
        #expect(site.watcher.method == .polling(interval: SiteWatcher.fallbackPollingInterval))
        #expect(site.notices.count == 1)
        #expect(site.notices.first?.contains("fs.inotify.max_user_watches") == true)
        try site.write("b", to: "content/journal/a.md")
        #expect(await site.wait { site.reported.contains("content/journal/a.md") })
    }

    @Test("stop() ends the watcher: no report after it returns")
    func stopEndsReports() async throws {
        let site = try WatchFixture()
        site.watcher.stop()
        try site.write("x", to: "content/journal/after-stop.md")
        try await Task.sleep(for: .milliseconds(300))
        #expect(site.changeSets.isEmpty)
    }
}

@Suite("Change coalescer")
struct ChangeCoalescerTests {
    @Test("a set is due after the quiet period following the last change")
    func quietPeriod() {
        let start = ContinuousClock.now
        var coalescer = ChangeCoalescer(quietPeriod: .milliseconds(50), longestWait: .seconds(1))
        #expect(coalescer.timeUntilDue(at: start) == nil)
        coalescer.add("a", at: start)
        coalescer.add("b", at: start + .milliseconds(30))
        #expect(coalescer.takeIfDue(at: start + .milliseconds(60)) == nil)
        #expect(coalescer.timeUntilDue(at: start + .milliseconds(60)) == .milliseconds(20))
        #expect(coalescer.takeIfDue(at: start + .milliseconds(80)) == ChangeSet(paths: ["a", "b"]))
        #expect(coalescer.isEmpty)
    }

    @Test("a steady trickle of changes is handed on after the longest wait")
    func longestWait() {
        let start = ContinuousClock.now
        var coalescer = ChangeCoalescer(quietPeriod: .milliseconds(50), longestWait: .milliseconds(200))
        for step in 0..<10 { coalescer.add("log.md", at: start + .milliseconds(step * 30)) }
        #expect(coalescer.takeIfDue(at: start + .milliseconds(200)) == ChangeSet(paths: ["log.md"]))
    }

    @Test("an overflow is reported as such")
    func overflow() {
        let start = ContinuousClock.now
        var coalescer = ChangeCoalescer(quietPeriod: .milliseconds(10))
        coalescer.addOverflow(at: start)
        let set = coalescer.takeIfDue(at: start + .milliseconds(10))
        #expect(set?.isOverflow == true)
        #expect(set?.summary == "files (events were dropped)")
    }
}
