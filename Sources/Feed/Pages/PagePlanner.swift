import Content
import Dispatch
import MarsTime
import SiteConfig

/// Decides every page of the site from the content: the feed, its archive, one page per
/// entry, per sol and per crew member, the indexes, the Atom feed, the sitemap and the 404.
public struct PagePlanner {
    let library: ContentLibrary
    let config: SiteConfiguration
    let links: SiteLinks
    /// Every object, newest first (the feed order).
    public let feed: [any FeedObject]
    /// Every object by sol, oldest first within a sol.
    let objectsBySol: [Int: [any FeedObject]]
    /// The weather report pinned on the front page.
    let pinnedWeather: WeatherReport?
    /// The values every page sees under `site`, made once: they do not depend on the page.
    let siteContext: TemplateContext

    /// How many objects the Atom feed holds.
    public static let atomEntryCount = 50

    /// Creates a planner over a loaded library.
    public init(library: ContentLibrary, config: SiteConfiguration) {
        self.library = library
        self.config = config
        self.links = SiteLinks(config: config)
        // Sorted through their keys: comparing existentials copies them, twenty times per object.
        let objects = library.allObjects
        let keys = objects.map(\.orderKey)
        self.feed = objects.indices.sorted { keys[$0].isNewerInFeed(than: keys[$1]) }.map { objects[$0] }
        var bySol: [Int: [any FeedObject]] = [:]
        for index in objects.indices.sorted(by: { keys[$0].isEarlierInTime(than: keys[$1]) }) {
            bySol[objects[index].sol, default: []].append(objects[index])
        }
        self.objectsBySol = bySol
        self.pinnedWeather = library.weatherReports.min(by: isNewerInFeed)
        self.siteContext = Self.siteContext(config: config, links: links)
    }

    /// Every page, in a fixed order.
    ///
    /// The groups do not depend on each other, so they are planned on every core; the
    /// order of the result does not depend on which finishes first.
    public func pages() -> [Page] {
        let groups: [@Sendable (PagePlanner) -> [Page]] = [
            { $0.feedPages() },
            { $0.journalPages() },
            { $0.solPages() },
            { [$0.solIndexPage()] },
            { $0.crewPages() },
            { [$0.crewIndexPage(), $0.notFoundPage(), $0.atomPage()] },
        ]
        let planned = UnsafeMutableBufferPointer<[Page]>.allocate(capacity: groups.count)
        planned.initialize(repeating: [])
        defer {
            planned.deinitialize()
            planned.deallocate()
        }
        nonisolated(unsafe) let slots = planned
        nonisolated(unsafe) let planner = self
        DispatchQueue.concurrentPerform(iterations: groups.count) { index in
            slots[index] = groups[index](planner)
        }
        var pages = Array(planned.joined())
        pages.append(sitemapPage(for: pages))
        let shared: TemplateContext = ["site": siteContext]
        for index in pages.indices { pages[index].shared = shared }
        return pages
    }

    // MARK: - Shared values

    static func siteContext(config: SiteConfiguration, links: SiteLinks) -> TemplateContext {
        [
            "title": config.title,
            "description": config.description,
            "hasDescription": !config.description.isEmpty,
            "language": config.language,
            "missionName": config.mission.name,
            "landing": config.mission.clock.landing.iso8601,
            "landingDate": config.mission.clock.landing.isoDate,
            "home": links.home,
            "solsURL": links.sols,
            "crewURL": links.crewIndex,
            "atomURL": links.atom,
            "atomAbsoluteURL": links.absolute(links.atom),
            "cssURL": links.asset("theme/marsgen.css"),
            "iconURL": links.asset("theme/favicon.svg"),
            "baseURL": config.baseURL,
        ]
    }

