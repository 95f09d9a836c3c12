import Content
import SiteConfig

/// Turns one kind of feed object into the cells of its section, as IGListKit's section
/// controllers do for a collection view.
///
/// Adding a kind of object is adding a controller (and its cell templates) and registering
/// it with ``FeedAdapter``; nothing else changes.
public protocol SectionController: Sendable {
    /// The kind of object this controller presents.
    var kind: ObjectKind { get }

    /// The templates this controller's cells use, so a template change can be traced to pages.
    var cellTemplates: [String] { get }

    /// Returns the section for `object`.
    ///
    /// - Parameters:
    ///   - object: An object of ``kind``.
    ///   - context: Links and site facts the cells may need.
    /// - Returns: The section, or `nil` when `object` is not of this controller's type.
    func section(for object: any FeedObject, context: FeedContext) -> FeedSection?
}

/// What section controllers may know about the site.
public struct FeedContext: Sendable {
    /// The site's URLs.
    public var links: SiteLinks
    /// Whether the section is rendered for the object's own page (an entry's page), where
    /// its title is the page's heading (`<h1>`), not a link to the page it is on.
    public var isOwnPage: Bool
    /// The words cells show readers (`words:`).
    public let words: ThemeWords

    /// Creates a context.
    public init(links: SiteLinks, words: ThemeWords = ThemeWords(), isOwnPage: Bool = false) {
        self.links = links
        self.words = words
        self.isOwnPage = isOwnPage
    }

    /// The date-and-sol values every cell can show.
    func timeContext(for object: any FeedObject) -> TemplateContext {
        [
            "sol": object.sol,
            "lmst": object.lmst.hourMinute,
            "solURL": links.sol(object.sol),
            "utc": object.instant.iso8601,
            "earthDate": object.instant.isoDate,
            "earthTime": object.instant.utcTimeOfDay,
            "permalink": links.permalink(for: object),
        ]
    }
}
