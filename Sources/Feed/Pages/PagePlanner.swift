import Content
import Dispatch
import GFM
import MarsTime
import Search
import SiteConfig

/// Decides every page of the site from the content: the feed, its archive, one page per
/// entry, per sol and per crew member, the indexes, the Atom feed, the sitemap and the 404.
///
/// Each page comes with a hash of its inputs (``PagePlan/inputs``), made from object
/// identities and content hashes and a few numbers, without building the page. A rebuild
/// passes the hashes of the previous build: a page whose inputs hash is unchanged is not
/// planned at all, which is what lets a one-file edit skip the tens of thousands of pages
/// it cannot reach.
public struct PagePlanner {
    let library: ContentLibrary
    let config: SiteConfiguration
    let links: SiteLinks
    /// Every object (its position in ``ContentLibrary/allObjects``), newest first: the feed order.
    let feedOrder: [Int]
    /// The stamp (see ``FeedObject/stamp``) and kind of each object of ``feedOrder``.
    public let feedStamps: [UInt64]
    let feedKinds: [ObjectColumns.Kind]
    /// Every object (its position in ``ContentLibrary/allObjects``) oldest first, ties by
    /// identifier, grouped by sol (ascending), with its stamp and kind.
    let bySol: [Int]
    let stampsBySol: [UInt64]
    let kindsBySol: [ObjectColumns.Kind]
    /// Each sol that has objects, ascending, and where its objects are in ``bySol``.
    let sols: [(sol: Int, range: Range<Int>)]
    /// The journal entries, oldest first, with their stamps.
    let journalInTimeOrder: [JournalEntry]
    let journalStamps: [UInt64]
    /// The journal's pages as the previous planner of this process planned them, if it did.
    let previousJournalPlans: JournalPlans?
    /// The journal's tags as the previous planner of this process gathered them, if it did.
    let previousJournalTags: JournalTags?
    /// The position in ``feed`` of the weather report pinned on the front page.
    let pinnedPosition: Int?
    /// The values every page sees under `site`, made once: they do not depend on the page.
    let siteContext: TemplateContext
    /// The URL of each part of the site marsgen's navigation links to, by its `nav` name, for
    /// `aria-current` (see `context(…)`): made once, not for every page.
    let sectionURLs: [String: String]
    /// The links the navigation has after marsgen's own: the pages of their own that ask for
    /// it (`nav: true`) and the site's links (`nav:` in `marsgen.yml`), in its order: by
    /// `weight`, then title, then pages before links, then path or URL.
    let navigation: [(title: String, url: String)]
    /// A hash of ``navigation``, in every page's inputs (each page's navigation shows them):
    /// a page that joins or leaves it, or is renamed in it, makes every page again.
    let navigationHash: UInt64
    /// The library with what this planner read of its objects, for the next planner to reuse.
    public let readObjects: ReadObjects
    /// Whether the previous build made a page from the same inputs hash (which starts from
    /// the page's output path, see ``PagePlan/inputs``).
    var isUnchanged: (@Sendable (_ inputs: ContentHash) -> Bool)?

    /// How many objects the Atom feed holds.
    public static let atomEntryCount = 50

    /// Creates a planner over a loaded library.
    ///
    /// Every pass here goes over every object of the site, on every rebuild: each works on
    /// plain arrays of keys and stamps rather than on dictionaries or casts of objects.
    ///
    /// - Parameter previous: The previous planner's ``readObjects``, if this process kept
    ///   them: only the objects that are not in both libraries are read again.
    public init(library: ContentLibrary, config: SiteConfiguration, reusing previous: consuming ReadObjects? = nil) {
        self.library = library
        self.config = config
        self.links = SiteLinks(config: config)
        // Objects are named by their position in `allObjects` (never made: holding every
        // object once more would retain and release each one on every build).
        self.previousJournalPlans = previous?.journal.plans
        self.previousJournalTags = previous?.journal.tags
        let columns = if let previous { ObjectColumns(library, reusing: previous) } else { ObjectColumns(library) }
        self.readObjects = ReadObjects(library: library, columns: columns)
        let count = columns.instants.count
        let instants = columns.instants
        let feedOrder = Self.feedOrder(instants: instants, kinds: columns.kinds, library: library)
        self.feedOrder = feedOrder
        self.feedStamps = feedOrder.map { columns.stamps[$0] }
        self.feedKinds = feedOrder.map { columns.kinds[$0] }
        // Time order is the feed order reversed, but for ties, which both orders break by
        // identifier: reversing each run of equal instants back gives it without a second sort.
        var timeOrder = Array(feedOrder.reversed())
        // The instants in that order, read once: the runs are then found in one array.
        let timeInstants = timeOrder.map { instants[$0] }
        var runStart = 0
        for index in timeOrder.indices.dropFirst() where timeInstants[index] != timeInstants[runStart] {
            if index - runStart > 1 { timeOrder[runStart..<index].reverse() }
            runStart = index
        }
        timeOrder[runStart...].reverse()
        // The journal entries come first in `allObjects`, so time order gives theirs too.
        let entries = library.journalEntries
        self.journalInTimeOrder = timeOrder.compactMap { $0 < entries.count ? entries[$0] : nil }
        self.journalStamps = timeOrder.compactMap { $0 < entries.count ? columns.stamps[$0] : nil }
        let solOf = columns.sols
        let stamps = columns.stamps
        let kinds = columns.kinds
        // A sol is a span of time, so in time order the sols already ascend and this sort
        // only confirms it (a linear pass over sorted input); the rank keeps time order within a sol.
        let rank = [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
            for (position, index) in timeOrder.enumerated() { buffer[index] = position }
            initialized = count
        }
        timeOrder.sort { (solOf[$0], rank[$0]) < (solOf[$1], rank[$1]) }
        self.bySol = timeOrder
        self.stampsBySol = timeOrder.map { stamps[$0] }
        self.kindsBySol = timeOrder.map { kinds[$0] }
        var sols: [(sol: Int, range: Range<Int>)] = []
        var solStart = 0
        for position in timeOrder.indices {
            let sol = solOf[timeOrder[position]]
            guard position + 1 == timeOrder.count || solOf[timeOrder[position + 1]] != sol else { continue }
            sols.append((sol, solStart..<(position + 1)))
            solStart = position + 1
        }
        self.sols = sols
        // The feed and the pin use one order, so the pinned report is the feed's first weather.
        self.pinnedPosition = feedKinds.firstIndex(of: .weather)
        self.siteContext = Self.siteContext(config: config, links: links)
        self.sectionURLs = ["feed": links.home, "journal": links.journalIndex, "sols": links.sols, "crew": links.crewIndex, "search": links.search]
        let links = self.links
        let pages = library.standalonePages.filter(\.isInNavigation)
            .map { (weight: $0.weight, title: $0.navigationTitle, order: 0, key: $0.path, url: links.standalonePage($0.path)) }
        let own = config.navigationLinks.map { link in
            (weight: link.weight, title: link.title, order: 1, key: link.url, url: links.navigationLink(link.url))
        }
        self.navigation = (pages + own).sorted { ($0.weight, $0.title, $0.order, $0.key) < ($1.weight, $1.title, $1.order, $1.key) }
            .map { ($0.title, $0.url) }
        var navigationHash = ContentHash()
        for (title, url) in navigation {
            navigationHash.combine(title)
            navigationHash.combine(url)
        }
        self.navigationHash = navigationHash.value
    }

