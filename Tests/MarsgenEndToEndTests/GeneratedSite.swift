import Foundation
import MarsgenTesting
import Rendering

/// A small site generated from a seed, edited at random the way authors edit: the model
/// behind the incremental-build equivalence test.
struct GeneratedSite {
    struct Entry {
        var title: String
        var author: String
        var sol: Int
        var minute: Int
        var slug: String?
        var isDraft = false
        var body: String
        /// Its `description:`, which its page shows instead of the start of its text.
        var description: String?
        /// Its `image:`, which its page's link preview shows instead of its text's first image.
        var image: String?
        /// Whether its page lists its headings (`toc: true`).
        var hasContents = false
        /// Its `extra: { mood: … }`, which the site's own cell template shows when it has one.
        var mood: String?
        /// Its old addresses (`aliases:`), one added at a slug's change now and then.
        var aliases: [String] = []
        /// Its tags, as written: spellings that share a slug among them (`EVA`, `eva`).
        var tags: [String] = []
        /// Links to other content files, as written (`entry-3.md`, `../weather/sol-2.md`).
        var links: [String] = []
        /// Links to pages and files of the site, each as written and whether in raw HTML
        /// (`journal/entry-3/`, `/gen/assets/file-1.txt`, `/journal/entry-3/`).
        var siteLinks: [(url: String, isHTML: Bool)] = []
    }

    /// A page of its own (`content/pages/`), which the navigation may link to.
    struct StandalonePage {
        var title: String
        var isInNavigation: Bool
        var navigationTitle: String?
        var weight: Int
        var slug: String?
        var isDraft = false
        var body: String
        /// Its old addresses (`aliases:`), one added or dropped at a slug's change now and then.
        var aliases: [String] = []
        /// Whether it is rendered with the site's own `templates/roster.mustache`.
        var hasOwnTemplate = false
        /// Links to content files, as a page writes them (`../journal/entry-3.md`).
        var links: [String] = []
    }

    struct LogMessage {
        var sol: Int
        var minute: Int
        var author: String
        var text: String
    }

    let root: URL
    var random: SeededRandom
    var entries: [String: Entry] = [:]
    var logs: [String: [LogMessage]] = [:]
    var weather: [Int: Int] = [:]
    var pages: [String: StandalonePage] = [:]
    var crewNames: [String: String] = ["vega": "Ines Vega", "okoro": "Daniel Okoro", "arden": "Ruth Arden", "tanaka": "Hiro Tanaka"]
    /// Members' bios and portraits (`bio:`, `image:` in the crew file), by id.
    var crewProfiles: [String: (bio: String, image: String?)] = [:]
    var templateVariants: [String: Int] = [:]
    var staticFiles: Set<String> = []
    /// Files in content folders or templates/ that marsgen does not read (`notes.txt`).
    var strayFiles: Set<String> = []
    var counter = 0
    /// The paths written, created or removed, as a watcher would report them.
    let changes = ChangeRecorder()
    /// The entry a link of the navigation (`nav:` in `marsgen.yml`) names by its file, which
    /// its slug changes and drafting move or hide. Never deleted or renamed: a link to no
    /// file is an error, and changing the link a full build.
    static let navigationEntry = "entry-1.md"

    static let sols = 1...10
    static let words = ["dust", "regolith", "panel", "oxygen", "hatch", "rover", "valley", "storm", "frost", "basalt",
                        "greenhouse", "radish", "antenna", "sample", "drill", "crater", "ridge", "sunset"]

    /// The site's sitemap is split into parts of 10 URLs, a few of them, whose number the
    /// edits change: the sitemap index and its parts are built incrementally too. It has a
    /// search page, whose index every edit of an entry's or a message's text changes.
    init(root: URL, seed: UInt64) throws {
        self.root = root
        self.random = SeededRandom(seed: seed)
        try writeCrew()
        for _ in 0..<14 { _ = try addEntry() }
        try writeConfiguration()
        for index in 0..<3 {
            let name = "log-\(index).md"
            var messages: [LogMessage] = []
            for _ in 0..<5 { messages.append(randomMessage()) }
            logs[name] = messages
            try writeLog(name)
        }
        for sol in Self.sols where random.next(4) > 0 {
            weather[sol] = -30 - random.next(50)
            try writeWeather(sol)
        }
        pages["about.md"] = StandalonePage(title: "About the mission", isInNavigation: true, navigationTitle: "About", weight: 1,
                                           body: randomSentence(), aliases: ["/about-us/", "/mission.html"], links: ["../journal/entry-1.md"])
        try writePage("about.md")
        // Above the pages a slug puts under info/ (`info/p-3`), which it lists.
        pages["info.md"] = StandalonePage(title: "Information", isInNavigation: false, weight: 0, body: randomSentence())
        try writePage("info.md")
        try writeRosterTemplate(variant: 0)
    }

