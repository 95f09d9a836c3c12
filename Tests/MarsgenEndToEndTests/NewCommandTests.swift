import Foundation
import MarsTime
import Site
import Testing

/// `marsgen new entry` and `marsgen new message`, run as an author runs them, on a copy of
/// the demo site: the files they write build into the pages they should.
@Suite(.serialized) struct NewCommandTests {
    func text(_ relative: String, in site: URL) throws -> String {
        try String(contentsOf: site.appendingPathComponent(relative), encoding: .utf8)
    }

    /// A template of the site's own for pages of their own, `templates/roster.mustache`.
    func writeRosterTemplate(in site: URL) throws {
        try Data("<section class=\"roster\">{{{body}}}</section>\n".utf8).write(to: site.appendingPathComponent("templates/roster.mustache"))
    }

    @Test("a new entry: its front matter from the options, a title YAML would misread quoted, a draft unless --no-draft; it builds")
    func entry() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let title = #"Dust "devil": at noon \ #1"#
        let created = try SiteFixture.run(["new", "entry", title, "--author", "vega", "--tag", "eva", "--tag", "dust storm",
                                           "--sol", "14", "--time", "21:30", "--no-draft"], in: site)
        #expect(created.status == 0, "\(created.err)")
        #expect(created.out == "Created content/journal/dust-devil-at-noon-1.md (sol 14, 21:30 LMST)\n")
        #expect(try text("content/journal/dust-devil-at-noon-1.md", in: site) == """
            ---
            title: "Dust \\"devil\\": at noon \\\\ #1"
            author: vega
            sol: 14
            time: "21:30"
            tags: ["eva", "dust storm"]
            ---


