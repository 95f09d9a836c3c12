import Feed
@testable import Rendering
import SiteConfig
import Testing

/// The site's words (`words:`), written into the built-in templates as they are compiled
/// and looked up by a site's own templates as they render.
@Suite struct ThemeWordsRenderingTests {
    /// Words to escape, with braces (which stay tags), an empty one and a control character.
    static let words: [String: String] = {
        var words = ThemeWords().templateValues
        words["page_navigation"] = "<Ältere> & \"x\" 'y'"
        words["crew"] = "{{newer}}"
        words["feed"] = "a}"
        words["journal"] = ""
        words["sols"] = "S\u{1}ls"
        words["sol_label"] = "Sol\u{301}"
        return words
    }()

    /// A context that opens every section of the built-in templates that shows a word.
    static var context: TemplateContext { [
        "site": ["title": "Log", "home": "/", "landingDate": "2038-11-02", "missionName": "M", "tagsURL": "/tags/"],
        "hasPager": true, "older": ["url": "/o/", "label": "O"], "newer": ["url": "/n/", "label": "N"],
        "isFront": true, "isEmpty": true, "latestSol": "3", "sol": 3, "lmst": "10:00", "hasMore": true, "isOwnPage": true,
        "hasTableOfContents": true, "isDraft": true, "title": "T", "readingTime": "1 min read", "hasSols": false,
        "hasMembers": false, "hasTags": false, "entryCountText": "2 entries", "messageCountText": "1 message",
        "tag": ["name": "eva", "hasFeed": true, "feedURL": "/tags/eva/feed.xml"], "weather": ["temperature": "-3", "condition": "fog"],
    ] }

    @Test("every built-in template renders its words as a site's own copy of it does, escaped the same, braces and all")
    func writtenInAsLookedUp() throws {
        let builtIn = try TemplateLibrary(words: Self.words)
        var compared = 0
        for name in TemplateLibrary.builtInNames.sorted() {
            let text = try #require(DefaultTheme.templates[name])
            guard text.contains("{{words.") else { continue }
            let copy = try TemplateLibrary(overrides: [name: .init(text: text, path: "templates/\(name).mustache")], words: Self.words)
            let expected = try copy.render(name, context: Self.context)
            #expect(try builtIn.render(name, context: Self.context) == expected, "\(name)")
            compared += 1
        }
        #expect(compared >= 15)
        // The words are there, escaped; those with braces are not made into tags.
        let pager = try builtIn.render("pager", context: Self.context)
        #expect(pager.contains("aria-label=\"&lt;Ältere&gt; &amp; &quot;x&quot; &#39;y&#39;\""))
        let header = try builtIn.render("header", context: Self.context)
        #expect(header.contains(">a}</a>") && header.contains(">{{newer}}</a>") && header.contains("></a>"))
        #expect(header.contains(">S\u{FFFD}ls</a>"))
    }

    @Test("a site's own template looks the words up, a site with dynamic partials too (whose contexts are not wrapped)")
    func lookedUp() throws {
        let words = ["older": "Ältere & <mehr>"]
        let plain = try TemplateLibrary(overrides: ["extra": .init(text: "[{{words.older}}]", path: "templates/extra.mustache")],
                                        words: words)
        #expect(try plain.render("extra", context: [:]) == "[Ältere &amp; &lt;mehr&gt;]")
        let dynamic = try TemplateLibrary(overrides: [
            "extra": .init(text: "{{>*part}}[{{words.older}}]", path: "templates/extra.mustache"),
            "part": .init(text: "P", path: "templates/part.mustache"),
        ], words: words)
        #expect(try dynamic.render("extra", context: ["part": "part"]) == "P[Ältere &amp; &lt;mehr&gt;]")
    }

    @Test("a word is written in only where its tag is whole; other text stays as it is")
    func writingIn() {
        let words = ["a": "A", "b": "{b}"]
        #expect(TemplateLibrary.writingIn(words, to: "x {{words.a}} y {{words.b}} {{words.c}} {{words.a} {{words.a") ==
                "x A y {{words.b}} {{words.c}} {{words.a} {{words.a")
        #expect(TemplateLibrary.writingIn([:], to: "{{words.a}}") == "{{words.a}}")
    }
}
