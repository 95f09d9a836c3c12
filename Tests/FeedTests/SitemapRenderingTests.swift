import Feed
import Rendering
import Testing

/// The sitemap is the one page whose built-in template loops over every page of the site;
/// the renderer writes it directly. These check that it writes what the template would.
@Suite struct SitemapRenderingTests {
    func sitemap(_ locations: [String]) -> Page {
        var page = Page(kind: .sitemap, url: "/sitemap.xml", outputPath: "sitemap.xml", template: "sitemap", layout: nil, context: [:])
        page.sitemapLocations = locations
        return page
    }

    @Test("the built-in sitemap, written directly, has the bytes its template gives", arguments: [
        [],
        ["https://example.org/"],
        ["https://example.org/a?b=1&c=<2>", "https://example.org/\"quoted\"/'single'/", "https://example.org/sol/été/🚀/",
         "https://example.org/&amp;/", String(repeating: "x", count: 500)],
    ])
    func builtInSitemap(locations: [String]) throws {
        let templates = try TemplateLibrary()
        let page = sitemap(locations)
        let direct = try PageRenderer(templates: templates, sections: []).render(page, sections: [:])
        let viaTemplate = try templates.render("sitemap", context: ["urls": PageRenderer.sitemapContext(locations)])
        #expect(String(decoding: direct, as: UTF8.self) == viaTemplate)
    }

    @Test("a site's own sitemap template is used as it is")
    func siteTemplate() throws {
        let templates = try TemplateLibrary(overrides: [
            "sitemap": TemplateLibrary.Source(text: "{{#urls}}{{loc}};{{/urls}}", path: "templates/sitemap.mustache"),
        ])
        let page = sitemap(["https://example.org/", "https://example.org/a&b/"])
        let bytes = try PageRenderer(templates: templates, sections: []).render(page, sections: [:])
        #expect(String(decoding: bytes, as: UTF8.self) == "https://example.org/;https://example.org/a&amp;b/;")
    }

    @Test("a sitemap index names its parts, each URL escaped")
    func sitemapIndex() throws {
        let templates = try TemplateLibrary()
        let parts: [TemplateContext] = [["loc": "https://example.org/a&b/sitemap-1.xml"], ["loc": "https://example.org/a&b/sitemap-2.xml"]]
        let page = Page(kind: .sitemapIndex, url: "/a&b/sitemap.xml", outputPath: "sitemap.xml", template: "sitemap-index", layout: nil,
                        context: ["sitemaps": parts])
        let bytes = try PageRenderer(templates: templates, sections: []).render(page, sections: [:])
        #expect(String(decoding: bytes, as: UTF8.self) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sitemap><loc>https://example.org/a&amp;b/sitemap-1.xml</loc></sitemap>
              <sitemap><loc>https://example.org/a&amp;b/sitemap-2.xml</loc></sitemap>
            </sitemapindex>

            """)
    }
}
