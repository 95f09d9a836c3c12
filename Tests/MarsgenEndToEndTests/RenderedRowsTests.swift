import Foundation
import Rendering
@testable import Site
import Testing

/// The sol index's rows as `marsgen build` keeps them between builds (``RenderedRows``).
@Suite(.serialized) final class RenderedRowsTests {
    let site: URL
    var output: URL { site.appendingPathComponent("public") }
    var rowsFile: String { RenderedRows.path(siteRoot: site.path, output: output.path) }

    /// Each test's copy of the demo site goes with it.
    deinit { try? FileManager.default.removeItem(at: site) }

    init() throws {
        site = try SiteFixture.copyOfDemoSite()
        // A sol index that shows each row's values as well as its HTML, as a site's own
        // template may: rows read back from the file must have their values too.
        try SiteFixture.write("""
            <h1>{{heading}}</h1>
            <ol>{{{solsHTML}}}</ol>
            <ul class="values">{{#sols}}<li>{{sol}}: {{entryCount}} / {{messageCount}}</li>{{/sols}}</ul>

            """, to: "templates/page-sols.mustache", in: site)
        _ = try build()
    }

    func build(clean: Bool = false) throws -> BuildReport {
        try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, isClean: clean)).build()
    }

    func solIndex() throws -> String {
        try String(contentsOf: output.appendingPathComponent("sol/index.html"), encoding: .utf8)
    }

    func appendMessage() throws {
        let log = site.appendingPathComponent("content/messages/habitat.md")
        let text = try String(contentsOf: log, encoding: .utf8)
        try Data((text + "\n## Sol 2 23:50 vega\nOne more before bed.\n").utf8).write(to: log)
    }

    @Test("a build renders only the rows that changed; the others come from the file, with their values")
    func rowsReadBack() throws {
        let kept = RenderedRows.load(from: rowsFile)
        let rows = try #require(kept.values.first)
        #expect(kept.count == 1 && rows.count > 5)
        // Marked, so the page shows which rows were taken from the file.
        try RenderedRows.save(kept.mapValues { $0.marked("<!--kept-->") }, to: rowsFile)
        let before = try solIndex()
        try appendMessage()
        let report = try build()
        #expect(!report.isFullBuild && report.written.contains("sol/index.html"))
        let page = try solIndex()
        // Every row but sol 2's (one more message) was taken from the file.
        #expect(page.components(separatedBy: "<!--kept-->").count - 1 == rows.count - 1)
        #expect(page.contains("href=\"/sol/2/\"") && !page.contains("href=\"/sol/2/\"><!--kept-->"))
        let values = try #require(page.range(of: "<ul class=\"values\">")).upperBound
        let oldValues = try #require(before.range(of: "<ul class=\"values\">")).upperBound
        #expect(page[values...] != before[oldValues...])
        #expect(page[values...].components(separatedBy: "<li>").count - 1 == rows.count)
        // The file now holds what this build rendered, without the marks of the rows it did not.
        #expect(RenderedRows.load(from: rowsFile).values.first?.byKey.values.filter { !$0.hasSuffix("<!--kept-->") }.count == 1)
        // The values are those a clean build shows.
        _ = try build(clean: true)
        let clean = try solIndex()
        #expect(page[values...] == clean[try #require(clean.range(of: "<ul class=\"values\">")).upperBound...])
    }

    @Test("under watch, the first build that renders the sol index takes the rows from the file, and saves what it rendered")
    func rowsReadBackUnderWatch() throws {
        let kept = RenderedRows.load(from: rowsFile)
        let count = try #require(kept.values.first?.count)
        try RenderedRows.save(kept.mapValues { $0.marked("<!--kept-->") }, to: rowsFile)
        var options = BuildOptions(sourceDirectory: site.path)
        options.memory = BuildMemory()
        try appendMessage()
        let report = try SiteBuilder(options: options).build()
        #expect(!report.isFullBuild && report.written.contains("sol/index.html"))
        #expect(try solIndex().components(separatedBy: "<!--kept-->").count - 1 == count - 1)
        // Saved in the background with the state: the row rendered anew is in the file.
        options.memory?.waitForSave()
        let saved = try #require(RenderedRows.load(from: rowsFile).values.first)
        #expect(saved.count == count && saved.byKey.values.filter { !$0.hasSuffix("<!--kept-->") }.count == 1)
    }

    @Test("the site built with the file equals a clean build, and a damaged file is only a miss")
    func sameAsClean() throws {
        try appendMessage()
        _ = try build()
        let incremental = try solIndex()
        _ = try build(clean: true)
        #expect(try solIndex() == incremental)
        try Data("marsgen-rows\ngarbage".utf8).write(to: URL(fileURLWithPath: rowsFile))
        #expect(RenderedRows.load(from: rowsFile).isEmpty)
        try appendMessage()
        let report = try build()
        #expect(!report.isFullBuild && report.written.contains("sol/index.html"))
        let afterDamage = try solIndex()
        _ = try build(clean: true)
        #expect(try solIndex() == afterDamage)
        #expect(RenderedRows.load(from: rowsFile).values.first?.isEmpty == false)
    }

    @Test("a byte of a row's HTML changed in the file makes the whole file a miss: the row is rendered again, never shown as it is")
    func damagedRowIsAMiss() throws {
        try appendMessage()
        _ = try build()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rowsFile)))
        #expect(!RenderedRows.load(from: rowsFile).isEmpty)
        // A letter of the first row's HTML, as damage on disk would change it: the file still
        // parses, row for row.
        let needle = Array("<a class=\"sol-link\"".utf8)
        let start = try #require((0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        bytes[start + 1] = UInt8(ascii: "b")
        try Data(bytes).write(to: URL(fileURLWithPath: rowsFile))
        #expect(RenderedRows.load(from: rowsFile).isEmpty)
        try appendMessage()
        let report = try build()
        #expect(!report.isFullBuild && report.written.contains("sol/index.html"))
        let incremental = try solIndex()
        #expect(!incremental.contains("<b class=\"sol-link\""))
        _ = try build(clean: true)
        #expect(try solIndex() == incremental)
    }
}

extension RowCache.RenderedList {
    /// The same rows in the same order, each one's HTML with `suffix` after it: a page then
    /// shows which rows it took from the file.
    func marked(_ suffix: String) -> RowCache.RenderedList {
        RowCache.RenderedList(keys.indices.map { (key: keys[$0], html: text(of: $0) + suffix) })
    }
}