    func context(title: String, url: String, heading: String, section: String, extra: TemplateContext = [:]) -> TemplateContext {
        var context = extra
        context["pageTitle"] = title == config.title ? title : "\(title) · \(config.title)"
        context["heading"] = heading
        context["url"] = url
        context["canonical"] = links.absolute(url)
        context["description"] = config.description.isEmpty ? "\(config.mission.name) mission log" : config.description
        context["nav"] = ["feed": section == "feed", "sols": section == "sols", "crew": section == "crew"]
        return context
    }

    func link(_ url: String, _ label: String) -> TemplateContext { ["url": url, "label": label] }

    func solRange(of objects: some Collection<any FeedObject>) -> String {
        let sols = objects.map(\.sol)
        guard let low = sols.min(), let high = sols.max() else { return "" }
        return low == high ? "Sol \(low)" : "Sols \(low)–\(high)"
    }

    // MARK: - Feed

    func feedPages() -> [Page] {
        let paging = StablePagination(newestFirst: feed, pageSize: config.pageSize)
        let unpinned = feed.filter { $0.diffIdentifier != pinnedWeather?.diffIdentifier }
        let front = unpinned.prefix(config.pageSize)
        var olderFromFront: TemplateContext?
        if let firstHidden = unpinned.dropFirst(config.pageSize).first,
           let position = feed.firstIndex(where: { $0.diffIdentifier == firstHidden.diffIdentifier }),
           let page = paging.archivePage(containingNewestFirstPosition: position) {
            olderFromFront = link(links.feedPage(page), "Older")
        }
        var pages: [Page] = []
        var frontContext = context(title: config.title, url: links.home, heading: "Latest transmissions", section: "feed",
                                   extra: ["isFront": true, "isEmpty": feed.isEmpty])
        frontContext["latestSol"] = feed.first.map { String($0.sol) }
        frontContext["older"] = olderFromFront
        frontContext["hasPager"] = olderFromFront != nil
        pages.append(Page(kind: .front, url: links.home, outputPath: "index.html", template: "page-feed",
                          slots: ["pinned": pinnedWeather.map { [Page.SlotItem(objectID: $0.diffIdentifier)] } ?? [],
                                  "sections": front.map { Page.SlotItem(objectID: $0.diffIdentifier) }],
                          context: frontContext))

        let count = paging.archivePageCount
        for number in stride(from: 1, through: count, by: 1) {
            let items = paging.archivePage(number)
            let url = links.feedPage(number)
            let range = solRange(of: items)
            var extra: TemplateContext = ["isFront": false, "pageNumber": number, "solRange": range]
            let newer = number < count ? link(links.feedPage(number + 1), "Newer") : link(links.home, "Newer")
            extra["newer"] = newer
            if number > 1 { extra["older"] = link(links.feedPage(number - 1), "Older") }
            extra["hasPager"] = true
            pages.append(Page(kind: .feedArchive, url: url, outputPath: links.outputPath(for: url), template: "page-feed",
                              slots: ["sections": items.map { Page.SlotItem(objectID: $0.diffIdentifier) }],
                              context: context(title: "Archive page \(number), \(range)", url: url,
                                               heading: "Archive · \(range)", section: "feed", extra: extra)))
        }
        return pages
    }

    // MARK: - Journal entries

    func journalPages() -> [Page] {
        let all = library.journalEntries
        let keys = all.map(\.orderKey)
        let entries = all.indices.sorted { keys[$0].isEarlierInTime(than: keys[$1]) }.map { all[$0] }
        return entries.indices.map { index in
            let entry = entries[index]
            let url = links.journal(slug: entry.slug)
            var extra: TemplateContext = ["sol": entry.sol, "solURL": links.sol(entry.sol)]
            var neighbours: Set<String> = []
            if index > 0 {
                let previous = entries[index - 1]
                extra["previous"] = link(links.journal(slug: previous.slug), previous.title)
                neighbours.insert(previous.diffIdentifier)
            }
            if index + 1 < entries.count {
                let next = entries[index + 1]
                extra["next"] = link(links.journal(slug: next.slug), next.title)
                neighbours.insert(next.diffIdentifier)
            }
            extra["hasPager"] = !neighbours.isEmpty
            return Page(kind: .journal, url: url, outputPath: links.outputPath(for: url), template: "page-entry",
                        slots: ["sections": [Page.SlotItem(objectID: entry.diffIdentifier)]],
                        context: context(title: entry.title, url: url, heading: entry.title, section: "feed", extra: extra),
                        objectIDs: neighbours)
        }
    }

