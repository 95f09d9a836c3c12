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
        var places = OutputPlaces()
        for written in try fields.strings("aliases") {
            switch path(written) {
            case .success(let path):
                // One file written two ways (`/a/`, `/a/index.html`) is one alias.
                if let conflict = places.conflict(with: path) {
                    guard conflict.isSameFile else {
                        throw Diagnostic.error(conflict.message(at: path, same: ""), at: fields.location(of: "aliases"),
                                               hint: "the two cannot both be written: keep the one old links to \(owner) use")
                    }
                    continue
                }
                places.claim(path, by: owner)
                aliases.append(path)
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

/// The files in the output that old addresses and pages of their own take, to find two that
/// would overwrite one another: two at one file (`/about/` and `/about/index.html` too), or
/// one a file where another needs a folder (an alias `/x.html` and a page at `/x.html/a/`).
/// A place is a folder (`about/`, written to its `index.html`) or an HTML file (`x.html`),
/// as ``Alias/path(_:)`` gives them.
struct OutputPlaces {
    /// What takes a place, and the place as it was claimed.
    struct Conflict {
        /// What holds the other place, for a hint ("the page content/pages/about.md").
        let owner: String
        /// The other place, as claimed.
        let place: String
        /// Whether the two would be one file; else one is a file where the other needs a folder.
        let isSameFile: Bool

        /// What is wrong with claiming `place`: `same` when the two are written alike.
        func message(at place: String, same: String) -> String {
            if isSameFile {
                return place == self.place ? same : "/\(place) and /\(self.place) would be one file, \(OutputPlaces.file(of: place))"
            }
            // The file is the shorter: its name is a folder of the other's path.
            let (file, inside) = place.count < self.place.count ? (place, self.place) : (self.place, place)
            return "/\(file) would be both a file and the folder of /\(inside)"
        }
    }

    /// Each place's file, by what holds it and the place as claimed.
    private var files: [String: (owner: String, place: String)] = [:]
    /// Each folder a place's file is in, by the first to claim it and its place.
    private var folders: [String: (owner: String, place: String)] = [:]

    /// The file a place is written to, within the output.
    static func file(of place: String) -> String { place.hasSuffix("/") ? place + "index.html" : place }

    /// The folders `file` is in, nearest the site's root first (`a`, `a/b` for `a/b/c.html`).
    private static func folders(of file: String) -> [Substring] {
        file.indices.filter { file[$0] == "/" }.map { file[..<$0] }
    }

    /// What would overwrite `place`, or be overwritten by it, among the places claimed.
    func conflict(with place: String) -> Conflict? {
        let file = Self.file(of: place)
        if let other = files[file] { return Conflict(owner: other.owner, place: other.place, isSameFile: true) }
        for folder in Self.folders(of: file) {
            if let other = files[String(folder)] { return Conflict(owner: other.owner, place: other.place, isSameFile: false) }
        }
        return folders[file].map { Conflict(owner: $0.owner, place: $0.place, isSameFile: false) }
    }

    /// Records that `owner` takes `place`.
    mutating func claim(_ place: String, by owner: String) {
        let file = Self.file(of: place)
        files[file] = (owner, place)
        for folder in Self.folders(of: file) where folders[String(folder)] == nil { folders[String(folder)] = (owner, place) }
    }
}
