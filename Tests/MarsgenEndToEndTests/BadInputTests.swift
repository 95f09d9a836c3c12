import Foundation
import Testing

/// Every bad-input case under `Tests/Fixtures/BadInput/`: one folder per case, holding
/// `case.txt` and the files (under `site/`) laid over a copy of the demo site.
///
/// `case.txt`, one directive per line (`#` starts a comment):
///
///     exit: 1                                  expected exit status (0 or 1)
///     expect: content/journal/x.md:3:9: error: …   a line stderr must contain, verbatim
///     exists: public/journal/x/index.html      a file the build must have written
///     chmod: 000 content/journal/x.md          file modes git cannot keep
///     symlink: content/journal/x.md -> /etc/passwd
///     fifo: content/journal/x.md               a named pipe (in place of a file there)
///     large: content/journal/big.md 20         a generated entry of this many MB
///     output: content/out                      build with --output (site-relative)
///     file: afile                              create an empty file
///     as-nobody                                run as 'nobody' when the tests run as root
///     location: none                           the error is about a path given on the command
///                                              line, not a place in a file: `path: error: …`
///
/// `<site>` in an expectation stands for the site's temporary folder.
/// A case that fails must fail cleanly: exit 1 (never a trap or a signal), the first line
/// after the warnings found before the error `path:line:column: error: message`, a hint,
/// and `public/` exactly as it was.
@Suite(.serialized) struct BadInputTests {
    static let fixtures = SiteFixture.repositoryRoot.appendingPathComponent("Tests/Fixtures/BadInput")

    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("there are at least 30 cases")
    func enoughCases() {
        #expect(Self.cases.count >= 30)
    }

    @Test("each bad input builds or fails as its case says", arguments: cases)
    func badInput(_ name: String) throws {
        let directory = Self.fixtures.appendingPathComponent(name)
        let spec = try BadInputCase(String(contentsOf: directory.appendingPathComponent("case.txt"), encoding: .utf8))
        let site = try SiteFixture.copyOfDemoSite()
        defer {
            _ = try? SiteFixture.shell("chmod -R u+rwX '\(site.path)'")
            try? FileManager.default.removeItem(at: site)
        }
        let output = site.appendingPathComponent("public")
        let first = try SiteFixture.run(["build", "--source", site.path, "--quiet"])
        try #require(first.status == 0, "the demo site does not build: \(first.err)")
        try Data("keep me".utf8).write(to: output.appendingPathComponent(".gitkeep"))
        let before = try SiteFixture.snapshot(output)

        try spec.apply(overlay: directory.appendingPathComponent("site"), to: site)
        var arguments = ["build", "--source", site.path]
        if let relative = spec.output { arguments += ["--output", site.appendingPathComponent(relative).path] }
        let result = spec.asNobody && getuid() == 0
            ? try SiteFixture.runAsNobody(arguments, site: site)
            : try SiteFixture.run(arguments)

        #expect(result.status == spec.exit, "\(name): exit \(result.status), stderr:\n\(result.err)")
        #expect(result.status < 128, "\(name): killed by a signal")
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for expected in spec.expectations {
            let line = expected.replacingOccurrences(of: "<site>", with: site.path)
            #expect(lines.contains(line), "\(name): missing line\n  \(line)\nin stderr:\n\(result.err)")
        }
        for relative in spec.exists {
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(relative).path), "\(name): \(relative) missing")
        }
        if spec.exit == 1 {
            // Warnings found before the error come first, each with its hint; then the error.
            let warnings = lines.prefix { $0.contains(": warning: ") || $0.hasPrefix("  hint: ") }
            let headline = lines.dropFirst(warnings.count).first ?? ""
            let form = spec.hasLocation ? #"^[^ :][^:]*:[0-9]+:[0-9]+: error: "# : #"^[^ :][^:]*: error: "#
            #expect(headline.range(of: form, options: .regularExpression) != nil,
                    "\(name): first line is not 'path:line:column: error:': \(headline)")
            #expect(lines.contains { $0.hasPrefix("  hint: ") }, "\(name): no hint")
            #expect(try SiteFixture.snapshot(output) == before, "\(name): public/ changed")
        }
    }
}

/// One parsed `case.txt`.
struct BadInputCase {
    var exit: Int32 = 1
    var expectations: [String] = []
    var exists: [String] = []
    var output: String?
    var asNobody = false
    var hasLocation = true
    var setup: [(directive: String, value: String)] = []

