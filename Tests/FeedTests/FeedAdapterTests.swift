import Content
import Diagnostics
import Feed
import MarsTime
import Mustache
@testable import Rendering
import Testing

/// A kind marsgen does not ship, to show that adding one needs no change to the adapter.
final class RoverPass: FeedObject {
    var kind: ObjectKind { ObjectKind(rawValue: "rover") }
    var diffIdentifier: String { "rover:1" }
    var contentHash: ContentHash { ContentHash() }
    var instant: Instant { Instant(unixMillis: 0) }
    var sol: Int { 1 }
    var lmst: MarsClockTime { MarsClockTime(secondsOfSol: 0) }
    var sourcePath: String { "content/rover/1.md" }
    var authorIDs: [String] { [] }
    var title: String { "Rover pass" }
}

struct RoverSectionController: SectionController {
    var kind: ObjectKind { ObjectKind(rawValue: "rover") }
    var cellTemplates: [String] { ["cell-rover"] }
    func section(for object: any FeedObject, context: FeedContext) -> FeedSection? {
        guard let pass = object as? RoverPass else { return nil }
        return FeedSection(kind: kind, diffIdentifier: pass.diffIdentifier, contentHash: pass.contentHash, anchor: "r-1",
                           layout: .stacked, cells: [RenderRequest(template: "cell-rover", context: ["name": pass.title])])
    }
}

@Suite struct FeedAdapterTests {
    let adapter = FeedAdapter.standard(context: FeedFixtures.context)

    func render(_ object: any FeedObject, templates: TemplateLibrary? = nil) throws -> String {
        let section = try adapter.section(for: object)
        var renderer = PageRenderer(templates: try templates ?? TemplateLibrary(), sections: [section])
        return try renderer.html(forSection: object.diffIdentifier)
    }

    @Test("each kind gets its own controller")
    func registry() {
        #expect(adapter.controller(for: FeedFixtures.entry("a", sol: 2)) is JournalSectionController)
        #expect(adapter.controller(for: FeedFixtures.message(sol: 2, hour: 9)) is MessageSectionController)
        #expect(adapter.controller(for: FeedFixtures.weather(sol: 2)) is WeatherSectionController)
        #expect(adapter.controller(for: RoverPass()) == nil)
    }

    @Test("a new kind is one controller and one template, with no change to the adapter")
    func newKind() throws {
        var extended = adapter
        extended.register(RoverSectionController())
        let section = try extended.section(for: RoverPass())
        var renderer = PageRenderer(
            templates: try TemplateLibrary(overrides: ["cell-rover": .init(text: "<p>{{name}}</p>", path: "templates/cell-rover.mustache")]),
            sections: [section])
        let html = try renderer.html(forSection: "rover:1")
        #expect(html.contains("<p>Rover pass</p>"))
        #expect(html.contains("class=\"section section-rover\""))
    }

    @Test("an object with no controller is an error, not a crash")
    func missingController() {
        #expect(throws: Diagnostic.self) { try adapter.section(for: RoverPass()) }
    }

    @Test("journal: a date cell linking to the sol, then a text cell linking to the entry")
    func journalCells() throws {
        let entry = FeedFixtures.entry("dust", sol: 452, hour: 14)
        let section = try adapter.section(for: entry)
        #expect(section.cells.map(\.template) == ["cell-journal-date", "cell-journal-text"])
        let html = try render(entry)
        #expect(html.contains("<a href=\"/sol/452/\">SOL 452 · 14:00 LMST</a>"))
        #expect(html.contains("<a href=\"/journal/dust/\">Entry dust</a>"))
        #expect(html.contains("data-diff-id=\"journal:content/journal/dust.md\""))
        #expect(html.contains("data-diff-hash=\"\(entry.contentHash)\""))
        #expect(html.contains("id=\"entry-dust\""))
    }

    @Test("message: the sender's name in capitals, then the text")
    func messageCell() throws {
        let html = try render(FeedFixtures.message(sol: 3, hour: 9))
        #expect(html.contains(">DANIEL OKORO</a>"))
        #expect(html.contains("<p>Hi</p>"))
        let sender = try #require(html.range(of: "DANIEL OKORO"))
        let text = try #require(html.range(of: "<p>Hi</p>"))
        #expect(sender.lowerBound < text.lowerBound)
    }

