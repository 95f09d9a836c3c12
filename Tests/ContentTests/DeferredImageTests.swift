import GFM
import Images
import Testing

/// Images written with `loading="lazy"`, `decoding="async"` and, when the site's file gives
/// one, their size (`MarkdownOptions.defersImages`).
@Suite struct DeferredImageTests {
    let options = MarkdownOptions(relativeURLBase: "/m/", defersImages: true)
    let sizes = ["img/a b.png": ImageSize(width: 1200, height: 630), "img/map.svg": ImageSize(width: 640, height: 260)]

    func document(_ text: String, options: MarkdownOptions? = nil, asked: ((String) -> Void)? = nil) -> MarkdownDocument {
        MarkdownDocument(parsing: text, options: options ?? self.options, imageSize: { path in
            asked?(path)
            return sizes[path]
        })
    }

    @Test("an image of the site gets its size, lazy loading and async decoding; its URL, alt text and title as cmark-gfm escapes them")
    func sized() {
        let html = document(#"See ![A "wide" <view> & more](img/a%20b.png "Sol 1 & 2")."#).html()
        #expect(html == #"<p>See <img src="/m/img/a%20b.png" alt="A &quot;wide&quot; &lt;view&gt; &amp; more" title="Sol 1 &amp; 2" width="1200" height="630" loading="lazy" decoding="async" />.</p>"#
            + "\n")
    }

    @Test("an image of unknown size, or not of the site, is lazy without a size; without the option it is as cmark-gfm writes it")
    func unsized() {
        #expect(document("![x](img/unknown.png)").html()
                == #"<p><img src="/m/img/unknown.png" alt="x" loading="lazy" decoding="async" /></p>"# + "\n")
        #expect(document("![x](https://example.org/a.png)").html()
                == #"<p><img src="https://example.org/a.png" alt="x" loading="lazy" decoding="async" /></p>"# + "\n")
        let plain = MarkdownDocument(parsing: "![x](img/a%20b.png)", options: MarkdownOptions(relativeURLBase: "/m/"),
                                     imageSize: { sizes[$0] })
        #expect(plain.html() == #"<p><img src="/m/img/a%20b.png" alt="x" /></p>"# + "\n")
    }

    @Test("sizes are asked for images relative to the site's root or within its base path, by their path from the root")
    func askedPaths() {
        var asked: [String] = []
        let document = document("![a](img/a%20b.png) ![b](/m/img/map.svg?v=2#x) ![c](/elsewhere/c.png) ![d](https://x.org/d.png) [e](img/map.svg)",
                                asked: { asked.append($0) })
        #expect(asked == ["img/a b.png", "img/map.svg"])
        #expect(document.siteLinks.map(\.imageSize) == [ImageSize(width: 1200, height: 630), ImageSize(width: 640, height: 260), nil, nil])
        let html = document.html()
        #expect(html.contains(#"src="/m/img/map.svg?v=2#x" alt="b" width="640" height="260" loading="lazy""#))
        #expect(html.contains(#"src="/elsewhere/c.png" alt="c" loading="lazy""#))
        #expect(html.contains(#"<a href="/m/img/map.svg">e</a>"#))
    }

    @Test("images in links, table cells, footnotes, headings and quotes; an image in another's alt text is only words")
    func places() {
        let text = """
            ## The ![map](img/map.svg) room

            [![a](img/a%20b.png)](https://example.org/)

            | a | b |
            | - | - |
            | ![m](img/map.svg) | x |

            > ![q](img/map.svg)

            Text[^1] and ![outer ![inner](img/map.svg) words](img/a%20b.png).

            [^1]: See ![f](img/map.svg).
            """
        let html = document(text, options: MarkdownOptions(footnotePrefix: "e-", headingIDPrefix: "e:", relativeURLBase: "/m/", defersImages: true)).html()
        #expect(html.components(separatedBy: #"loading="lazy" decoding="async" />"#).count - 1 == 6)
        #expect(html.contains(#"<h2 id="e:the-map-room">The <img src="/m/img/map.svg" alt="map" width="640" height="260" loading="lazy" decoding="async" /> room</h2>"#))
        #expect(html.contains(#"<a href="https://example.org/"><img src="/m/img/a%20b.png" alt="a" width="1200""#))
        #expect(html.contains(#"<td><img src="/m/img/map.svg" alt="m" width="640""#))
        #expect(html.contains(#"<img src="/m/img/a%20b.png" alt="outer inner words" width="1200" height="630" loading="lazy" decoding="async" />"#))
        #expect(html.contains(#"See <img src="/m/img/map.svg" alt="f" width="640""#))
    }