    /// Every object's position in ``ContentLibrary/allObjects``, in feed order (the rule of
    /// `isNewerInFeed(_:than:)`: newest first, ties by identifier), given each object's
    /// instant and kind in ``ContentLibrary/allObjects`` order.
    ///
    /// Each object is sorted as one 128-bit number, its instant (negated, so newest first)
    /// above its kind and its position: comparisons of plain numbers side by side in memory,
    /// where a comparison closure looked up two instants by position (every rebuild sorts
    /// 63,000 objects at 10,000 entries, on one core). An identifier starts with its kind
    /// (`journal:`, `message:`, `weather:`, in the order of ``ObjectColumns/Kind``), so
    /// objects of two kinds at one instant are in identifier order already (a report and
    /// the first message of each sol, at midnight: 3,300 ties at 10,000 entries, whose
    /// identifiers were read from the state's texts to be compared); objects, and their
    /// identifiers, are looked at only for ties of one kind, which the numbers leave in
    /// position order.
    static func feedOrder(instants: [Int64], kinds: [ObjectColumns.Kind], library: ContentLibrary) -> [Int] {
        let count = instants.count
        var keys = [UInt128](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                // Order-preserving as unsigned (the sign bit flipped), then complemented: newest first.
                let newestFirst = ~(UInt64(bitPattern: instants[index]) ^ (1 << 63))
                buffer[index] = UInt128(newestFirst) << 64 | UInt128(kinds[index].rawValue) << 32 | UInt128(index)
            }
            initialized = count
        }
        keys.sort()
        var order = keys.map { Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: $0)) }
        var runStart = 0
        for position in 0...count where position == count || keys[position] >> 32 != keys[runStart] >> 32 {
            if position - runStart > 1 {
                order[runStart..<position].sort { library.object(at: $0).diffIdentifier < library.object(at: $1).diffIdentifier }
            }
            runStart = position
        }
        return order
    }

    /// The object at `index` in ``ContentLibrary/allObjects``.
    func object(_ index: Int) -> any FeedObject {
        library.object(at: index)
    }

    /// The object at `position` in the feed.
    func feedObject(_ position: Int) -> any FeedObject {
        object(feedOrder[position])
    }

    /// The fingerprint of each object in feed order: the object list the next build diffs
    /// against. Each is read from its object when asked for, so a build that looks at a
    /// few of 63,000 reads a few.
    public var feedFingerprints: FeedFingerprints { FeedFingerprints(library: library, order: feedOrder) }

    /// Every page, in a fixed order.
    public func pages() -> [Page] {
        plans().compactMap(\.page)
    }

    /// Every page's plan, in a fixed order.
    ///
    /// The groups do not depend on each other, so they are planned on every core; the
    /// order of the result does not depend on which finishes first.
    ///
    /// - Parameter isUnchanged: Whether the previous build made a page from the same inputs
    ///   hash (one hash says which page: it starts from the output path, see
    ///   ``PagePlan/inputs``). Such a page is not planned: its plan has no ``PagePlan/page``.
    ///   Pass it only when the templates are as they were (they are not in the hash). The
    ///   crew is: each object's hash holds its authors, the crew's pages their members.
    public func plans(skipping isUnchanged: (@Sendable (_ inputs: ContentHash) -> Bool)? = nil) -> [PagePlan] {
        var planner = self
        planner.isUnchanged = isUnchanged
        let groups: [@Sendable (PagePlanner) -> [PagePlan]] = [
            { $0.feedPages() },
            { $0.journalPages() },
            { $0.solPages() },
            { [$0.solIndexPage()] },
            { $0.crewPages() },
            { [$0.crewIndexPage(), $0.notFoundPage(), $0.atomPage()] + $0.searchPages() },
            { $0.journalIndexPages() },
            { $0.tagPages() + $0.aliasPages() + $0.standalonePages() },
        ]
        nonisolated(unsafe) let shared = planner
        // The largest groups first (a page per entry; the crew's pages, after a pass over
        // the whole feed), so that the small ones fill in beside them: in list order, the
        // crew's started last and the other core sat idle at the end.
        let largestFirst = [1, 4, 0, 2, 7, 6, 3, 5]
        var planned = Array(repeating: [PagePlan](), count: groups.count)
        for (turn, group) in concurrentlyMade(groups.count, { groups[largestFirst[$0]](shared) }).enumerated() {
            planned[largestFirst[turn]] = group
        }
        // One array sized once, each group appended whole: `Array(planned.joined())` went
        // element by element through the flattened sequence, twice as slow for 19,500 plans.
        var plans: [PagePlan] = []
        plans.reserveCapacity(planned.reduce(0) { $0 + $1.count } + 1)
        for group in planned { plans.append(contentsOf: group) }
        plans.append(contentsOf: planner.sitemapPages(for: plans))
        let site: TemplateContext = ["site": siteContext]
        // Only the plans with a page are written to (a write checks the array is unshared).
        for index in plans.indices where plans[index].hasPage { plans[index].page?.shared = site }
        return plans
    }

    /// The plan of one page: its inputs hashed (the output path, the kind, then what
    /// `inputs` adds), and the page made by `page` unless the previous build made it from
    /// the same inputs.
    ///
    /// - Parameter place: The hash of `address`'s output path (``PagePlan/place``), when known already.
    func plan(_ kind: Page.Kind, at address: PageAddress, place known: UInt64? = nil, inSitemap: Bool = true,
              inputs: (inout ContentHash) -> Void, page: () -> Page) -> PagePlan {
        // The hash holds nothing but its value: going on from the path's hash is hashing it.
        var hash = ContentHash(value: known ?? address.place)
        let place = hash.value
        hash.combine(kind.rawValue)
        if !navigation.isEmpty, kind.showsNavigation { hash.combine(Int64(bitPattern: navigationHash)) }
        inputs(&hash)
        let unchanged = isUnchanged?(hash) ?? false
        return PagePlan(address: address, isInSitemap: inSitemap, place: place, inputs: hash, page: unchanged ? nil : page())
    }

    // MARK: - Shared values

    /// The words pages show readers (`words:`).
    var words: ThemeWords { config.words }

    static func siteContext(config: SiteConfiguration, links: SiteLinks) -> TemplateContext {
        var context: TemplateContext = [
            "title": config.title,
            "description": config.description,
            "hasDescription": !config.description.isEmpty,
            "language": config.language,
            "isRightToLeft": config.isRightToLeft,
            "missionName": config.mission.name,
            "landing": config.mission.clock.landing.iso8601,
            "landingDate": config.mission.clock.landing.isoDate,
            "home": links.home,
            "journalURL": links.journalIndex,
            "solsURL": links.sols,
            "crewURL": links.crewIndex,
            "tagsURL": links.tagIndex,
            "atomURL": links.atom,
            "atomAbsoluteURL": links.absolute(links.atom),
            "cssURL": links.asset("theme/marsgen.css"),
            "iconURL": links.asset("theme/favicon.svg"),
            "iconAbsoluteURL": links.absolute(links.asset("theme/favicon.svg")),
            "baseURL": config.baseURL,
        ]
        if config.hasSearch { context["searchURL"] = links.search }
        // The picture of pages without their own, for link previews: written and escaped as an
        // entry's is (relative to the site's root, from the host's, or https:), and absolute.
        if !config.image.isEmpty {
            let url = LeadImage.url(written: config.image, basePath: config.basePath)
            context["image"] = links.absolute(fromHostRoot: LinkEscaping.escaped(url))
            if !config.imageAlt.isEmpty { context["imageAlt"] = config.imageAlt }
            if let size = config.imageSize.value { (context["imageWidth"], context["imageHeight"]) = (size.width, size.height) }
        }
        if !config.extra.isEmpty { context["extra"] = ExtraValue.templateValue(of: config.extra) }
        return context
    }

    /// The site's description, or what it is when it has none: its pages' description and
    /// its feed's subtitle.
    var siteDescription: String {
        config.description.isEmpty ? words.phrase(.missionLog, ["mission": config.mission.name]) : config.description
    }

    /// The values every HTML page has.
    ///
    /// - Parameter description: The page's own description (an entry's); the site's when empty.
    func context(title: String, url: String, heading: String, section: String, description: String = "",
                 extra: TemplateContext = [:]) -> TemplateContext {
        var context = extra
        context["pageTitle"] = title == config.title ? title : "\(title) · \(config.title)"
        context["heading"] = heading
        context["url"] = url
        context["canonical"] = links.absolute(url)
        context["description"] = description.isEmpty ? siteDescription : description
        context["nav"] = ["feed": section == "feed", "journal": section == "journal", "sols": section == "sols", "crew": section == "crew",
                          "search": section == "search"]
        // For `aria-current`: "page" on the section's own page, "true" on the pages within it
        // (Journal on an entry's page is where the reader is, not the page they are on).
        context["navCurrent"] = sectionURLs[section].map { [section: $0 == url ? "page" : "true"] } ?? [String: String]()
        if !navigation.isEmpty {
            // A link is current on its page and on the pages below it (`/about/` on
            // `/about/rules/`), as Sols is on a sol's page; not the front page's on every page.
            let home = links.home
            context["navPages"] = navigation.map { page -> TemplateContext in
                let isCurrent = page.url == url || (page.url != home && page.url.hasSuffix("/") && url.hasPrefix(page.url))
                return ["title": page.title, "url": page.url, "isCurrent": isCurrent, "current": page.url == url ? "page" : "true"]
            }
        }
        return context
    }

    func link(_ url: String, _ label: String) -> TemplateContext { ["url": url, "label": label] }

    func solRange(of objects: some Collection<any FeedObject>) -> String {
        let sols = objects.map(\.sol)
        guard let low = sols.min(), let high = sols.max() else { return "" }
        return low == high ? words.phrase(.solTitle, ["sol": String(low)])
            : words.phrase(.solRange, ["first": String(low), "last": String(high)])
    }

    // MARK: - Feed

    func feedPages() -> [PagePlan] {
        let paging = StablePagination(newestFirst: feedOrder, pageSize: config.pageSize)
        let stampPaging = StablePagination(newestFirst: feedStamps, pageSize: config.pageSize)
        // The front page shows the newest objects but the pinned report; the first one it
        // cannot show decides its "Older" link.
        var front: [Int] = []
        var firstHidden: Int?
        for position in feedOrder.indices where position != pinnedPosition {
            guard front.count < config.pageSize else {
                firstHidden = position
                break
            }
            front.append(position)
        }
        let olderPage = firstHidden.flatMap { paging.archivePage(containingNewestFirstPosition: $0) }
        var plans: [PagePlan] = []
        plans.append(plan(.front, at: links.homeAddress) { hash in
            hash.combine(pinnedPosition.map { Int64(bitPattern: feedStamps[$0]) } ?? 0)
            for position in front { hash.combine(Int64(bitPattern: feedStamps[position])) }
            hash.combine(Int64(olderPage ?? -1))
        } page: {
            var frontContext = context(title: config.title, url: links.home, heading: words[.latest], section: "feed",
                                       extra: ["isFront": true, "isEmpty": feedOrder.isEmpty])
            frontContext["latestSol"] = feedOrder.first.map { String(object($0).sol) }
            let older = olderPage.map { link(links.feedPage($0), words[.older]) }
            frontContext["older"] = older
            frontContext["hasPager"] = older != nil
            return Page(kind: .front, url: links.home, outputPath: "index.html", template: "page-feed",
                        slots: ["pinned": pinnedPosition.map { [Page.SlotItem(object: feedObject($0))] } ?? [],
                                "sections": front.map { Page.SlotItem(object: feedObject($0)) }],
                        context: frontContext)
        })

        let count = paging.archivePageCount
        for number in stride(from: 1, through: count, by: 1) {
            let address = links.feedPageAddress(number)
            plans.append(plan(.feedArchive, at: address) { hash in
                // Not the page count itself: a new page must not change every other one.
                hash.combine(Int64(number))
                hash.combine(number < count ? 1 : 0)
                for stamp in stampPaging.archivePage(number) { hash.combine(Int64(bitPattern: stamp)) }
            } page: {
                let items = paging.archivePage(number).map(object)
                let range = solRange(of: items)
                var extra: TemplateContext = ["isFront": false, "pageNumber": number, "solRange": range]
                extra["newer"] = number < count ? link(links.feedPage(number + 1), words[.newer]) : link(links.home, words[.newer])
                if number > 1 { extra["older"] = link(links.feedPage(number - 1), words[.older]) }
                extra["hasPager"] = true
                let url = address.url
                return Page(kind: .feedArchive, url: url, outputPath: address.outputPath, template: "page-feed",
                            slots: ["sections": items.map { Page.SlotItem(object: $0) }],
                            context: context(title: words.phrase(.archiveTitle, ["number": String(number), "range": range]), url: url,
                                             heading: words.phrase(.archiveHeading, ["range": range]), section: "feed", extra: extra))
            })
        }
        return plans
    }

    // MARK: - Journal entries

    func journalPages() -> [PagePlan] {
        let entries = journalInTimeOrder
        let stamps = journalStamps
        let previous = previousJournalPlans.flatMap { $0.basePath == links.basePath && $0.navigation == navigationHash ? $0 : nil }
        let run = previous.map { ChangedRun($0.entries, entries) }
        // An edit elsewhere (a message, a report) leaves every entry (the same objects) as it
        // was, and so every journal page's plan: the previous planner's are taken as they are.
        if let isUnchanged, let previous, run?.isEmpty == true,
           previous.plans.allSatisfy({ isUnchanged($0.inputs) }) {
            let planned = previous.withoutPages()
            readObjects.journal.plans = planned
            return planned.plans
        }
        // An entry edited: the others' URLs and output paths are those of the previous
        // plans (the same entries, around the run that changed), only their inputs hashed.
        let plans = entries.indices.map { index in
            let entry = entries[index]
            let old = run?.oldIndex(of: index).flatMap { previous?.plans[$0] }
            let address = old?.address ?? links.journalAddress(slug: entry.slug)
            return plan(.journal, at: address, place: old?.place) { hash in
                // The neighbours' titles and slugs make the previous/next links.
                hash.combine(Int64(bitPattern: stamps[index]))
                hash.combine(Int64(bitPattern: index > 0 ? stamps[index - 1] : 0))
                hash.combine(Int64(bitPattern: index + 1 < entries.count ? stamps[index + 1] : 0))
            } page: {
                var extra: TemplateContext = ["sol": entry.sol, "solURL": links.sol(entry.sol), "published": entry.instant.iso8601,
                                               "solTitle": words.phrase(.solTitle, ["sol": String(entry.sol)])]
                let (image, alt) = (entry.image.text, entry.imageAlt.text)
                if !image.isEmpty { extra["image"] = links.absolute(fromHostRoot: image) }
                if !alt.isEmpty { extra["imageAlt"] = alt }
                if !entry.extra.isEmpty { extra["extra"] = ExtraValue.templateValue(of: entry.extra) }
                if !image.isEmpty, let size = entry.imageSize {
                    (extra["imageWidth"], extra["imageHeight"]) = (size.width, size.height)
                }
                var neighbours: Set<String> = []
                if index > 0 {
                    let previous = entries[index - 1]
                    extra["previous"] = link(links.journal(slug: previous.slug), words.title(of: previous))
                    neighbours.insert(previous.diffIdentifier)
                }
                if index + 1 < entries.count {
                    let next = entries[index + 1]
                    extra["next"] = link(links.journal(slug: next.slug), words.title(of: next))
                    neighbours.insert(next.diffIdentifier)
                }
                extra["hasPager"] = !neighbours.isEmpty
                let url = address.url
                return Page(kind: .journal, url: url, outputPath: address.outputPath, template: "page-entry",
                            slots: ["sections": [Page.SlotItem(object: entry, isOwnPage: true)]],
                            context: context(title: words.title(of: entry), url: url, heading: words.title(of: entry), section: "journal",
                                             description: entry.description.text, extra: extra),
                            objectIDs: neighbours)
            }
        }
        readObjects.journal.plans = JournalPlans(entries: entries, basePath: links.basePath, navigation: navigationHash, plans: plans)
        return plans
    }

    /// How many entries a page of the journal's list shows: five feed pages' worth (100
    /// with the default `page_size`), since a line is a fraction of a section.
    var journalListPageSize: Int { min(config.pageSize, Int.max / 5) * 5 }

    /// The journal's list of entries, one line each (sol, time, title, author), newest
    /// first: `/journal/` with the newest and the count, and `/journal/page/k/` with the
    /// older ones, paged from the oldest end as the feed is, so that a new entry leaves the
    /// archive pages as they were. An edit to an entry's text leaves them all as they were
    /// (see ``JournalEntry/listingStamp``).
    func journalIndexPages() -> [PagePlan] {
        entryListPages(Array(journalInTimeOrder.reversed()), kind: .journalIndex, template: "page-journal",
                       address: links.journalIndexAddress, archive: links.journalIndexAddress(page:), name: words[.journal])
    }

    /// A list of entries, one line each, newest first, on a front page at `address` and
    /// archive pages numbered from the oldest end at `archive(k)`: the journal's, or a tag's.
    ///
    /// - Parameters:
    ///   - name: The heading (`Journal`, `Tag: eva`); an archive page adds its sols to it.
    ///   - base: Values every page of the list shows (a tag's name), with `hash` adding them
    ///     to each page's inputs.
    func entryListPages(_ newestFirst: [JournalEntry], kind: Page.Kind, template: String, address: PageAddress,
                        archive: (Int) -> PageAddress, name: String, base: TemplateContext = [:],
                        hash hashBase: (inout ContentHash) -> Void = { _ in }) -> [PagePlan] {
        let pageSize = journalListPageSize
        let paging = StablePagination(newestFirst: Array(newestFirst.indices), pageSize: pageSize)
        let count = paging.archivePageCount
        let olderPage = newestFirst.count > pageSize ? paging.archivePage(containingNewestFirstPosition: pageSize) : nil
        let url = address.url
        func rows(_ positions: some Sequence<Int>) -> [TemplateContext] {
            positions.map { position in
                let entry = newestFirst[position]
                var row: TemplateContext = [
                    "title": words.title(of: entry), "url": links.journal(slug: entry.slug), "sol": entry.sol, "solURL": links.sol(entry.sol),
                    "lmst": entry.lmst.hourMinute, "date": entry.instant.isoDate, "author": entry.author.name,
                    "authorURL": links.crew(entry.author.id),
                ]
                // Not its tags: a list of links for each row of every list (at 10,000 entries,
                // 7 MB more at a clean build's peak) that the built-in rows do not show.
                if !entry.extra.isEmpty { row["extra"] = ExtraValue.templateValue(of: entry.extra) }
                return row
            }
        }
        var plans = [plan(kind, at: address) { hash in
            hashBase(&hash)
            hash.combine(Int64(newestFirst.count))
            hash.combine(Int64(olderPage ?? -1))
            for entry in newestFirst.prefix(pageSize) { hash.combine(Int64(bitPattern: entry.listingStamp)) }
        } page: {
            var extra = base
            extra["isFront"] = true
            extra["entryCount"] = newestFirst.count
            extra["entryCountText"] = words.counted(.journalEntries, newestFirst.count)
            extra["isEmpty"] = newestFirst.isEmpty
            extra["entries"] = rows(newestFirst.indices.prefix(pageSize))
            if let olderPage {
                extra["older"] = link(archive(olderPage).url, words[.older])
                extra["hasPager"] = true
            }
            return Page(kind: kind, url: url, outputPath: address.outputPath, template: template,
                        context: context(title: name, url: url, heading: name, section: "journal", extra: extra),
                        objectIDs: Set(newestFirst.prefix(pageSize).map(\.diffIdentifier)))
        }]
        for number in stride(from: 1, through: count, by: 1) where newestFirst.count > pageSize {
            let pageAddress = archive(number)
            plans.append(plan(kind, at: pageAddress) { hash in
                hashBase(&hash)
                // Not the page count itself: a new page must not change every other one.
                hash.combine(Int64(number))
                hash.combine(number < count ? 1 : 0)
                for position in paging.archivePage(number) { hash.combine(Int64(bitPattern: newestFirst[position].listingStamp)) }
            } page: {
                let positions = paging.archivePage(number)
                let range = solRange(of: positions.map { newestFirst[$0] as any FeedObject })
                var extra = base
                extra["isFront"] = false
                extra["hasPager"] = true
                extra["entries"] = rows(positions)
                extra["newer"] = link(number < count ? archive(number + 1).url : url, words[.newer])
                if number > 1 { extra["older"] = link(archive(number - 1).url, words[.older]) }
                let pageURL = pageAddress.url
                return Page(kind: kind, url: pageURL, outputPath: pageAddress.outputPath, template: template,
                            context: context(title: "\(name), \(range)", url: pageURL, heading: "\(name) · \(range)", section: "journal",
                                             extra: extra),
                            objectIDs: Set(positions.map { newestFirst[$0].diffIdentifier }))
            })
        }
        return plans
    }

    // MARK: - Sols

    func solPages() -> [PagePlan] {
        let sols = self.sols
        let clock = config.mission.clock
        return sols.indices.map { index in
            let (sol, range) = sols[index]
            let address = links.solAddress(sol)
            let previous = index > 0 ? sols[index - 1].sol : nil
            let next = index + 1 < sols.count ? sols[index + 1].sol : nil
            return plan(.sol, at: address) { hash in
                hash.combine(Int64(previous ?? -1))
                hash.combine(Int64(next ?? -1))
                for stamp in stampsBySol[range] { hash.combine(Int64(bitPattern: stamp)) }
            } page: {
                let objects = bySol[range].map(object)
                let start = clock.start(ofSol: sol)
                let end = clock.start(ofSol: sol + 1).adding(seconds: -1)
                var extra: TemplateContext = [
                    "sol": sol,
                    "earthStart": start.iso8601, "earthEnd": end.iso8601,
                    "earthRange": start.isoDate == end.isoDate ? start.isoDate : "\(start.isoDate) – \(end.isoDate)",
                ]
                let entryCount = objects.filter { $0.kind == .journal }.count
                let messageCount = objects.filter { $0.kind == .message }.count
                extra["entryCount"] = entryCount
                extra["messageCount"] = messageCount
                extra["entryCountText"] = words.counted(.journalEntries, entryCount)
                extra["messageCountText"] = words.counted(.messages, messageCount)
                if let previous { extra["previous"] = link(links.sol(previous), words.phrase(.solTitle, ["sol": String(previous)])) }
                if let next { extra["next"] = link(links.sol(next), words.phrase(.solTitle, ["sol": String(next)])) }
                extra["hasPager"] = sols.count > 1
                let url = address.url
                return Page(kind: .sol, url: url, outputPath: address.outputPath, template: "page-sol",
                            slots: ["sections": objects.map { Page.SlotItem(object: $0) }],
                            context: context(title: words.phrase(.solTitle, ["sol": String(sol)]), url: url,
                                             heading: words.phrase(.solTitle, ["sol": String(sol)]), section: "sols", extra: extra))
            }
        }
    }

    func solIndexPage() -> PagePlan {
        // One row per sol: its counts and its weather, which only the sol's objects decide.
        struct Row: Sendable {
            var sol: Int
            var entryCount = 0
            var messageCount = 0
            var weather: WeatherReport?
            var weatherStamp: UInt64 = 0
        }
        let rows: [Row] = sols.reversed().map { sol, range in
            var row = Row(sol: sol)
            for position in range {
                let kind = kindsBySol[position]
                if kind == .weather {
                    // A sol has at most one report (the library checks).
                    row.weather = object(bySol[position]) as? WeatherReport
                    row.weatherStamp = stampsBySol[position]
                } else if kind == .journal {
                    row.entryCount += 1
                } else if kind == .message {
                    row.messageCount += 1
                }
            }
            return row
        }
        let address = links.solsAddress
        return plan(.solIndex, at: address) { hash in
            for row in rows {
                hash.combine(Int64(row.sol))
                hash.combine(Int64(row.entryCount))
                hash.combine(Int64(row.messageCount))
                hash.combine(Int64(bitPattern: row.weatherStamp))
            }
        } page: {
            let hashes = rows.map { row in
                var hash = ContentHash()
                hash.combine(Int64(row.sol))
                hash.combine(Int64(row.entryCount))
                hash.combine(Int64(row.messageCount))
                hash.combine(Int64(bitPattern: row.weatherStamp))
                return hash.value
            }
            let links = links
            let clock = config.mission.clock
            let words = words
            let values: @Sendable (Int) -> TemplateContext = { index in
                let row = rows[index]
                var context: TemplateContext = [
                    "sol": row.sol, "url": links.sol(row.sol),
                    "earthDate": clock.start(ofSol: row.sol).isoDate,
                    "entryCount": row.entryCount,
                    "messageCount": row.messageCount,
                    "entryCountText": words.counted(.entries, row.entryCount),
                    "messageCountText": words.counted(.messages, row.messageCount),
                ]
                if let weather = row.weather {
                    context["weather"] = ["temperature": formatCelsius(weather.temperature), "condition": words[weather.condition]]
                }
                return context
            }
            let url = address.url
            return Page(kind: .solIndex, url: url, outputPath: address.outputPath, template: "page-sols",
                        rows: ["sols": Page.Rows(template: "sol-row", hashes: hashes, values: values)],
                        context: context(title: words[.sols], url: url, heading: words[.sols], section: "sols",
                                         extra: ["hasSols": !rows.isEmpty]))
        }
    }

    // MARK: - Crew

    func crewPages() -> [PagePlan] {
        var plans: [PagePlan] = []
        // One pass over the feed: each author's objects, newest first, and their counts.
        struct Authored {
            var positions: [Int] = []
            var entryCount = 0
            var messageCount = 0

            mutating func add(_ position: Int, kind: ObjectColumns.Kind) {
                positions.append(position)
                if kind == .journal {
                    entryCount += 1
                } else if kind == .message {
                    messageCount += 1
                }
            }
        }
        let members = library.crew.members
        var byMember = [Authored](repeating: Authored(), count: members.count)
        let authors = readObjects.columns.authors
        for (position, index) in feedOrder.enumerated() {
            let kind = feedKinds[position]
            authors.forEach(ofObjectAt: index) { byMember[Int($0)].add(position, kind: kind) }
        }
        for member in members {
            // Objects name the first member with an id (see ``Crew/position(ofMemberID:)``).
            let authored = library.crew.position(ofMemberID: member.id).map { byMember[$0] } ?? Authored()
            let positions = authored.positions
            let paging = StablePagination(newestFirst: positions, pageSize: config.pageSize)
            // Archive pages show no totals: a new message would otherwise rewrite every one of them.
            var values: TemplateContext = ["id": member.id, "name": member.name, "role": member.role, "hasRole": !member.role.isEmpty,
                                           "hasFeed": config.hasCrewFeeds]
            if config.hasCrewFeeds { values["feedURL"] = links.crewFeed(member.id) }
            let profile = library.crew.profiles[member.id] ?? CrewProfile()
            let base: TemplateContext = ["member": values]
            let count = paging.archivePageCount
            let (entryCount, messageCount) = (authored.entryCount, authored.messageCount)
            let olderPage = positions.count > config.pageSize
                ? paging.archivePage(containingNewestFirstPosition: config.pageSize) : nil
            let address = links.crewAddress(member.id)
            plans.append(plan(.crew, at: address) { hash in
                hash.combine(member)
                hash.combine(profile)
                hash.combine(Int64(entryCount))
                hash.combine(Int64(messageCount))
                // Not implied by the counts: a kind other than entries and messages may have authors.
                hash.combine(Int64(olderPage ?? -1))
                for position in positions.prefix(config.pageSize) { hash.combine(Int64(bitPattern: feedStamps[position])) }
            } page: {
                var front = base
                // The bio and portrait on the member's first page alone: an edit of either
                // writes that page, not their older pages too.
                front["member"] = values.merging(Self.profileValues(profile)) { _, profile in profile }
                front["isFront"] = true
                front["entryCount"] = entryCount
                front["messageCount"] = messageCount
                front["entryCountText"] = words.counted(.journalEntries, entryCount)
                front["messageCountText"] = words.counted(.messages, messageCount)
                if let olderPage {
                    front["older"] = link(links.crew(member.id, page: olderPage), words[.older])
                    front["hasPager"] = true
                }
                // The portrait previews a link to the page, as an entry's image does.
                if !profile.image.isEmpty {
                    front["image"] = links.absolute(fromHostRoot: profile.image)
                    front["imageAlt"] = profile.imageAlt.isEmpty ? member.name : profile.imageAlt
                    if let size = profile.imageSize { (front["imageWidth"], front["imageHeight"]) = (size.width, size.height) }
                }
                let url = address.url
                return Page(kind: .crew, url: url, outputPath: address.outputPath, template: "page-crew",
                            slots: ["sections": positions.prefix(config.pageSize).map { Page.SlotItem(object: feedObject($0)) }],
                            context: context(title: member.name, url: url, heading: member.name, section: "crew", description: profile.summary,
                                             extra: front))
            })
            for number in stride(from: 1, through: count, by: 1) where positions.count > config.pageSize {
                let pageAddress = links.crewAddress(member.id, page: number)
                plans.append(plan(.crew, at: pageAddress) { hash in
                    hash.combine(member)
                    hash.combine(Int64(number))
                    hash.combine(number < count ? 1 : 0)
                    for position in paging.archivePage(number) { hash.combine(Int64(bitPattern: feedStamps[position])) }
                } page: {
                    let items = paging.archivePage(number).map(feedObject)
                    var extra = base
                    extra["isFront"] = false
                    extra["newer"] = number < count ? link(links.crew(member.id, page: number + 1), words[.newer]) : link(address.url, words[.newer])
                    if number > 1 { extra["older"] = link(links.crew(member.id, page: number - 1), words[.older]) }
                    extra["hasPager"] = true
                    let range = solRange(of: items)
                    let pageURL = pageAddress.url
                    return Page(kind: .crew, url: pageURL, outputPath: pageAddress.outputPath, template: "page-crew",
                                slots: ["sections": items.map { Page.SlotItem(object: $0) }],
                                context: context(title: "\(member.name), \(range)", url: pageURL,
                                                 heading: "\(member.name) · \(range)", section: "crew", extra: extra))
                })
            }
            if config.hasCrewFeeds { plans.append(crewFeedPage(member, newestFirst: positions, base: base)) }
        }
        return plans
    }

    /// A crew member's Atom feed (`crew_feeds: true`): their newest objects, at
    /// `newestFirst`'s positions in the feed.
    func crewFeedPage(_ member: CrewMember, newestFirst positions: [Int], base: TemplateContext) -> PagePlan {
        let newest = positions.prefix(Self.atomEntryCount)
        return listFeed(at: links.crewFeedAddress(member.id), of: links.crew(member.id), name: member.name,
                        subtitle: words.phrase(.crewFeedSubtitle, ["name": member.name]), base: base,
                        newest: newest.map(feedObject), stamps: newest.map { feedStamps[$0] }) { hash in
            hash.combine(member)
        }
    }

    // MARK: - Tags

    /// Each tag's list of entries (`/tags/<slug>/`, paginated as the journal's list is),
    /// and the index of tags (`/tags/`), which the site always has, as it has a crew index.
    ///
    /// Tags that give one slug are one tag (`EVA` and `eva`, `dust storm` and `dust-storm`),
    /// shown as the spelling most entries use (the first in code point order between equals):
    /// an entry's own tags keep their spelling, and all lead to the one page.
    func tagPages() -> [PagePlan] {
        let tags: [Tag]
        if let previous = previousJournalTags, ChangedRun(previous.entries, journalInTimeOrder).isEmpty {
            tags = previous.tags
        } else {
            tags = Self.tags(ofNewestFirst: journalInTimeOrder.reversed())
        }
        readObjects.journal.tags = JournalTags(entries: journalInTimeOrder, tags: tags)
        var plans: [PagePlan] = [tagIndexPage(tags)]
        for tag in tags {
            var values: TemplateContext = ["name": tag.name, "slug": tag.slug, "url": links.tag(tag.slug), "hasFeed": config.hasTagFeeds]
            if config.hasTagFeeds { values["feedURL"] = links.tagFeed(tag.slug) }
            let base: TemplateContext = ["tag": values]
            plans += entryListPages(tag.entries, kind: .tag, template: "page-tag", address: links.tagAddress(tag.slug),
                                    archive: { links.tagAddress(tag.slug, page: $0) }, name: words.phrase(.tagTitle, ["tag": tag.name]), base: base) { hash in
                hash.combine(tag.name)
            }
            if config.hasTagFeeds { plans.append(tagFeedPage(tag, base: base)) }
        }
        return plans
    }

    /// One tag of the site: its slug, the name it is shown as, and its entries, newest first.
    struct Tag {
        let slug: String
        let name: String
        let entries: [JournalEntry]
    }

    /// The tags of `entries` (newest first), by slug.
    ///
    /// Every build goes over the whole journal here (10,000 entries in the bench site), so
    /// each tag an entry has costs one lookup of its spelling; a spelling's slug is made the
    /// first time it is met.
    static func tags(ofNewestFirst entries: ReversedCollection<[JournalEntry]>) -> [Tag] {
        var places: [String: (tag: Int, spelling: Int)] = [:]
        var tagOfSlug: [String: Int] = [:]
        var slugs: [String] = []
        var tagged: [[JournalEntry]] = []
        var spellings: [[(text: String, count: Int)]] = []
        for entry in entries {
            for text in entry.tags {
                let place: (tag: Int, spelling: Int)
                if let known = places[text] {
                    place = known
                } else {
                    let slug = Slug.ofTag(text)
                    let tag = tagOfSlug[slug] ?? slugs.count
                    if tag == slugs.count {
                        tagOfSlug[slug] = tag
                        slugs.append(slug)
                        tagged.append([])
                        spellings.append([])
                    }
                    place = (tag, spellings[tag].count)
                    spellings[tag].append((text, 0))
                    places[text] = place
                }
                spellings[place.tag][place.spelling].count += 1
                // An entry tagged `EVA` and `eva` is listed once: it is the last listed already.
                if tagged[place.tag].last !== entry { tagged[place.tag].append(entry) }
            }
        }
        return slugs.indices.sorted { slugs[$0] < slugs[$1] }.map { tag in
            let name = spellings[tag].min { ($1.count, $0.text) < ($0.count, $1.text) }?.text ?? slugs[tag]
            return Tag(slug: slugs[tag], name: name, entries: tagged[tag])
        }
    }

    /// The index of tags: each with its name, link and how many entries have it, by slug.
    func tagIndexPage(_ tags: [Tag]) -> PagePlan {
        let address = links.tagIndexAddress
        return plan(.tagIndex, at: address) { hash in
            for tag in tags {
                hash.combine(tag.slug)
                hash.combine(tag.name)
                hash.combine(Int64(tag.entries.count))
            }
        } page: {
            let url = address.url
            let rows: [TemplateContext] = tags.map { ["name": $0.name, "slug": $0.slug, "url": links.tag($0.slug), "entryCount": $0.entries.count] }
            return Page(kind: .tagIndex, url: url, outputPath: address.outputPath, template: "page-tags",
                        context: context(title: words[.tags], url: url, heading: words[.tags], section: "journal",
                                         extra: ["tags": rows, "hasTags": !rows.isEmpty]))
        }
    }

    /// A member's bio and portrait as templates get them: `bio` (HTML) and `hasBio`,
    /// `portrait`, `portraitAlt` and `hasPortrait`, with `portraitWidth` and `portraitHeight`
    /// when its file gives a size. Each is there, empty or false, without: a missing one would
    /// be looked up in the page's own values.
    static func profileValues(_ profile: CrewProfile) -> TemplateContext {
        var values: TemplateContext = ["bio": profile.bioHTML, "hasBio": !profile.bioHTML.isEmpty, "portrait": profile.image,
                                       "portraitAlt": profile.imageAlt, "hasPortrait": !profile.image.isEmpty]
        if let size = profile.imageSize { (values["portraitWidth"], values["portraitHeight"]) = (size.width, size.height) }
        return values
    }

    func crewIndexPage() -> PagePlan {
        // No per-member totals here: they would change with every message; each member's page has them.
        let address = links.crewIndexAddress
        let profiles = library.crew.profiles
        return plan(.crewIndex, at: address) { [members = library.crew.members] hash in
            // The members, in the crew file's order, and their portraits: all the page shows.
            for member in members {
                hash.combine(member)
                hash.combine((profiles[member.id] ?? CrewProfile()).portrait)
            }
        } page: {
            let rows: [TemplateContext] = library.crew.members.map { member in
                var row: TemplateContext = ["id": member.id, "name": member.name, "role": member.role, "url": links.crew(member.id)]
                // The portrait alone: a bio is the member's own page's.
                row.merge(Self.profileValues((profiles[member.id] ?? CrewProfile()).portrait)) { _, new in new }
                return row
            }
            let url = address.url
            return Page(kind: .crewIndex, url: url, outputPath: address.outputPath, template: "page-crew-index",
                        context: context(title: words[.crew], url: url, heading: words[.crew], section: "crew",
                                         extra: ["members": rows, "hasMembers": !rows.isEmpty]))
        }
    }

    /// A page for each page of its own (`content/pages/`), made from its values and those of
    /// the pages above and below it, and one at each of its old addresses (`aliases:`) sending
    /// readers on to it.
    ///
    /// A page's parent is the nearest page above its path (`station` for `station/habitat`,
    /// and for `station/habitat/air` when there is no `station/habitat`); its subpages, those
    /// whose parent it is, by `weight`, then title, then path.
    func standalonePages() -> [PagePlan] {
        let pages = library.standalonePages
        var byPath: [String: StandalonePage] = [:]
        for page in pages { byPath[page.path] = page }
        var parents: [String: StandalonePage] = [:]
        var subpages: [String: [StandalonePage]] = [:]
        for page in pages {
            var path = Substring(page.path)
            while let slash = path.lastIndex(of: "/") {
                path = path[..<slash]
                guard let parent = byPath[String(path)] else { continue }
                parents[page.path] = parent
                subpages[parent.path, default: []].append(page)
                break
            }
        }
        return pages.flatMap { page in
            let target = links.standalonePage(page.path)
            let below = (subpages[page.path] ?? []).sorted { ($0.weight, $0.title, $0.path) < ($1.weight, $1.title, $1.path) }
            return [standalonePage(page, parent: parents[page.path], subpages: below)]
                + page.aliases.map { aliasPage(at: $0, to: target, title: page.title, objectIDs: []) }
        }
    }

    /// The page of `page`, a page of its own, under `parent` and over `subpages`.
    private func standalonePage(_ page: StandalonePage, parent: StandalonePage?, subpages: [StandalonePage]) -> PagePlan {
        let address = links.standalonePageAddress(page.path)
        return plan(.standalone, at: address) { hash in
            hash.combine(Int64(bitPattern: page.contentHash.value))
            // What it shows of the pages above and below it: their titles and places, and the
            // subpages' descriptions.
            hash.combine(parent.map { $0.title + "\u{0}" + $0.path } ?? "")
            hash.combine(Int64(subpages.count))
            for subpage in subpages {
                hash.combine(subpage.title)
                hash.combine(subpage.path)
                hash.combine(subpage.description)
            }
        } page: {
            var extra: TemplateContext = ["body": page.bodyHTML, "isDraft": page.isDraft]
            if !page.tableOfContents.isEmpty { (extra["tableOfContents"], extra["hasTableOfContents"]) = (page.tableOfContents, true) }
            if !page.image.isEmpty {
                extra["image"] = links.absolute(fromHostRoot: page.image)
                if !page.imageAlt.isEmpty { extra["imageAlt"] = page.imageAlt }
                if let size = page.imageSize { (extra["imageWidth"], extra["imageHeight"]) = (size.width, size.height) }
            }
            if !page.extra.isEmpty { extra["extra"] = ExtraValue.templateValue(of: page.extra) }
            if let parent { extra["parent"] = ["title": parent.title, "url": links.standalonePage(parent.path)] as TemplateContext }
            if !subpages.isEmpty {
                // Each with its description, empty or not: a missing one would be looked up
                // in the page's own values.
                extra["subpages"] = subpages.map { subpage -> TemplateContext in
                    ["title": subpage.title, "url": links.standalonePage(subpage.path), "description": subpage.description]
                }
                extra["hasSubpages"] = true
            }
            let url = address.url
            return Page(kind: .standalone, url: url, outputPath: address.outputPath, template: page.template ?? "page-standalone",
                        context: context(title: page.title, url: url, heading: page.title, section: "", description: page.description,
                                         extra: extra))
        }
    }

    // MARK: - Other files

    func notFoundPage() -> PagePlan {
        let address = links.assetAddress("404.html")
        let url = address.url
        return plan(.notFound, at: address, inSitemap: false) { _ in
        } page: {
            Page(kind: .notFound, url: url, outputPath: "404.html", template: "page-404",
                 context: context(title: words[.notFound], url: url, heading: words[.notFound], section: ""))
        }
    }

    /// How many documents a part of the search index holds (see ``searchPages()``).
    public static let searchPartSize = 1000

    /// The search page and the index it reads (`search: true`), or none.
    ///
    /// The page is the same for every build of one configuration. The index lists every
    /// page of its own (in a part of their own, first), then every
    /// journal entry, message and weather report, newest first, in parts numbered from the oldest, each of
    /// ``searchPartSize`` documents but the newest, as the feed's archive pages are: an edit
    /// makes again the part that holds its text, and a new text the newest part (and the
    /// index, when it starts a part), not the whole index of a large site. A part's inputs
    /// are its objects' stamps (identity, text, title, tags, sol, author).
    func searchPages() -> [PagePlan] {
        guard config.hasSearch else { return [] }
        let pageAddress = links.searchAddress
        let indexAddress = links.searchIndexAddress
        var plans = [plan(.search, at: pageAddress, inSitemap: false) { _ in
        } page: {
            Page(kind: .search, url: pageAddress.url, outputPath: pageAddress.outputPath, template: "page-search",
                 context: context(title: words[.search], url: pageAddress.url, heading: words[.search], section: "search",
                                  extra: ["indexURL": indexAddress.url, "scriptURL": links.asset("theme/search.js"), "resultForms": searchResultForms(),
                                          "noindex": true]))
        }]
        // Newest first, as the feed; part `number` holds positions `(number − 1) · size ..< number · size` from the oldest end.
        let count = feedOrder.count
        let size = Self.searchPartSize
        let partCount = max(1, (count + size - 1) / size)
        // The pages of their own in a part of their own, first: a handful of texts, which no
        // edit of the feed's changes, nor theirs the feed's parts.
        let pages = library.standalonePages
        let pagesAddress = links.searchPagesAddress
        let partURLs = (pages.isEmpty ? [] : [pagesAddress.url]) + (1...partCount).reversed().map { links.searchPartAddress($0).url }
        plans.append(plan(.searchIndex, at: indexAddress, inSitemap: false) { hash in
            hash.combine(Int64(partCount))
            hash.combine(Int64(pages.isEmpty ? 0 : 1))
        } page: {
            var page = Page(kind: .searchIndex, url: indexAddress.url, outputPath: indexAddress.outputPath, template: "search-index", layout: nil)
            page.searchFile = .parts(partURLs)
            var shown = ContentHash()
            for url in partURLs { shown.combine(url) }
            page.contextHash = shown
            return page
        })
        if !pages.isEmpty {
            var stamps = ContentHash()
            for page in pages { stamps.combine(Int64(bitPattern: page.contentHash.value)) }
            plans.append(plan(.searchIndex, at: pagesAddress, inSitemap: false) { hash in
                hash.combine(Int64(bitPattern: stamps.value))
            } page: {
                var page = Page(kind: .searchIndex, url: pagesAddress.url, outputPath: pagesAddress.outputPath, template: "search-index", layout: nil)
                page.searchFile = .documents(pages.map(searchDocument))
                page.contextHash = stamps
                return page
            })
        }
        for number in 1...partCount {
            let fromOldest = ((number - 1) * size)..<min(number * size, count)
            let members = fromOldest.reversed().map { count - 1 - $0 }
            var stamps = ContentHash()
            for position in members { stamps.combine(Int64(bitPattern: feedStamps[position])) }
            let address = links.searchPartAddress(number)
            plans.append(plan(.searchIndex, at: address, inSitemap: false) { hash in
                hash.combine(Int64(bitPattern: stamps.value))
            } page: {
                let objects = members.map(feedObject)
                var page = Page(kind: .searchIndex, url: address.url, outputPath: address.outputPath, template: "search-index",
                                layout: nil, objectIDs: Set(objects.map(\.diffIdentifier)))
                page.searchFile = .documents(parallelSearchDocuments(objects))
                page.contextHash = stamps
                return page
            })
        }
        return plans
    }

    /// The search index's documents of `objects`, in their order: the text of each is taken
    /// from its HTML, on every core.
    func parallelSearchDocuments(_ objects: [any FeedObject]) -> [SearchDocument] {
        let chunk = 256
        nonisolated(unsafe) let planner = self
        return Array(concurrentlyMade((objects.count + chunk - 1) / chunk) { turn in
            objects[(turn * chunk)..<min(turn * chunk + chunk, objects.count)].compactMap(planner.searchDocument)
        }.joined())
    }

    /// How the search index lists `object`: a journal entry, a message or a weather report
    /// (its readings as the feed says them, then its notes, its sky its tag: `dust storm` and
    /// `frost` find it); nil for another kind.
    func searchDocument(_ object: any FeedObject) -> SearchDocument? {
        let text: String, author: String, tags: [String]
        switch object {
        case let entry as JournalEntry:
            (text, author, tags) = (PlainText.of(html: entry.bodyHTML), entry.author.name, entry.tags)
        case let message as Message:
            (text, author, tags) = (PlainText.of(html: message.bodyHTML), message.author.name, [message.channel])
        case let report as WeatherReport:
            let notes = PlainText.of(html: report.notesHTML)
            (text, author, tags) = (words.sentence(for: report) + (notes.isEmpty ? "" : " " + notes), "", [words[report.condition]])
        default:
            return nil
        }
        return SearchDocument(kind: object.kind.rawValue, url: links.permalink(for: object), title: words.title(of: object),
                              sol: object.sol, date: object.instant.iso8601, author: author, tags: tags, text: text)
    }

    /// How the search index lists a page of its own: its title and text, without a sol.
    func searchDocument(_ page: StandalonePage) -> SearchDocument {
        SearchDocument(kind: "page", url: links.standalonePage(page.path), title: page.title, sol: nil, date: nil, author: "", tags: [],
                       text: PlainText.of(html: page.bodyHTML))
    }

    /// The forms of the counted word `search_results` for each plural category, for the
    /// search page's script to pick from as the reader's browser counts (`Intl.PluralRules`).
    func searchResultForms() -> [TemplateContext] {
        PluralCategory.allCases.map { category in
            ["category": category.rawValue, "text": words.form(.searchResults, category)]
        }
    }

    /// A page at each entry's old addresses (`aliases:`), sending readers on to the entry's
    /// page: at once, with a link for those whose browser does not follow, and naming the
    /// entry's page as the canonical one for search engines.
    func aliasPages() -> [PagePlan] {
        var plans: [PagePlan] = []
        for entry in journalInTimeOrder where !entry.aliases.isEmpty {
            let target = links.journal(slug: entry.slug)
            for alias in entry.aliases {
                plans.append(aliasPage(at: alias, to: target, title: words.title(of: entry), objectIDs: [entry.diffIdentifier]))
            }
        }
        return plans
    }

    /// The page at `alias` (as ``Alias/path(_:)`` gives it) sending readers on to `target`,
    /// the page of `title` (showing the objects `objectIDs`).
    private func aliasPage(at alias: String, to target: String, title: String, objectIDs: Set<String>) -> PagePlan {
        let address = links.aliasAddress(alias)
        return plan(.alias, at: address, inSitemap: false) { hash in
            hash.combine(target)
            hash.combine(title)
        } page: {
            Page(kind: .alias, url: address.url, outputPath: address.outputPath, template: "alias", layout: nil,
                 context: ["url": target, "canonical": links.absolute(target), "title": title], objectIDs: objectIDs)
        }
    }

    /// The site's Atom feed: its newest objects, of every kind.
    func atomPage() -> PagePlan {
        let count = Self.atomEntryCount
        return atomFeed(at: links.atomAddress, newest: feedOrder.prefix(count).map(object),
                        stamps: Array(feedStamps.prefix(count)),
                        values: ["feedTitle": config.title, "feedID": config.baseURL, "alternateURL": config.baseURL,
                                 "subtitle": siteDescription])
    }

    /// A tag's Atom feed (`tag_feeds: true`): the newest entries with the tag.
    func tagFeedPage(_ tag: Tag, base: TemplateContext) -> PagePlan {
        let newest = Array(tag.entries.prefix(Self.atomEntryCount))
        return listFeed(at: links.tagFeedAddress(tag.slug), of: links.tag(tag.slug), name: tag.name,
                        subtitle: words.phrase(.tagFeedSubtitle, ["tag": tag.name]), base: base,
                        newest: newest, stamps: newest.map(\.stamp)) { hash in
            hash.combine(tag.name)
        }
    }

    /// The Atom feed of one of the site's lists named `name` (a tag's, a crew member's),
    /// whose page is at `pageURL`: titled with the site's title and the name, the page its
    /// id and its alternate link. `base` holds the page's own values (`tag`, `member`).
    func listFeed(at address: PageAddress, of pageURL: String, name: String, subtitle: String, base: TemplateContext,
                  newest: [any FeedObject], stamps: [UInt64], hash hashValues: (inout ContentHash) -> Void) -> PagePlan {
        let page = links.absolute(pageURL)
        var values = base
        values["feedTitle"] = "\(config.title): \(name)"
        values["feedID"] = page
        values["alternateURL"] = page
        values["subtitle"] = subtitle
        return atomFeed(at: address, newest: newest, stamps: stamps, values: values, hash: hashValues)
    }

    /// An Atom feed at `address` of `newest` (newest first), whose stamps are `stamps`.
    ///
    /// - Parameters:
    ///   - values: The feed's own values: `feedTitle`, `feedID`, `alternateURL` (the page
    ///     the feed is the feed of), `subtitle`, and any other the template may show.
    ///   - hashValues: Adds to the feed's inputs what `values` hold beyond the configuration.
    func atomFeed(at address: PageAddress, newest: [any FeedObject], stamps: [UInt64], values: TemplateContext,
                  hash hashValues: (inout ContentHash) -> Void = { _ in }) -> PagePlan {
        plan(.atom, at: address, inSitemap: false) { hash in
            // Author names are the crew's, which are the objects' own: each stamp holds them.
            for stamp in stamps { hash.combine(Int64(bitPattern: stamp)) }
            hashValues(&hash)
        } page: {
            let entries = newest.map { object -> Page.SlotItem in
                let member = library.crew.member(id: object.authorIDs.first ?? "")
                var extra: TemplateContext = [
                    "title": words.title(of: object),
                    "link": links.absolute(links.permalink(for: object)),
                    "id": links.absolute(links.permalink(for: object)),
                    "updated": object.instant.iso8601,
                    "author": member?.name ?? config.mission.name,
                    "hasAuthorURI": member != nil,
                    "authorURI": member.map { links.absolute(links.crew($0.id)) } ?? "",
                    "sol": object.sol,
                ]
                // What a feed reader shows under the entry's own title and author: the text,
                // not the page's section around it (title, byline, date cell).
                let permalink = links.permalink(for: object)
                extra.merge(Self.atomContent(of: object, page: String(permalink.prefix { $0 != "#" }), words: words)) { _, new in new }
                return Page.SlotItem(object: object, extra: extra)
            }
            let updated = newest.first?.instant ?? config.mission.clock.landing
            let url = address.url
            var context = values
            context["updated"] = updated.iso8601
            context["selfURL"] = links.absolute(url)
            return Page(kind: .atom, url: url, outputPath: address.outputPath, template: "atom", layout: nil,
                        slots: ["entries": entries], context: context)
        }
    }

    /// An Atom entry's `content` (HTML, the template escapes it), `summary` (an entry's text
    /// before its `<!--more-->`, when it has one) and `categories` (each a `term`) for
    /// `object`: an entry's text and tags, a message's text and channel, a weather report's
    /// readings and notes. Everything here is in the object's content hash, which
    /// the feed's inputs include.
    ///
    /// A link within the text (`#dust-storm:timeline`, a footnote's) is written after `page`,
    /// the page the object is shown on (its slug and sol are in its hash too): a feed reader
    /// reads it against the feed's `xml:base`, the site's root, where that anchor is not.
    static func atomContent(of object: any FeedObject, page: String, words: ThemeWords) -> TemplateContext {
        let content: String
        var terms: [String] = []
        var summary = ""
        switch object {
        case let entry as JournalEntry:
            content = entry.bodyHTML
            terms = entry.tags
            // The part before its <!--more-->, which a reader listing the feed may show.
            if entry.hasTeaser { summary = entry.teaser.text }
        case let message as Message:
            content = message.bodyHTML
            terms = [message.channel]
        case let report as WeatherReport:
            // Numbers and the condition's fixed names: nothing here needs escaping.
            content = "<p>" + TextEscaping.escaped(words.sentence(for: report)) + "</p>\n" + report.notesHTML
            terms = ["weather"]
        default:
            content = ""
        }
        func linked(_ html: String) -> String {
            html.contains("href=\"#") ? html.replacingOccurrences(of: "href=\"#", with: "href=\"\(page)#") : html
        }
        var context: TemplateContext = ["content": linked(content), "categories": terms.map { ["term": $0] }]
        if !summary.isEmpty { context["summary"] = linked(summary) }
        return context
    }

    /// The sitemap: `sitemap.xml` listing every page in the sitemap, or, when they are more
    /// than `sitemap_max_urls` (the protocol allows 50,000 in a file), a sitemap index there
    /// naming `sitemap-1.xml`, `sitemap-2.xml`, …, which list the URLs in order, each at most
    /// that many.
    func sitemapPages(for plans: [PagePlan]) -> [PagePlan] {
        // The set of URLs, whatever order the groups produced them in. A page's place
        // stands for its URL: with the configuration fixed (its change plans every page),
        // a URL decides the output path and two pages never share one.
        var count = 0
        var sum: UInt64 = 0
        // By index: a loop over the plans copied each one (a retain and a release of each
        // of its strings and its page) to read two numbers.
        for index in plans.indices where plans[index].isInSitemap {
            count += 1
            sum &+= plans[index].place
        }
        // The URLs in order, made once for all the files that need them: every file's
        // inputs are the whole set, since one URL added early shifts every later file's part.
        var sorted: [String]?
        func locations() -> [String] {
            if let sorted { return sorted }
            // By index: copying each plan (strings, page) to filter them cost more than the rest.
            var unsorted: [String] = []
            unsorted.reserveCapacity(count)
            for index in plans.indices where plans[index].isInSitemap { unsorted.append(links.absolute(plans[index].url)) }
            let made = unsorted.sorted()
            sorted = made
            return made
        }
        func urlSet(_ name: String, part: Range<Int>?) -> PagePlan {
            let address = links.assetAddress(name)
            return plan(.sitemap, at: address, inSitemap: false) { hash in
                hash.combine(Int64(count))
                hash.combine(Int64(bitPattern: sum))
            } page: {
                let all = locations()
                let listed = part.map { Array(all[$0]) } ?? all
                // The URLs in order are all the page shows: hashing them is far cheaper than
                // fingerprinting 19,500 one-entry dictionaries.
                var contextHash = ContentHash()
                for location in listed { contextHash.combine(location) }
                var page = Page(kind: .sitemap, url: address.url, outputPath: name, template: "sitemap", layout: nil, context: [:])
                page.sitemapLocations = listed
                page.contextHash = contextHash
                return page
            }
        }
        let limit = config.sitemapMaxURLs
        guard count > limit else { return [urlSet("sitemap.xml", part: nil)] }
        let parts = stride(from: 0, to: count, by: limit).map { $0..<min($0 + limit, count) }
        let names = parts.indices.map { "sitemap-\($0 + 1).xml" }
        let address = links.assetAddress("sitemap.xml")
        // The index names the files, which their number alone decides.
        let index = plan(.sitemapIndex, at: address, inSitemap: false) { hash in
            hash.combine(Int64(parts.count))
        } page: {
            let files: [TemplateContext] = names.map { ["loc": links.absolute(links.assetAddress($0).url)] }
            return Page(kind: .sitemapIndex, url: address.url, outputPath: "sitemap.xml", template: "sitemap-index", layout: nil,
                        context: ["sitemaps": files])
        }
        return [index] + zip(names, parts).map { urlSet($0, part: $1) }
    }
}

