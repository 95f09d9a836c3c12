import Content
import Diagnostics
import GFM
import Images
import Testing

/// The image a link to an entry's page is previewed with: its front matter's `image:`, or
/// the first image of its text that a preview can show.
@Suite struct LeadImageTests {
    @Test("the text's first image a preview can fetch and show, with its alt text in plain words", arguments: [
        ("Text.\n\n![The *far* wall](img/wall.png)\n\n![Second](img/second.png)", "/log/img/wall.png", "The far wall"),
        ("![A sketch](img/devil.svg)\n\n![A photo](img/devil.jpg)", "/log/img/devil.jpg", "A photo"),
        ("![Inline](data:image/png;base64,AAAA) ![Other host](//cdn.example.org/a.png) ![Ok](/log/ok.webp)", "/log/ok.webp", "Ok"),
        ("![Remote](https://images.example.org/mars.jpg?w=1200)", "https://images.example.org/mars.jpg?w=1200", "Remote"),
        ("![](img/no-alt.png)", "/log/img/no-alt.png", ""),
        ("A [link](img/file.png), no image.", nil, nil),
    ] as [(String, String?, String?)])
    func firstImage(markdown: String, url: String?, alt: String?) {
        let image = MarkdownDocument(parsing: markdown, options: MarkdownOptions(relativeURLBase: "/log/")).leadImage()
        #expect(image?.url == url)
        #expect(image?.alt == alt)
    }

    @Test("a raw HTML image is not one: only Markdown's")
    func rawHTML() {
        let document = MarkdownDocument(parsing: "<img src=\"/a.png\" alt=\"a\">\n\nText.", options: MarkdownOptions(allowsRawHTML: true))
        #expect(document.leadImage() == nil)
    }

    @Test("URLs are escaped as the page writes links: spaces and other characters as percent-escapes, escapes kept")
    func escaping() {
        #expect(LinkEscaping.escaped("/img/dust devil.png") == "/img/dust%20devil.png")
        #expect(LinkEscaping.escaped("/img/é.png") == "/img/%C3%A9.png")
        #expect(LinkEscaping.escaped("/img/a%20b.png?x=1&y=2#top") == "/img/a%20b.png?x=1&y=2#top")
        #expect(LinkEscaping.escaped("/img/\"quoted\"<b>.png") == "/img/%22quoted%22%3Cb%3E.png")
        #expect(LeadImage.isFetchable("/a.png") && LeadImage.isFetchable("HTTPS://example.org/a.png"))
        #expect(!LeadImage.isFetchable("//example.org/a.png") && !LeadImage.isFetchable("data:image/png;base64,AA")
                && !LeadImage.isFetchable("img/a.png") && !LeadImage.isFetchable("ftp://example.org/a.png"))
        #expect(LeadImage.isSVG("/img/A.SVG?v=2") && !LeadImage.isSVG("/img/svg.png"))
    }

    func entry(_ matter: String, body: String = "We are down.\n\n![From the mast](img/mast.jpg)\n",
               imageSizes: [String: ImageSize] = [:]) throws -> (JournalEntry, DiagnosticLog, LinkUses) {
        var (log, links) = (DiagnosticLog(), LinkUses())
        let file = SourceFile(path: "content/journal/down.md", text: "---\nauthor: vega\nsol: 1\n\(matter)---\n\(body)")
        var context = ContentFixtures.context
        context.imageSize = { imageSizes[$0] }
        return (try JournalLoader.load(file, context: context, log: &log, links: &links), log, links)
    }

    @Test("an entry's picture has its size when it is an image of the site whose file gives one; the size is recorded with the link")
    func entryImageSize() throws {
        let sizes = ["img/landing shot.jpg": ImageSize(width: 1200, height: 630), "img/mast.jpg": ImageSize(width: 800, height: 600)]
        let (given, _, links) = try entry("image: img/landing shot.jpg\n", imageSizes: sizes)
        #expect(given.imageSize == ImageSize(width: 1200, height: 630))
        #expect(links.site.first { $0.line == 4 }?.imageSize == ImageSize(width: 1200, height: 630))
        #expect(try entry("image: /log/img/landing shot.jpg\n", imageSizes: sizes).0.imageSize == ImageSize(width: 1200, height: 630))
        // The text's first image, with the size it is written with.
        let (fromText, _, textLinks) = try entry("", imageSizes: sizes)
        #expect(fromText.imageSize == ImageSize(width: 800, height: 600))
        #expect(textLinks.site.map(\.imageSize) == [ImageSize(width: 800, height: 600)])
        // None for another host's picture, one outside the base path, or a file that gives none.
        #expect(try entry("image: https://cdn.example.org/a.png\n", imageSizes: sizes).0.imageSize == nil)
        #expect(try entry("image: /img/landing shot.jpg\n", imageSizes: sizes).0.imageSize == nil)
        #expect(try entry("image: img/other.png\n", imageSizes: sizes).0.imageSize == nil)
        // Its size changes the entry's hash: its page shows it.
        let other = ["img/mast.jpg": ImageSize(width: 800, height: 601)]
        #expect(try entry("", imageSizes: sizes).0.contentHash != entry("", imageSizes: other).0.contentHash)
    }

    @Test("an entry's image is its front matter's, as its text's links are written, else its text's first image")
    func entryImage() throws {
        // The fixture's site lives at https://example.org/log/.
        let (given, _, links) = try entry("image: img/landing shot.jpg\n")
        #expect(given.image.text == "/log/img/landing%20shot.jpg" && given.imageAlt.text == "")
        // Checked as an image of the text is, at the key's value.
        let checked = try #require(links.site.first { $0.line == 4 })
        #expect(checked.path == "img/landing shot.jpg" && checked.isImage && checked.column == 8)
        #expect(try entry("image: /log/img/a.png\n").0.image.text == "/log/img/a.png")
        #expect(try entry("image: ' img/a.png '\n").0.image.text == "/log/img/a.png")
        #expect(try entry("image: https://cdn.example.org/a.png\n").0.image.text == "https://cdn.example.org/a.png")
        let (fromText, _, _) = try entry("")
        #expect(fromText.image.text == "/log/img/mast.jpg" && fromText.imageAlt.text == "From the mast")
        #expect(try entry("image: '  '\n").0.image.text == "/log/img/mast.jpg")
        #expect(try entry("", body: "No picture.\n").0.image.text == "")
        // Its image changes the entry's hash: its page shows it.
        #expect(try entry("image: a.png\n").0.contentHash != entry("image: b.png\n").0.contentHash)
        // Hugo's list of images is a near name.
        let (hugo, log, _) = try entry("images: [a.png]\n")
        #expect(hugo.image.text == "/log/img/mast.jpg")
        #expect(log.warnings.first?.hint == "did you mean 'image'?")
    }
}
