@testable import Site
import Feed
import Testing

@Suite("Links to the site's pages and files")
struct SiteLinkPathTests {
    @Test("a weather report's file is taken to be for the sol its name ends with, if any")
    func solNumbers() {
        #expect(SiteBuilder.solNumber(inNameOf: "content/weather/sol-04.md") == 4)
        #expect(SiteBuilder.solNumber(inNameOf: "content/weather/2038/0112.md") == 112)
        #expect(SiteBuilder.solNumber(inNameOf: "content/weather/sol-7-dust2.md") == 2)
        #expect(SiteBuilder.solNumber(inNameOf: "content/weather/9/storm.md") == nil)
        #expect(SiteBuilder.solNumber(inNameOf: "content/weather/sol-99999999999999999999999.md") == nil)
    }

    @Test("a link's path is read as a browser reads it from the site's root, a folder keeping its ending slash")
    func sitePaths() {
        #expect(SiteBuilder.sitePath("img/map.png") == "img/map.png")
        #expect(SiteBuilder.sitePath("./journal/../sol//4/") == "sol/4/")
        #expect(SiteBuilder.sitePath("img/.") == "img/")
        #expect(SiteBuilder.sitePath("img/x/..") == "img/")
        #expect(SiteBuilder.sitePath(".") == "")
        #expect(SiteBuilder.sitePath("./") == "")
        #expect(SiteBuilder.sitePath("../outside.png") == nil)
        #expect(SiteBuilder.sitePath("img/../../outside.png") == nil)
    }

    @Test("a path taken as written is one reading it would not change")
    func plainPaths() {
        let paths = ["img/map.png", "sol/4/", ".well-known/x", "a/..b/", "...", "a./b", "", ".", "..", "./a", "../a", "a/./b", "a/../b",
                     "a//b", "a/.", "a/..", "a/../", "/a", "a/b/"]
        for path in paths where SiteBuilder.isPlainPath(path) {
            #expect(SiteBuilder.sitePath(path) == path, "\(path)")
        }
        #expect(paths.filter(SiteBuilder.isPlainPath) == ["img/map.png", "sol/4/", ".well-known/x", "a/..b/", "...", "a./b", "a/b/"])
    }

    @Test("the hint names an output of the same folder whose name is one typo away, a page by its folder")
    func nearOutputs() {
        let outputs = ["img/dust-devil.svg", "journal/sol-07-bags/index.html", "journal/page/2/index.html", "sol/4/index.html", "feed.xml"]
        #expect(SiteBuilder.nearOutput(to: "img/dust-devl.svg", among: outputs) == "img/dust-devil.svg")
        #expect(SiteBuilder.nearOutput(to: "journal/sol-07-bag/", among: outputs) == "journal/sol-07-bags/")
        #expect(SiteBuilder.nearOutput(to: "journal/sol-07-bag", among: outputs) == "journal/sol-07-bags/")
        #expect(SiteBuilder.nearOutput(to: "feed.xm", among: outputs) == "feed.xml")
        // Another folder's file of that name is not a typo of it; nor is a name two letters off.
        #expect(SiteBuilder.nearOutput(to: "dust-devil.svg", among: outputs) == nil)
        #expect(SiteBuilder.nearOutput(to: "img/dust-dev.svg", among: outputs) == nil)
    }

    @Test("only the anchors marsgen gives objects, on sol and entry pages, are checked")
    func objectAnchors() {
        #expect(["m-0123456789ab", "w-ffffffffffff", "entry-sol-07-bags", "entry-é"].allSatisfy(SiteLinks.isObjectAnchor))
        #expect(!["", "main", "m-0123456789aB", "m-0123456789a", "x-0123456789ab", "entry-", "sol-07-bags-fn-1"].contains(where: SiteLinks.isObjectAnchor))
        #expect(["sol/4/", "sol/4", "sol/4/index.html", "sol/0/", "journal/dust/", "journal/dust"].map(SiteBuilder.objectPage)
                == ["sol/4/index.html", "sol/4/index.html", "sol/4/index.html", "sol/0/index.html", "journal/dust/index.html", "journal/dust/index.html"])
        #expect(["sol/", "sol/04/", "sol/4/x/", "journal/", "journal/page/", "page/2/", "crew/vega/", "", "img/a.png"].allSatisfy { SiteBuilder.objectPage($0) == nil })
    }
}
