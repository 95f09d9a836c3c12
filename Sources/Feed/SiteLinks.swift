import Content
import GFM
import SiteConfig

/// Every URL in the site, in one place: the page scheme.
///
/// | page | URL |
/// | --- | --- |
/// | front page | `/` |
/// | feed archive page `k` (1 = oldest) | `/page/k/` |
/// | journal entry | `/journal/<slug>/` |
/// | the journal's own feed (and archive page `k`) | `/journal/` (`/journal/page/k/`) |
/// | sol | `/sol/<n>/` |
/// | crew member (and archive page `k`) | `/crew/<id>/` (`/crew/<id>/page/k/`) |
/// | tag (and archive page `k`), the index of tags | `/tags/<slug>/` (`/tags/<slug>/page/k/`), `/tags/` |
/// | a page of its own (`content/pages/about.md`) | `/<path>/` (`/about/`) |
/// | messages, weather | their sol page, at the section's anchor |
///
/// URLs start with the path of `base_url`, so a site published under `/mission/` links right.
public struct SiteLinks: Sendable {
    /// The path every link starts with (`/` or `/mission/`).
    public let basePath: String
    /// The absolute base URL, ending in `/`.
    public let baseURL: String

    /// Creates the links of a site.
    public init(config: SiteConfiguration) {
        basePath = config.basePath
        baseURL = config.baseURL
    }

    /// The front page.
    public var home: String { homeAddress.url }
    /// Feed archive page `number`.
    public func feedPage(_ number: Int) -> String { feedPageAddress(number).url }
    /// A journal entry's page.
    public func journal(slug: String) -> String { journalAddress(slug: slug).url }
    /// The journal's own feed.
    public var journalIndex: String { journalIndexAddress.url }
    /// Archive page `number` of the journal's own feed (1 = oldest).
    public func journalIndex(page number: Int) -> String { journalIndexAddress(page: number).url }
    /// A sol's page.
    public func sol(_ sol: Int) -> String { solAddress(sol).url }
    /// The index of sols.
    public var sols: String { solsAddress.url }
    /// A crew member's page, or its archive page `page`.
    public func crew(_ id: String, page: Int? = nil) -> String { crewAddress(id, page: page).url }
    /// The crew index.
    public var crewIndex: String { crewIndexAddress.url }
    /// A tag's page (its slug, see ``Slug/derive(from:orElse:)``), or its archive page `page`.
    public func tag(_ slug: String, page: Int? = nil) -> String { tagAddress(slug, page: page).url }
    /// The index of tags.
    public var tagIndex: String { tagIndexAddress.url }
    /// The Atom feed.
    public var atom: String { atomAddress.url }
    /// A tag's Atom feed (`tag_feeds: true`).
    public func tagFeed(_ slug: String) -> String { tagFeedAddress(slug).url }
    /// A crew member's Atom feed (`crew_feeds: true`).
    public func crewFeed(_ id: String) -> String { crewFeedAddress(id).url }
    /// The search page (`search: true`).
    public var search: String { searchAddress.url }
    /// A file under the site's root (`theme/marsgen.css`).
    public func asset(_ path: String) -> String { assetAddress(path).url }
    /// A page of its own (see `StandalonePage`), by its path (`about`, `mission/habitat`).
    public func standalonePage(_ path: String) -> String { standalonePageAddress(path).url }

    // The same pages as addresses (see ``PageAddress``): the scheme above is written here.

    var homeAddress: PageAddress { PageAddress(basePath: basePath, "") }
    func feedPageAddress(_ number: Int) -> PageAddress { PageAddress(basePath: basePath, "page/", String(number), "/") }
    /// A journal entry's page, whose ``PageAddress/outputPath`` says where it is written.
    public func journalAddress(slug: String) -> PageAddress { PageAddress(basePath: basePath, "journal/", slug, "/") }
    var journalIndexAddress: PageAddress { PageAddress(basePath: basePath, "journal/") }
    func journalIndexAddress(page number: Int) -> PageAddress { PageAddress(basePath: basePath, "journal/page/", String(number), "/") }
    func solAddress(_ sol: Int) -> PageAddress { PageAddress(basePath: basePath, "sol/", String(sol), "/") }
    var solsAddress: PageAddress { PageAddress(basePath: basePath, "sol/") }
    func crewAddress(_ id: String, page: Int? = nil) -> PageAddress {
        PageAddress(basePath: basePath, "crew/", id, page.map { "/page/\($0)/" } ?? "/")
    }
    var crewIndexAddress: PageAddress { PageAddress(basePath: basePath, "crew/") }
    func tagAddress(_ slug: String, page: Int? = nil) -> PageAddress {
        PageAddress(basePath: basePath, "tags/", slug, page.map { "/page/\($0)/" } ?? "/")
    }
    var tagIndexAddress: PageAddress { PageAddress(basePath: basePath, "tags/") }
    var atomAddress: PageAddress { PageAddress(basePath: basePath, Page.atomOutputPath) }
    var searchAddress: PageAddress { PageAddress(basePath: basePath, "search/") }
    /// The search page's index, beside it, and its parts (see `SearchIndex`).
    var searchIndexAddress: PageAddress { PageAddress(basePath: basePath, "search/index.json") }
    func searchPartAddress(_ number: Int) -> PageAddress { PageAddress(basePath: basePath, "search/part-", String(number), ".json") }
    /// The part of the index holding the pages of their own (`content/pages/`), when the site has any.
    var searchPagesAddress: PageAddress { PageAddress(basePath: basePath, "search/pages.json") }
    /// An entry's or a page's old address (see `Alias`): a folder (`posts/landing/`) or an HTML file.
    public func aliasAddress(_ path: String) -> PageAddress { PageAddress(basePath: basePath, path) }
    func tagFeedAddress(_ slug: String) -> PageAddress { PageAddress(basePath: basePath, "tags/", slug, "/" + Page.atomOutputPath) }
    func crewFeedAddress(_ id: String) -> PageAddress { PageAddress(basePath: basePath, "crew/", id, "/" + Page.atomOutputPath) }
    func assetAddress(_ path: String) -> PageAddress { PageAddress(basePath: basePath, path) }
    /// The URL of a link of the site's own in the navigation (`nav:` in `marsgen.yml`), as
    /// written: one relative to the site's root after the base path, as a Markdown link's is.
    func navigationLink(_ written: String) -> String {
        LinkEscaping.escaped(LeadImage.url(written: written, basePath: basePath))
    }
    public func standalonePageAddress(_ path: String) -> PageAddress { PageAddress(basePath: basePath, path, "", "/") }