    // MARK: - Sols

    func solPages() -> [Page] {
        let bySol = objectsBySol
        let sols = bySol.keys.sorted()
        let clock = config.mission.clock
        return sols.indices.map { index in
            let sol = sols[index]
            let objects = bySol[sol] ?? []
            let url = links.sol(sol)
            let start = clock.start(ofSol: sol)
            let end = clock.start(ofSol: sol + 1).adding(seconds: -1)
            var extra: TemplateContext = [
                "sol": sol,
                "earthStart": start.iso8601, "earthEnd": end.iso8601,
                "earthRange": start.isoDate == end.isoDate ? start.isoDate : "\(start.isoDate) – \(end.isoDate)",
                "entryCount": objects.filter { $0.kind == .journal }.count,
                "messageCount": objects.filter { $0.kind == .message }.count,
            ]
            if index > 0 { extra["previous"] = link(links.sol(sols[index - 1]), "Sol \(sols[index - 1])") }
            if index + 1 < sols.count { extra["next"] = link(links.sol(sols[index + 1]), "Sol \(sols[index + 1])") }
            extra["hasPager"] = sols.count > 1
            return Page(kind: .sol, url: url, outputPath: links.outputPath(for: url), template: "page-sol",
                        slots: ["sections": objects.map { Page.SlotItem(objectID: $0.diffIdentifier) }],
                        context: context(title: "Sol \(sol)", url: url, heading: "Sol \(sol)", section: "sols", extra: extra))
        }
    }

    func solIndexPage() -> Page {
        let bySol = objectsBySol
        let weatherBySol = Dictionary(grouping: library.weatherReports, by: \.sol)
        let rows: [TemplateContext] = bySol.keys.sorted(by: >).map { sol in
            let objects = bySol[sol] ?? []
            var row: TemplateContext = [
                "sol": sol, "url": links.sol(sol),
                "earthDate": config.mission.clock.start(ofSol: sol).isoDate,
                "entryCount": objects.filter { $0.kind == .journal }.count,
                "messageCount": objects.filter { $0.kind == .message }.count,
            ]
            if let weather = weatherBySol[sol]?.min(by: isNewerInFeed) {
                row["weather"] = ["temperature": formatCelsius(weather.temperature), "condition": weather.condition.displayName]
            }
            return row
        }
        let url = links.sols
        return Page(kind: .solIndex, url: url, outputPath: links.outputPath(for: url), template: "page-sols",
                    context: context(title: "Sols", url: url, heading: "Sols", section: "sols",
                                     extra: ["sols": rows, "hasSols": !rows.isEmpty]),
                    objectIDs: Set(feed.map(\.diffIdentifier)))
    }

    // MARK: - Crew

