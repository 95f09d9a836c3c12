import Diagnostics
import Foundation
import MarsgenTesting
@testable import Site
import Testing

@Suite("Listing a site's input files")
struct SiteReaderListingTests {
    /// A site folder with a journal of one folder per sol, a few files a build skips, and a
    /// folder outside `content/` that a link may point to.
    static func makeSite() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-listing-\(UUID().uuidString)").path
        let files = FileManager.default
        for sol in 1...40 {
            let folder = root + "/content/journal/" + String(format: "%05d", sol)
            try files.createDirectory(atPath: folder + "/notes", withIntermediateDirectories: true)
            for name in ["a.md", "b.md", "notes/deep.md", "photo.jpg", ".hidden.md", "draft.md~", ".a.md.swp"] {
                #expect(files.createFile(atPath: folder + "/" + name, contents: Data(name.utf8)))
            }
        }
        #expect(files.createFile(atPath: root + "/content/journal/top.md", contents: Data("top".utf8)))
        try files.createDirectory(atPath: root + "/content/journal/.git/objects", withIntermediateDirectories: true)
        #expect(files.createFile(atPath: root + "/content/journal/.git/objects/x.md", contents: Data()))
        try files.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
        #expect(files.createFile(atPath: root + "/shared/linked.md", contents: Data("linked".utf8)))
        return root
    }

    static func expectedPaths(extra: [String] = []) -> [String] {
        var paths = ["content/journal/top.md"] + extra
        for sol in 1...40 {
            let folder = "content/journal/" + String(format: "%05d", sol)
            paths += [folder + "/a.md", folder + "/b.md", folder + "/notes/deep.md"]
        }
        return paths.sorted()
    }

    /// Lists the journal of the site at `root` and checks the paths, their stats and whether
    /// a link was reported.
    static func expectListing(root: String, hasLinks: Bool, extra: [String] = []) throws {
        let listed = try SiteReader(root: root).listing(under: "content/journal", suffix: ".md")
        #expect(listed.hasLinks == hasLinks)
        #expect(listed.files.map(\.path) == expectedPaths(extra: extra))
        for file in listed.files {
            #expect(file.stat == FileStat(path: root + "/" + file.path), "\(file.path)")
        }
    }

    @Test("a tree without links lists every input, sorted, each with the stat a stat call gives")
    func plainTree() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.expectListing(root: root, hasLinks: false)
    }

    @Test("a link deep in the tree is followed and reported, with the same files a plain tree gives")
    func treeWithLink() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/content/journal/00017/notes/shared",
                                                   withDestinationPath: "../../../../shared")
        try Self.expectListing(root: root, hasLinks: true, extra: ["content/journal/00017/notes/shared/linked.md"])
    }

    @Test("a name that is not UTF-8 is an error that shows its bytes, not a file skipped; a tree holding one can be removed")
    func undecodableName() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // `caf\xE9.md` and a folder `d\xFF`, as an old system names them in Latin-1.
        for (path, isFolder) in [("/content/journal/00003/caf\u{E9}.md", false), ("/content/journal/00009/d\u{FF}", true)] {
            var bytes = Array(root.utf8) + path.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
            bytes.append(0)
            let made = bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { name -> Int32 in
                guard let path = name.baseAddress else { return -1 }
                if isFolder { return mkdir(path, 0o755) }
                let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
                if descriptor >= 0 { close(descriptor) }
                return descriptor
            } }
            #expect(made >= 0)
        }
        let error = #expect(throws: Diagnostic.self) { try SiteReader(root: root).listing(under: "content/journal", suffix: ".md") }
        #expect(error?.location?.path == "content/journal/00003/caf\\xE9.md")
        #expect(error?.message.contains("not valid UTF-8") == true)
        // The output is removed the same way when a full build replaces it.
        try FileSystem.removeTree(root)
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    @Test("a link back to a folder already listed is an error, wherever in the tree it is")
    func loop() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/content/journal/00031/notes/back", withDestinationPath: "../../00002")
        #expect(throws: Diagnostic.self) { try SiteReader(root: root).listing(under: "content/journal", suffix: ".md") }
    }

    @Test("a folder of many files of its own, stat'ed in batches, lists each input once, sorted; a link among them is followed")
    func flatFolder() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = FileManager.default
        let folder = root + "/content/weather"
        try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // More than two batches, with names a build skips spread among them.
        var expected: [String] = []
        for index in 0..<600 {
            let name = String(format: "r-%04d.md", index)
            #expect(files.createFile(atPath: folder + "/" + name, contents: Data(name.utf8)))
            expected.append("content/weather/" + name)
            let skipped = [String(format: "r-%04d.txt", index), String(format: ".r-%04d.md", index), String(format: "r-%04d.md~", index)]
            #expect(files.createFile(atPath: folder + "/" + skipped[index % 3], contents: Data()))
        }
        func expectListing(hasLinks: Bool, paths: [String]) throws {
            let listed = try SiteReader(root: root).listing(under: "content/weather", suffix: ".md")
            #expect(listed.hasLinks == hasLinks)
            #expect(listed.files.map(\.path) == paths)
            for file in listed.files {
                #expect(file.stat == FileStat(path: root + "/" + file.path), "\(file.path)")
            }
        }
        try expectListing(hasLinks: false, paths: expected)
        try files.createSymbolicLink(atPath: folder + "/r-0300-linked.md", withDestinationPath: "../../shared/linked.md")
        try expectListing(hasLinks: true, paths: (expected + ["content/weather/r-0300-linked.md"]).sorted())
    }

    /// An index recording `listed`, as read back from its text, by a build that started
    /// reading at `scanStartedAt`.
    static func index(recording listed: ListedInputs, scanStartedAt: Int64) throws -> BuildIndex {
        var index = BuildIndex(outputDirectory: "/out", configurationHash: "c", scanStartedAt: scanStartedAt, stateToken: "t",
                               stateSize: 0, inputs: [:])
        for file in listed.files { index.inputs[file.path] = BuildIndex.Input(file.stat, hash: "h") }
        index.folders = listed.folders ?? []
        return try #require(BuildIndex(text: String(decoding: index.bytes(inputLines: index.inputLines), as: UTF8.self)))
    }

    /// One random change to the site at `root`: files and folders added, removed, renamed,
    /// rewritten or replaced, names a build skips, links. Returns what it did.
    static func randomChange(in root: String, random: inout SeededRandom, step: Int) throws -> String {
        let files = FileManager.default
        func existing(_ suffix: String? = nil, folders: Bool = false) throws -> [String] {
            var found: [String] = []
            for directory in ["content/journal", "content/weather"] {
                guard let enumerator = files.enumerator(atPath: root + "/" + directory) else { continue }
                while let relative = enumerator.nextObject() as? String {
                    guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
                    var isFolder: ObjCBool = false
                    let path = directory + "/" + relative
                    guard files.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), isFolder.boolValue == folders else { continue }
                    if suffix.map(path.hasSuffix) ?? true { found.append(path) }
                }
            }
            return found.sorted()
        }
        func pick(_ items: [String]) -> String? { items.isEmpty ? nil : items[random.next(items.count)] }
        func write(_ path: String, _ text: String) { _ = files.createFile(atPath: root + "/" + path, contents: Data(text.utf8)) }
        let folder = pick(try existing(folders: true)) ?? "content/journal"
        let file = pick(try existing(".md"))
        switch random.next(12) {
        case 0:
            write(folder + "/added-\(step).md", "added")
            return "file added in \(folder)"
        case 1:
            guard let file else { return "nothing" }
            try files.removeItem(atPath: root + "/" + file)
            return "\(file) removed"
        case 2:
            let new = folder + "/new-\(step)"
            try files.createDirectory(atPath: root + "/" + new + "/deeper", withIntermediateDirectories: true)
            write(new + "/x.md", "x")
            write(new + "/deeper/y.md", "y")
            return "folder \(new) added"
        case 3:
            guard folder.split(separator: "/").count > 2 else { return "nothing" }
            try files.removeItem(atPath: root + "/" + folder)
            return "folder \(folder) removed"
        case 4:
            guard let file else { return "nothing" }
            let target = folder + "/renamed-\(step).md"
            try files.moveItem(atPath: root + "/" + file, toPath: root + "/" + target)
            return "\(file) renamed to \(target)"
        case 5:
            guard let file else { return "nothing" }
            // In place: the folder does not change, only the file.
            let handle = try #require(FileHandle(forWritingAtPath: root + "/" + file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("more".utf8))
            try handle.close()
            return "\(file) appended to"
        case 6:
            let name = [".hidden-\(step).md", "backup-\(step).md~", ".swap-\(step).md.swp", "photo-\(step).jpg"][random.next(4)]
            write(folder + "/" + name, "skipped")
            return "\(name) added in \(folder)"
        case 7:
            guard let file else { return "nothing" }
            try files.removeItem(atPath: root + "/" + file)
            try files.createDirectory(atPath: root + "/" + file, withIntermediateDirectories: false)
            write(file + "/inside.md", "inside")
            return "\(file) replaced by a folder"
        case 8:
            let empty = folder + "/empty-\(step)"
            try files.createDirectory(atPath: root + "/" + empty, withIntermediateDirectories: false)
            return "empty folder \(empty) added"
        case 9:
            let link = folder + "/linked-\(step).md"
            try files.createSymbolicLink(atPath: root + "/" + link, withDestinationPath: root + "/shared/linked.md")
            return "link \(link) added"
        case 10:
            write("content/weather/w-\(step).md", "weather")
            return "weather report added"
        default:
            guard let file else { return "nothing" }
            // Replaced by rename, as editors save: same name, another file.
            write(file + ".tmp", "saved again, longer than before")
            #expect(rename(root + "/" + file + ".tmp", root + "/" + file) == 0)
            return "\(file) saved by rename"
        }
    }

    @Test("a listing that trusts the folders an earlier listing recorded is the listing a walk gives, after any change")
    func recordedFolders() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/content/weather", withIntermediateDirectories: true)
        for index in 0..<40 { #expect(files.createFile(atPath: root + "/content/weather/w-\(index).md", contents: Data("w".utf8))) }
        let reader = SiteReader(root: root)
        var random = SeededRandom(seed: 0xF01D_E25)
        var previous = try reader.inputFiles()
        // Recorded by a build that started long after every change here: every folder whose
        // stat is unchanged is trusted, none is read again for being recent.
        let later = FileStat.now + 3_600 * 1_000_000_000
        var trusted = 0
        for step in 0..<150 {
            let change = try Self.randomChange(in: root, random: &random, step: step)
            let index = try Self.index(recording: previous, scanStartedAt: later)
            let fresh = try reader.inputFiles()
            let recorded = try reader.inputFiles(recordedIn: index)
            #expect(recorded.files.map(\.path) == fresh.files.map(\.path), "step \(step): \(change)")
            #expect(recorded.files.map(\.stat) == fresh.files.map(\.stat), "step \(step): \(change)")
            #expect(recorded.hasLinks == fresh.hasLinks, "step \(step): \(change)")
            #expect(recorded.folders == fresh.folders, "step \(step): \(change)")
            // Without links, the journal's listing comes from the record, not from a walk.
            if !previous.hasLinks, !fresh.hasLinks {
                let journal = try #require(index.folders.firstIndex { $0.path == "content/journal" })
                let end = index.folders.firstIndex { !$0.path.hasPrefix("content/journal") } ?? index.folders.count
                let paths = index.inputs.keys.filter { $0.hasPrefix("content/journal/") }
                let suffix = SiteReader.inputFolders.first { $0.directory == "content/journal" }?.suffix
                let listed = reader.recordedListing(under: "content/journal", suffix: suffix, files: paths[...],
                                                    folders: index.folders[journal..<end], recordedBy: later)
                #expect(listed?.files.map(\.path) == fresh.files.map(\.path).filter { $0.hasPrefix("content/journal/") },
                        "step \(step): \(change)")
                if listed != nil { trusted += 1 }
            }
            // A link is removed again at once, so that most steps start from a record.
            if fresh.hasLinks {
                for path in try files.subpathsOfDirectory(atPath: root + "/content") where path.contains("/linked-") {
                    try files.removeItem(atPath: root + "/content/" + path)
                }
                previous = try reader.inputFiles()
            } else {
                previous = fresh
            }
        }
        #expect(trusted > 100)
    }

    @Test("a record that does not fit the folders (a file gone from a folder that did not change) is not used")
    func recordThatDoesNotFit() throws {
        let root = try Self.makeSite()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let reader = SiteReader(root: root)
        var listed = try reader.inputFiles()
        listed.files.append(("content/journal/00003/ghost.md", FileStat(size: 1, modified: 1, changed: 1)))
        listed.files.sort { $0.path < $1.path }
        let later = FileStat.now + 3_600 * 1_000_000_000
        let index = try Self.index(recording: listed, scanStartedAt: later)
        let paths = index.inputs.keys.filter { $0.hasPrefix("content/journal/") }
        let end = index.folders.firstIndex { !$0.path.hasPrefix("content/journal") } ?? index.folders.count
        #expect(reader.recordedListing(under: "content/journal", suffix: ".md", files: paths[...], folders: index.folders[0..<end],
                                       recordedBy: later) == nil)
        let fresh = try reader.inputFiles()
        #expect(try reader.inputFiles(recordedIn: index).files.map(\.path) == fresh.files.map(\.path))
        // Recorded by a build that started just now, every folder is too recent to trust: all
        // are read again, and the ghost is not listed either.
        let recent = try Self.index(recording: listed, scanStartedAt: FileStat.now)
        #expect(try reader.inputFiles(recordedIn: recent).files.map(\.path) == fresh.files.map(\.path))
    }
}
