import Images
import MarsTime
import SiteConfig

/// A journal entry: one Markdown file under `content/journal/`.
///
/// A class, as every ``FeedObject`` is; every property is a constant, so it is still a value
/// in all but name.
public final class JournalEntry: FeedObject, Hashable {
    public var kind: ObjectKind { .journal }
    /// Made a string when asked for: a rebuild restores tens of thousands and asks a few.
    public var diffIdentifier: String { identifier.text }
    /// The identifier as it is held (see ``StoredText``).
    public let identifier: StoredText
    public let contentHash: ContentHash
    public let stamp: UInt64
    public let sourcePath: String
    /// The title from front matter; `nil` when the entry has none.
    public let explicitTitle: String?
    /// The URL segment: `/journal/<slug>/`.
    public let slug: String
    /// The author.
    public let author: CrewMember
    public let instant: Instant
    public let sol: Int
    public let lmst: MarsClockTime
    /// Tags from front matter, in the order written.
    public let tags: [String]
    /// Whether the entry is a draft (built only with `--drafts`).
    public let isDraft: Bool
    /// The body rendered to HTML.
    public let body: HTMLBody
    /// The body rendered to HTML, as a string.
    public var bodyHTML: String { body.text }
    /// What the entry is about, in plain text: its front matter's `description`, or else the
    /// start of its text (see `MarkdownDocument.summary(limit:)`); empty when it has neither.
    /// Its page's description, for search results and link previews.
    public let description: StoredText
    /// The image a link to its page is previewed with (Open Graph's `og:image`): a path
    /// from the host's root (`/img/landing.jpg`) or an `http(s):` URL, escaped as the page
    /// writes it; empty when the entry has none (see `JournalLoader`).
    public let image: StoredText
    /// The image's alt text, plain; empty when it has none (an image given in front matter).
    public let imageAlt: StoredText
    /// The image's size, when it is a static image of the site whose file gives one (see
    /// `ImageSize`): Open Graph's `og:image:width` and `og:image:height`, with which a link
    /// preview shows the picture at once.
    public let imageSize: ImageSize?
    /// Its front matter's values of your own for templates (`extra:`; see `ExtraValue`).
    public let extra: [String: ExtraValue]
    /// The part of its text before a `<!--more-->` line, as HTML: what pages listing the
    /// entry show (the feed's, a sol's, its author's), with a link to the whole on its page,
    /// where ``continueAnchorHTML`` takes the marker's place. Empty when the text has no
    /// break (see `MarkdownDocument.htmlBreakingAtMore(anchor:)`).
    public let teaser: StoredText
    /// Its headings as nested lists of links, as HTML (see `TableOfContents`), which its
    /// page shows when its front matter says `toc: true`; empty otherwise.
    public let tableOfContents: StoredText
    /// The words of its text (see `ReadingTime.words(inHTML:)`), for its reading time.
    public let wordCount: Int
    /// Whether pages listing the entry show only its ``teaser``.
    public var hasTeaser: Bool { !teaser.isEmpty }
    /// What takes a `<!--more-->` marker's place in the body: where a teaser's link leads
    /// (``continueFragment``), as Zola's `continue-reading`.
    public static let continueAnchorHTML = "<span id=\"\(continueFragment)\"></span>"
    /// The id of ``continueAnchorHTML``.
    public static let continueFragment = "continue-reading"
    /// Its old addresses within the site (`posts/2038/landing/`, `landing.html`; see
    /// ``Alias``), each a page that sends readers on to the entry's.
    public let aliases: [String]

    /// Stored, not computed: the planner asks every object for its authors on every build.
    public let authorIDs: [String]
    /// A hash of what a list of entries shows of this one (title, slug, time, author,
    /// `extra`), not of its text: an edit to the text leaves the journal's list pages as they were.
    public let listingStamp: UInt64
    public var title: String { explicitTitle ?? "Sol \(sol), \(lmst.hourMinute) LMST" }

    /// Creates an entry and computes its identifier and content hash.
    public convenience init(sourcePath: String, explicitTitle: String?, slug: String, author: CrewMember, instant: Instant, sol: Int,
                lmst: MarsClockTime, tags: [String], isDraft: Bool, bodyHTML: String, description: String = "",
                aliases: [String] = [], image: String = "", imageAlt: String = "", imageSize: ImageSize? = nil, teaser: String = "",
                tableOfContents: String = "", wordCount: Int = 0, extra: [String: ExtraValue] = [:]) {
        var hash = ContentHash()
        for field in [explicitTitle ?? "\u{0}", slug, author.id, author.name, author.role, String(sol), lmst.description,
                      isDraft ? "draft" : "", bodyHTML, description] + tags {
            hash.combine(field)
        }
        // After a mark, so that a tag and an alias of the same text differ.
        hash.combine(Int64(aliases.count))
        for alias in aliases { hash.combine(alias) }
        hash.combine(image)
        hash.combine(imageAlt)
        hash.combine(Int64(imageSize?.width ?? -1))
        hash.combine(Int64(imageSize?.height ?? -1))
        hash.combine(teaser)
        hash.combine(tableOfContents)
        hash.combine(Int64(wordCount))
        hash.combine(instant.unixMillis)
        hash.combine(extra: extra)
        self.init(restoring: "journal:\(sourcePath)", contentHash: hash, sourcePath: sourcePath, explicitTitle: explicitTitle,
                  slug: slug, author: author, instant: instant, sol: sol, lmst: lmst, tags: tags, isDraft: isDraft,
                  body: HTMLBody(bodyHTML), description: StoredText(description), aliases: aliases, image: StoredText(image),
                  imageAlt: StoredText(imageAlt), imageSize: imageSize, teaser: StoredText(teaser),
                  tableOfContents: StoredText(tableOfContents), wordCount: wordCount, extra: extra)
    }