    @Test("weather: a summary that expands, without JavaScript, to four detail cells")
    func weatherCells() throws {
        let report = FeedFixtures.weather(sol: 7, temperature: -48)
        let section = try adapter.section(for: report)
        #expect(section.layout == .expandable)
        #expect(section.cells.count == 5)
        let html = try render(report)
        #expect(html.contains("<details"))
        #expect(html.contains("<summary>"))
        #expect(html.contains("-48 °C"))
        #expect(html.contains("dust storm"))
        for label in ["SUNRISE</span> <span class=\"detail-value\">05:42", "SUNSET</span> <span class=\"detail-value\">17:58",
                      "HIGH</span> <span class=\"detail-value\">13 C", "LOW</span> <span class=\"detail-value\">-69 C"] {
            #expect(html.contains(label), "missing \(label)")
        }
        #expect(!html.contains("<script"))
    }

    @Test("text from content is escaped in every cell")
    func escaping() throws {
        let evil = CrewMember(id: "x", name: "<script>alert(1)</script> & \"Q\"", role: "{{role}}")
        let entry = FeedFixtures.entry("e", sol: 2, author: evil, title: "<b>Title</b> & 'quotes'")
        let html = try render(entry)
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<b>Title</b>"))
        #expect(html.contains("&lt;b&gt;Title&lt;/b&gt; &amp; &#39;quotes&#39;"))
        #expect(html.contains("{{role}}"))
    }
}