    // MARK: - Edits

    /// Applies one random edit and says what it was.
    mutating func randomEdit() throws -> String {
        switch random.next(21) {
        case 0: return "add entry \(try addEntry())"
        case 1:
            let sentence = randomSentence()
            switch random.next(10) {
            case 0, 1:
                // A description given, or taken away.
                return try editEntry("description") { $0.description = $0.description == nil ? sentence : nil }
            case 2:
                // A preview image given (a static file, one that is not there, another host's), or taken away.
                let image = pick(staticFiles.map { $0 } + ["img/none.png", "https://cdn.example.org/\(counter).jpg"])
                return try editEntry("image") { $0.image = $0.image == nil ? image : nil }
            case 3:
                // An image in the text: the preview's when the entry has no image: of its own.
                counter += 1
                let image = "\n\n![\(sentence)](img/photo-\(counter % 3).jpg)\n"
                return try editEntry("body image") { $0.body += image }
            case 4:
                // A <!--more--> break made, after the first paragraph or at the end of the text
                // (then with a sentence after it), or taken away.
                let marker = "\n\n<!--more-->\n\n"
                return try editEntry("more") { entry in
                    if let found = entry.body.range(of: marker) {
                        entry.body.replaceSubrange(found, with: "\n\n")
                    } else if let paragraphEnd = entry.body.range(of: "\n\n") {
                        entry.body.replaceSubrange(paragraphEnd, with: marker)
                    } else {
                        entry.body += marker + sentence
                    }
                }
            case 5:
                // Its headings listed on its page, or no longer; a heading added to list.
                return try editEntry("toc") { entry in
                    entry.hasContents.toggle()
                    if entry.hasContents { entry.body += "\n\n## \(sentence)\n\nMore." }
                }
            case 6, 7, 8:
                // A value of its own (`extra:`) given, changed or taken away.
                let (mood, drops) = (randomSentence(), random.next(3) == 0)
                return try editEntry("extra") { $0.mood = $0.mood != nil && drops ? nil : mood }
            default:
                return try editEntry("body") { $0.body += " " + sentence }
            }
        case 2:
            guard let name = pick(entries.keys), entries.count > 3, name != Self.navigationEntry else { return "skip" }
            entries[name] = nil
            try remove("content/journal/\(name)")
            try relink(name, to: nil)
            return "delete entry \(name)"
        case 3:
            guard let name = pick(entries.keys), let entry = entries[name], name != Self.navigationEntry else { return "skip" }
            counter += 1
            let newName = "renamed-\(counter).md"
            entries[name] = nil
            entries[newName] = entry
            try remove("content/journal/\(name)")
            try writeEntry(newName)
            try relink(name, to: newName)
            return "rename \(name) → \(newName)"
        case 4:
            counter += 1
            let slug = "slug-\(counter)"
            // Half the time the old address is kept as an alias, as a site that cares would.
            let keepsOld = random.next(2) == 0
            let alias = "/old/\(counter)/"
            return try editEntry("slug → \(slug)\(keepsOld ? ", old address kept" : "")") { entry in
                if keepsOld { entry.aliases.append(alias) }
                entry.slug = slug
            }
        case 5:
            let sol = Int(random.next(Self.sols.count)) + 1
            return try editEntry("move to sol \(sol)") { $0.sol = sol }
        case 6:
            guard let name = pick(logs.keys) else { return "skip" }
            let message = randomMessage()
            logs[name, default: []].append(message)
            try writeLog(name)
            return "append message to \(name)"
        case 7:
            guard let name = pick(logs.keys), let count = logs[name]?.count, count > 0 else { return "skip" }
            let index = Int(random.next(count))
            let text = randomSentence()
            logs[name]?[index].text = text
            try writeLog(name)
            return "edit message in \(name)"
        case 8:
            guard let name = pick(logs.keys), let count = logs[name]?.count, count > 1 else { return "skip" }
            let index = Int(random.next(count))
            logs[name]?.remove(at: index)
            try writeLog(name)
            return "delete message in \(name)"
        case 9:
            counter += 1
            let name = "log-new-\(counter).md"
            var messages: [LogMessage] = []
            for _ in 0..<3 { messages.append(randomMessage()) }
            logs[name] = messages
            try writeLog(name)
            return "add log \(name)"
        case 10:
            guard let name = pick(logs.keys), logs.count > 1 else { return "skip" }
            logs[name] = nil
            try remove("content/messages/\(name)")
            try relink("../messages/\(name)", to: nil)
            return "delete log \(name)"
        case 11:
            let sol = Int(random.next(Self.sols.count)) + 1
            if weather[sol] != nil, random.next(3) == 0 {
                weather[sol] = nil
                try remove("content/weather/sol-\(sol).md")
                try relink("../weather/sol-\(sol).md", to: nil)
                return "delete weather for sol \(sol)"
            }
            weather[sol] = -20 - random.next(60)
            try writeWeather(sol)
            return "change weather for sol \(sol)"
        case 12:
            // The crew file: a member renamed, one joining, or one who wrote nothing leaving.
            counter += 1
            switch random.next(5) {
            case 2:
                // A bio and a portrait given, changed or taken away: the member's page alone
                // (and the crew index, for a portrait); a link or image leading nowhere, a warning.
                guard let id = pick(crewNames.keys) else { return "skip" }
                if crewProfiles[id] != nil, random.next(3) == 0 {
                    crewProfiles[id] = nil
                } else {
                    let link = pick(["sol/3/", "sol/99/", "journal/"]) ?? "sol/3/"
                    let image = random.next(2) == 0 ? nil : pick(staticFiles.map { $0 } + ["img/none.png"])
                    crewProfiles[id] = (bio: "\(randomSentence()) See [this](\(link)).", image: image)
                }
                try writeCrew()
                return "crew \(id) profile"
            case 0:
                crewNames["member-\(counter)"] = "New Member \(counter)"
                try writeCrew()
                return "crew member-\(counter) joins"
            case 1:
                let authors = Set(entries.values.map(\.author) + logs.values.joined().map(\.author))
                guard let id = pick(crewNames.keys.filter { !authors.contains($0) }), crewNames.count > 1 else { return "skip" }
                crewNames[id] = nil
                try writeCrew()
                return "crew \(id) leaves"
            default:
                guard let id = pick(crewNames.keys) else { return "skip" }
                crewNames[id] = "Crew Member \(counter)"
                try writeCrew()
                return "rename crew \(id)"
            }
        case 13 where random.next(2) == 0:
            // An entry's own values (`extra:`) shown, or no longer (the built-in template back).
            return try editTemplate("cell-journal-text") {
                $0.replacingOccurrences(of: "{{{body}}}", with: "{{#extra}}<em class=\"mood\" data-v=\"\($1)\">{{extra.mood}}</em>{{/extra}}{{{body}}}")
            }
        case 13: return try editTemplate("cell-message") { $0.replacingOccurrences(of: "<div class=\"prose\">", with: "<div class=\"prose\" data-v=\"\($1)\">") }
        case 14: return try editTemplate("footer") { $0.replacingOccurrences(of: "{{words.built_with}}", with: "{{words.built_with}}, take \($1)") }
        case 15: return try editTemplate("layout") { $0.replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "<meta charset=\"utf-8\">\n<meta name=\"variant\" content=\"\($1)\">") }
        case 16 where random.next(3) == 0:
            // A file marsgen does not read, in a content folder or templates/: a warning, no page.
            let stray = ["content/journal/notes.txt", "content/journal/sub/map.svg", "content/messages/photo.svg",
                         "content/weather/sol-2.markdown", "templates/page.html"][Int(random.next(5))]
            if strayFiles.remove(stray) != nil {
                try remove(stray)
                return "remove stray \(stray)"
            }
            strayFiles.insert(stray)
            try write("stray \(counter)", to: stray)
            return "add stray \(stray)"
        case 16:
            if let file = pick(staticFiles), random.next(2) == 0 {
                staticFiles.remove(file)
                try remove("static/\(file)")
                return "remove static \(file)"
            }
            counter += 1
            if random.next(2) == 0 {
                // An image the entries' texts show (`img/photo-N.jpg`): added, or its size
                // changed, or made one whose size cannot be read.
                let file = "img/photo-\(counter % 3).jpg"
                staticFiles.insert(file)
                try write(random.next(4) == 0 ? "not an image \(counter)" : gifHeader(), to: "static/\(file)")
                return "add or change static \(file)"
            }
            let file = "assets/file-\(counter % 4).txt"
            staticFiles.insert(file)
            try write("asset \(counter)", to: "static/\(file)")
            return "add or change static \(file)"
        case 19 where random.next(2) == 0:
            // A link to a page or a file of the site, from its root or the host's, in Markdown
            // or raw HTML, leading somewhere or not (a warning); or one taken out.
            guard let name = pick(entries.keys), var entry = entries[name] else { return "skip" }
            if let gone = try unlinkAtRandom(\.siteLinks, in: name) { return "unlink \(gone.url) in \(name)" }
            let others = entries.filter { $0.key != name }.sorted { $0.key < $1.key }
            let pages = others.map { "journal/\(slug(of: $0.key))/" }
            // An entry's anchor, on its sol's page or its own, as the model knows them now.
            let anchors = others.prefix(3).flatMap { name, other in
                ["sol/\(other.sol)/#entry-\(slug(of: name))", "journal/\(slug(of: name))/#entry-\(slug(of: name))"]
            }
            let places = pages + staticFiles.map { $0 } + ["img/none.png", "sol/3/", "feed.xml"]
                + self.pages.keys.map { pagePath(of: $0) + "/" }
            guard let place = random.next(2) == 0 ? pick(anchors) ?? pick(places) : pick(places) else { return "skip" }
            let url = ["", "/gen/", "/"][Int(random.next(3))] + place
            entry.siteLinks.append((url, random.next(2) == 0))
            entries[name] = entry
            try writeEntry(name)
            return "site link \(name) → \(url)"
        case 19:
            // A link to another entry, a log or a weather report, by file; or one taken out.
            guard let name = pick(entries.keys), var entry = entries[name] else { return "skip" }
            if let gone = try unlinkAtRandom(\.links, in: name) { return "unlink \(gone) in \(name)" }
            let targets = entries.keys.filter { $0 != name } + logs.keys.map { "../messages/\($0)" }
                + weather.keys.map { "../weather/sol-\($0).md" } + pages.keys.map { "../pages/\($0)" }
            guard let target = pick(targets) else { return "skip" }
            entry.links.append(random.next(2) == 0 ? target : target + "#part")
            entries[name] = entry
            try writeEntry(name)
            return "link \(name) → \(target)"
        case 17: return try editTemplate("sol-row") { $0.replacingOccurrences(of: "<span class=\"sol-counts\">", with: "<span class=\"sol-counts\" data-v=\"\($1)\">") }
        case 18 where random.next(2) == 0:
            // A tag added (perhaps another spelling of one the site has) or one taken out:
            // tag pages come and go, and a tag's shown spelling can change.
            let tag = randomTag()
            let remove = random.next(3) == 0
            return try editEntry(remove ? "untag" : "tag \(tag)") { entry in
                if remove, !entry.tags.isEmpty { entry.tags.removeFirst() } else { entry.tags.append(tag) }
            }
        case 20: return try editStandalonePage()
        default:
            return try editEntry("toggle draft") { $0.isDraft.toggle() }
        }
    }

    /// A page of its own added, edited, moved, linked, hidden or removed: its page comes and
    /// goes, and every page's navigation with it when it is in the navigation.
    mutating func editStandalonePage() throws -> String {
        counter += 1
        let sentence = randomSentence()
        guard let name = pick(pages.keys), var page = pages[name], random.next(6) > 0 else {
            let name = "page-\(counter).md"
            pages[name] = StandalonePage(title: "Page \(counter) on \(randomWord())", isInNavigation: random.next(2) == 0,
                                         weight: Int(random.next(3)), body: sentence)
            try writePage(name)
            return "add page \(name)"
        }
        var label: String
        switch random.next(9) {
        case 0:
            page.isInNavigation.toggle()
            label = page.isInNavigation ? "into the navigation" : "out of the navigation"
        case 1:
            page.navigationTitle = page.navigationTitle == nil ? "Nav \(counter)" : nil
            label = "navigation title"
        case 2:
            page.weight = Int(random.next(4))
            label = "weight \(page.weight)"
        case 3:
            page.slug = random.next(3) == 0 ? nil : random.next(2) == 0 ? "p-\(counter)" : "info/p-\(counter)"
            label = "slug \(page.slug ?? "from its name")"
            // Half the time the old address is kept, as a site that cares would.
            if random.next(2) == 0 { label += ", " + addAlias(to: &page) }
        case 4:
            guard pages.count > 1 || random.next(2) == 0 else { return "skip" }
            pages[name] = nil
            try remove("content/pages/\(name)")
            try relink("../pages/\(name)", to: nil)
            return "delete page \(name)"
        case 5:
            page.isDraft.toggle()
            label = "toggle draft"
        case 7:
            // Its own template, or the template edited (whichever pages use it).
            if random.next(2) == 0 {
                page.hasOwnTemplate.toggle()
                label = page.hasOwnTemplate ? "template roster" : "template page-standalone"
            } else {
                try writeRosterTemplate(variant: counter)
                return "edit roster template"
            }
        case 6:
            if !page.aliases.isEmpty, random.next(2) == 0 {
                label = "alias \(page.aliases.remove(at: Int(random.next(page.aliases.count)))) dropped"
            } else {
                label = addAlias(to: &page)
            }
        default:
            // A link to an entry, a log, a report or another page, by file; or text, or a heading.
            let targets = entries.keys.map { "../journal/\($0)" } + logs.keys.map { "../messages/\($0)" }
                + weather.keys.map { "../weather/sol-\($0).md" } + pages.keys.filter { $0 != name }
            if random.next(2) == 0, let target = pick(targets) {
                page.links.append(random.next(2) == 0 ? target : target + "#part")
                label = "link → \(target)"
            } else {
                page.body += random.next(2) == 0 ? " " + sentence : "\n\n## \(sentence)\n\nMore."
                label = "text"
            }
        }
        pages[name] = page
        try writePage(name)
        return "\(label) in page \(name)"
    }

    /// An old address (`aliases:`) added to `page`: a folder or an .html file of its own.
    mutating func addAlias(to page: inout StandalonePage) -> String {
        let alias = random.next(2) == 0 ? "/was/\(counter)/" : "/was-\(counter).html"
        page.aliases.append(alias)
        return "alias \(alias)"
    }

    /// Where page `name` is, from the site's root (`about`, `info/p-3`).
    func pagePath(of name: String) -> String {
        pages[name]?.slug ?? String(name.dropLast(3))
    }

    /// One time in three, when entry `name` has any of the links at `links`, one of them
    /// taken out at random and the entry written again; nil otherwise.
    mutating func unlinkAtRandom<Link>(_ links: WritableKeyPath<Entry, [Link]>, in name: String) throws -> Link? {
        guard var entry = entries[name], !entry[keyPath: links].isEmpty, random.next(3) == 0 else { return nil }
        let gone = entry[keyPath: links].remove(at: Int(random.next(entry[keyPath: links].count)))
        entries[name] = entry
        try writeEntry(name)
        return gone
    }

    /// The slug of entry `name`: its own, or its file name's.
    func slug(of name: String) -> String {
        entries[name]?.slug ?? String(name.dropLast(3))
    }

    /// Points the links to `target` (as an entry would write it) at `replacement`, or removes
    /// them, in every entry and page that has one.
    mutating func relink(_ target: String, to replacement: String?) throws {
        // A page writes a link to an entry from its own folder, to another page by its name,
        // and to anything else as an entry does.
        func fromPages(_ path: String) -> String {
            path.hasPrefix("../pages/") ? String(path.dropFirst("../pages/".count)) : path.hasPrefix("../") ? path : "../journal/" + path
        }
        for name in pages.keys.sorted() {
            guard let links = Self.relinked(pages[name]?.links ?? [], fromPages(target), to: replacement.map(fromPages)) else { continue }
            pages[name]?.links = links
            try writePage(name)
        }
        for name in entries.keys.sorted() {
            guard let links = Self.relinked(entries[name]?.links ?? [], target, to: replacement) else { continue }
            entries[name]?.links = links
            try writeEntry(name)
        }
    }

    /// `links` with those to `target` (with or without `#part`) pointed at `replacement`, or
    /// removed; nil when none leads to `target`.
    static func relinked(_ links: [String], _ target: String, to replacement: String?) -> [String]? {
        guard links.contains(where: { $0 == target || $0 == target + "#part" }) else { return nil }
        return links.compactMap { link in
            guard link == target || link == target + "#part" else { return link }
            return replacement.map { link == target ? $0 : $0 + "#part" }
        }
    }

    /// `marsgen.yml`, with a link of the navigation to ``navigationEntry``.
    func writeConfiguration() throws {
        try write("""
            title: Generated Mission
            base_url: https://example.org/gen/
            page_size: 4
            unsafe_html: true
            sitemap_max_urls: 10
            search: true
            mission:
              name: Generated
              landing: 2038-11-02T14:17:00Z
              longitude: -58.2
              first_sol: 1
            nav:
              - title: Landing
                url: content/journal/\(Self.navigationEntry)
            """, to: "marsgen.yml")
    }

    mutating func addEntry() throws -> String {
        counter += 1
        let name = "entry-\(counter).md"
        entries[name] = Entry(title: "Entry \(counter) about \(randomWord())", author: randomAuthor(),
                              sol: Int(random.next(Self.sols.count)) + 1, minute: Int(random.next(1440)),
                              slug: nil, body: randomSentence())
        if random.next(2) == 0 {
            let tag = randomTag()
            entries[name]?.tags = [tag]
        }
        if random.next(2) == 0 {
            let mood = randomSentence()
            entries[name]?.mood = mood
        }
        try writeEntry(name)
        return name
    }

    mutating func editEntry(_ label: String, _ change: (inout Entry) -> Void) throws -> String {
        guard let name = pick(entries.keys), var entry = entries[name] else { return "skip" }
        change(&entry)
        entries[name] = entry
        try writeEntry(name)
        return "\(label) in \(name)"
    }

    mutating func editTemplate(_ name: String, _ change: (String, Int) -> String) throws -> String {
        let variant = (templateVariants[name] ?? 0) + 1
        templateVariants[name] = variant
        if variant % 3 == 0 {
            try remove("templates/\(name).mustache")
            return "restore built-in \(name) template"
        }
        try write(change(DefaultTheme.templates[name] ?? "", variant), to: "templates/\(name).mustache")
        return "edit \(name) template"
    }

    // MARK: - Files

    func writeEntry(_ name: String) throws {
        guard let entry = entries[name] else { return }
        var lines = ["---", "title: \"\(entry.title)\"", "author: \(entry.author)", "sol: \(entry.sol)",
                     "time: \"\(pad(entry.minute / 60)):\(pad(entry.minute % 60))\""]
        if let slug = entry.slug { lines.append("slug: \(slug)") }
        if entry.isDraft { lines.append("draft: true") }
        if let description = entry.description { lines.append("description: \"\(description)\"") }
        if let image = entry.image { lines.append("image: \(image)") }
        if entry.hasContents { lines.append("toc: true") }
        if let mood = entry.mood { lines += ["extra:", "  mood: \"\(mood)\""] }
        if !entry.aliases.isEmpty { lines.append("aliases: [\(entry.aliases.joined(separator: ", "))]") }
        if !entry.tags.isEmpty { lines.append("tags: [\(entry.tags.map { "\"\($0)\"" }.joined(separator: ", "))]") }
        lines += ["---", entry.body] + entry.links.map { "See [this](\($0))." }
            + entry.siteLinks.map { $0.isHTML ? "See <a href=\"\($0.url)\">that</a>." : "See [that](\($0.url))." } + [""]
        try write(lines.joined(separator: "\n"), to: "content/journal/\(name)")
    }

    func writePage(_ name: String) throws {
        guard let page = pages[name] else { return }
        var lines = ["---", "title: \"\(page.title)\""]
        if page.isInNavigation { lines.append("nav: true") }
        if let title = page.navigationTitle, page.isInNavigation { lines.append("nav_title: \"\(title)\"") }
        if page.weight != 0 { lines.append("weight: \(page.weight)") }
        if let slug = page.slug { lines.append("slug: \(slug)") }
        if page.isDraft { lines.append("draft: true") }
        if !page.aliases.isEmpty { lines.append("aliases: [\(page.aliases.joined(separator: ", "))]") }
        if page.hasOwnTemplate { lines.append("template: roster") }
        lines += ["---", page.body] + page.links.map { "See [this](\($0))." } + [""]
        try write(lines.joined(separator: "\n"), to: "content/pages/\(name)")
    }

    /// The site's own template for pages of their own (`template: roster`): page-standalone's,
    /// marked with `variant`.
    func writeRosterTemplate(variant: Int) throws {
        let text = (DefaultTheme.templates["page-standalone"] ?? "") + "<p class=\"roster\">Roster \(variant): {{title}}</p>\n"
        try write(text, to: "templates/roster.mustache")
    }

    func writeLog(_ name: String) throws {
        var text = "---\nchannel: \(name.dropLast(3))\nsol: 1\n---\n"
        for message in logs[name] ?? [] {
            text += "## Sol \(message.sol) \(pad(message.minute / 60)):\(pad(message.minute % 60)) \(message.author)\n\(message.text)\n\n"
        }
        try write(text, to: "content/messages/\(name)")
    }

    func writeWeather(_ sol: Int) throws {
        guard let temperature = weather[sol] else { return }
        try write("""
            ---
            sol: \(sol)
            temperature: \(temperature)
            high: \(temperature + 30)
            low: \(temperature - 30)
            sunrise: "05:50"
            sunset: "17:50"
            condition: \(["clear", "windy", "dust storm", "fog"][sol % 4])
            ---
            """, to: "content/weather/sol-\(sol).md")
    }

    func writeCrew() throws {
        let text = crewNames.keys.sorted().map { id in
            var member = "\(id):\n  name: \(crewNames[id] ?? id)\n  role: Crew\n"
            if let profile = crewProfiles[id] {
                member += "  bio: |\n    \(profile.bio)\n"
                if let image = profile.image { member += "  image: \(image)\n" }
            }
            return member
        }.joined()
        try write(text, to: "content/crew.yml")
    }

    func write(_ text: String, to relative: String) throws {
        let url = root.appendingPathComponent(relative)
        var folder = (relative as NSString).deletingLastPathComponent
        while !folder.isEmpty, !FileManager.default.fileExists(atPath: root.appendingPathComponent(folder).path) {
            changes.record(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        changes.record(relative)
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent(relative))
        changes.record(relative)
    }

    // MARK: - Random pieces

    mutating func randomMessage() -> LogMessage {
        LogMessage(sol: Int(random.next(Self.sols.count)) + 1, minute: Int(random.next(1440)), author: randomAuthor(),
                   text: randomSentence())
    }

    mutating func randomAuthor() -> String { crewNames.keys.sorted()[Int(random.next(crewNames.count))] }
    mutating func randomTag() -> String {
        ["eva", "EVA", "Eva", "dust storm", "Dust-Storm", "geology", "火星", "!!"][Int(random.next(8))]
    }

    mutating func randomWord() -> String { Self.words[Int(random.next(Self.words.count))] }
    mutating func randomSentence() -> String {
        (0..<(3 + Int(random.next(8)))).map { _ in randomWord() }.joined(separator: " ").capitalizedFirst + "."
    }

    mutating func pick<C: Collection>(_ collection: C) -> C.Element? where C.Element: Comparable {
        let sorted = collection.sorted()
        guard !sorted.isEmpty else { return nil }
        return sorted[Int(random.next(sorted.count))]
    }

    /// The first bytes of a GIF of a random size (from 64×64 to 127×127, or those with 256
    /// more, ASCII bytes all): what marsgen reads of an image.
    mutating func gifHeader() -> String {
        let sides = (0..<4).map { index in Character(Unicode.Scalar(UInt8(index % 2 == 0 ? 64 + random.next(64) : random.next(2)))) }
        return "GIF89a" + String(sides) + "\0\0\0;"
    }

    func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}


extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

/// Site-relative paths changed since they were last taken.
final class ChangeRecorder {
    private var paths: Set<String> = []

    func record(_ path: String) { paths.insert(path) }

    func take() -> [String] {
        defer { paths = [] }
        return paths.sorted()
    }
}
