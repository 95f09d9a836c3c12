import Content
import Feed
import MarsgenTesting
import Testing

/// The inputs hash lets a rebuild skip planning a page. It must never say "unchanged" for a
/// page that would come out different: these tests compare it with the full fingerprint.
@Suite struct PageInputsTests {
    /// A small mission: entries by two authors, messages, weather on some sols.
    struct Mission {
        var entries: [String: (sol: Int, hour: Int, author: CrewMember, body: String, title: String)] = [:]
        var messages: [String: (sol: Int, hour: Int, author: CrewMember, body: String)] = [:]
        var weather: [Int: Double] = [:]
        /// The crew file: objects show their author as it has them, as loaders make them.
        var crew = FeedFixtures.crew.members

        var library: ContentLibrary {
            get throws {
                let current = { (author: CrewMember) in crew.first { $0.id == author.id } ?? author }
                return try ContentLibrary(
                    crew: Crew(members: crew),
                    journalEntries: entries.sorted { $0.key < $1.key }.map { slug, entry in
                        FeedFixtures.entry(slug, sol: entry.sol, hour: entry.hour, author: current(entry.author), body: entry.body,
                                           title: entry.title)
                    },
                    messages: messages.sorted { $0.key < $1.key }.map { key, message in
                        FeedFixtures.message(sol: message.sol, hour: message.hour, author: current(message.author),
                                             body: "<p>\(key) \(message.body)</p>\n")
                    },
                    weatherReports: weather.sorted { $0.key < $1.key }.map { FeedFixtures.weather(sol: $0.key, temperature: $0.value) })
            }
        }

        /// One random change: what an author does between two saves.
        mutating func edit(_ random: inout SeededRandom) {
            let authors = [FeedFixtures.vega, FeedFixtures.okoro]
            let slugs = entries.keys.sorted()
            let keys = messages.keys.sorted()
            switch random.next(13) {
            case 0: entries["e\(random.next(1000))"] = (1 + random.next(12), random.next(24), authors[random.next(2)], "<p>New</p>\n", "New")
            case 1 where !slugs.isEmpty: entries[slugs[random.next(slugs.count)]] = nil
            case 2 where !slugs.isEmpty: entries[slugs[random.next(slugs.count)]]?.body = "<p>Edited \(random.next(100))</p>\n"
            case 3 where !slugs.isEmpty: entries[slugs[random.next(slugs.count)]]?.title = "Retitled \(random.next(100))"
            case 4 where !slugs.isEmpty: entries[slugs[random.next(slugs.count)]]?.sol = 1 + random.next(12)
            case 5: messages["m\(random.next(1000))"] = (1 + random.next(12), random.next(24), authors[random.next(2)], "hi")
            case 6 where !keys.isEmpty: messages[keys[random.next(keys.count)]] = nil
            case 7: weather[1 + random.next(12)] = Double(random.next(100)) - 90
            case 8 where !weather.isEmpty: weather[weather.keys.sorted()[random.next(weather.count)]] = nil
            // The crew file: a member renamed, given another role, added, or the members reordered.
            case 9: crew[random.next(crew.count)].name = "Renamed \(random.next(100))"
            case 10: crew[random.next(crew.count)].role = "Role \(random.next(100))"
            case 11: crew.append(CrewMember(id: "guest\(crew.count)", name: "Guest \(crew.count)", role: ""))
            case 12: crew.reverse()
            default: entries[slugs.first ?? "e0"]?.author = authors[random.next(2)]
            }
        }
    }

    func plans(_ library: ContentLibrary, pageSize: Int) -> [String: PagePlan] {
        let plans = PagePlanner(library: library, config: FeedFixtures.config(pageSize: pageSize)).plans()
        return Dictionary(uniqueKeysWithValues: plans.map { ($0.outputPath, $0) })
    }

    func fingerprint(_ plan: PagePlan?) -> ContentHash? {
        plan?.page.map(PageFingerprint.of)
    }

