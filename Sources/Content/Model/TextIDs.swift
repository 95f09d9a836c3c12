/// What the element ids in a content file's text start with (its footnotes' and headings'),
/// so that the entries and reports one page shows (a sol's, the feed's) keep their ids apart.
///
/// A heading's id is its document's prefix, then GitHub's fragment for its text
/// (`dust-storm:timeline`): neither a slug nor a fragment has a `:`, so the id names its
/// entry and its heading without doubt. Footnotes keep the form they had before headings had
/// ids (`dust-storm-fn-1`), since links to them are out there.
public struct TextIDs: Hashable, Sendable {
    /// Before cmark-gfm's `fn-…` and `fnref-…` anchors (`dust-storm-`).
    public var footnotePrefix: String
    /// Before each heading's fragment (`dust-storm:`); empty gives headings no ids.
    public var headingPrefix: String

    public init(footnotePrefix: String, headingPrefix: String) {
        (self.footnotePrefix, self.headingPrefix) = (footnotePrefix, headingPrefix)
    }

    /// A journal entry's, by its slug: `dust-storm-fn-1`, `dust-storm:timeline`.
    public static func journalEntry(slug: String) -> TextIDs {
        TextIDs(footnotePrefix: slug + "-", headingPrefix: slug + ":")
    }

    /// A weather report's, by its sol (there is one report a sol): `w:452-fn-1`,
    /// `w:452:forecast`. The `:` keeps them apart from an entry's whose slug is `w452`.
    public static func weatherReport(sol: Int) -> TextIDs {
        TextIDs(footnotePrefix: "w:\(sol)-", headingPrefix: "w:\(sol):")
    }

    /// A message log's: no prefix, and no ids for headings, which divide a log into messages.
    public static let messageLog = TextIDs(footnotePrefix: "", headingPrefix: "")

    /// Whose heading an id of this form would be (see ``owner(ofHeadingID:)``).
    public enum Owner: Hashable, Sendable {
        case journalEntry(slug: String)
        case weatherReport(sol: Int)
    }

    /// Whose heading `id` would be, by its form: a journal entry's by its slug
    /// (`dust-storm:timeline`), a weather report's by its sol (`w:452:forecast`); nil for an
    /// id of another form (`entry-dust-storm`, `dust-storm-fn-1`, `top`).
    public static func owner(ofHeadingID id: String) -> Owner? {
        guard let colon = id.firstIndex(of: ":"), colon != id.startIndex else { return nil }
        let (before, after) = (id[..<colon], id[id.index(after: colon)...])
        if before == "w" {
            guard let second = after.firstIndex(of: ":"), let sol = Int(after[..<second]), sol >= 0,
                  after[..<second].allSatisfy(\.isASCII), after.index(after: second) < after.endIndex else { return nil }
            return .weatherReport(sol: sol)
        }
        guard !after.isEmpty, Slug.isValid(String(before)) else { return nil }
        return .journalEntry(slug: String(before))
    }

    /// The heading prefix of `owner`'s text.
    public static func headingPrefix(of owner: Owner) -> String {
        switch owner {
        case .journalEntry(let slug): journalEntry(slug: slug).headingPrefix
        case .weatherReport(let sol): weatherReport(sol: sol).headingPrefix
        }
    }
}
