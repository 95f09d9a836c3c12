import Content

/// What a planner worked out from the journal, handed to the next planner of the same
/// process (`marsgen watch`, `marsgen serve`) with its ``ReadObjects``: the next one takes it
/// instead of going over 10,000 entries again when they are the same objects.
///
/// Two of a planner's groups fill it while planning, each its own property once (on the
/// group's thread); the next planner reads it only after that build, through the lock of the
/// memory that hands ``ReadObjects`` over.
final class JournalHandover: @unchecked Sendable {
    /// The journal's pages, as ``PagePlanner/journalPages()`` planned them.
    var plans: JournalPlans?
    /// The journal's tags, as ``PagePlanner/tagPages()`` gathered them.
    var tags: JournalTags?

    init() {}
}

/// The journal's pages as a planner planned them, with what they were made from.
///
/// A journal page's plan depends only on its entry, the stamps of the entry and its two
/// neighbours, the base path and the navigation's pages. An edit that leaves every entry as it was (a
/// message appended, a report edited) leaves all 10,000 plans of a large journal as they
/// were: the next planner takes them instead of making each page's URL, output path and
/// inputs hash again, which was a sixth of such a rebuild.
struct JournalPlans {
    /// The entries, oldest first (their stamps and order are all a plan hashes of them).
    let entries: [JournalEntry]
    let basePath: String
    /// The navigation's pages (see ``PagePlanner/navigationHash``), in every plan's inputs.
    let navigation: UInt64
    /// One plan per entry, in the same order.
    let plans: [PagePlan]

    /// The same plans, none with a page: a page planned last time is not planned when
    /// taken (it is unchanged since). Shares the plans when none had one.
    func withoutPages() -> JournalPlans {
        guard plans.contains(where: { $0.page != nil }) else { return self }
        let bare = plans.map { plan in
            var plan = plan
            plan.page = nil
            return plan
        }
        return JournalPlans(entries: entries, basePath: basePath, navigation: navigation, plans: bare)
    }
}

/// The journal's tags as a planner gathered them from its entries (oldest first): the same
/// entries give the same tags, so a rebuild for a message or a report reads no entry's tags.
struct JournalTags {
    let entries: [JournalEntry]
    let tags: [PagePlanner.Tag]
}