    func crewPages() -> [Page] {
        var pages: [Page] = []
        let byAuthor = Dictionary(grouping: feed.flatMap { object in object.authorIDs.map { ($0, object) } }, by: \.0)
        for member in library.crew.members {
            let objects = (byAuthor[member.id] ?? []).map(\.1)
            let paging = StablePagination(newestFirst: objects, pageSize: config.pageSize)
            // Archive pages show no totals: a new message would otherwise rewrite every one of them.
            let base: TemplateContext = [
                "member": ["id": member.id, "name": member.name, "role": member.role, "hasRole": !member.role.isEmpty],
            ]
            let count = paging.archivePageCount
            var front = base
            front["isFront"] = true
            front["entryCount"] = objects.filter { $0.kind == .journal }.count
            front["messageCount"] = objects.filter { $0.kind == .message }.count
            if objects.count > config.pageSize, let page = paging.archivePage(containingNewestFirstPosition: config.pageSize) {
                front["older"] = link(links.crew(member.id, page: page), "Older")
                front["hasPager"] = true
            }
            let url = links.crew(member.id)
            pages.append(Page(kind: .crew, url: url, outputPath: links.outputPath(for: url), template: "page-crew",
                              slots: ["sections": objects.prefix(config.pageSize).map { Page.SlotItem(objectID: $0.diffIdentifier) }],
                              context: context(title: member.name, url: url, heading: member.name, section: "crew", extra: front)))
            for number in stride(from: 1, through: count, by: 1) where objects.count > config.pageSize {
                let items = paging.archivePage(number)
                let pageURL = links.crew(member.id, page: number)
                var extra = base
                extra["isFront"] = false
                extra["newer"] = number < count ? link(links.crew(member.id, page: number + 1), "Newer") : link(url, "Newer")
                if number > 1 { extra["older"] = link(links.crew(member.id, page: number - 1), "Older") }
                extra["hasPager"] = true
                let range = solRange(of: items)
                pages.append(Page(kind: .crew, url: pageURL, outputPath: links.outputPath(for: pageURL), template: "page-crew",
                                  slots: ["sections": items.map { Page.SlotItem(objectID: $0.diffIdentifier) }],
                                  context: context(title: "\(member.name), \(range)", url: pageURL,
                                                   heading: "\(member.name) · \(range)", section: "crew", extra: extra)))
            }
        }
        return pages
    }

    func crewIndexPage() -> Page {
        // No per-member totals here: they would change with every message; each member's page has them.
        let rows: [TemplateContext] = library.crew.members.map { member in
            ["id": member.id, "name": member.name, "role": member.role, "url": links.crew(member.id)]
        }
        let url = links.crewIndex
        return Page(kind: .crewIndex, url: url, outputPath: links.outputPath(for: url), template: "page-crew-index",
                    context: context(title: "Crew", url: url, heading: "Crew", section: "crew",
                                     extra: ["members": rows, "hasMembers": !rows.isEmpty]))
    }

    // MARK: - Other files

    func notFoundPage() -> Page {
        let url = links.asset("404.html")
        return Page(kind: .notFound, url: url, outputPath: "404.html", template: "page-404",
                    context: context(title: "Signal lost", url: url, heading: "Signal lost", section: ""))
    }

    func atomPage() -> Page {
        let newest = feed.prefix(Self.atomEntryCount)
        let entries = newest.map { object -> Page.SlotItem in
            let author = library.crew.member(id: object.authorIDs.first ?? "")?.name ?? config.mission.name
            return Page.SlotItem(objectID: object.diffIdentifier, extra: [
                "title": object.title,
                "link": links.absolute(links.permalink(for: object)),
                "id": links.absolute(links.permalink(for: object)),
                "updated": object.instant.iso8601,
                "author": author,
                "sol": object.sol,
            ])
        }
        let updated = feed.first?.instant ?? config.mission.clock.landing
        let url = links.atom
        return Page(kind: .atom, url: url, outputPath: "feed.xml", template: "atom", layout: nil,
                    slots: ["entries": entries],
                    context: ["updated": updated.iso8601, "selfURL": links.absolute(url),
                              "subtitle": config.description.isEmpty ? "\(config.mission.name) mission log" : config.description])
    }

    func sitemapPage(for pages: [Page]) -> Page {
        let urls = pages.filter { $0.layout != nil && $0.kind != .notFound }
            .map { links.absolute($0.url) }
            .sorted()
            .map { ["loc": $0] }
        return Page(kind: .sitemap, url: links.asset("sitemap.xml"), outputPath: "sitemap.xml", template: "sitemap",
                    layout: nil, context: ["urls": urls])
    }
}