/// The fingerprints of a library's objects in feed order (see ``PagePlanner/feedFingerprints``),
/// each read from its object when asked for.
public struct FeedFingerprints: RandomAccessCollection, Sendable {
    let library: ContentLibrary
    /// Each object's position in ``ContentLibrary/allObjects``, in feed order.
    let order: [Int]

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }

    public subscript(position: Int) -> ObjectFingerprint {
        library.object(at: order[position]).fingerprint
    }
}

/// A page of the site as the planner decided it: where it goes, a hash of its inputs, and,
/// unless the previous build made it from the same inputs, the page itself.
public struct PagePlan {
    /// Where the page is (see ``PageAddress``): its URL and output path are made when asked for.
    public var address: PageAddress
    /// Where the page is written, relative to the output directory.
    public var outputPath: String { address.outputPath }
    /// The page's URL path.
    public var url: String { address.url }
    /// Whether the sitemap lists it.
    public var isInSitemap: Bool
    /// A hash of the page's output path: the sitemap's inputs sum them, and a build finds
    /// two pages with one output path by them.
    public var place: UInt64
    /// A hash of everything the page is made from, but the templates and the configuration:
    /// equal hashes (with those two unchanged) mean equal pages. It starts
    /// from the output path, so an equal hash is, but for a 64-bit collision, this very page's.
    public var inputs: ContentHash
    /// The page, or `nil` when the planner was told the previous build made it from the same inputs.
    public var page: Page? {
        get { planned?.page }
        set { planned = newValue.map(PlannedPage.init) }
    }
    /// Whether the plan has its page (see ``page``), read without copying the page.
    var hasPage: Bool { planned != nil }
    /// The page, boxed: a plan is then a fifth of the size, and a site has tens of thousands
    /// of plans, copied from each group into one list, of which a rebuild makes a few pages.
    private var planned: PlannedPage?

    /// Creates a plan.
    init(address: PageAddress, isInSitemap: Bool, place: UInt64, inputs: ContentHash, page: Page?) {
        self.address = address
        self.isInSitemap = isInSitemap
        self.place = place
        self.inputs = inputs
        self.planned = page.map(PlannedPage.init)
    }
}

/// A planned page, held by reference (see ``PagePlan/page``).
private final class PlannedPage {
    let page: Page

    init(_ page: Page) {
        self.page = page
    }
}
