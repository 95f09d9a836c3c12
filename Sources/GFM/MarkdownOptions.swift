/// How Markdown is turned into HTML.
public struct MarkdownOptions: Hashable, Sendable {
    /// Whether raw HTML in Markdown is kept. When `false` (the default) cmark-gfm's safe
    /// mode replaces it with a comment and drops `javascript:` links.
    public var allowsRawHTML: Bool
    /// Prefixes footnote anchors (`fn-1` becomes `<prefix>fn-1`), so that several documents
    /// can share one page without duplicate element ids.
    public var footnotePrefix: String

    /// Creates options.
    public init(allowsRawHTML: Bool = false, footnotePrefix: String = "") {
        self.allowsRawHTML = allowsRawHTML
        self.footnotePrefix = footnotePrefix
    }
}