@Suite struct TemplateLibraryTests {
    @Test("a syntax error names the template file, line and column")
    func syntaxError() {
        #expect {
            try TemplateLibrary(overrides: ["cell-message": .init(text: "<p>\n{{#sender}}oops\n", path: "templates/cell-message.mustache")])
        } throws: { error in
            guard let diagnostic = error as? Diagnostic else { return false }
            return diagnostic.location?.path == "templates/cell-message.mustache" && (diagnostic.location?.line ?? 0) >= 2
                && diagnostic.message.hasPrefix("template syntax error")
        }
    }

    @Test("a syntax error's line and column are those of the site's file")
    func syntaxErrorLine() {
        #expect {
            try TemplateLibrary(overrides: ["cell-message": .init(text: "<p>\n<b>\n  {{#a}}x{{/b}}\n", path: "templates/cell-message.mustache")])
        } throws: { error in
            let location = (error as? Diagnostic)?.location
            return location?.line == 3 && location?.column == 13
        }
    }

    @Test("values are escaped byte by byte: a quote with a combining accent cannot end an attribute")
    func escaping() throws {
        let library = try TemplateLibrary(overrides: [
            "footer": .init(text: "<a title=\"{{title}}\">{{{title}}}</a>", path: "templates/footer.mustache"),
        ])
        let title = "Dust \"\u{301} onmouseover=alert(1) <b>&'"
        #expect(try library.render("footer", context: ["title": title])
            == "<a title=\"Dust &quot;\u{301} onmouseover=alert(1) &lt;b&gt;&amp;&#39;\">\(title)</a>")
        #expect(MarkupEscaping.escape("plain text, é and ✓") == "plain text, é and ✓")
        // Controls a YAML escape can make become U+FFFD: an Atom feed holding one is not XML.
        #expect(MarkupEscaping.escape("bell\u{7} vt\u{B} del\u{7F} c1\u{85} tab\t nbsp\u{A0} °\n")
            == "bell\u{FFFD} vt\u{FFFD} del\u{FFFD} c1\u{FFFD} tab\t nbsp\u{A0} °\n")
        // So do noncharacters (`"\uFFFF"` in YAML) and form feeds, which XML has no place for;
        // their neighbours, fullwidth punctuation and a zero-width no-break space are text.
        // (Swift's string literals refuse some noncharacters, hence the scalars.)
        let noncharacters = [0xFFFF, 0xFFFE, 0xFDD0, 0xFDEF, 0x10FFFF, 0x1FFFE].map { String(Character(Unicode.Scalar($0)!)) }
        #expect(MarkupEscaping.escape(noncharacters.joined(separator: "a") + "\u{C}b")
            == Array(repeating: "\u{FFFD}", count: 6).joined(separator: "a") + "\u{FFFD}b")
        let text = "\u{FDCF}\u{FDF0}\u{FFFD}\u{FEFF}\u{FF0C}\u{1FFFD}\u{10FFFD}火星"
        #expect(MarkupEscaping.escape(text) == text)
    }

    @Test("values handed to swift-mustache in its fast forms render exactly as the plain values do")
    func fastFormsRenderAsPlainValues() throws {
        // Every way a template can use a value: escaped and not, as a section, inverted, with
        // transforms, dotted, up the context stack, in loops with their own transforms.
        let text = """
            {{title}}|{{{title}}}|{{&title}}|{{uppercased(title)}}|{{reversed(title)}}|{{#title}}[{{.}}{{subtitle}}{{title.count}}]{{/title}}\
            |{{^title}}no{{/title}}|{{#blank}}b{{/blank}}{{^blank}}B{{/blank}}|{{#empty(blank)}}E{{/empty(blank)}}
            {{#flag}}yes{{/flag}}{{^flag}}no{{/flag}}{{#off}}on{{/off}}{{^off}}off{{/off}}|{{flag}}{{off}}|{{number}}{{#number}}n{{.}}{{/number}}{{ratio}}
            {{site.title}}|{{site.nested.deep}}|{{#site}}{{title}}-{{language}}-{{subtitle}}-{{title.count}}{{/site}}|{{count(site)}}\
            |{{#sorted(site)}}{{key}}={{value}};{{/sorted(site)}}|{{#site.nested}}{{deep}}{{title}}{{/site.nested}}
            {{#items}}{{html}}/{{{html}}}/{{title}}/{{site.title}}/{{#first()}}F{{/first()}}{{#last()}}L{{/last()}}{{index()}}{{#odd()}}o{{/odd()}};{{/items}}\
            {{count(items)}}{{#first(items)}}{{name}}{{/first(items)}}{{#reversed(items)}}{{name}}{{/reversed(items)}}{{#empty(items)}}none{{/empty(items)}}
            {{#tags}}<{{.}}>{{/tags}}{{#sorted(tags)}}{{.}},{{/sorted(tags)}}{{#reversed(tags)}}{{uppercased(.)}}{{/reversed(tags)}}{{count(tags)}}
            {{missing}}{{#missing}}m{{/missing}}{{^missing}}-{{/missing}}{{missing.part}}{{#noItems}}x{{/noItems}}{{^noItems}}no items{{/noItems}}
            {{> credits}}{{#items}}{{> credits}}{{/items}}
            {{site}}|{{items}}|{{tags}}|{{#sorted(site)}}{{.}}{{/sorted(site)}}
            """
        let credits = "({{name}}{{title}})"
        let context: TemplateContext = [
            "title": "Dust <storm> & \"wind\" é",
            "subtitle": "over the ridge",
            "blank": "",
            "flag": true, "off": false, "number": 42, "ratio": 0.5,
            "site": ["title": "Ares <I>", "language": "en", "nested": ["deep": "down & under"] as TemplateContext] as TemplateContext,
            "items": [["html": "<p>one</p>", "name": "a'b"], ["html": "<p>two</p>", "name": "c", "title": "own"],
                      ["html": "", "name": "<d>"]] as [TemplateContext],
            "noItems": [TemplateContext](),
            "tags": ["storm", "ridge", "<b>"],
        ]
        let library = try TemplateLibrary(overrides: [
            "footer": .init(text: text, path: "templates/footer.mustache"),
            "credits": .init(text: credits, path: "templates/credits.mustache"),
        ])
        // The same templates in swift-mustache alone, given the plain values.
        MarkupEscaping.registered
        var plain = MustacheLibrary()
        plain.register(try MustacheTemplate(string: TemplateLibrary.escapingLine + text), named: "footer")
        plain.register(try MustacheTemplate(string: TemplateLibrary.escapingLine + credits), named: "credits")
        let expected = try #require(plain.render(context, withTemplate: "footer"))
        #expect(try library.render("footer", context: context) == expected)
        // Not trivially: the values show, escaped where the template escapes them.
        #expect(expected.contains("Dust &lt;storm&gt; &amp; &quot;wind&quot; é|Dust <storm> & \"wind\" é|"))
        #expect(expected.contains("DUST <STORM>") || expected.contains("DUST &lt;STORM&gt;"))
        #expect(expected.contains("&lt;b&gt;,ridge,storm,&lt;B&gt;RIDGESTORM3"))
    }

    @Test("templates render as written: a first blank line and standalone tags on the first line")
    func firstLine() throws {
        let library = try TemplateLibrary(overrides: [
            "footer": .init(text: "\n<p>{{x}}</p>\n", path: "templates/footer.mustache"),
            "credits": .init(text: "{{#x}}\nshown\n{{/x}}\n", path: "templates/credits.mustache"),
        ])
        #expect(try library.render("footer", context: ["x": "a"]) == "\n<p>a</p>\n")
        #expect(try library.render("credits", context: ["x": true]) == "shown\n")
    }

    @Test("which names a page's templates look up: the sol index's rows are needed only when named")
    func namesLookedUp() throws {
        let builtIn = try TemplateLibrary()
        var used = builtIn.templatesUsed(by: "page-sols").union(builtIn.templatesUsed(by: "layout"))
        #expect(!builtIn.mayLookUp("sols", in: used))
        #expect(builtIn.mayLookUp("solsHTML", in: used) && builtIn.mayLookUp("site", in: used))
        for text in ["{{#sols}}{{sol}}{{/sols}}", "{{ sols.0.sol }}", "{{#reversed(sols)}}{{/reversed(sols)}}",
                     "{{^sols}}none{{/sols}}", "{{=<% %>=}}<%#list%><%/list%>"] {
            let library = try TemplateLibrary(overrides: ["page-sols": .init(text: text, path: "templates/page-sols.mustache")])
            used = library.templatesUsed(by: "page-sols")
            #expect(library.mayLookUp("sols", in: used), "\(text)")
        }
        #expect(TemplateLibrary.namesLookedUp(in: "{{! sols }}{{> sols}}{{{solsHTML}}}{{&hasSols}}") == ["solsHTML", "hasSols"])
    }

    @Test("a parent template ({{< name}}) is traced as a partial is, and a missing one is reported where it is named")
    func parentTemplates() throws {
        let library = try TemplateLibrary(overrides: [
            "page-entry": .init(text: "{{<frame}}{{$body}}B{{/body}}{{/frame}}", path: "templates/page-entry.mustache"),
            "frame": .init(text: "<main>{{$body}}default{{/body}}</main>", path: "templates/frame.mustache"),
        ])
        #expect(library.templatesUsed(by: "page-entry").contains("frame"))
        #expect(library.unusedOverrides(["page-entry", "frame"]).isEmpty)
        #expect(try library.render("page-entry", context: [:]) == "<main>B</main>")
        #expect {
            try TemplateLibrary(overrides: ["page-entry": .init(text: "<p>\n{{< frame}}{{/frame}}", path: "templates/page-entry.mustache")])
        } throws: { error in
            (error as? Diagnostic)?.headline == "templates/page-entry.mustache:2:1: error: template names a parent template 'frame' that does not exist"
        }
    }

    @Test("a dynamic partial ({{>*name}}) may be any template: a page using one depends on all of them")
    func dynamicPartial() throws {
        let library = try TemplateLibrary(overrides: [
            "footer": .init(text: "<footer>{{>*which}}</footer>", path: "templates/footer.mustache"),
            "credits": .init(text: "Made on Mars", path: "templates/credits.mustache"),
        ])
        #expect(try library.render("footer", context: ["which": "credits"]) == "<footer>Made on Mars</footer>")
        #expect(library.templatesUsed(by: "footer").isSuperset(of: ["credits", "layout", "cell-message"]))
        #expect(library.unusedOverrides(["credits"]).isEmpty)
        #expect(TemplateLibrary.namesLookedUp(in: "{{>*which}}{{> fixed}}{{<*parent}}{{/parent}}") == ["which", "parent"])
    }

    @Test("a dynamic partial whose value names a template leading back to it is an error, at any depth of the context")
    func dynamicPartialNamingItself() throws {
        let library = try TemplateLibrary(overrides: [
            "footer": .init(text: "<footer>\n{{#items}}{{>*which}}{{/items}}</footer>", path: "templates/footer.mustache"),
            "wrapper": .init(text: "[{{> footer}}]", path: "templates/wrapper.mustache"),
            "credits": .init(text: "Made on Mars", path: "templates/credits.mustache"),
        ])
        #expect(try library.render("footer", context: ["items": [["which": "credits"]]]) == "<footer>\nMade on Mars</footer>")
        // The footer itself, or a template that includes it: either would never stop.
        for value in ["footer", "wrapper"] {
            #expect {
                _ = try library.render("footer", context: ["items": [["which": "credits"], ["which": value]]])
            } throws: { error in
                (error as? Diagnostic)?.headline == "templates/footer.mustache:2:11: error: the dynamic partial {{>*which}} would "
                    + "include template '\(value)' (the value of 'which'), which leads back to it: rendering would never stop"
            }
        }
    }

    @Test("a missing partial is reported where it is named")
    func missingPartial() {
        #expect {
            try TemplateLibrary(overrides: ["footer": .init(text: "<footer>\n  {{> credits}}\n</footer>", path: "templates/footer.mustache")])
        } throws: { error in
            (error as? Diagnostic)?.headline
                == "templates/footer.mustache:2:3: error: template names a partial 'credits' that does not exist"
        }
    }

    @Test("a template that includes itself, directly, through another or as its own parent, is an error at the tag that closes the loop")
    func partialCycles() {
        let cases: [([String: String], String)] = [
            (["footer": "<footer>{{> footer}}</footer>"],
             "templates/footer.mustache:1:9: error: template includes itself through a partial: footer → footer"),
            (["footer": "<footer>{{> a}}</footer>", "a": "x\n{{#isFront}}{{> b}}{{/isFront}}", "b": "{{> a}}"],
             "templates/b.mustache:1:1: error: template includes itself through a partial: a → b → a"),
            (["footer": "{{< frame}}{{/frame}}", "frame": "[{{< footer}}{{/footer}}]"],
             "templates/frame.mustache:1:2: error: template includes itself through its parent: footer → frame → footer"),
        ]
        for (templates, headline) in cases {
            #expect {
                try TemplateLibrary(overrides: Dictionary(uniqueKeysWithValues: templates.map { name, text in
                    (name, TemplateLibrary.Source(text: text, path: "templates/\(name).mustache"))
                }))
            } throws: { error in
                (error as? Diagnostic)?.headline == headline
            }
        }
        // A partial used twice, or by two templates, is no loop.
        #expect(throws: Never.self) {
            try TemplateLibrary(overrides: [
                "footer": .init(text: "{{> credits}}{{> credits}}{{> sign}}", path: "templates/footer.mustache"),
                "sign": .init(text: "{{> credits}}", path: "templates/sign.mustache"),
                "credits": .init(text: "Made on Mars", path: "templates/credits.mustache"),
            ])
        }
    }

    @Test("sections nested past 100 deep are an error at the tag that goes too deep, not a crash of the parser")
    func deepNesting() throws {
        func footer(_ depth: Int) -> [String: TemplateLibrary.Source] {
            ["footer": .init(text: "<footer>\n" + String(repeating: "{{#a}}", count: depth) + "x" + String(repeating: "{{/a}}", count: depth),
                             path: "templates/footer.mustache")]
        }
        #expect(throws: Never.self) { try TemplateLibrary(overrides: footer(30)) }
        #expect {
            try TemplateLibrary(overrides: footer(101))
        } throws: { error in
            (error as? Diagnostic)?.headline == "templates/footer.mustache:2:601: error: sections are nested more than 100 deep here"
        }
    }

    @Test("under other delimiters ({{=<% %>=}}) partials, loops and nesting are followed as under the usual ones")
    func otherDelimiters() throws {
        let tags = TemplateLibrary.tags(in: "{{=<% %>=}}<%> credits%><%#a%>{{b}}<%/a%><%={{ }}=%>{{c}}")
        #expect(tags.map { "\($0.sigil.map(String.init) ?? "")\($0.content)" } == ["=<% %>", ">credits", "#a", "/a", "={{ }}", "c"])
        let library = try TemplateLibrary(overrides: [
            "footer": .init(text: "{{=<% %>=}}<footer><%> credits%></footer>", path: "templates/footer.mustache"),
            "credits": .init(text: "Made on Mars", path: "templates/credits.mustache"),
        ])
        #expect(library.templatesUsed(by: "footer").contains("credits"))
        #expect {
            try TemplateLibrary(overrides: ["footer": .init(text: "{{=<% %>=}}\n<p><%> footer%></p>", path: "templates/footer.mustache")])
        } throws: { error in
            (error as? Diagnostic)?.headline == "templates/footer.mustache:2:4: error: template includes itself through a partial: footer → footer"
        }
        let deep = "{{=[ ]=}}\n" + String(repeating: "[#a]", count: 101) + String(repeating: "[/a]", count: 101)
        #expect {
            try TemplateLibrary(overrides: ["footer": .init(text: deep, path: "templates/footer.mustache")])
        } throws: { error in
            (error as? Diagnostic)?.headline == "templates/footer.mustache:2:401: error: sections are nested more than 100 deep here"
        }
    }

    @Test("a site's template replaces the default of the same name, and partials are traced")
    func overrides() throws {
        let library = try TemplateLibrary(overrides: [
            "footer": .init(text: "<footer>{{> credits}}</footer>", path: "templates/footer.mustache"),
            "credits": .init(text: "Made on Mars", path: "templates/credits.mustache"),
        ])
        #expect(try library.render("footer", context: [:]) == "<footer>Made on Mars</footer>")
        #expect(library.origins["footer"] == "templates/footer.mustache")
        #expect(library.origins["layout"] == "(built-in)/layout.mustache")
        #expect(library.templatesUsed(by: "layout").isSuperset(of: ["layout", "header", "footer", "credits"]))
    }
}
