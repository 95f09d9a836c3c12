import Foundation
import GFM
import MarsgenTesting
import Testing

/// Relative URLs in a document are written from the site's root, so that one rendering works
/// on every page that shows the document and in the Atom feed.
@Suite struct MarkdownURLTests {
    @Test("relative URLs of links and images are written after the base; the others are left as written")
    func relativeURLs() {
        let text = """
            ![Dust](img/dust.jpg) [entry](journal/dust-storm/) [up](../x) [here](./a) [reference][r]
            [root](/about/) [cdn](//cdn.example.org/a.js) [web](https://example.org/) [mail](mailto:crew@example.org)
            [anchor](#top) [query](?page=2) <https://auto.example.org> [odd](1:2) [drive](c+d.e:thing)

            [r]: notes/reference.html

            """
        let html = MarkdownDocument(parsing: text, options: MarkdownOptions(relativeURLBase: "/mission/")).html()
        for written in ["<img src=\"/mission/img/dust.jpg\"", "href=\"/mission/journal/dust-storm/\"", "href=\"/mission/../x\"",
                        "href=\"/mission/./a\"", "href=\"/mission/notes/reference.html\"", "href=\"/about/\"",
                        "href=\"//cdn.example.org/a.js\"", "href=\"https://example.org/\"", "href=\"mailto:crew@example.org\"",
                        "href=\"#top\"", "href=\"?page=2\"", "href=\"https://auto.example.org\"", "href=\"/mission/1:2\"",
                        "href=\"c+d.e:thing\""] {
            #expect(html.contains(written), "\(written) in \(html)")
        }
        // Without a base, every URL is as written.
        #expect(MarkdownDocument(parsing: "[a](img/a.png)").html() == "<p><a href=\"img/a.png\">a</a></p>\n")
    }

    @Test("with raw HTML on, relative URLs in its tags are written after the base too; text, comments and other URLs are not")
    func rawHTML() {
        let text = """
            <figure><img src="img/dust.png" alt="src=img/alt.png > x"><figcaption>See <a href='journal/a/'>a</a></figcaption></figure>

            Inline <img src=img/inline.png> and <a href="/about/">root</a>, <a href="https://example.org/x">web</a>,
            <a href="#top">top</a>, <video poster="img/p.jpg" src="//cdn.example.org/v.mp4"></video>.

            <picture><source srcset="img/a.png 1x, img/b.png 2x,https://x.org/c.png 3x"><img SRC = "img/c.png"></picture>

            <!-- <img src="img/comment.png"> --> Text with src="img/text.png" stays.

            """
        let options = MarkdownOptions(allowsRawHTML: true, relativeURLBase: "/m&s/")
        let html = MarkdownDocument(parsing: text, options: options).html()
        for written in ["<img src=\"/m&amp;s/img/dust.png\" alt=\"src=img/alt.png > x\">", "<a href='/m&amp;s/journal/a/'>",
                        "<img src=/m&amp;s/img/inline.png>", "<a href=\"/about/\">", "<a href=\"https://example.org/x\">",
                        "<a href=\"#top\">", "poster=\"/m&amp;s/img/p.jpg\" src=\"//cdn.example.org/v.mp4\"",
                        "srcset=\"/m&amp;s/img/a.png 1x, /m&amp;s/img/b.png 2x,https://x.org/c.png 3x\"", "<img SRC = \"/m&amp;s/img/c.png\">",
                        "<!-- <img src=\"img/comment.png\"> --> Text with src=\"img/text.png\" stays."] {
            #expect(html.contains(written), "\(written) in \(html)")
        }
        // Without raw HTML, it is left out whatever its URLs.
        let safe = MarkdownDocument(parsing: text, options: MarkdownOptions(relativeURLBase: "/m/")).html()
        #expect(!safe.contains("<img src=\"/m/img/dust.png\""))
    }

