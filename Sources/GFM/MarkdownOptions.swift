/// How Markdown is turned into HTML.
public struct MarkdownOptions: Hashable, Sendable {
    /// Whether raw HTML in Markdown is kept. When `false` (the default) cmark-gfm's safe
    /// mode replaces it with a comment and drops `javascript:` links.
    public var allowsRawHTML: Bool
    /// Prefixes footnote anchors (`fn-1` becomes `<prefix>fn-1`), so that several documents
    /// can share one page without duplicate element ids.
    public var footnotePrefix: String
    /// Gives every heading an id: this prefix, then GitHub's fragment for its text
    /// (`## Timeline` gets `<prefix>timeline`; see ``HeadingIDs``). A link within the
    /// document to a heading's fragment (`#timeline`) is written as its id. Empty gives
    /// headings no ids.
    ///
    /// Meant to end in a character that neither a slug nor a fragment has (`dust-storm:`), so
    /// that an id names its document and its heading without doubt. A document split at its
    /// headings (a message log) is given none: its headings are replaced by their HTML.
    public var headingIDPrefix: String
    /// What a relative URL of a link or an image (`img/dust.jpg`, `journal/dust-storm/`) is
    /// written after: the site's base path, `/` or `/mission/`. Empty leaves URLs as written.
    ///
    /// One document is shown on many pages at different depths (its own, its sol's, the
    /// feed's, its author's) and in the Atom feed, whose `xml:base` is the site's root; a URL
    /// relative to the page would point somewhere else on each. Relative to the site's root,
    /// it points at one place everywhere. URLs with a scheme (`https:`, `mailto:`), from the
    /// host's root (`/…`, `//…`), and within the page (`#…`, `?…`) are left as written.
    public var relativeURLBase: String
    /// Whether each image (`![…](…)`; not raw HTML's `<img>`, whose attributes are the
    /// author's) is written with `loading="lazy"` and `decoding="async"`, and with its
    /// `width` and `height` when the document is given its size (see
    /// ``MarkdownDocument/init(parsing:firstLine:options:imageSize:resolveFileLink:)``): a
    /// page of many entries then fetches only the images a reader scrolls to, and keeps
    /// each one's place before it arrives.
    public var defersImages: Bool

    /// Creates options.
    public init(allowsRawHTML: Bool = false, footnotePrefix: String = "", headingIDPrefix: String = "", relativeURLBase: String = "",
                defersImages: Bool = false) {
        self.allowsRawHTML = allowsRawHTML
        self.footnotePrefix = footnotePrefix
        self.headingIDPrefix = headingIDPrefix
        self.relativeURLBase = relativeURLBase
        self.defersImages = defersImages
    }
}
