import Foundation
import Feed
@testable import Rendering
import Testing

/// A page with rows (the sol index) is rendered around a marker when its templates are the
/// built-in ones, and its rows' bytes are put in the marker's place. These check that gives
/// the bytes the templates themselves give, and that a site's own templates are rendered as
/// they are.
@Suite struct RowsRenderingTests {
    /// A sol index of `count` rows, the values of each holding text that must be escaped.
    func solIndex(rows count: Int) -> Page {
        let values: @Sendable (Int) -> TemplateContext = { index in
            var context: TemplateContext = [
                "sol": count - index, "url": "/sol/\(count - index)/", "earthDate": "2039-0\(1 + index % 9)-1\(index % 10)",
                "entryCount": index % 4, "messageCount": index * 7 % 13,
            ]
            if index % 3 == 0 { context["weather"] = ["temperature": "−\(index % 90)", "condition": "Dust <&> \"haze\" 🌫"] }
            return context
        }
        let hashes = (0..<count).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
        return Page(kind: .solIndex, url: "/sol/", outputPath: "sol/index.html", template: "page-sols",
                    rows: ["sols": Page.Rows(template: "sol-row", hashes: hashes, values: values)],
                    context: ["title": "Sols & <more>", "url": "/sol/", "heading": "Sols", "section": "sols",
                              "hasSols": count > 0, "site": ["title": "Mission \"Ares\"", "baseURL": "https://example.org/"]])
    }

    /// The built-in templates as a site's own: the same text, so the renderer cannot take
    /// them for the built-in ones.
    func ownCopies(of names: [String]) throws -> TemplateLibrary {
        var overrides: [String: TemplateLibrary.Source] = [:]
        for name in names {
            let text = try #require(DefaultTheme.templates[name])
            overrides[name] = TemplateLibrary.Source(text: text, path: "templates/\(name).mustache")
        }
        return try TemplateLibrary(overrides: overrides)
    }

