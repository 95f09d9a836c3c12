import Diagnostics
import SiteConfig

/// An entry's or a page's old address (`aliases:` in its front matter, as in Hugo and Zola),
/// where the site keeps a page that sends readers, and search engines, on to it: what a site
/// moved from another generator, or an entry whose slug changed, needs so that links to it
/// keep working.
public enum Alias {
    /// The folders and files of the site's own pages, which no alias may take (nor make a
    /// folder of: `feed.xml/` would need the feed's name).
    static let sitePlaces: Set<String> = ["journal", "sol", "crew", "tags", "page", "theme", "search", "_marsgen", "index.html", "404.html",
                                          "feed.xml", "sitemap.xml", "robots.txt"]

    /// Whether the first segment `name` of a path within the site is one of the site's own
    /// pages' folders or files (the sitemap's parts, `sitemap-1.xml` and on, too).
    static func isSitePlace(_ name: Substring) -> Bool {
        sitePlaces.contains(String(name)) || (name.hasPrefix("sitemap-") && name.hasSuffix(".xml"))
    }

    /// The alias `written` as a path within the site, without its leading `/`: a folder
    /// (`posts/2038/landing/`, also for `/posts/2038/landing`) or an HTML file
    /// (`landing.html`).
    ///
    /// - Returns: The path, or why `written` cannot be one.
    public static func path(_ written: String) -> Result<String, AliasProblem> {
        guard !written.contains("://"), !written.hasPrefix("//") else { return .failure(.notAPath) }
        var path = Substring(written)
        if path.hasPrefix("/") { path = path.dropFirst() }
        guard !path.isEmpty else { return .failure(.siteRoot) }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment.isEmpty && index == segments.count - 1 { continue }
            guard !segment.isEmpty, segment != ".", segment != "..", segment.utf8.count <= 255,
                  segment.unicodeScalars.allSatisfy(isAllowed) else {
                return .failure(.badSegment(String(segment)))
            }
        }
        // The sitemap's parts, `sitemap-1.xml` and on, are the site's too.
        if let first = segments.first, isSitePlace(first) {
            return .failure(.sitePlace(String(first)))
        }
        let isFile = path.hasSuffix(".html") || path.hasSuffix(".htm")
        return .success(isFile || path.hasSuffix("/") ? String(path) : String(path) + "/")
    }

    /// The `aliases:` of `fields` as paths within the site (see ``path(_:)``), each once, in
    /// the order written.
    ///
    /// - Parameters:
    ///   - owner: What has them, for the hint ("the entry").
    ///   - example: Two addresses such an alias might be, quoted.
    /// - Throws: A ``Diagnostic`` at `aliases:` for one that is not a path within the site.
    static func paths(in fields: YAMLMapping, of owner: String, example: String) throws(Diagnostic) -> [String] {
        var aliases: [String] = []
        for written in try fields.strings("aliases") {
            switch path(written) {
            case .success(let path): if !aliases.contains(path) { aliases.append(path) }
            case .failure(let problem):
                throw Diagnostic.error("alias '\(Diagnostic.excerpt(written))' \(problem.message)", at: fields.location(of: "aliases"),
                                       hint: "an alias is \(owner)'s old address within the site, like \(example)")
            }
        }
        return aliases
    }

    /// Letters, digits and the few marks a URL path keeps as they are.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "~": return true
        default: return false
        }
    }
}

/// Why a written alias is not a path within the site.
public enum AliasProblem: Error, Equatable, Sendable {
    /// `/` alone: the front page.
    case siteRoot
    /// A URL with a scheme or a host.
    case notAPath
    /// A folder or file name that is empty, `.` or `..`, too long, or has other characters
    /// than letters, digits, `-`, `_`, `.` and `~`.
    case badSegment(String)
    /// Under one of the site's own folders (`journal`, `tags`), or one of its files.
    case sitePlace(String)

    /// The problem in words, after "alias '…' ".
    public var message: String {
        switch self {
        case .siteRoot: "is the site's front page"
        case .notAPath: "is not a path within the site"
        case .badSegment(let segment):
            "has '\(segment)' in it, which is not a folder or file name of letters, digits, '-', '_', '.' and '~'"
        case .sitePlace(let place): "is at '\(place)', where the site's own pages are"
        }
    }
}
