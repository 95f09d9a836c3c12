import Diagnostics
import Images
import SiteConfig

/// A page of its own, outside the feed: one Markdown file under `content/pages/` (the
/// mission's "About", the habitat's floor plan, the crew's rules), at `/<path>/`.
///
/// It has no sol and no author: it is not a feed object, is in no list of the feed, and is
/// not diffed; its page is planned from its own values every build.
public struct StandalonePage: Hashable, Sendable {
    /// The site-relative path of its file (`content/pages/about.md`).
    public var sourcePath: String
    /// Its title: the page's heading.
    public var title: String
    /// Where it is, from the site's root, without slashes at either end (`about`,
    /// `mission/habitat`): the page is at `/<path>/`.
    public var path: String
    /// What it is about, in plain text: its front matter's `description`, or else the start of
    /// its text; its page's description, for link previews.
    public var description: String
    /// Its text as HTML.
    public var bodyHTML: String
    /// Its headings as nested lists of links (see `TableOfContents`) when its front matter
    /// says `toc: true`; empty otherwise.
    public var tableOfContents: String
    /// Whether it is a draft (built only with `--drafts`).
    public var isDraft: Bool
    /// Whether the site's navigation links to it (`nav: true`), and with which words.
    public var isInNavigation: Bool
    /// Its link's words in the navigation: `nav_title`, or else its title.
    public var navigationTitle: String
    /// Its place among the navigation's pages: lower first, then by title (`weight`, as Hugo's).
    public var weight: Int
    /// The image a link to its page is previewed with (as a journal entry's), escaped; empty
    /// when it has none.
    public var image: String
    public var imageAlt: String
    public var imageSize: ImageSize?
    /// Its front matter's values of your own for templates (`extra:`).
    public var extra: [String: ExtraValue]
    /// Its old addresses within the site (`aliases:`), as ``Alias/path(_:)`` gives them
    /// (`about-us/`, `about.html`): each has a page sending readers on to this one.
    public var aliases: [String]
    /// The template its page is rendered with (`template:`, `roster` for
    /// `templates/roster.mustache`, one of the site's own) in place of `page-standalone`; nil
    /// for `page-standalone`. Checked against the site's templates when they are read, at
    /// ``templateLocation``.
    public var template: String?
    public var templateLocation: SourceLocation?

    public init(sourcePath: String, title: String, path: String, description: String = "", bodyHTML: String = "",
                tableOfContents: String = "", isDraft: Bool = false, isInNavigation: Bool = false, navigationTitle: String? = nil,
                weight: Int = 0, image: String = "", imageAlt: String = "", imageSize: ImageSize? = nil,
                extra: [String: ExtraValue] = [:], aliases: [String] = [], template: String? = nil, templateLocation: SourceLocation? = nil) {
        (self.sourcePath, self.title, self.path, self.description) = (sourcePath, title, path, description)
        (self.bodyHTML, self.tableOfContents, self.isDraft) = (bodyHTML, tableOfContents, isDraft)
        (self.isInNavigation, self.navigationTitle, self.weight) = (isInNavigation, navigationTitle ?? title, weight)
        (self.image, self.imageAlt, self.imageSize, self.extra, self.aliases) = (image, imageAlt, imageSize, extra, aliases)
        (self.template, self.templateLocation) = (template, templateLocation)
    }

    /// A hash of everything its page shows of it. Not its aliases, which its page does not
    /// show: their pages are planned from them.
    public var contentHash: ContentHash {
        var hash = ContentHash()
        for text in [sourcePath, title, path, description, bodyHTML, tableOfContents, navigationTitle, image, imageAlt, template ?? ""] {
            hash.combine(text)
        }
        hash.combine(Int64(weight))
        hash.combine(Int64((isDraft ? 1 : 0) | (isInNavigation ? 2 : 0)))
        hash.combine(Int64(imageSize?.width ?? -1))
        hash.combine(Int64(imageSize?.height ?? -1))
        hash.combine(extra: extra)
        return hash
    }

    /// The ids in its text (`about:the-crew`, `about-fn-1`), after the last segment of its
    /// path, as a journal entry's after its slug: one page shows one text, so they need no more.
    public static func textIDs(path: String) -> TextIDs {
        .journalEntry(slug: String(path.split(separator: "/").last ?? Substring(path)))
    }
}
