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
}