    @Test("a document's parts, rendered on their own, are resolved once")
    func parts() {
        let text = "Before [a](a.html)\n\n## 09:00 vega\n![b](b.png)\n\n## 09:05 arden\n[c](c/)\n"
        let document = MarkdownDocument(parsing: text, options: MarkdownOptions(relativeURLBase: "/"))
        let (preamble, parts) = document.split(atHeadingLevel: 2)
        let html = (preamble?.bodyHTML ?? "") + parts.map(\.bodyHTML).joined()
        for written in ["href=\"/a.html\"", "src=\"/b.png\"", "href=\"/c/\""] { #expect(html.contains(written), "\(html)") }
        #expect(!html.contains("//"))
    }

    @Test("links to Markdown files are found with their place in the file and written as the resolver says; other URLs are not")
    func fileLinks() {
        let text = """
            See [yesterday](sol-04.md), [the storm](../storms/Dust%20Devil.MD#forecast) and [a query](b.md?x=1).
            Not these: [page](journal/a/), ![image](map.md), [web](https://example.org/a.md), [root](/a.md), [md](.md)

            > Quoted [ref][r]

            [r]: deep/c.md

            """
        var asked: [MarkdownFileLink] = []
        let document = MarkdownDocument(parsing: text, firstLine: 7, options: MarkdownOptions(relativeURLBase: "/m/"), resolveFileLink: { link in
            asked.append(link)
            return link.path == "sol-04.md" ? "/m/journal/dust/" : nil
        })
        #expect(asked == document.fileLinks)
        #expect(document.fileLinks.map(\.path) == ["sol-04.md", "../storms/Dust Devil.MD", "b.md", "deep/c.md"])
        #expect(document.fileLinks.map(\.suffix) == ["", "#forecast", "?x=1", ""])
        #expect(document.fileLinks.map { "\($0.line):\($0.column)" } == ["7:5", "7:29", "7:81", "10:10"])
        let html = document.html()
        for written in ["href=\"/m/journal/dust/\"", "href=\"/m/../storms/Dust%20Devil.MD#forecast\"", "href=\"/m/journal/a/\"",
                        "src=\"/m/map.md\"", "href=\"https://example.org/a.md\"", "href=\"/a.md\"", "href=\"/m/.md\""] {
            #expect(html.contains(written), "\(written) in \(html)")
        }
    }

    @Test("links and images to the site's pages and files are found with their place, path decoded; Markdown files, other hosts and in-page URLs are not")
    func siteLinks() {
        let text = """
            ![map](img/map%20v2.png "title") and [the storm](journal/dust/#notes) or [a query](sol/4/?x=1).
            Not these: [file](sol-04.md), [web](https://example.org/a.png), [host](//example.org/a.png), [here](#top), <https://example.org>

            > Quoted ![ref][r]

            [r]: ./deep/c.svg

            """
        let document = MarkdownDocument(parsing: text, firstLine: 3, options: MarkdownOptions(relativeURLBase: "/m/"))
        #expect(document.siteLinks == [
            MarkdownSiteLink(path: "img/map v2.png", line: 3, column: 1, isImage: true),
            MarkdownSiteLink(path: "journal/dust/", line: 3, column: 38, fragment: "notes"),
            MarkdownSiteLink(path: "sol/4/", line: 3, column: 74),
            MarkdownSiteLink(path: "./deep/c.svg", line: 6, column: 10, isImage: true),
        ])
        // Without a base, relative URLs are left as written and nothing is found.
        #expect(MarkdownDocument(parsing: text).siteLinks.isEmpty)
    }

    @Test("URLs from the host's root are site links: within the base path from its end, outside it marked so; the host's front page is not one")
    func hostRootLinks() {
        let text = """
            [a](/m/sol/4/#w) ![b](/m/img/a%20b.png) [c](/m) [d](/img/a.png?x) [e](/) [f](/mx/y)

            """
        let document = MarkdownDocument(parsing: text, options: MarkdownOptions(relativeURLBase: "/m/"))
        #expect(document.siteLinks == [
            MarkdownSiteLink(path: "sol/4/", line: 1, column: 1, origin: .hostRoot, fragment: "w"),
            MarkdownSiteLink(path: "img/a b.png", line: 1, column: 18, isImage: true, origin: .hostRoot),
            MarkdownSiteLink(path: "", line: 1, column: 41, origin: .hostRoot),
            MarkdownSiteLink(path: "img/a.png", line: 1, column: 49, origin: .outsideBasePath),
            MarkdownSiteLink(path: "mx/y", line: 1, column: 74, origin: .outsideBasePath),
        ])
        #expect(document.siteLinks.map { $0.written(basePath: "/m/") } == ["/m/sol/4/", "/m/img/a b.png", "/m/", "/img/a.png", "/mx/y"])
        #expect(MarkdownDocument(parsing: "[a](sol/4/?q=1#m-%C3%A9) [b](sol/4/#)", options: MarkdownOptions(relativeURLBase: "/")).siteLinks.map(\.fragment)
                == ["m-é", ""])
        // Left as written.
        #expect(document.html().contains("href=\"/img/a.png?x\"") && document.html().contains("src=\"/m/img/a%20b.png\""))
        // At the host's root, every such URL is within the site, `/` its front page.
        let atRoot = MarkdownDocument(parsing: text, options: MarkdownOptions(relativeURLBase: "/"))
        #expect(atRoot.siteLinks.map(\.origin) == Array(repeating: .hostRoot, count: 6))
        #expect(atRoot.siteLinks.map(\.path) == ["m/sol/4/", "m/img/a b.png", "m", "img/a.png", "", "mx/y"])
    }

    @Test("raw HTML's URLs are site links at their place when raw HTML is kept, images and other elements by tag; disarmed tags, comments and safe mode give none")
    func rawHTMLLinks() {
        let text = """
            Inline <img src="img/a.png" alt=""> and <a href='/m/journal/x/'>x</a>.

            <div>
            <video poster="img/p.jpg"
              src="clip.mp4"></video>
            <picture><source srcset="img/s.avif 1x, img/s2.avif 2x"></picture>
            <script src="x.js"></script><!-- <a href="y/"> -->
            <a href="https://example.org/">web</a>
            </div>

            """
        let options = MarkdownOptions(allowsRawHTML: true, relativeURLBase: "/m/")
        let document = MarkdownDocument(parsing: text, firstLine: 5, options: options)
        #expect(document.siteLinks == [
            MarkdownSiteLink(path: "img/a.png", line: 5, column: 18, isImage: true),
            MarkdownSiteLink(path: "journal/x/", line: 5, column: 50, origin: .hostRoot),
            MarkdownSiteLink(path: "img/p.jpg", line: 8, column: 16, isImage: true),
            MarkdownSiteLink(path: "clip.mp4", line: 9, column: 8, element: "video src"),
            MarkdownSiteLink(path: "img/s.avif", line: 10, column: 26, isImage: true),
            MarkdownSiteLink(path: "img/s2.avif", line: 10, column: 41, isImage: true),
        ])
        #expect(document.siteLinks.map(\.kindName) == ["image", "link", "image", "<video src>", "image", "image"])
        // Not kept in the output: nothing to check.
        #expect(MarkdownDocument(parsing: text, options: MarkdownOptions(relativeURLBase: "/m/")).siteLinks.isEmpty)
    }
    @Test("places cmark-gfm gets wrong are found from the text: the lines before a table, a paragraph's lazy or differently indented lines, raw HTML's later lines")
    func placesFromTheText() {
        let text = """
            Intro [a](a/) line
              see ![map](m.png) and [b](b/)
            | a | b |
            |---|---|
            | 1 | 2 |

            > quote [c](c/)
            lazy [d](d/)
            >   more <img alt=""
            >   src="e.png"> x

              Indented first [f](f/)
                  deeper [g](g/)

            - item [h](h/)
              then [i](i/)
              | x |
              |---|

            """
        let options = MarkdownOptions(allowsRawHTML: true, relativeURLBase: "/m/")
        let document = MarkdownDocument(parsing: text, firstLine: 3, options: options)
        #expect(document.siteLinks.map { "\($0.path) \($0.line):\($0.column)" } == [
            "a/ 3:7", "m.png 4:7", "b/ 4:25", "c/ 9:9", "d/ 10:6", "e.png 12:10", "f/ 14:18", "g/ 15:14", "h/ 17:8", "i/ 18:8",
        ])
        // Line ends cmark-gfm does not count: in a link's text, a code span, after a
        // backslash, in raw HTML, in a link's title.
        let wrapped = """
            aaa see the [long
            name](a/) ok [next](b/)
            then `code
            span` [c](c/) and\\
              after [d](d/) <img
            src="e.png"> [f](f/ "a
            title") [g](g/)

            """
        #expect(MarkdownDocument(parsing: wrapped, options: options).siteLinks.map { "\($0.path) \($0.line):\($0.column)" } == [
            "a/ 1:13", "b/ 2:14", "c/ 4:7", "d/ 5:9", "e.png 6:6", "f/ 6:14", "g/ 7:9",
        ])
        // The first block under a heading, when a table took the paragraph's last lines.
        let log = MarkdownDocument(parsing: "## 10:00 a\n\ntext\n| a |\n|---|\n", firstLine: 4)
        #expect(log.split(atHeadingLevel: 2).parts.map(\.bodyLine) == [6])
    }

    @Test("random paragraphs and HTML blocks in quotes and lists, wrapped inside links, code spans and raw HTML: each link, image and URL in HTML is placed where the text has it")
    func placesRandomly() {
        var random = SeededRandom(seed: Self.placesSeed)
        var checked = 0
        for _ in 0..<Self.placesRounds {
            var text = ""
            /// What the text holds at each URL's place, by its path.
            var expected: [String: String] = [:]
            for block in 0..<(random.next(4) + 1) {
                let n = "\(block)"
                // The prefix of the block's first line, and of its later lines (a lazy
                // quote line leaves the marker out).
                // A lazy line, one that does not go on in every block holding the paragraph,
                // keeps its whitespace in what cmark-gfm parses; the others do not.
                let (first, later): (String, () -> String) = switch random.next(10) {
                case 0: ("> ", { random.next(4) == 0 ? " " : ">" + String(repeating: " ", count: random.next(3)) })
                case 1: ("- ", { random.next(4) == 0 ? " " : random.next(3) == 0 ? "\t" : String(repeating: " ", count: 2 + random.next(4)) })
                case 2: ("> 1. ", { random.next(3) == 0 ? "  " : ">    " })
                case 3: (String(repeating: " ", count: random.next(4)), { String(repeating: " ", count: random.next(6)) })
                case 4: (" 10)  ", { random.next(3) == 0 ? "   " : String(repeating: " ", count: 6 + random.next(3)) })
                case 5: ("> > ", { ["> > ", "> ", "", ">> ", ">>", ">\t>\t", ">\t"][random.next(7)] })
                case 7: ("> 10. ", { [">\t  ", ">\t", ">\t\t", ">      "][random.next(4)] })
                case 8: ("[^f\(n)]: ", { ["    ", "  ", "\t", "      "][random.next(4)] })
                case 6: ("- > * ", { ["  > ", "  >   ", "  ", "    ", "  >"][random.next(5)] })
                default: ("", { "" })
                }
                func wrap() -> String { "\n" + later() }
                // Or an HTML block: URLs on its first line and after.
                if random.next(5) == 0 {
                    text += first + "<div><img src=\"b\(n)a.png\">" + wrap() + " <img src=\"b\(n)b.png\">" + wrap() + "</div>\n\n"
                    expected["b\(n)a.png"] = "b\(n)a.png\""
                    expected["b\(n)b.png"] = "b\(n)b.png\""
                    continue
                }
                var paragraph = first + "Start"
                for item in 0..<(random.next(8) + 1) {
                    let id = "\(n)x\(item)"
                    switch random.next(10) {
                    case 0: paragraph += " [t\(id)](u\(id)/)"; expected["u\(id)/"] = "[t\(id)"
                    case 1: paragraph += " [t\(id)" + wrap() + "more](u\(id)/)"; expected["u\(id)/"] = "[t\(id)"
                    case 2: paragraph += " ![i\(id)](u\(id).png)"; expected["u\(id).png"] = "![i\(id)"
                    case 3: paragraph += " `code" + wrap() + "span`"
                    case 4: paragraph += " <img" + wrap() + "src=\"h\(id).png\">"; expected["h\(id).png"] = "h\(id).png\""
                    case 5: paragraph += " [l\(id)](u\(id)/ \"a" + wrap() + "title\")"; expected["u\(id)/"] = "[l\(id)"
                    case 6: paragraph += "\\" + wrap() + "after"
                    case 9: paragraph += " *[![n\(id)](n\(id).png)](o\(id)/) **x" + wrap() + "y**"
                        expected["n\(id).png"] = "![n\(id)"
                        expected["o\(id)/"] = "[![n\(id)"
                    case 7: paragraph += "  " + wrap() + "after"
                    default: paragraph += wrap() + "word"
                    }
                }
                text += paragraph
                // A table that takes the paragraph's last line as its header, or an underline
                // that makes the paragraph a heading.
                switch random.next(6) {
                case 0, 1:
                    // Links in its cells, after pipes escaped within them.
                    let (header, body) = ("[th\(n)](th\(n)/)", "[tb\(n)](tb\(n)/)")
                    expected["th\(n)/"] = "[th\(n)"
                    expected["tb\(n)/"] = "[tb\(n)"
                    text += "\n" + later() + ["| a |", "| a \\| b \(header) |", "| \(header) |"][random.next(3)]
                    text += "\n" + later() + "|---|"
                    if random.next(3) > 0 { text += "\n" + later() + ["| 1 |", "| `c\\|d` \(body) |", "| x \\| \\| \(body) |"][random.next(3)] }
                case 2: text += "\n" + later() + "==="
                default: break
                }
                text += "\n\n"
            }
            // The footnotes defined above, used.
            text += "Notes[^f0][^f1][^f2][^f3].\n"
            let document = MarkdownDocument(parsing: text, options: MarkdownOptions(allowsRawHTML: true, relativeURLBase: "/"))
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
            for link in document.siteLinks {
                guard let marker = expected[link.path] else { continue }
                let line = lines.indices.contains(link.line - 1) ? lines[link.line - 1] : []
                let found = link.column >= 1 && link.column <= line.count ? String(decoding: line[(link.column - 1)...], as: UTF8.self) : ""
                #expect(found.hasPrefix(marker), "\(link.path) at \(link.line):\(link.column) in:\n\(text)")
                checked += 1
            }
        }
        #expect(checked > Self.placesRounds)
    }

    /// `MARSGEN_PLACES_ROUNDS` and `MARSGEN_SEED` run it longer or otherwise.
    static let placesRounds = ProcessInfo.processInfo.environment["MARSGEN_PLACES_ROUNDS"].flatMap(Int.init) ?? 300
    static let placesSeed = ProcessInfo.processInfo.environment["MARSGEN_SEED"].flatMap(UInt64.init) ?? 54
}