            """)
        let draft = try SiteFixture.run(["new", "entry", "Notes", "--author", "okoro", "--sol", "3", "--slug", "sol-03-notes"], in: site)
        #expect(draft.out.hasPrefix("Created content/journal/sol-03-notes.md (sol 3, 12:00 LMST; a draft"), "\(draft.out)")
        #expect(try text("content/journal/sol-03-notes.md", in: site).contains("\ndraft: true\n"))
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        let page = try text("public/journal/dust-devil-at-noon-1/index.html", in: site)
        #expect(page.contains("<h1 class=\"entry-title\">Dust &quot;devil&quot;: at noon \\ #1</h1>"))
        #expect(page.contains("<a href=\"/tags/dust-storm/\" rel=\"tag\">dust storm</a>"))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public/journal/sol-03-notes").path))
        // An entry with no text yet is a warning at it, until it is written.
        #expect(report.warnings.map(\.location?.path) == ["content/journal/dust-devil-at-noon-1.md"])
    }

    @Test("a new page of its own: content/pages/<path>.md, in the navigation with --nav, a draft unless --no-draft; a path its file's name would not give is written as slug:; a path marsgen's pages take, a file that is there or no site is an error, nothing written")
    func page() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let created = try SiteFixture.run(["new", "page", "Quiet hours: rules", "--slug", "station/rules", "--nav", "--no-draft"], in: site)
        #expect(created.status == 0 && created.out == "Created content/pages/station/rules.md (at /station/rules/)\n", "\(created.err)")
        #expect(try text("content/pages/station/rules.md", in: site) == "---\ntitle: \"Quiet hours: rules\"\nnav: true\n---\n\n")
        let draft = try SiteFixture.run(["new", "page", "Version 1.2 notes", "--slug", "v1.2"], in: site)
        #expect(draft.out == "Created content/pages/v1.2.md (at /v1.2/; a draft until you remove 'draft: true')\n", "\(draft.err)")
        #expect(try text("content/pages/v1.2.md", in: site) == "---\ntitle: \"Version 1.2 notes\"\nslug: v1.2\ndraft: true\n---\n\n")
        let made = try SiteFixture.run(["new", "page", "Habitat floor plan"], in: site)
        #expect(made.out == "Created content/pages/habitat-floor-plan.md (at /habitat-floor-plan/; a draft until you remove 'draft: true')\n")

        let reserved = try SiteFixture.run(["new", "page", "Tags", "--slug", "tags/all"], in: site)
        #expect(reserved.status == 1)
        #expect(reserved.err == "error: this page would be at /tags/all/, under /tags, which is marsgen's own\n  hint: give it another path with --slug\n")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("content/pages/tags").path))
        let again = try SiteFixture.run(["new", "page", "Rules", "--slug", "station/rules"], in: site)
        #expect(again.status == 1 && again.err.contains("content/pages/station/rules.md is already there"))
        #expect(try text("content/pages/station/rules.md", in: site).hasPrefix("---\ntitle: \"Quiet hours: rules\""))
        let empty = try SiteFixture.temporaryDirectory("no-site")
        defer { try? FileManager.default.removeItem(at: empty) }
        let noSite = try SiteFixture.run(["new", "page", "About"], in: empty)
        #expect(noSite.status == 1 && noSite.err.hasPrefix("error: no marsgen.yml in ."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)

        try Data("---\ntitle: \"Quiet hours: rules\"\nnav: true\n---\nLights out at 22:00 LMST.\n".utf8)
            .write(to: site.appendingPathComponent("content/pages/station/rules.md"))
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        #expect(try text("public/station/rules/index.html", in: site).contains("<p>Lights out at 22:00 LMST.</p>"))
        #expect(try text("public/journal/index.html", in: site).contains("<a href=\"/station/rules/\">Quiet hours: rules</a>"))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("public/v1.2").path))
    }

    @Test("a new page with a template of the site's own and a description: both in its front matter, and it builds with them; a template the site lacks or marsgen's own is an error, nothing written")
    func pageTemplate() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try writeRosterTemplate(in: site)
        let missing = try SiteFixture.run(["new", "page", "The crew", "--template", "rostr"], in: site)
        #expect(missing.status == 1)
        #expect(missing.err == "templates/rostr.mustache: error: no template 'rostr': templates/rostr.mustache is not there\n  hint: did you mean 'roster'?\n")
        let builtIn = try SiteFixture.run(["new", "page", "The crew", "--template", "page-entry"], in: site)
        #expect(builtIn.status == 1 && builtIn.err.contains("error: 'page-entry' is one of marsgen's templates, for its own pages"))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("content/pages/the-crew.md").path))
        let created = try SiteFixture.run(["new", "page", "The crew", "--template", "roster.mustache", "--description", " Who is on the station: five. ",
                                           "--no-draft"], in: site)
        #expect(created.status == 0 && created.out == "Created content/pages/the-crew.md (at /the-crew/)\n", "\(created.err)")
        #expect(try text("content/pages/the-crew.md", in: site)
                == "---\ntitle: \"The crew\"\ndescription: \"Who is on the station: five.\"\ntemplate: roster\n---\n\n")
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        let page = try text("public/the-crew/index.html", in: site)
        #expect(page.contains("<section class=\"roster\">") && page.contains("<meta name=\"description\" content=\"Who is on the station: five.\">"))
    }

    @Test("a new page from the site's archetype (archetypes/page.md, or --kind): its defaults unless the options say otherwise, its other keys copied, its text rendered; a mistake in it is an error at its line, nothing written")
    func pageArchetype() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try writeRosterTemplate(in: site)
        let folder = site.appendingPathComponent("archetypes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("---\n# Station pages\nnav: true\ntemplate: roster\nweight: 5\n---\n## {{title}}\n\nAt /{{path}}/.\n".utf8)
            .write(to: folder.appendingPathComponent("page.md"))
        let created = try SiteFixture.run(["new", "page", "Air & water", "--slug", "station/air"], in: site)
        #expect(created.status == 0 && created.out == "Created content/pages/station/air.md from archetypes/page.md (at /station/air/; a draft until you remove 'draft: true')\n",
                "\(created.err)")
        #expect(try text("content/pages/station/air.md", in: site)
                == "---\ntitle: \"Air & water\"\ntemplate: roster\nnav: true\ndraft: true\n# Station pages\nweight: 5\n---\n\n## Air & water\n\nAt /station/air/.\n")
        // The options over the archetype's defaults.
        let plain = try SiteFixture.run(["new", "page", "Quiet", "--no-nav", "--no-draft", "--template", "page-standalone"], in: site)
        #expect(plain.status == 0, "\(plain.err)")
        #expect(try text("content/pages/quiet.md", in: site).hasPrefix("---\ntitle: \"Quiet\"\ntemplate: page-standalone\n# Station pages\nweight: 5\n---\n"))
        // Mistakes: no such kind; a template the site lacks, at the archetype's line; a page's own key.
        let missing = try SiteFixture.run(["new", "page", "X", "--kind", "pge"], in: site)
        #expect(missing.status == 1 && missing.err == "archetypes/pge.md: error: no archetype 'pge': archetypes/pge.md is not there\n  hint: did you mean 'page'?\n")
        try Data("---\ntemplate: rostr\n---\n".utf8).write(to: folder.appendingPathComponent("bad.md"))
        let template = try SiteFixture.run(["new", "page", "X", "--kind", "bad"], in: site)
        #expect(template.status == 1 && template.err.hasPrefix("archetypes/bad.md:2:11: error: no template 'rostr'"), "\(template.err)")
        try Data("---\nweight: lots\n---\n".utf8).write(to: folder.appendingPathComponent("worse.md"))
        let weight = try SiteFixture.run(["new", "page", "X", "--kind", "worse"], in: site)
        #expect(weight.status == 1 && weight.err.hasPrefix("archetypes/worse.md:2:9: error: 'weight' must be a whole number"), "\(weight.err)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("content/pages/x.md").path))
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path, includesDrafts: true)).build()
        let page = try text("public/station/air/index.html", in: site)
        #expect(page.contains("<section class=\"roster\">") && page.contains("At /station/air/."))
    }

    @Test("--time with seconds keeps them, in an entry's front matter, a message's heading and a report's times; both build at that second")
    func seconds() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let entry = try SiteFixture.run(["new", "entry", "Exact", "--author", "vega", "--sol", "14", "--time", "21:30:45", "--no-draft"], in: site)
        #expect(entry.out == "Created content/journal/exact.md (sol 14, 21:30:45 LMST)\n", "\(entry.err)")
        #expect(try text("content/journal/exact.md", in: site).contains("\ntime: \"21:30:45\"\n"))
        let message = try SiteFixture.run(["new", "message", "habitat", "Mark.", "--author", "okoro", "--sol", "14", "--time", "21:31:07"], in: site)
        #expect(message.out == "Added a message to content/messages/habitat.md (sol 14, 21:31:07 LMST)\n", "\(message.err)")
        #expect(try text("content/messages/habitat.md", in: site).hasSuffix("\n## Sol 14 21:31:07 okoro\nMark.\n"))
        let weather = try SiteFixture.run(["new", "weather", "--temperature", "-40", "--high", "-20", "--low", "-70", "--sunrise", "05:54:10",
                                           "--sunset", "17:52", "--condition", "clear", "--sol", "15", "--time", "06:00:30"], in: site)
        #expect(weather.status == 0, "\(weather.err)")
        let report = try text("content/weather/sol-15.md", in: site)
        #expect(report.contains("\ntime: \"06:00:30\"\n") && report.contains("\nsunrise: \"05:54:10\"\n") && report.contains("\nsunset: \"17:52\"\n"))
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        let clock = MissionClock(landing: try #require(Instant(iso8601: "2038-11-02T14:17:00Z")), eastLongitude: -58.2, firstSol: 1)
        let page = try text("public/journal/exact/index.html", in: site)
        #expect(page.contains("datetime=\"\(clock.instant(sol: 14, lmst: try #require(MarsClockTime(parsing: "21:30:45"))).iso8601)\""), "\(page)")
    }

    @Test("without --sol, an entry is dated now on the mission clock")
    func now() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        // A mission that landed in the past, so that now is one of its sols.
        let config = site.appendingPathComponent("marsgen.yml")
        try Data(try String(contentsOf: config, encoding: .utf8)
            .replacingOccurrences(of: "landing: 2038-11-02T14:17:00Z", with: "landing: 2021-02-18T20:55:00Z").utf8).write(to: config)
        let clock = MissionClock(landing: try #require(Instant(iso8601: "2021-02-18T20:55:00Z")), eastLongitude: -58.2, firstSol: 1)
        let before = clock.sol(containing: Instant(unixMillis: Int64(Date().timeIntervalSince1970 * 1000)))
        let result = try SiteFixture.run(["new", "entry", "Today", "--author", "vega"], in: site)
        let after = clock.sol(containing: Instant(unixMillis: Int64(Date().timeIntervalSince1970 * 1000)))
        #expect(result.status == 0, "\(result.err)")
        let file = try text("content/journal/today.md", in: site)
        #expect((before...after).contains { file.contains("\nsol: \($0)\n") }, "\(file)")
        #expect(file.range(of: #"\ntime: "\d\d:\d\d"\n"#, options: .regularExpression) != nil)
    }

    @Test("a message is added to its log under its heading, or starts a new log; both build")
    func message() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let log = try text("content/messages/habitat.md", in: site)
        let added = try SiteFixture.run(["new", "message", "habitat", "Liftoff in 3.", "--author", "okoro", "--sol", "14",
                                         "--time", "21:40"], in: site)
        #expect(added.status == 0, "\(added.err)")
        #expect(added.out == "Added a message to content/messages/habitat.md (sol 14, 21:40 LMST)\n")
        let separator = log.hasSuffix("\n") ? "\n" : "\n\n"
        #expect(try text("content/messages/habitat.md", in: site) == log + separator + "## Sol 14 21:40 okoro\nLiftoff in 3.\n")
        let started = try SiteFixture.run(["new", "message", "rover", "First drive.", "--author", "arden", "--sol", "14", "--time", "21:45"],
                                          in: site)
        #expect(started.status == 0, "\(started.err)")
        #expect(try text("content/messages/rover.md", in: site) == "---\nchannel: rover\n---\n## Sol 14 21:45 arden\nFirst drive.\n")
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let sol = try text("public/sol/14/index.html", in: site)
        #expect(sol.contains("Liftoff in 3.") && sol.contains("First drive."))
    }

    @Test("a message's text read from standard input; a text that would make two messages, or none, is an error that leaves the log as it was")
    func messageFromStandardInput() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let when = ["--author", "okoro", "--sol", "14", "--time", "21:40"]
        let piped = "Hatch sealed.\n\n### Checklist\n\n- suits\n- lights\n\n"
        let log = try text("content/messages/habitat.md", in: site)
        let added = try SiteFixture.run(["new", "message", "habitat", "-"] + when, in: site, input: Data(piped.utf8))
        #expect(added.status == 0, "\(added.err)")
        let separator = log.hasSuffix("\n") ? "\n" : "\n\n"
        let expected = log + separator + "## Sol 14 21:40 okoro\nHatch sealed.\n\n### Checklist\n\n- suits\n- lights\n"
        #expect(try text("content/messages/habitat.md", in: site) == expected)
        // No text argument at all: standard input too.
        let bare = try SiteFixture.run(["new", "message", "rover"] + when, in: site, input: Data("First drive.\n".utf8))
        #expect(bare.status == 0, "\(bare.err)")
        #expect(try text("content/messages/rover.md", in: site) == "---\nchannel: rover\n---\n## Sol 14 21:40 okoro\nFirst drive.\n")
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let sol = try text("public/sol/14/index.html", in: site)
        #expect(sol.contains("Hatch sealed.") && sol.contains("<li>lights</li>") && sol.contains("First drive."))
        // Refused, with the log left as it was.
        let refused: [(input: String, error: String, hint: String)] = [
            ("Up.\n\n## Down\n", "error: line 3 of the text is a level-two heading ('Down'), which starts a new message in a log",
             "make it '### Down' for a heading within the message, or add each message on its own"),
            ("Totals\n---\n", "error: line 1 of the text is a level-two heading ('Totals'), which starts a new message in a log",
             "make it '### Totals' for a heading within the message, or add each message on its own"),
            (" \n\n", "error: the message has no text", "give its text after the log's name, or pipe it in"),
        ]
        for (input, error, hint) in refused {
            let run = try SiteFixture.run(["new", "message", "habitat", "-"] + when, in: site, input: Data(input.utf8))
            #expect(run.status != 0 && run.err == "\(error)\n  hint: \(hint)\n", "\(input)")
            #expect(try text("content/messages/habitat.md", in: site) == expected)
        }
        let notUTF8 = try SiteFixture.run(["new", "message", "habitat"] + when, in: site, input: Data([0x48, 0xFF, 0x0A]))
        #expect(notUTF8.status != 0 && notUTF8.err.hasPrefix("error: the text on standard input is not UTF-8\n"))
        // The same check for a text given as an argument.
        let argument = try SiteFixture.run(["new", "message", "habitat", "## Sol 3 10:00 vega"] + when, in: site)
        #expect(argument.status != 0 && argument.err.contains("is a level-two heading ('Sol 3 10:00 vega')"))
        #expect(try text("content/messages/habitat.md", in: site) == expected)
    }

    @Test("a weather report: its readings as given (temperatures below zero too), the condition as written in any case, its notes; one a sol")
    func weather() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let arguments = ["new", "weather", "--temperature", "-41.5", "--high", "-20", "--low", "-70", "--sunrise", "05:50",
                         "--sunset", "17:55", "--condition", "Dust Storm", "--sol", "15", "Opacity τ 1.9."]
        let created = try SiteFixture.run(arguments, in: site)
        #expect(created.status == 0, "\(created.err)")
        #expect(created.out == "Created content/weather/sol-15.md (sol 15)\n")
        #expect(try text("content/weather/sol-15.md", in: site) == """
            ---
            sol: 15
            temperature: -41.5
            high: -20
            low: -70
            sunrise: "05:50"
            sunset: "17:55"
            condition: dust storm
            ---
            Opacity τ 1.9.

