import Diagnostics
import Foundation
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
}
