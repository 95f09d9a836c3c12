/// One thing a reader can find on the site's search page: a journal entry, a message, a
/// weather report or a page of its own, as the search index lists it.
public struct SearchDocument: Hashable, Sendable {
    /// What sort of thing it is: `journal`, `message`, `weather` or `page` (a page of its own).
    public var kind: String
    /// Where it is, from the host's root (`/journal/dust-storm/`, `/sol/12/#m-…`).
    public var url: String
    /// Its title as pages show it.
    public var title: String
    /// The sol it happened on; nil for a page of its own, which has none.
    public var sol: Int?
    /// When it happened, as an ISO 8601 UTC instant; nil for a page of its own.
    public var date: String?
    /// Who wrote it; empty for a weather report.
    public var author: String
    /// An entry's tags, a message's channel, or a weather report's sky (`dust storm`).
    public var tags: [String]
    /// Its text as a reader reads it, without markup (see ``PlainText``).
    public var text: String

    /// Creates a document.
    public init(kind: String, url: String, title: String, sol: Int?, date: String?, author: String, tags: [String], text: String) {
        self.kind = kind
        self.url = url
        self.title = title
        self.sol = sol
        self.date = date
        self.author = author
        self.tags = tags
        self.text = text
    }
}
