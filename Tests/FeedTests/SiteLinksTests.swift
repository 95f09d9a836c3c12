import Feed
import SiteConfig
import Testing

@Suite struct SiteLinksTests {
    func links(_ baseURL: String) -> SiteLinks {
        SiteLinks(config: SiteConfiguration(title: "T", baseURL: baseURL, mission: .init(name: "T", clock: FeedFixtures.clock)))
    }

    @Test("URLs, absolute URLs and output files under a base path")
    func basePath() {
        let links = links("https://example.org/log/")
        #expect(links.sol(3) == "/log/sol/3/")
        #expect(links.absolute(links.sol(3)) == "https://example.org/log/sol/3/")
        #expect(links.outputPath(for: links.sol(3)) == "sol/3/index.html")
        #expect(links.outputPath(for: links.home) == "index.html")
        #expect(links.absolute(links.home) == "https://example.org/log/")
        #expect(links.outputPath(for: "/log/feed.xml") == "feed.xml")
        #expect(links.outputPath(for: links.journal(slug: "été-🚀")) == "journal/été-🚀/index.html")
        // A path outside the base path is kept whole.
        #expect(links.absolute("/elsewhere/") == "https://example.org/log//elsewhere/")
        #expect(links.outputPath(for: "/lo") == "/lo")
    }

    @Test("URLs and output files at the root")
    func root() {
        let links = links("https://example.org")
        #expect(links.absolute(links.crew("vega")) == "https://example.org/crew/vega/")
        #expect(links.outputPath(for: links.crew("vega", page: 2)) == "crew/vega/page/2/index.html")
        #expect(links.outputPath(for: "/") == "index.html")
    }
}
