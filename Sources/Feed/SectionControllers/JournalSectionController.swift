import Content

/// A journal entry: a date cell (`SOL 452 · 14:02 LMST`, linking to the sol) and a text
/// cell (title, author and rendered Markdown, linking to the entry's page; on that page,
/// the title is the page's heading).
public struct JournalSectionController: SectionController {
    public var kind: ObjectKind { .journal }
    public var cellTemplates: [String] { ["cell-journal-date", "cell-journal-text"] }

    /// Creates the controller.
    public init() {}

    public func section(for object: any FeedObject, context: FeedContext) -> FeedSection? {
        guard let entry = object as? JournalEntry else { return nil }
        let time = context.timeContext(for: entry)
        var text = time
        text["title"] = entry.title
        text["hasExplicitTitle"] = entry.explicitTitle != nil
        text["url"] = context.links.journal(slug: entry.slug)
        text["authorName"] = entry.author.name
        text["authorRole"] = entry.author.role
        text["hasAuthorRole"] = !entry.author.role.isEmpty
        text["authorURL"] = context.links.crew(entry.author.id)
        text["tags"] = entry.tags.map { ["name": $0, "url": context.links.tag(Slug.ofTag($0))] }
        text["hasTags"] = !entry.tags.isEmpty
        text["isDraft"] = entry.isDraft
        text["body"] = entry.bodyHTML
        text["isOwnPage"] = context.isOwnPage
        return FeedSection(kind: kind, diffIdentifier: entry.diffIdentifier, contentHash: entry.contentHash,
                           anchor: context.links.anchor(for: entry), layout: .stacked,
                           cells: [RenderRequest(template: "cell-journal-date", context: time),
                                   RenderRequest(template: "cell-journal-text", context: text)])
    }
}
