import Content

/// One object as it appears on a page: a `<section>` holding the object's cells.
///
/// The section carries the object's identifier and content hash, which the page writes as
/// `data-diff-id` and `data-diff-hash` so a browser can diff two versions of a page.
public struct FeedSection {
    /// How a section arranges its cells.
    public enum Layout: Hashable, Sendable {
        /// All cells, one after the other.
        case stacked
        /// The first cell is a summary; the others show when the reader expands it
        /// (`<details>`/`<summary>`, no JavaScript).
        case expandable
    }

    /// The object's kind.
    public var kind: ObjectKind
    /// The object's identifier.
    public var diffIdentifier: String
    /// The object's content hash.
    public var contentHash: ContentHash
    /// The element id, unique within any page (`entry-dust-storm`, `m-3fa4…`).
    public var anchor: String
    /// How the cells are arranged.
    public var layout: Layout
    /// The cells, in order.
    public var cells: [RenderRequest]

    /// Creates a section.
    public init(kind: ObjectKind, diffIdentifier: String, contentHash: ContentHash, anchor: String, layout: Layout,
                cells: [RenderRequest]) {
        self.kind = kind
        self.diffIdentifier = diffIdentifier
        self.contentHash = contentHash
        self.anchor = anchor
        self.layout = layout
        self.cells = cells
    }
}