    /// The anchor (element id) of an object's section.
    public func anchor(for object: any FeedObject) -> String {
        if let entry = object as? JournalEntry { return Self.entryAnchorPrefix + entry.slug }
        return Self.anchor(kind: object.kind, identifier: object.diffIdentifier)
    }

    /// The anchor of the section of a message or a weather report of `kind` whose
    /// ``FeedObject/diffIdentifier`` is `identifier`.
    public static func anchor(kind: ObjectKind, identifier: String) -> String {
        var hash = ContentHash()
        hash.combine(identifier)
        return anchorPrefix(for: kind) + hash.description.prefix(anchorHashLength)
    }

    /// What a journal entry's anchor starts with, before its slug.
    public static let entryAnchorPrefix = "entry-"
    /// How many hexadecimal digits of its identifier's hash another object's anchor has.
    static let anchorHashLength = 12

    /// What the anchor of an object of `kind` other than a journal entry starts with (`m-`).
    public static func anchorPrefix(for kind: ObjectKind) -> String {
        "\(kind.rawValue.prefix(1))-"
    }

    /// Whether `fragment` has the form ``anchor(for:)`` gives a message, a weather report or
    /// a journal entry: a link to it can be checked against the objects a page shows.
    public static func isObjectAnchor(_ fragment: String) -> Bool {
        // Not a heading's id (`entry-3:part`): no slug has a `:`.
        if fragment.hasPrefix(entryAnchorPrefix) { return fragment.utf8.count > entryAnchorPrefix.utf8.count && !fragment.contains(":") }
        guard let prefix = [ObjectKind.message, .weather].map(anchorPrefix).first(where: fragment.hasPrefix) else { return false }
        let digits = fragment.utf8.dropFirst(prefix.utf8.count)
        return digits.count == anchorHashLength
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The page an object links to: its own page, or its place on its sol's page.
    public func permalink(for object: any FeedObject) -> String {
        if let entry = object as? JournalEntry { return journal(slug: entry.slug) }
        return permalink(kind: object.kind, identifier: object.diffIdentifier, sol: object.sol)
    }

    /// The place of the message or weather report of `kind` whose ``FeedObject/diffIdentifier``
    /// is `identifier` on the page of `sol`.
    public func permalink(kind: ObjectKind, identifier: String, sol: Int) -> String {
        "\(self.sol(sol))#\(Self.anchor(kind: kind, identifier: identifier))"
    }

    /// An absolute URL for a site path (`/sol/3/` → `https://example.org/sol/3/`).
    public func absolute(_ path: String) -> String {
        // `String + Substring` is the generic `+` of collections: it counts both sides'
        // characters and appends character by character. `append(contentsOf:)` copies bytes.
        var url = baseURL
        url.append(contentsOf: relative(path))
        return url
    }

    /// An absolute URL for a path from the host's root, in the site or beside it
    /// (`/mission/img/a.png` → `https://example.org/mission/img/a.png`, `/logo.png` →
    /// `https://example.org/logo.png`); any other URL as it is.
    public func absolute(fromHostRoot url: String) -> String {
        guard url.utf8.first == UInt8(ascii: "/") else { return url }
        if url.utf8.starts(with: basePath.utf8) { return absolute(url) }
        var origin = baseURL
        if origin.hasSuffix(basePath) { origin.removeLast(basePath.count) }
        origin.append(contentsOf: url)
        return origin
    }

    /// The file a page URL is written to (`/sol/3/` → `sol/3/index.html`), relative to the
    /// output: by the rule of ``PageAddress/outputPath``.
    public func outputPath(for url: String) -> String {
        PageAddress(basePath: basePath, String(relative(url))).outputPath
    }

    /// `path` without the base path it starts with. Compared and cut as UTF-8 bytes: these
    /// run for every page of every build, and `hasPrefix` and `dropFirst` on characters made
    /// the sitemap's 19,500 absolute URLs take 7 ms. (marsgen makes these paths itself, and
    /// the base path ends with `/`, so a byte boundary there is a character boundary.)
    private func relative(_ path: String) -> Substring {
        guard path.utf8.starts(with: basePath.utf8) else { return Substring(path) }
        return path[path.utf8.index(path.utf8.startIndex, offsetBy: basePath.utf8.count)...]
    }
}
