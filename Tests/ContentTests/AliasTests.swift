import Content
import Testing

/// An entry's old addresses (`aliases:`), each a page sending readers on to the entry.
@Suite struct AliasTests {
    @Test("an alias is a folder or an HTML file within the site, its leading '/' optional", arguments: [
        ("/posts/2038/landing/", "posts/2038/landing/"),
        ("/posts/2038/landing", "posts/2038/landing/"),
        ("posts/Landing_Day~1/", "posts/Landing_Day~1/"),
        ("/landing.html", "landing.html"),
        ("/old/landing.htm", "old/landing.htm"),
    ])
    func paths(written: String, path: String) throws {
        #expect(try Alias.path(written).get() == path)
    }

    @Test("an alias that is not a path within the site, or is at the site's own pages, is refused", arguments: [
        ("/", AliasProblem.siteRoot),
        ("https://old.example.org/landing/", .notAPath),
        ("//old.example.org/landing/", .notAPath),
        ("/posts/../journal/x/", .badSegment("..")),
        ("/posts//x/", .badSegment("")),
        ("/posts/a b/", .badSegment("a b")),
        ("/posts/landing?page=2", .badSegment("landing?page=2")),
        ("/posts/%E7%81%AB/", .badSegment("%E7%81%AB")),
        ("/journal/old/", .sitePlace("journal")),
        ("/tags/eva/", .sitePlace("tags")),
        // The search page's folder, whether the site has one yet or not.
        ("/search/", .sitePlace("search")),
        ("/index.html", .sitePlace("index.html")),
        ("/404.html", .sitePlace("404.html")),
        ("/feed.xml", .sitePlace("feed.xml")),
        ("/sitemap-2.xml/old/", .sitePlace("sitemap-2.xml")),
    ])
    func refused(written: String, problem: AliasProblem) {
        #expect(throws: problem) { try Alias.path(written).get() }
    }
}
