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
        let spliced = PageRenderer.bytes(of: "<ol>\(marker)</ol>é", withRows: ["<li>1</li>", "", "<li>3 🚀</li>"])
        #expect(spliced.map { String(decoding: $0, as: UTF8.self) } == "<ol><li>1</li>\n\n<li>3 🚀</li></ol>é")
        #expect(PageRenderer.bytes(of: "<ol>\(marker)</ol>", withRows: []).map { String(decoding: $0, as: UTF8.self) } == "<ol></ol>")
        #expect(PageRenderer.bytes(of: "<ol></ol>", withRows: ["<li>1</li>"]) == nil)
        #expect(PageRenderer.bytes(of: "\(marker)\(marker)", withRows: ["<li>1</li>"]) == nil)
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
}