    @Test("raw HTML images are the author's, and safe mode still drops a dangerous URL")
    func rawHTMLAndSafeMode() {
        let raw = document(#"<img src="img/map.svg" alt="r" loading="eager"> and ![m](img/map.svg)"#,
                           options: MarkdownOptions(allowsRawHTML: true, relativeURLBase: "/m/", defersImages: true)).html()
        #expect(raw.contains(#"<img src="/m/img/map.svg" alt="r" loading="eager">"#))
        #expect(raw.contains(#"<img src="/m/img/map.svg" alt="m" width="640" height="260" loading="lazy" decoding="async" />"#))
        #expect(document("![x](javascript:alert(1))").html() == #"<p><img src="" alt="x" loading="lazy" decoding="async" /></p>"# + "\n")
        // A character reference to a code point HTML forbids is replaced, in an image's alt text too.
        #expect(document("![a&#1;b](img/map.svg)").html().contains(#"alt="a\#u{FFFD}b" width="640""#))
    }

    @Test("text that looks like the markers stays as written")
    func markerLookalikes() {
        let html = document("![x](marsgen-image-0-0) ![y](img/map.svg) `<img src=\"marsgen-image-`").html()
        #expect(html.contains(#"<img src="/m/marsgen-image-0-0" alt="x" loading="lazy" decoding="async" />"#))
        #expect(html.contains(#"<img src="/m/img/map.svg" alt="y" width="640""#))
        #expect(html.contains("<code>&lt;img src=&quot;marsgen-image-</code>"))
    }

    @Test("an image alone in its paragraph with a title is a figure, the title its caption (escaped, said once); in a link too; not among words, in a tight list's item or without a title")
    func figures() {
        let figure = document(#"![Radishes](img/map.svg "Sol 12 & the <first> crop")"#).html()
        #expect(figure == #"<figure><img src="/m/img/map.svg" alt="Radishes" width="640" height="260" loading="lazy" decoding="async" /><figcaption>Sol 12 &amp; the &lt;first&gt; crop</figcaption></figure>"# + "\n")
        let linked = document(#"[![Big](img/map.svg "Click to enlarge")](img/a%20b.png "Full size")"#).html()
        #expect(linked == #"<figure><a href="/m/img/a%20b.png" title="Full size"><img src="/m/img/map.svg" alt="Big" width="640" height="260" loading="lazy" decoding="async" /></a><figcaption>Click to enlarge</figcaption></figure>"# + "\n")
        // In a quote, a loose list's item and after a heading alike; the tree as parsed after.
        let quoted = document("## Harvest\n\n> ![q](img/map.svg \"Quoted\")\n\n- ![l](img/map.svg \"Listed\")\n\n- two\n")
        let html = quoted.html()
        #expect(html.contains(#"<blockquote>\#n<figure><img src="/m/img/map.svg" alt="q""#) && html.contains("<figcaption>Quoted</figcaption></figure>\n</blockquote>"))
        #expect(html.contains(#"<li>\#n<figure><img src="/m/img/map.svg" alt="l""#) && html.contains("<figcaption>Listed</figcaption></figure>\n</li>"))
        #expect(quoted.html() == html)
        // Not a figure: the title stays the image's.
        for text in [#"Words ![w](img/map.svg "Tip") here."#, #"![a](img/map.svg "One") ![b](img/map.svg "Two")"#, #"- ![t](img/map.svg "Tight")"#, "![n](img/map.svg)",
                     #"![s](img/map.svg "  ")"#] {
            let html = document(text).html()
            #expect(!html.contains("<figure>"), "\(text)")
            #expect(html.contains(#"<img src="/m/img/map.svg""#), "\(text)")
        }
        #expect(document(#"- ![t](img/map.svg "Tight")"#).html().contains(#"title="Tight""#))
    }

    @Test("the tree is as parsed after a render: rendered again alike, the lead image, summary and split see the images")
    func treeKept() {
        let document = document("Words ![A view](img/a%20b.png) here.")
        let first = document.html()
        #expect(document.html() == first)
        #expect(document.leadImage()?.alt == "A view")
        #expect(document.summary() == "Words here.")
        let log = self.document("## 10:00 vega\n\n![m](img/map.svg)\n\n## 11:00 vega\n\nText.")
        let parts = log.split(atHeadingLevel: 2).parts
        #expect(parts.first?.bodyHTML == #"<p><img src="/m/img/map.svg" alt="m" width="640" height="260" loading="lazy" decoding="async" /></p>"# + "\n")
    }
}
