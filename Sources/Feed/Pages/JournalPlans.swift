import Content

/// The journal's pages as a planner planned them, handed to the next planner of the same
/// process (`marsgen watch`, `marsgen serve`) with its ``ReadObjects``.
///
/// A journal page's plan depends only on its entry, the stamps of the entry and its two
/// neighbours, and the base path. An edit that leaves every entry as it was (a
/// message appended, a report edited) leaves all 10,000 plans of a large journal as they
/// were: the next planner takes them instead of making each page's URL, output path and
/// inputs hash again, which was a sixth of such a rebuild.
///
/// A planner fills it once, while planning (on one thread); the next planner reads it only
/// after that build, through the lock of the memory that hands ``ReadObjects`` over.
final class JournalPlans: @unchecked Sendable {
    /// The plans, with what they were made from.
    struct Planned {
        /// The entries, oldest first (their stamps and order are all a plan hashes of them).
        let entries: [JournalEntry]
        let basePath: String
        /// One plan per entry, in the same order.
        let plans: [PagePlan]

        /// The same plans, none with a page: a page planned last time is not planned when
        /// taken (it is unchanged since). Shares the plans when none had one.
        func withoutPages() -> Planned {
            guard plans.contains(where: { $0.page != nil }) else { return self }
            let bare = plans.map { plan in
                var plan = plan
                plan.page = nil
                return plan
            }
            return Planned(entries: entries, basePath: basePath, plans: bare)
        }
    }

    private(set) var planned: Planned?

    init() {}

    /// Keeps the journal's plans: once, by the planner that owns this.
    func keep(_ planned: Planned) {
        self.planned = planned
    }
}