            """)
        let again = try SiteFixture.run(arguments, in: site)
        #expect(again.status == 1 && again.err.contains("content/weather/sol-15.md is already there\n  hint: a sol has one report: edit it"))
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(report.weatherReports == 15)
        #expect(try text("public/index.html", in: site).contains("-41.5 °C"))
    }

    @Test("a weather report's notes read from standard input with -; more than 1 MB piped in is refused, nothing written")
    func weatherNotesFromStandardInput() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let arguments = ["new", "weather", "--temperature", "-40", "--high", "-20", "--low", "-70", "--sunrise", "05:50",
                         "--sunset", "17:55", "--condition", "clear", "--sol", "15", "-"]
        let created = try SiteFixture.run(arguments, in: site, input: Data("Opacity τ 0.4.\n\nFrost on the **mast** at dawn.\n".utf8))
        #expect(created.status == 0, "\(created.err)")
        #expect(try text("content/weather/sol-15.md", in: site).hasSuffix("---\nOpacity τ 0.4.\n\nFrost on the **mast** at dawn.\n"))
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(try text("public/sol/15/index.html", in: site).contains("Frost on the <strong>mast</strong> at dawn."))
        // Too much: refused before anything is written, for a message too.
        let large = Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1)
        let refused = try SiteFixture.run(arguments.map { $0 == "15" ? "16" : $0 }, in: site, input: large)
        #expect(refused.status != 0 && refused.err == "error: the text on standard input is over 1 MB\n  hint: write the notes in the file itself, or pipe in less\n")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("content/weather/sol-16.md").path))
        let log = try text("content/messages/habitat.md", in: site)
        let message = try SiteFixture.run(["new", "message", "habitat", "-", "--author", "okoro", "--sol", "14", "--time", "21:40"], in: site, input: large)
        #expect(message.status != 0 && message.err.hasPrefix("error: the text on standard input is over 1 MB\n"))
        #expect(try text("content/messages/habitat.md", in: site) == log)
        // Standard input that cannot be read (a folder): an error, nothing written.
        let folder = try SiteFixture.run(arguments.map { $0 == "15" ? "16" : $0 }, in: site, inputFile: site.appendingPathComponent("content"))
        #expect(folder.status != 0 && folder.err.hasPrefix("error: cannot read standard input"), "\(folder.err)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("content/weather/sol-16.md").path))
        // Exactly 1 MB is taken.
        let most = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        let taken = try SiteFixture.run(arguments.map { $0 == "15" ? "17" : $0 }, in: site, input: most)
        #expect(taken.status == 0, "\(taken.err)")
    }

    /// Writes `text` as the demo site's archetype `kind`.
    func archetype(_ kind: String, _ text: String, in site: URL) throws {
        let folder = site.appendingPathComponent("archetypes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("\(kind).md"))
    }

    @Test("archetypes/entry.md starts every new entry: its keys copied as written, its author, tags and draft defaults, its text rendered unescaped; it builds")
    func archetypeByDefault() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try archetype("entry", """
            ---
            # A crew's daily report.
            author: okoro
            description: "Daily report" # shown in search results
            tags: [daily-report]
            draft: false
            extra:
              eva: false
            ---

