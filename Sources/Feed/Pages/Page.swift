import Content
import Search

/// One file of the site to render: which template, which sections, which values.
///
/// A page knows what it was made from (``objectIDs`` and ``templates``), so a later build
/// can tell which pages an edit affects.
public struct Page {
    /// What sort of page this is, for summaries and styling.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case front, feedArchive, journal, journalIndex, sol, solIndex, crew, crewIndex, tag, tagIndex, notFound, atom, sitemap, sitemapIndex,
             alias, search, searchIndex, standalone

        /// Whether its page has the site's header, whose navigation lists the pages of their
        /// own that ask for it (`navPages`): not the feeds, sitemaps, search index parts and
        /// old addresses' pages, which have no layout.
        public var showsNavigation: Bool {
            switch self {
            case .atom, .sitemap, .sitemapIndex, .alias, .searchIndex: false
            default: true
            }
        }
    }

    /// What sort of page this is.
    public var kind: Kind

    /// Where the Atom feed is written, relative to the output directory. Its extension is
    /// `.xml`, as feed readers expect, so a server must be told it is Atom.
    public static let atomOutputPath = "feed.xml"
    /// The page's URL path (`/sol/12/`).
    public var url: String
    /// Where it is written, relative to the output directory (`sol/12/index.html`).
    public var outputPath: String
    /// The template for the page body (`page-sol`).
    public var template: String
    /// The layout the body is wrapped in; `nil` for feeds and sitemaps.
    public var layout: String?
    /// Named lists of sections (`sections`, `pinned`, `entries`). Each item is an object
    /// identifier plus extra values the template may show next to the section's HTML.
    public var slots: [String: [SlotItem]]
    /// Named lists of rows (`sols`), each row rendered by a template of its own. The page
    /// template sees each list as its rows' values plus `html`, the row rendered, and every
    /// row's HTML in one string under the list's name plus `HTML` (`solsHTML`).
    public var rows: [String: Rows]
    /// The values the template sees, besides the slots and rows.
    public var context: TemplateContext
    /// Values every page of the site sees the same (`site`: title, links to the feeds, the
    /// stylesheet), made from the configuration alone. The renderer adds them under
    /// ``context``; ``PageFingerprint`` leaves them out, because a configuration change
    /// rebuilds every page anyway.
    public var shared: TemplateContext = [:]
    /// When set, a hash of every value in ``context`` and of ``sitemapLocations``, made by
    /// the planner where that is far cheaper than walking the values: the sitemap's tens of
    /// thousands of URLs. The fingerprint then takes it instead of the values.
    public var contextHash: ContentHash?
    /// A ``Kind/sitemap`` page's absolute URLs, sorted (a part of them when the sitemap is
    /// split, see ``Kind/sitemapIndex``): what its template sees as `urls`,
    /// each as `loc`. Kept as strings: the built-in sitemap is written from them directly,
    /// and only a site's own template needs the 19,500 one-value contexts made of them.
    public var sitemapLocations: [String] = []
    /// What a ``Kind/searchIndex`` file holds: the index's parts, or a part's documents,
    /// newest first. Its JSON is written from them (see `SearchIndex`), not by a template;
    /// its ``contextHash`` stands for them.
    public var searchFile: SearchIndex.File?
    /// Objects whose data this page shows outside its slots (a neighbour's link, a count).
    public var linkedObjectIDs: Set<String>
    /// Every object whose data this page shows (in slots or as a neighbour's link). Made on
    /// demand: only `--explain` asks, and most pages are never explained.
    public var objectIDs: Set<String> { linkedObjectIDs.union(slots.values.joined().map(\.objectID)) }

    /// One section in a slot.
    public struct SlotItem {
        /// The object whose section goes here. Held, not named: a build renders the sections
        /// of a few pages without looking tens of thousands of objects up by identifier.
        public var object: any FeedObject
        /// Extra values for the template (an Atom entry's title and date, for example).
        public var extra: TemplateContext
        /// Whether the section is shown on the object's own page (an entry's), where its
        /// cells title the page (see ``FeedContext/isOwnPage``) rather than link to it.
        public var isOwnPage: Bool

        /// The identifier of ``object``.
        public var objectID: String { object.diffIdentifier }

        /// Which rendering of which object's section goes here.
        public var section: SectionKey { SectionKey(objectID: objectID, isOwnPage: isOwnPage) }

        /// What that rendering is kept under from one build to the next: the object's stamp
        /// (its identity and content), mixed for its own page's rendering so that the two
        /// are never taken for each other.
        public var sectionStamp: UInt64 {
            isOwnPage ? (object.stamp ^ 0x6f77_6e2d_7061_6765) &* 0x9e37_79b9_7f4a_7c15 : object.stamp
        }

        /// Creates a slot item.
        public init(object: any FeedObject, extra: TemplateContext = [:], isOwnPage: Bool = false) {
            self.object = object
            self.extra = extra
            self.isOwnPage = isOwnPage
        }
    }

    /// A section as rendered: an object's, as the feed shows it or as its own page does.
    /// A build renders each once, however many pages show it.
    public struct SectionKey: Hashable, Sendable {
        /// The object's identifier.
        public var objectID: String
        /// Whether it is the rendering for the object's own page.
        public var isOwnPage: Bool

        /// Creates a key.
        public init(objectID: String, isOwnPage: Bool = false) {
            self.objectID = objectID
            self.isOwnPage = isOwnPage
        }
    }

    /// A list of rows rendered one by one with ``template``, like the sol index's.
    ///
    /// A list of thousands of rows, each a handful of values, is the slowest thing a template
    /// engine renders, and one changed row would re-render all of them. Rendered on their
    /// own, rows made from the same inputs as in the previous build are reused (under
    /// `watch` and `serve`) without even making their values, and the page template inserts
    /// the rows' HTML in one piece.
    public struct Rows {
        /// The template each row is rendered with (`sol-row`).
        public let template: String
        /// A hash of what each row is made from (its numbers, the identity and content of its
        /// objects), but the configuration: equal hashes give equal values while the
        /// configuration is unchanged. Both the page's fingerprint and the rendered rows kept
        /// between builds use them.
        public let hashes: [UInt64]
        /// The values of row `index`, made only for a row that is rendered.
        public let values: @Sendable (_ index: Int) -> TemplateContext

        /// How many rows the list has.
        public var count: Int { hashes.count }

        /// Creates a list of rows.
        public init(template: String, hashes: [UInt64], values: @escaping @Sendable (_ index: Int) -> TemplateContext) {
            self.template = template
            self.hashes = hashes
            self.values = values
        }
    }

    /// Creates a page.
    public init(kind: Kind, url: String, outputPath: String, template: String, layout: String? = "layout",
                slots: [String: [SlotItem]] = [:], rows: [String: Rows] = [:], context: TemplateContext = [:],
                objectIDs: Set<String> = []) {
        self.kind = kind
        self.url = url
        self.outputPath = outputPath
        self.template = template
        self.layout = layout
        self.slots = slots
        self.rows = rows
        self.context = context
        self.linkedObjectIDs = objectIDs
    }
}