    init(_ text: String) throws {
        for raw in text.split(separator: "\n") where !raw.hasPrefix("#") && !raw.allSatisfy(\.isWhitespace) {
            let line = String(raw)
            guard let colon = line.firstIndex(of: ":") else {
                if line == "as-nobody" { asNobody = true; continue }
                throw BadInputError("no directive in '\(line)'")
            }
            let directive = String(line[..<colon])
            var value = String(line[line.index(after: colon)...])
            if value.hasPrefix(" ") { value.removeFirst() }
            switch directive {
            case "exit": exit = Int32(value) ?? -1
            case "expect": expectations.append(value)
            case "exists": exists.append(value)
            case "output": output = value
            case "location": hasLocation = value != "none"
            case "chmod", "symlink", "large", "file", "rename", "fifo": setup.append((directive, value))
            default: throw BadInputError("unknown directive '\(directive)'")
            }
        }
    }

    func apply(overlay: URL, to site: URL) throws {
        if FileManager.default.fileExists(atPath: overlay.path) {
            let enumerator = FileManager.default.enumerator(atPath: overlay.path)
            while let relative = enumerator?.nextObject() as? String {
                let source = overlay.appendingPathComponent(relative), destination = site.appendingPathComponent(relative)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.copyItem(at: source, to: destination)
            }
        }
        for (directive, value) in setup {
            switch directive {
            case "chmod":
                let parts = value.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, let mode = Int(parts[0], radix: 8) else { throw BadInputError("bad chmod '\(value)'") }
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: site.appendingPathComponent(parts[1]).path)
            case "symlink":
                let parts = value.components(separatedBy: " -> ")
                guard parts.count == 2 else { throw BadInputError("bad symlink '\(value)'") }
                let link = site.appendingPathComponent(parts[0])
                try? FileManager.default.removeItem(at: link)
                try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: parts[1])
            case "large":
                let parts = value.split(separator: " ").map(String.init)
                guard parts.count == 2, let megabytes = Int(parts[1]) else { throw BadInputError("bad large '\(value)'") }
                try Self.largeEntry(megabytes: megabytes).write(to: site.appendingPathComponent(parts[0]))
            case "rename":
                // `from -> to`, where `to` may hold `\xNN` for a byte that is not UTF-8.
                let parts = value.components(separatedBy: " -> ")
                guard parts.count == 2 else { throw BadInputError("bad rename '\(value)'") }
                let source = site.appendingPathComponent(parts[0]).path
                var target = Array((site.path + "/").utf8)
                var rest = Substring(parts[1])
                while let first = rest.first {
                    if rest.hasPrefix("\\x"), let byte = UInt8(rest.dropFirst(2).prefix(2), radix: 16) {
                        target.append(byte)
                        rest = rest.dropFirst(4)
                    } else {
                        target.append(contentsOf: first.utf8)
                        rest = rest.dropFirst()
                    }
                }
                target.append(0)
                let renamed = target.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { Foundation.rename(source, $0.baseAddress) }
                }
                guard renamed == 0 else { throw BadInputError("cannot rename '\(value)'") }
            case "file":
                try Data().write(to: site.appendingPathComponent(value))
            case "fifo":
                let pipe = site.appendingPathComponent(value)
                try? FileManager.default.removeItem(at: pipe)
                guard mkfifo(pipe.path, 0o644) == 0 else { throw BadInputError("cannot make the named pipe '\(value)'") }
            default:
                break
            }
        }
    }

    /// A journal entry of realistic Markdown, `megabytes` long.
    static func largeEntry(megabytes: Int) -> Data {
        var text = "---\ntitle: The long report\nauthor: vega\nsol: 9\ntime: \"10:00\"\n---\n"
        let paragraph = "Dust on the *panels* again; see [the log](https://example.org/log) and `pump 2`. "
            + "The ~~first~~ second storm cell passed at 14:02.\n\n| Sol | kW |\n| --- | ---: |\n| 9 | 21.4 |\n\n"
        let target = megabytes * 1_048_576
        text.reserveCapacity(target + paragraph.utf8.count)
        while text.utf8.count < target { text += paragraph }
        return Data(text.utf8)
    }
}

struct BadInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
