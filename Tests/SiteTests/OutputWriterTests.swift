import Diagnostics
import Foundation
@testable import Site
import Testing

/// The writer that puts a full build in place, staging inside an output folder that cannot
/// be replaced (a mount point, or one whose parent is not writable).
@Suite struct OutputWriterTests {
    /// Every file under `root` with its text, by relative path; hidden entries included.
    func files(under root: URL) throws -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = root.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            found[relative] = try String(contentsOfFile: path, encoding: .utf8)
        }
        return found
    }

    /// A folder of this test's own under the system's temporary folder (not yet made).
    func temporaryRoot() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-writer-\(UUID().uuidString)")
    }

    /// `root/public`, holding an old front page.
    func outputWithFrontPage(in root: URL) throws -> URL {
        let output = root.appendingPathComponent("public")
        try write("old front page", at: "index.html", in: output)
        return output
    }

    func write(_ text: String, at relative: String, in root: URL) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test("staged inside, the output folder stays the same folder: entries are replaced, those gone removed, dot files kept, nothing left behind")
    func stagesInside() throws {
        let root = temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try outputWithFrontPage(in: root)
        try write("old entry", at: "journal/old/index.html", in: output)
        try write("kept entry folder, other page", at: "journal/kept/index.html", in: output)
        try write("a file the site no longer has", at: "stale.txt", in: output)
        try write("a folder the site no longer has", at: "tag/x/index.html", in: output)
        try write("ref: refs/heads/main", at: ".git/HEAD", in: output)
        try write("a folder that becomes a file", at: "feed/index.html", in: output)
        // What an incremental build killed while writing left.
        try write("half a page", at: ".index.html.marsgen-999999", in: output)
        try write("robots", at: "static/robots.txt", in: root)
        let inode = try #require(FileManager.default.attributesOfItem(atPath: output.path)[.systemFileNumber] as? Int)

        let writer = OutputWriter(output: output.path, stagesInside: true)
        try writer.begin()
        // Nothing staged yet: the output folder is untouched.
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".marsgen-") } == [])
        try writer.stage(Array("new front page".utf8), at: "index.html")
        try writer.stage(Array("kept entry".utf8), at: "journal/kept/index.html")
        try writer.stage(Array("feed as a file".utf8), at: "feed")
        try writer.commit(copies: ["robots.txt": root.appendingPathComponent("static/robots.txt").path])

        #expect(try files(under: output) == [
            "index.html": "new front page",
            "journal/kept/index.html": "kept entry",
            "feed": "feed as a file",
            "robots.txt": "robots",
            ".git/HEAD": "ref: refs/heads/main",
        ])
        #expect(try FileManager.default.attributesOfItem(atPath: output.path)[.systemFileNumber] as? Int == inode)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["public", "static"])
    }

    @Test("a writer that stages inside and fails leaves the output as it was")
    func failedBuildInside() throws {
        let root = temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try outputWithFrontPage(in: root)
        let writer = OutputWriter(output: output.path, stagesInside: true)
        try writer.begin()
        try writer.stage(Array("new front page".utf8), at: "index.html")
        #expect(throws: Diagnostic.self) {
            try writer.commit(copies: ["robots.txt": root.appendingPathComponent("static/missing.txt").path])
        }
        #expect(try files(under: output) == ["index.html": "old front page"])
    }

    func inode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
    }

    @Test("keeping identical files, beside or inside the output: a file of the same bytes is the output's file, any other a new one; a file with another name elsewhere is never kept",
          arguments: [false, true])
    func keepsIdenticalFiles(stagesInside: Bool) throws {
        let root = temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try outputWithFrontPage(in: root)
        try write("same entry", at: "journal/same/index.html", in: output)
        try write("old entry", at: "journal/edited/index.html", in: output)
        try write("same length", at: "journal/same-length/index.html", in: output)
        try write("", at: "empty.txt", in: output)
        try write("linked elsewhere", at: "journal/linked/index.html", in: output)
        try write("same image", at: "img/a.svg", in: output)
        try write("same image", at: "static/img/a.svg", in: root)
        let elsewhere = root.appendingPathComponent("backup.html")
        try FileManager.default.linkItem(at: output.appendingPathComponent("journal/linked/index.html"), to: elsewhere)
        let before = try ["index.html", "journal/same/index.html", "journal/edited/index.html", "journal/same-length/index.html",
                          "empty.txt", "journal/linked/index.html", "img/a.svg"]
            .reduce(into: [String: Int]()) { $0[$1] = try inode(output.appendingPathComponent($1)) }

        var writer = OutputWriter(output: output.path, stagesInside: stagesInside)
        writer.keepsIdenticalFiles = true
        try writer.begin()
        #expect(try writer.stage(Array("old front page".utf8), at: "index.html"))
        #expect(try writer.stage(Array("same entry".utf8), at: "journal/same/index.html"))
        #expect(try !writer.stage(Array("new entry".utf8), at: "journal/edited/index.html"))
        #expect(try !writer.stage(Array("SAME LENGTH".utf8), at: "journal/same-length/index.html"))
        #expect(try writer.stage([], at: "empty.txt"))
        #expect(try !writer.stage(Array("linked elsewhere".utf8), at: "journal/linked/index.html"))
        #expect(try !writer.stage(Array("a page the output had not".utf8), at: "journal/new/index.html"))
        let kept = try writer.commit(copies: ["img/a.svg": root.appendingPathComponent("static/img/a.svg").path])
        #expect(kept == ["img/a.svg"])

        #expect(try files(under: output).filter { !$0.key.hasPrefix(".") } == [
            "index.html": "old front page", "journal/same/index.html": "same entry", "journal/edited/index.html": "new entry",
            "journal/same-length/index.html": "SAME LENGTH", "empty.txt": "", "journal/linked/index.html": "linked elsewhere",
            "journal/new/index.html": "a page the output had not", "img/a.svg": "same image",
        ])
        for path in ["index.html", "journal/same/index.html", "empty.txt", "img/a.svg"] {
            #expect(try inode(output.appendingPathComponent(path)) == before[path], "\(path) kept")
        }
        for path in ["journal/edited/index.html", "journal/same-length/index.html", "journal/linked/index.html"] {
            #expect(try inode(output.appendingPathComponent(path)) != before[path], "\(path) new")
        }
        // The file with a name outside the output is as it was, and has only that name now.
        #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "linked elsewhere")
        #expect(try FileManager.default.attributesOfItem(atPath: elsewhere.path)[.referenceCount] as? Int == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("index.html").path)[.referenceCount] as? Int == 1)
    }

    @Test("a file staged twice at one path is a new file the second time, never written through the output's file it was kept as")
    func stagedTwiceNeverWritesThrough() throws {
        let root = temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try outputWithFrontPage(in: root)
        var writer = OutputWriter(output: output.path)
        writer.keepsIdenticalFiles = true
        try writer.begin()
        #expect(try writer.stage(Array("old front page".utf8), at: "index.html"))
        #expect(try !writer.stage(Array("new front page".utf8), at: "index.html"))
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) == "old front page")
        writer.discard()
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) == "old front page")
    }

    @Test("the old output's files, as a full build lists them: every file at any depth, a link as one entry (not followed), hidden files below the top, top-level ones left out")
    func oldOutputFiles() throws {
        let root = temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = try outputWithFrontPage(in: root)
        try write("entry", at: "journal/a/index.html", in: output)
        try write("deep", at: "journal/a/b/c/d.txt", in: output)
        try write("a note", at: "journal/.notes", in: output)
        try write("ref: refs/heads/main", at: ".git/HEAD", in: output)
        try write("", at: ".nojekyll", in: output)
        try write("elsewhere", at: "elsewhere/file.txt", in: root)
        try FileManager.default.createDirectory(at: output.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: output.appendingPathComponent("media").path,
                                                   withDestinationPath: root.appendingPathComponent("elsewhere").path)
        #expect(SiteBuilder.oldOutputFiles(in: output.path).sorted() == [
            "index.html", "journal/.notes", "journal/a/b/c/d.txt", "journal/a/index.html", "media",
        ])
        #expect(SiteBuilder.oldOutputFiles(in: root.appendingPathComponent("missing").path).isEmpty)
    }
}