    @Test("equal inputs hashes mean equal pages, over 400 random edits", arguments: [2, 3, 5])
    func inputsDecidePages(pageSize: Int) throws {
        var random = SeededRandom(seed: UInt64(pageSize) * 7919)
        var mission = Mission()
        for _ in 0..<12 { mission.edit(&random) }
        var library = try mission.library
        var before = plans(library, pageSize: pageSize)
        for step in 0..<400 {
            mission.edit(&random)
            let next = try mission.library
            let after = plans(next, pageSize: pageSize)
            for (path, plan) in after {
                guard let old = before[path], old.inputs == plan.inputs else { continue }
                #expect(fingerprint(old) == fingerprint(plan),
                        "step \(step): \(path) has the same inputs hash but would change")
            }
            (library, before) = (next, after)
        }
    }

    @Test("a planner told which inputs are unchanged plans only the pages an edit reaches")
    func skipsUnreachedPages() throws {
        var mission = Mission()
        for index in 0..<30 {
            mission.entries["e\(index)"] = (1 + index / 3, 8 + index % 3 * 4, index % 2 == 0 ? FeedFixtures.vega : FeedFixtures.okoro,
                                           "<p>Body</p>\n", "Entry \(index)")
        }
        let config = FeedFixtures.config(pageSize: 5)
        let before = PagePlanner(library: try mission.library, config: config).plans()
        let known = Set(before.map(\.inputs))
        mission.entries["e10"]?.body = "<p>Edited</p>\n"
        let after = PagePlanner(library: try mission.library, config: config).plans { known.contains($0) }
        #expect(after.count == before.count)
        // Its own page, its neighbours' (their links show its title and slug), its sol, the
        // archive page and the crew archive page holding it, the Atom feed (30 objects: it holds
        // them all); not the front page, the sol index (no count changed) or the sitemap.
        #expect(Set(after.filter { $0.page != nil }.map(\.outputPath)) == [
            "journal/e10/index.html", "journal/e9/index.html", "journal/e11/index.html", "sol/4/index.html",
            "page/3/index.html", "crew/vega/page/2/index.html", "feed.xml",
        ])
    }

    @Test("a crew change plans only the pages that show what changed: the crew's, and those of a renamed member's objects")
    func crewChangePlansItsPages() throws {
        var mission = Mission()
        for index in 0..<12 {
            mission.entries["e\(index)"] = (1 + index / 3, 8 + index % 3 * 4, index < 11 ? FeedFixtures.vega : FeedFixtures.okoro,
                                           "<p>Body</p>\n", "Entry \(index)")
        }
        let config = FeedFixtures.config(pageSize: 20)
        func planned(after change: (inout Mission) -> Void) throws -> Set<String> {
            let known = Set(PagePlanner(library: try mission.library, config: config).plans().map(\.inputs))
            change(&mission)
            let plans = PagePlanner(library: try mission.library, config: config).plans { known.contains($0) }
            return Set(plans.filter { $0.page != nil }.map(\.outputPath))
        }
        #expect(try planned { $0.crew.append(CrewMember(id: "zhou", name: "Li Zhou", role: "Geologist")) }
            == ["crew/index.html", "crew/zhou/index.html", "sitemap.xml"])
        // Vega wrote all but the newest entry: every page that shows one, but not Okoro's.
        let role = try planned { $0.crew[0].role = "Mission Commander" }
        #expect(role.isSuperset(of: ["crew/index.html", "crew/vega/index.html"] + (0..<11).map { "journal/e\($0)/index.html" }))
        #expect(!role.contains("crew/okoro/index.html") && !role.contains("sitemap.xml"), "\(role.sorted())")
        // Okoro wrote the newest entry: its page, its neighbour's, the lists that show it
        // (its tag's too: each line names the author).
        let name = try planned { $0.crew[1].name = "Dan Okoro" }
        #expect(name == [
            "crew/index.html", "crew/okoro/index.html", "journal/e11/index.html", "journal/e10/index.html", "index.html",
            "journal/index.html", "tags/t/index.html", "feed.xml", "sol/4/index.html",
        ], "\(name.sorted())")
    }

    @Test("a planner that reuses the previous planner's reads (and journal plans and tags) plans as one that reads everything, over 300 random edits")
    func reusedReadsPlanAlike() throws {
        var random = SeededRandom(seed: 4057)
        let config = FeedFixtures.config(pageSize: 4)
        let authors = [FeedFixtures.vega, FeedFixtures.okoro]
        // Objects are kept as instances, as a watched rebuild keeps those of unchanged files:
        // an edit replaces, inserts or removes a run of them.
        var made = 0
        func newEntry() -> JournalEntry {
            made += 1
            // Tags, some sharing a page (`EVA`, `eva`), some none: the tags' pages follow the entries.
            let tags = [[], ["t"], ["EVA", "dust"], ["eva"], ["dust", "t"]][random.next(5)]
            return FeedFixtures.entry("e\(made)", sol: 1 + random.next(12), hour: random.next(24), author: authors[random.next(2)],
                                      body: "<p>Body \(made)</p>\n", tags: tags)
        }
        func newMessage() -> Message {
            made += 1
            return FeedFixtures.message(sol: 1 + made / 24, hour: made % 24, author: authors[random.next(2)], body: "<p>\(made)</p>\n")
        }
        func edit<Object>(_ objects: inout [Object], _ make: () -> Object) {
            let start = random.next(objects.count + 1)
            let removed = min(objects.count - start, random.next(3))
            objects.replaceSubrange(start..<(start + removed), with: (0..<random.next(3)).map { _ in make() })
        }
        var entries = (0..<20).map { _ in newEntry() }
        var messages = (0..<40).map { _ in newMessage() }
        var weather = (1...12).map { FeedFixtures.weather(sol: $0) }
        var crew = FeedFixtures.crew
        var previous = PagePlanner(library: try ContentLibrary(crew: crew, journalEntries: entries, messages: messages,
                                                               weatherReports: weather), config: config)
        for step in 0..<300 {
            switch random.next(8) {
            case 0, 1, 2: edit(&entries, newEntry)
            case 3, 4: edit(&messages, newMessage)
            case 5:
                let index = random.next(weather.count)
                weather[index] = FeedFixtures.weather(sol: weather[index].sol, temperature: Double(random.next(100)) - 90)
            case 6:
                edit(&entries, newEntry)
                edit(&messages, newMessage)
            default:
                // The same objects by another crew: their authors' positions change.
                crew = Crew(members: crew.members.reversed())
            }
            let library = try ContentLibrary(crew: crew, journalEntries: entries, messages: messages, weatherReports: weather)
            let reusing = PagePlanner(library: library, config: config, reusing: previous.readObjects)
            let reading = PagePlanner(library: library, config: config)
            // As a rebuild plans: skipping the pages the previous build made from the same
            // inputs. A planner may then take the previous planner's plans (the journal's,
            // when no entry changed): they must be those it would make.
            let known = Set(previous.plans().map(\.inputs.value))
            let (reusedSkipping, readSkipping) = (reusing.plans { known.contains($0.value) }, reading.plans { known.contains($0.value) })
            #expect(reusedSkipping.map(\.outputPath) == readSkipping.map(\.outputPath), "step \(step)")
            #expect(reusedSkipping.map(\.url) == readSkipping.map(\.url), "step \(step)")
            #expect(reusedSkipping.map(\.place) == readSkipping.map(\.place), "step \(step)")
            #expect(reusedSkipping.map(\.inputs) == readSkipping.map(\.inputs), "step \(step)")
            #expect(reusedSkipping.map(\.isInSitemap) == readSkipping.map(\.isInSitemap), "step \(step)")
            #expect(reusedSkipping.map { $0.page.map(PageFingerprint.of) } == readSkipping.map { $0.page.map(PageFingerprint.of) },
                    "step \(step)")
            let (reused, read) = (reusing.plans(), reading.plans())
            #expect(reused.map(\.outputPath) == read.map(\.outputPath), "step \(step)")
            #expect(reused.map(\.inputs) == read.map(\.inputs), "step \(step)")
            #expect(reused.map { $0.page.map(PageFingerprint.of) } == read.map { $0.page.map(PageFingerprint.of) }, "step \(step)")
            #expect(Array(reusing.feedFingerprints) == Array(reading.feedFingerprints), "step \(step)")
            #expect(reusing.feedStamps == reading.feedStamps && reusing.feedStamps == Array(reading.feedFingerprints).map(\.stamp), "step \(step)")
            previous = reusing
        }
    }
}
