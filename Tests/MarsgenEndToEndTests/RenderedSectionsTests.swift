import Foundation
@testable import Site
import Testing

/// The sections of the pages the last `marsgen build` rendered, as it keeps them for the
/// next one (``RenderedSections``).
@Suite(.serialized) final class RenderedSectionsTests {
    let site: URL
    var output: URL { site.appendingPathComponent("public") }
    var sectionsFile: String { RenderedSections.path(siteRoot: site.path, output: output.path) }
    let log = "content/messages/habitat.md"
    var appended = 0

    /// Each test's copy of the demo site goes with it.
    deinit { try? FileManager.default.removeItem(at: site) }

    /// The demo site built, then built again after an append: the first incremental build
    /// leaves the file of its pages' sections.
    init() throws {
        site = try SiteFixture.copyOfDemoSite()
        _ = try build()
        try appendMessage()
        _ = try build()
    }

    func build(clean: Bool = false) throws -> BuildReport {
        try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: clean)).build()
    }

    func appendMessage() throws {
        appended += 1
        let url = site.appendingPathComponent(log)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data((text + "\n## Sol 2 23:\(40 + appended) vega\nOne more before bed, \(appended).\n").utf8).write(to: url)
    }

    /// The file's sections, each marked, so a page shows which ones it was given from it.
    func markKeptSections() throws -> Int {
        let lists = RenderedRows.load(from: sectionsFile)
        let (key, list) = try #require(lists.first)
        let sections = list.byKey
        #expect(lists.count == 1 && sections.count > 3)
        try RenderedSections.save(sections.mapValues { $0 + "<!--kept-->" }, key: key, to: sectionsFile)
        return sections.count
    }

    /// Whether the section of `page` that shows `text` came from the file (is marked).
    static func isKept(_ page: String, showing text: String) throws -> Bool {
        let shown = try #require(page.range(of: text))
        let end = try #require(page[shown.upperBound...].range(of: "</section>"))
        return page[end.upperBound...].drop(while: \.isWhitespace).hasPrefix("<!--kept-->")
    }

    /// Every page of the output with its text.
    func pages() throws -> [String: String] {
        try SiteFixture.snapshot(output).filter { $0.key.hasSuffix(".html") }.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    @Test("an append renders the new message's section; its pages' other sections come from the file")
    func sectionsReadBack() throws {
        _ = try markKeptSections()
        try appendMessage()
        let report = try build()
        #expect(!report.isFullBuild && report.pagesWritten > 0)
        let pages = try pages()
        let marked = pages.filter { $0.value.contains("<!--kept-->") }
        #expect(!marked.isEmpty)
        // The new message is in its pages, rendered anew: never a kept section in its place.
        let showing = pages.values.filter { $0.contains("One more before bed, \(appended).") }
        #expect(!showing.isEmpty)
        for page in showing {
            #expect(try !Self.isKept(page, showing: "One more before bed, \(appended)."))
            // The message before it, shown on the same pages, was kept.
            #expect(try Self.isKept(page, showing: "One more before bed, \(appended - 1)."))
        }
        // The file now holds what this build showed, the new section unmarked.
        let saved = try #require(RenderedRows.load(from: sectionsFile).values.first?.byKey)
        #expect(saved.values.contains { $0.contains("One more before bed, \(appended).") && !$0.hasSuffix("<!--kept-->") })
    }

    @Test("the site built with the file equals a clean build")
    func sameAsClean() throws {
        try appendMessage()
        _ = try build()
        let incremental = try pages()
        _ = try build(clean: true)
        let clean = try pages()
        #expect(incremental.keys.sorted() == clean.keys.sorted())
        #expect(incremental.filter { clean[$0.key] != $0.value }.keys.sorted() == [])
    }

    @Test("a template, the configuration or the crew changed makes the file a miss; --clean reads nothing of it")
    func otherKeyIsAMiss() throws {
        let edits: [(String, (String) -> String)] = [
            ("templates/cell-message.mustache", { _ in "<p class=\"own\">{{{bodyHTML}}}</p>\n" }),
            ("marsgen.yml", { $0.replacingOccurrences(of: "title: ", with: "title: Renamed ") }),
            ("content/crew.yml", { $0.replacingOccurrences(of: "name: ", with: "name: Dr ") }),
        ]
        for (path, edit) in edits {
            _ = try markKeptSections()
            let url = site.appendingPathComponent(path)
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            try Data(edit(text).utf8).write(to: url)
            try appendMessage()
            _ = try build()
            #expect(try pages().values.allSatisfy { !$0.contains("<!--kept-->") }, "\(path)")
        }
        _ = try markKeptSections()
        _ = try build(clean: true)
        #expect(try pages().values.allSatisfy { !$0.contains("<!--kept-->") })
    }

    @Test("a damaged file is only a miss")
    func damagedIsAMiss() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sectionsFile)))
        bytes[bytes.count - 2] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: sectionsFile))
        #expect(RenderedRows.load(from: sectionsFile).isEmpty)
        try appendMessage()
        let report = try build()
        #expect(!report.isFullBuild && report.pagesWritten > 0)
        let incremental = try pages()
        _ = try build(clean: true)
        #expect(try pages() == incremental)
    }
}