            ## Sol {{sol}}, {{time}}: {{title}}

            Filed by {{author_name}} ({{author}}) at {{date}}, as {{slug}};{{#tags}} #{{.}}{{/tags}}.

            """, in: site)
        let created = try SiteFixture.run(["new", "entry", #"R&D "day""#, "--tag", "eva", "--sol", "14", "--time", "21:30"], in: site)
        #expect(created.status == 0, "\(created.err)")
        #expect(created.err.isEmpty, "\(created.err)")
        #expect(created.out == "Created content/journal/r-d-day.md from archetypes/entry.md (sol 14, 21:30 LMST)\n")
        #expect(try text("content/journal/r-d-day.md", in: site) == """
            ---
            title: "R&D \\"day\\""
            author: okoro
            sol: 14
            time: "21:30"
            tags: ["daily-report", "eva"]
            # A crew's daily report.
            description: "Daily report" # shown in search results
            extra:
              eva: false
            ---

            ## Sol 14, 21:30: R&D "day"

            Filed by Daniel Okoro (okoro) at 2038-11-16T20:25:18.737Z, as r-d-day; #daily-report #eva.

            """)
        // The options win over its defaults: another author, a draft.
        let other = try SiteFixture.run(["new", "entry", "Second", "--author", "vega", "--tag", "daily-report", "--draft", "--sol", "14"], in: site)
        #expect(other.status == 0, "\(other.err)")
        let second = try text("content/journal/second.md", in: site)
        #expect(second.contains("\nauthor: vega\n") && second.contains("\ntags: [\"daily-report\"]\n") && second.contains("\ndraft: true\n"), "\(second)")
        #expect(second.contains("Filed by Ines Vega (vega)"), "\(second)")
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: site.path)).build()
        let page = try text("public/journal/r-d-day/index.html", in: site)
        #expect(page.contains(">Sol 14, 21:30: R&amp;D &quot;day&quot;</h2>"), "\(page)")
        #expect(page.contains("<meta name=\"description\" content=\"Daily report\">"))
    }

    @Test("--kind picks archetypes/<kind>.md; without archetypes/entry.md an entry starts empty; an unknown kind names the likeliest")
    func archetypeKinds() throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try archetype("eva", "## EVA {{sol}}\n\nSuits:\n", in: site)
        let plain = try SiteFixture.run(["new", "entry", "Plain", "--author", "vega", "--sol", "14"], in: site)
        #expect(plain.out == "Created content/journal/plain.md (sol 14, 12:00 LMST; a draft until you remove 'draft: true')\n", "\(plain.err)")
        #expect(try text("content/journal/plain.md", in: site).hasSuffix("draft: true\n---\n\n"))
        let eva = try SiteFixture.run(["new", "entry", "Walk", "--author", "vega", "--sol", "14", "--kind", "eva"], in: site)
        #expect(eva.status == 0, "\(eva.err)")
        #expect(try text("content/journal/walk.md", in: site).hasSuffix("draft: true\n---\n\n## EVA 14\n\nSuits:\n"))
        // Run from elsewhere: a warning's path is shown from there, as an error's is.
        try archetype("note", "{{titel}}\n", in: site)
        let elsewhere = try SiteFixture.run(["new", "entry", "Note", "--author", "vega", "--sol", "14", "--kind", "note", "--source", site.path],
                                           in: site.deletingLastPathComponent())
        #expect(elsewhere.status == 0)
        #expect(elsewhere.err.hasPrefix("\(site.path)/archetypes/note.md:1:1: warning: '{{titel}}' names nothing"), "\(elsewhere.err)")
        let before = try SiteFixture.snapshot(site.appendingPathComponent("content"))
        let typo = try SiteFixture.run(["new", "entry", "Walk 2", "--author", "vega", "--sol", "14", "--kind", "evaa"], in: site)
        #expect(typo.status == 1)
        #expect(typo.err == "archetypes/evaa.md: error: no archetype 'evaa': archetypes/evaa.md is not there\n  hint: did you mean 'eva'?\n")
        #expect(try SiteFixture.snapshot(site.appendingPathComponent("content")) == before, "content changed")
    }

    @Test("an archetype's mistakes are errors at its lines, nothing written: a key each entry has its own, a value the build refuses, keys in braces, a template not closed, an unknown author; a misspelt name is a warning",
          arguments: [
              ("---\nextra:\n  a: 1\nsol: 4\n---\nText\n",
               "archetypes/entry.md:4:1: error: 'sol' is each entry's own: an archetype may not set it\n"
                  + "  hint: remove it from the archetype; give --sol and --time to marsgen new entry\n"),
              ("---\nextra:\n  a: 1\nsummary: Daily\ntoc: maybe\n---\nText\n",
               "archetypes/entry.md:4:1: warning: unknown key 'summary' in journal front matter is ignored\n  hint: marsgen calls it 'description'\n"
                  + "archetypes/entry.md:5:6: error: 'toc' must be true or false, not 'maybe'\n  hint: write 'toc: true' or 'toc: false'\n"),
              ("---\n{tags: [a]}\n---\nText\n",
               "archetypes/entry.md:2:2: error: an archetype's front matter is written one key a line, each at the start of its line\n"
                  + "  hint: write 'tags: …' on a line of its own, not within braces\n"),
              ("---\ndraft: false\n---\n\n{{#tags}}\n- {{.}}\n",
               "archetypes/entry.md:7:1: error: template syntax error: a section is never closed\n"),
              ("---\nauthor: vgea\n---\nText\n", "archetypes/entry.md:2:9: error: unknown crew id 'vgea'\n  hint: did you mean 'vega'?\n"),
              ("---\nextra: [1, 2]\n---\nText\n", "archetypes/entry.md:2:8: error: "),
              ("Text\n\n{{titel}}\n", "archetypes/entry.md:3:1: warning: '{{titel}}' names nothing: it is left empty\n  hint: did you mean '{{title}}'?\n"),
          ] as [(String, String)])
    func archetypeErrors(archetypeText: String, expected: String) throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        try archetype("entry", archetypeText, in: site)
        let before = try SiteFixture.snapshot(site.appendingPathComponent("content"))
        let result = try SiteFixture.run(["new", "entry", "X", "--author", "okoro", "--sol", "14"], in: site)
        #expect(result.err.hasPrefix(expected), "\(result.err)")
        if expected.contains("error:") {
            #expect(result.status == 1)
            #expect(try SiteFixture.snapshot(site.appendingPathComponent("content")) == before, "content changed")
        } else {
            #expect(result.status == 0)
            #expect(try text("content/journal/x.md", in: site).hasSuffix("---\n\nText\n"))
        }
    }

    @Test("an unknown or missing author, a file already there, a time without a sol, and a sol before the landing are errors that say what to do",
          arguments: [
              (["new", "entry", "X", "--author", "vgea", "--sol", "3"], "error: unknown crew id 'vgea'\n  hint: did you mean 'vega'?\n"),
              (["new", "entry", "X", "--sol", "3"], "error: whose is it? give --author\n  hint: the crew's ids: vega, okoro, lindqvist, tanaka, arden\n"),
              (["new", "entry", "Touchdown", "--author", "vega", "--sol", "1", "--slug", "sol-01-touchdown"],
               "content/journal/sol-01-touchdown.md: error: content/journal/sol-01-touchdown.md is already there\n"
                  + "  hint: edit it, or give the new one another name (--slug)\n"),
              (["new", "entry", "X", "--author", "vega"],
               "marsgen.yml: error: it is not yet sol 1 on the mission clock: the landing is 2038-11-02T14:17:00Z\n"
                  + "  hint: give the sol and time it is in the story, like '--sol 12 --time 14:05'\n"),
              (["new", "message", "habitat", "Hi", "--author", "vega", "--time", "10:00"], "Error: --time needs --sol: the local time on which sol?\n"),
              (["new", "weather", "--temperature", "-1", "--high", "0", "--low", "-2", "--sunrise", "05:50", "--sunset", "17:55",
                "--condition", "sunny", "--sol", "15"], "Error: --condition must be one of: clear, cloudy, dust storm, windy, snow, fog\n"),
          ] as [([String], String)])
    func errors(arguments: [String], expected: String) throws {
        let site = try SiteFixture.copyOfDemoSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let before = try SiteFixture.snapshot(site.appendingPathComponent("content"))
        let result = try SiteFixture.run(arguments, in: site)
        #expect(result.status != 0)
        #expect(result.err.hasPrefix(expected), "\(result.err)")
        #expect(try SiteFixture.snapshot(site.appendingPathComponent("content")) == before, "content changed")
    }
}