    /// Recreates an entry exactly as an earlier build recorded it, identifier and hash
    /// included, without computing them again (the build state holds tens of thousands).
    ///
    /// - Parameter authorIDs: `[author.id]`, when the caller holds it already: entries by one
    ///   author then share one array. Anything else is ignored.
    public convenience init(restoring diffIdentifier: String, contentHash: ContentHash, sourcePath: String, explicitTitle: String?,
                            slug: String, author: CrewMember, instant: Instant, sol: Int, lmst: MarsClockTime, tags: [String],
                            isDraft: Bool, body: HTMLBody, description: StoredText, aliases: [String] = [], image: StoredText = StoredText(""),
                            imageAlt: StoredText = StoredText(""), imageSize: ImageSize? = nil, teaser: StoredText = StoredText(""),
                            tableOfContents: StoredText = StoredText(""), wordCount: Int = 0, extra: [String: ExtraValue] = [:],
                            authorIDs: [String]? = nil) {
        self.init(restoring: StoredText(diffIdentifier), contentHash: contentHash, sourcePath: sourcePath, explicitTitle: explicitTitle,
                  slug: slug, author: author, instant: instant, sol: sol, lmst: lmst, tags: tags, isDraft: isDraft, body: body,
                  description: description, aliases: aliases, image: image, imageAlt: imageAlt, imageSize: imageSize, teaser: teaser,
                  tableOfContents: tableOfContents, wordCount: wordCount, extra: extra, authorIDs: authorIDs)
    }

    /// The entry restored with its identifier as the state holds it, and its stamp when the
    /// state holds that too (else it is computed from the identifier and the hash).
    public init(restoring identifier: StoredText, contentHash: ContentHash, sourcePath: String, explicitTitle: String?,
                slug: String, author: CrewMember, instant: Instant, sol: Int, lmst: MarsClockTime, tags: [String],
                isDraft: Bool, body: HTMLBody, description: StoredText, aliases: [String], image: StoredText, imageAlt: StoredText,
                imageSize: ImageSize?, teaser: StoredText, tableOfContents: StoredText, wordCount: Int, extra: [String: ExtraValue] = [:],
                authorIDs: [String]? = nil, stamp: UInt64? = nil) {
        self.identifier = identifier
        self.contentHash = contentHash
        self.stamp = stamp ?? ObjectFingerprint.stamp(identifier: identifier, contentHash: contentHash)
        self.sourcePath = sourcePath
        self.explicitTitle = explicitTitle
        self.slug = slug
        self.author = author
        self.authorIDs = author.asAuthorIDs(sharing: authorIDs)
        self.instant = instant
        self.sol = sol
        self.lmst = lmst
        self.tags = tags
        self.isDraft = isDraft
        self.body = body
        self.description = description
        self.aliases = aliases
        self.image = image
        self.imageAlt = imageAlt
        self.imageSize = imageSize
        self.teaser = teaser
        self.tableOfContents = tableOfContents
        self.wordCount = wordCount
        self.extra = extra
        var listing = ContentHash()
        listing.combine(explicitTitle ?? "\u{0}")
        listing.combine(slug)
        listing.combine(author.id)
        listing.combine(author.name)
        listing.combine(Int64(sol))
        listing.combine(lmst.description)
        listing.combine(instant.unixMillis)
        listing.combine(extra: extra)
        self.listingStamp = listing.value
    }

    public static func == (lhs: JournalEntry, rhs: JournalEntry) -> Bool {
        if lhs === rhs { return true }
        return lhs.diffIdentifier == rhs.diffIdentifier
            && lhs.contentHash == rhs.contentHash
            && lhs.sourcePath == rhs.sourcePath
            && lhs.explicitTitle == rhs.explicitTitle
            && lhs.slug == rhs.slug
            && lhs.author == rhs.author
            && lhs.instant == rhs.instant
            && lhs.sol == rhs.sol
            && lhs.lmst == rhs.lmst
            && lhs.tags == rhs.tags
            && lhs.isDraft == rhs.isDraft
            && lhs.body == rhs.body
            && lhs.description == rhs.description
            && lhs.aliases == rhs.aliases
            && lhs.image == rhs.image
            && lhs.imageAlt == rhs.imageAlt
            && lhs.imageSize == rhs.imageSize
            && lhs.teaser == rhs.teaser
            && lhs.tableOfContents == rhs.tableOfContents
            && lhs.wordCount == rhs.wordCount
            && lhs.extra == rhs.extra
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(diffIdentifier)
        hasher.combine(contentHash)
    }
}