    @Test("the built-in sol index, its rows put in after, has the bytes its templates give", arguments: [0, 1, 2, 700])
    func builtInSolIndex(rows: Int) throws {
        let builtIn = try TemplateLibrary()
        let page = solIndex(rows: rows)
        let spliced = try PageRenderer(templates: builtIn, sections: []).render(page, sections: [:])
        var names = builtIn.templatesUsed(by: "page-sols").union(builtIn.templatesUsed(by: "layout"))
        names.insert("sol-row")
        let own = try ownCopies(of: names.sorted())
        #expect(names.allSatisfy { !own.isBuiltIn($0) })
        let rendered = try PageRenderer(templates: own, sections: []).render(page, sections: [:])
        // Compared as a flag, with where they part: a whole page of bytes is no message.
        let same = spliced == rendered
        let parting = (0..<min(spliced.count, rendered.count)).first { spliced[$0] != rendered[$0] } ?? min(spliced.count, rendered.count)
        #expect(same, "the pages part at byte \(parting) of \(spliced.count) and \(rendered.count)")
        #expect(!spliced.contains(0))
        let html = String(decoding: spliced, as: UTF8.self)
        #expect(html.components(separatedBy: "<li>").count - 1 == rows)
        if rows > 0 { #expect(html.contains("Dust &lt;&amp;&gt; &quot;haze&quot; 🌫")) }
    }

    @Test("the rows' bytes go where the one marker is; no marker or two is a page rendered as any other")
    func rowsInPlaceOfMarker() {
        let marker = PageRenderer.rowsMarker
        let rows = RowCache.RenderedList([(key: 1, html: "<li>1</li>"), (key: 2, html: ""), (key: 3, html: "<li>3 🚀</li>")])
        let spliced = PageRenderer.bytes(of: "<ol>\(marker)</ol>é", withRows: rows.html)
        #expect(spliced.map { String(decoding: $0, as: UTF8.self) } == "<ol><li>1</li>\n\n<li>3 🚀</li></ol>é")
        #expect(PageRenderer.bytes(of: "<ol>\(marker)</ol>", withRows: []).map { String(decoding: $0, as: UTF8.self) } == "<ol></ol>")
        #expect(PageRenderer.bytes(of: "<ol></ol>", withRows: Array("<li>1</li>".utf8)) == nil)
        #expect(PageRenderer.bytes(of: "\(marker)\(marker)", withRows: Array("<li>1</li>".utf8)) == nil)
    }

    @Test("a site's own layout or partial around the built-in sol index is rendered as it is")
    func ownLayoutAroundBuiltInPage() throws {
        for (name, text) in [
            ("layout", "<main>{{{content}}}</main><pre>{{content}}</pre>"),
            ("header", "<header>{{{solsHTML}}}</header>"),
        ] {
            let templates = try TemplateLibrary(overrides: [name: TemplateLibrary.Source(text: text, path: "templates/\(name).mustache")])
            let html = String(decoding: try PageRenderer(templates: templates, sections: []).render(solIndex(rows: 3), sections: [:]),
                              as: UTF8.self)
            #expect(!html.contains("\u{0}"))
            if name == "layout" {
                // The rows once as they are and once escaped, inside the escaped page.
                #expect(html.components(separatedBy: "<li>").count - 1 == 3)
                #expect(html.components(separatedBy: "&lt;li&gt;").count - 1 == 3)
            } else {
                #expect(html.components(separatedBy: "<li>").count - 1 == 6)
            }
        }
    }

    @Test("a site's own sol index may insert the rows' HTML escaped, twice, or not at all")
    func ownSolIndex() throws {
        for (text, rows, escaped) in [
            ("{{solsHTML}}", 0, 2), ("{{{solsHTML}}}|{{{solsHTML}}}", 4, 0), ("{{#sols}}{{sol}};{{/sols}}", 0, 0),
        ] {
            let templates = try TemplateLibrary(overrides: ["page-sols": TemplateLibrary.Source(text: text, path: "templates/page-sols.mustache")])
            let html = String(decoding: try PageRenderer(templates: templates, sections: []).render(solIndex(rows: 2), sections: [:]),
                              as: UTF8.self)
            #expect(!html.contains("\u{0}"))
            #expect(html.components(separatedBy: "<li>").count - 1 == rows, "\(text)")
            #expect(html.components(separatedBy: "&lt;li&gt;").count - 1 == escaped, "\(text)")
            if text.hasPrefix("{{#sols}}") { #expect(html.contains("2;1;")) }
        }
    }

    /// Counts calls from several threads (a page's rows' values are made as rows are rendered).
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    /// A sol index whose row `index` is made from `inputs[index]` (its hash, and a number it
    /// shows), counting each row whose values are made: the rows rendered, with the built-in
    /// templates, which show no row's values.
    func solIndex(inputs: [UInt64], counting counter: Counter) -> Page {
        let values: @Sendable (Int) -> TemplateContext = { index in
            counter.add()
            // Made from the row's inputs alone, as a row's values are.
            let input = inputs[index]
            return ["sol": Int(input % 100_000), "url": "/sol/\(input)/", "earthDate": "2039-01-01",
                    "entryCount": Int(input % 1_000), "messageCount": Int(input / 1_000 % 1_000)]
        }
        return Page(kind: .solIndex, url: "/sol/", outputPath: "sol/index.html", template: "page-sols",
                    rows: ["sols": Page.Rows(template: "sol-row", hashes: inputs, values: values)],
                    context: ["title": "Sols", "url": "/sol/", "heading": "Sols", "section": "sols", "hasSols": true])
    }

    /// The page of `inputs`, rendered with `cache` (and kept in it), and how many rows were rendered.
    func render(_ inputs: [UInt64], cache: RowCache?) throws -> (page: [UInt8], rendered: Int) {
        var renderer = PageRenderer(templates: try TemplateLibrary(), sections: [])
        renderer.rowCache = cache
        let counter = Counter()
        let page = try renderer.render(solIndex(inputs: inputs, counting: counter), sections: [:])
        return (page, counter.count)
    }

    @Test("rows kept from the rendering before are taken as they are; only rows of new inputs are rendered",
          arguments: [
              "one row changed", "two rows changed alike", "two rows swapped", "64 rows changed", "65 rows changed", "rows reversed",
              "a row added", "a row removed", "a row moved", "no row changed",
          ])
    func keptRows(change: String) throws {
        let before = (0..<300).map { UInt64($0) * 1_000_003 + 7 }
        var after = before
        var rendered: Int
        switch change {
        case "one row changed":
            after[150] += 1
            rendered = 1
        case "two rows changed alike":
            (after[10], after[20]) = (5_000_000, 5_000_000)
            rendered = 1
        case "two rows swapped":
            after.swapAt(7, 8)
            // The first takes the second's HTML; the second's was replaced by then.
            rendered = 1
        case "64 rows changed", "65 rows changed":
            let count = change.hasPrefix("64") ? 64 : 65
            for index in 0..<count { after[index * 4] += 1 }
            rendered = count
        case "rows reversed":
            after.reverse()
            rendered = 0
        case "a row added":
            after.insert(9_999_999, at: 0)
            rendered = 1
        case "a row removed":
            after.remove(at: 42)
            rendered = 0
        case "a row moved":
            after.insert(after.remove(at: 5), at: 250)
            rendered = 0
        default:
            rendered = 0
        }
        let cache = RowCache()
        #expect(try render(before, cache: cache).rendered == before.count)
        let kept = try render(after, cache: cache)
        let fresh = try render(after, cache: nil)
        #expect(kept.rendered == rendered)
        // Compared as flags: a whole page of bytes is no message.
        let same = kept.page == fresh.page
        #expect(same)
        // Again: the cache holds the rows as this rendering left them.
        let again = try render(after, cache: cache)
        let sameAgain = again.page == fresh.page
        #expect(again.rendered == 0 && sameAgain)
        // What is saved for the next process: the rows as a fresh rendering gives them, in order.
        let freshCache = RowCache()
        _ = try render(after, cache: freshCache)
        let saved = try #require(cache.takeChanges()?["sol/index.html#sols"])
        let savedFresh = saved == freshCache.takeChanges()?["sol/index.html#sols"]
        #expect(saved.count == after.count && savedFresh)
    }

    @Test("a list's rows replaced in place keep every row where it was; bad parts are not a list")
    func listReplacedInPlace() throws {
        var list = RowCache.RenderedList([(key: 1, html: "<li>1</li>"), (key: 2, html: "<li>2</li>"), (key: 3, html: "")])
        list.replace(row: 1, key: 20, html: Array("<li>twenty</li>".utf8))
        list.replace(row: 0, key: 10, html: [UInt8]())
        list.replace(row: 2, key: 30, html: Array("<li>3\n0</li>".utf8))
        #expect(list.keys == [10, 20, 30])
        #expect((0..<3).map(list.text(of:)) == ["", "<li>twenty</li>", "<li>3\n0</li>"])
        #expect(String(decoding: list.html, as: UTF8.self) == "\n<li>twenty</li>\n<li>3\n0</li>")
        #expect(RowCache.RenderedList(keys: list.keys, html: list.html, ends: list.ends) == list)
        #expect(RowCache.RenderedList(keys: [1], html: Array("ab".utf8), ends: [1]) == nil)
        #expect(RowCache.RenderedList(keys: [1, 2], html: Array("ab".utf8), ends: [1, 2]) == nil)
        #expect(RowCache.RenderedList(keys: [1, 2], html: Array("a\nb".utf8), ends: [1, 3]) != nil)
        #expect(RowCache.RenderedList(keys: [1, 2], html: Array("a\nb".utf8), ends: [3, 1]) == nil)
    }
}
