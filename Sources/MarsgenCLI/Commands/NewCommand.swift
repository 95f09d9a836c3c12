import ArgumentParser
import Content
import Diagnostics
import Foundation
import MarsTime
import Rendering
import Site
import SiteConfig

/// `marsgen new entry|message|weather|page`: starts a journal entry's file, adds a message
/// to a log, or writes a sol's weather report, dated now on the mission clock (or at `--sol`
/// and `--time`), or starts a page of its own, as Hugo's `hugo new` does.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Start a journal entry, add a message to a log, or write a sol's weather report, dated now on the mission clock; or start a page of its own.",
        subcommands: [NewEntryCommand.self, NewMessageCommand.self, NewWeatherCommand.self, NewPageCommand.self]
    )
}

/// Where and when: the site, and the sol and time (now on the mission clock by default).
struct NewContentWhen: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The sol (default: the sol it is now on the mission clock).", valueName: "n"))
    var sol: Int?

    @Option(name: .long, help: ArgumentHelp("The local mean solar time HH:MM[:SS], with --sol (default: now; with --sol, noon).",
                                            valueName: "time"))
    var time: String?

    @Option(name: .long, help: ArgumentHelp("The site's folder, holding marsgen.yml.", valueName: "dir"))
    var source = "."

    func validate() throws {
        if sol == nil, time != nil { throw ValidationError("--time needs --sol: the local time on which sol?") }
        if let time, MarsClockTime(parsing: time) == nil {
            throw ValidationError("--time must be HH:MM or HH:MM:SS on the 24-hour clock, like 14:05")
        }
    }

    /// The site's configuration, and the sol and time.
    func resolve() throws(Diagnostic) -> (config: SiteConfiguration, sol: Int, time: MarsClockTime) {
        guard let config = try SiteBuilder.configuration(ofSiteIn: source) else {
            throw Diagnostic.error("no \(SiteConfiguration.fileName) in \(source)",
                                   hint: "run it in a site's folder, or pass --source with it ('marsgen init' starts one)")
        }
        let clock = config.mission.clock
        if let sol {
            let time = time.flatMap { MarsClockTime(parsing: $0) } ?? MarsClockTime(secondsOfSol: 12 * 3600)
            return (config, sol, time)
        }
        let now = Instant.now
        let sol = clock.sol(containing: now)
        guard sol >= clock.firstSol else {
            throw Diagnostic.error("it is not yet sol \(clock.firstSol) on the mission clock: the landing is \(clock.landing.iso8601)",
                                   at: SourceLocation(path: SiteConfiguration.fileName),
                                   hint: "give the sol and time it is in the story, like '--sol 12 --time 14:05'")
        }
        // Now, to the minute: a person dates a note so; seconds only when given (`--time`).
        return (config, sol, clock.localMeanSolarTime(at: now).wholeMinute)
    }

    /// `relative` in the site's folder.
    func path(_ relative: String) -> String { (source as NSString).appendingPathComponent(relative) }

    /// Runs `body`; an error it throws is reported, paths shown from where marsgen runs, and
    /// the command exits with status 1.
    func reportingFailure(_ body: () throws(Diagnostic) -> Void) throws {
        try Self.reportingFailure(in: source, body)
    }

    /// Runs `body` for the site in `source`; an error it throws is reported, paths shown from
    /// where marsgen runs, and the command exits with status 1.
    static func reportingFailure(in source: String, _ body: () throws(Diagnostic) -> Void) throws {
        do {
            try body()
        } catch {
            Console.report(error, shownAfter: Console.shownFolder(source))
            throw ExitCode.failure
        }
    }
}

/// What an entry and a message take besides: their author.
struct NewContentOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The crew id of the author (default: the crew's only member).", valueName: "id"))
    var author: String?

    @OptionGroup var when: NewContentWhen

    var source: String { when.source }

    /// The site's configuration, the author (checked against the crew) and the sol and time.
    func resolve() throws(Diagnostic) -> (config: SiteConfiguration, author: String, sol: Int, time: MarsClockTime) {
        let (config, sol, time) = try when.resolve()
        return (config, try resolveAuthor(in: try crew()), sol, time)
    }

    /// The site's crew, from `content/crew.yml`.
    func crew() throws(Diagnostic) -> Crew {
        guard let bytes = FileManager.default.contents(atPath: path(CrewLoader.path)) else {
            throw Diagnostic.error("no crew file, so no author", at: SourceLocation(path: CrewLoader.path),
                                   hint: "add content/crew.yml with one entry per crew member")
        }
        var log = DiagnosticLog()
        return try CrewLoader.load(try SourceFile(path: CrewLoader.path, bytes: Array(bytes)), log: &log)
    }

    /// The author: `--author`, else `fallback` (an archetype's, where it is written), else
    /// the crew's only member; checked against the crew.
    func resolveAuthor(in crew: Crew, fallback: (id: String, location: SourceLocation)? = nil) throws(Diagnostic) -> String {
        let ids = crew.members.map(\.id)
        func unknown(_ id: String, at location: SourceLocation?) -> Diagnostic {
            let near = id.closestMatch(among: ids) ?? crew.members.first { $0.name.lowercased().contains(id.lowercased()) }?.id
            return Diagnostic.error("unknown crew id '\(id)'", at: location,
                                    hint: near.map { "did you mean '\($0)'?" } ?? "the crew's ids: \(ids.joined(separator: ", "))")
        }
        // An archetype's author is checked whether or not --author replaces it: its mistake
        // is found at its first use.
        if let fallback, crew.member(id: fallback.id) == nil { throw unknown(fallback.id, at: fallback.location) }
        guard let author = author ?? fallback?.id else {
            if ids.count == 1, let only = ids.first { return only }
            throw Diagnostic.error("whose is it? give --author", hint: "the crew's ids: \(ids.joined(separator: ", "))")
        }
        guard crew.member(id: author) != nil else { throw unknown(author, at: nil) }
        return author
    }

    /// `relative` in the site's folder.
    func path(_ relative: String) -> String { when.path(relative) }
}

/// `marsgen new entry TITLE`: writes `content/journal/<slug>.md` with its front matter.
struct NewEntryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entry",
        abstract: "Start a journal entry: content/journal/<slug>.md, its front matter filled in.",
        discussion: """
              marsgen new entry "Dust devil at noon" --author vega --tag eva
              marsgen new entry "Sol 12 report" --sol 12 --time 17:40 --no-draft
            """
    )

    @Argument(help: "The entry's title.")
    var title: String

    @OptionGroup var options: NewContentOptions

    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag (repeat for more).", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .long, help: ArgumentHelp("Its slug (default: made from the title).", valueName: "slug"))
    var slug: String?

    @Option(name: .long, help: ArgumentHelp("The archetype to start from: archetypes/<kind>.md (default: archetypes/entry.md, when the site has it).",
                                            valueName: "kind"))
    var kind: String?

    /// A draft by default, as `hugo new` makes one: an entry just started is not for readers
    /// yet. Nil when neither is given: the archetype's `draft`, else a draft.
    @Flag(inversion: .prefixedNo, help: "Mark it 'draft: true' (built only with --drafts until you remove it; the default).")
    var draft: Bool?

    func validate() throws {
        if let slug, !Slug.isValid(slug) { throw ValidationError("--slug may use only lowercase letters, digits, '-' and '_'") }
        if let kind, !Slug.isValid(kind) { throw ValidationError("--kind may use only lowercase letters, digits, '-' and '_'") }
    }

    func run() throws {
        try options.when.reportingFailure { () throws(Diagnostic) in
            let (config, sol, time) = try options.when.resolve()
            let crew = try options.crew()
            let archetype = try loadArchetype()
            let author = try options.resolveAuthor(in: crew, fallback: archetype?.author)
            var tags = archetype?.tags ?? []
            for tag in self.tags where !tags.contains(tag) { tags.append(tag) }
            let isDraft = draft ?? archetype?.isDraft ?? true
            var entry = NewJournalEntry(title: title, author: author, sol: sol, time: time, tags: tags, isDraft: isDraft, slug: slug)
            if let archetype {
                entry.otherFrontMatter = archetype.otherFrontMatter.map(\.text)
                let template = try TextTemplate(archetype.body, path: archetype.path, firstLine: archetype.bodyFirstLine,
                                                names: Archetype.Form.entry.names)
                template.warnings.forEach(report)
                entry.body = template.render([
                    "title": title, "slug": entry.slug, "sol": sol, "time": time.writtenText,
                    "date": config.mission.clock.instant(sol: sol, lmst: time).iso8601,
                    "author": author, "author_name": crew.member(id: author)?.name ?? author, "tags": tags,
                ])
                try check(entry, madeFrom: archetype, context: ContentContext(config: config, crew: crew))
            }
            try NewContentFile.create(entry.path, text: entry.text, in: options.when.source)
            let from = archetype.map { " from \($0.path)" } ?? ""
            Console.out("Created \(entry.path)\(from) (sol \(sol), \(time.writtenText) LMST\(isDraft ? "; a draft until you remove 'draft: true'" : ""))")
        }
    }

    /// The archetype of `--kind`, or `archetypes/entry.md` when there is one; nil without.
    private func loadArchetype() throws(Diagnostic) -> Archetype? {
        try Archetype.load(kind: kind, form: .entry, in: options.source)
    }

    /// Reads `entry` as a build will (see ``Archetype/check(_:at:firstCopiedLine:in:load:)``).
    private func check(_ entry: NewJournalEntry, madeFrom archetype: Archetype, context: ContentContext) throws(Diagnostic) {
        try archetype.check(entry.text, at: entry.path, firstCopiedLine: entry.otherFrontMatterFirstLine, in: options.source) {
            file, log throws(Diagnostic) in _ = try JournalLoader.load(file, context: context, log: &log)
        }
    }

    /// Prints a warning, its path shown from where marsgen runs, as the command's error is.
    private func report(_ warning: Diagnostic) {
        Console.report(warning, shownAfter: Console.shownFolder(options.source))
    }
}

extension Archetype {
    /// The archetype of `kind` in the site at `source`, or of the form's default kind
    /// (`archetypes/entry.md`) when `kind` is nil and the site has it; nil without.
    ///
    /// - Throws: A ``Diagnostic`` for a `kind` the site has no archetype of (with the
    ///   likeliest, or the site's archetypes), or an archetype that cannot be read.
    static func load(kind: String?, form: Form, in source: String) throws(Diagnostic) -> Archetype? {
        let relative = path(ofKind: kind ?? form.defaultKind)
        guard let bytes = FileManager.default.contents(atPath: (source as NSString).appendingPathComponent(relative)) else {
            guard let kind else { return nil }
            let folder = (source as NSString).appendingPathComponent(Archetype.folder)
            let kinds = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.sorted()
            let near = kind.closestMatch(among: kinds)
            throw Diagnostic.error("no archetype '\(kind)': \(relative) is not there", at: SourceLocation(path: relative),
                                   hint: near.map { "did you mean '\($0)'?" }
                                       ?? (kinds.isEmpty ? "write \(relative), the front matter and text new ones start with"
                                           : "the site's archetypes: \(kinds.joined(separator: ", "))"))
        }
        return try Archetype(parsing: try SourceFile(path: relative, bytes: Array(bytes)), form: form)
    }

    /// Reads `text`, a new file at `path` this archetype made, as a build will (`load`), so
    /// that an archetype making files the build refuses is found now, with nothing written:
    /// a problem on a line copied from the archetype (those from `firstCopiedLine` on) is
    /// reported there, any other at the file's line, naming the archetype. Warnings are
    /// printed, as a build prints them, those before an error too.
    func check(_ text: String, at path: String, firstCopiedLine: Int, in source: String,
               load: (SourceFile, inout DiagnosticLog) throws(Diagnostic) -> Void) throws(Diagnostic) {
        func located(_ diagnostic: Diagnostic) -> Diagnostic {
            var diagnostic = diagnostic
            if let location = diagnostic.location, location.path == path,
               otherFrontMatter.indices.contains(location.line - firstCopiedLine) {
                diagnostic.location = SourceLocation(path: self.path, line: otherFrontMatter[location.line - firstCopiedLine].line,
                                                     column: location.column)
            } else {
                diagnostic.hint = [diagnostic.hint, "the file as \(self.path) makes it"].compactMap(\.self).joined(separator: "; ")
            }
            return diagnostic
        }
        var log = DiagnosticLog()
        let failure: Diagnostic?
        do {
            try load(try SourceFile(path: path, bytes: Array(text.utf8)), &log)
            failure = nil
        } catch {
            failure = error
        }
        log.warnings.map(located).forEach { Console.report($0, shownAfter: Console.shownFolder(source)) }
        if let failure { throw located(failure) }
    }
}

/// `marsgen new message LOG TEXT`: adds `## Sol N HH:MM author` and the text to a log.
struct NewMessageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "message",
        abstract: "Add a message to content/messages/<log>.md (a new log when there is none), dated now.",
        discussion: """
              marsgen new message habitat "Cabin pressure steady at 70.3 kPa." --author okoro
              fortune | marsgen new message habitat -
            """
    )

    @Argument(help: ArgumentHelp("The log's name: content/messages/<log>.md.", valueName: "log"))
    var log: String

    @Argument(help: ArgumentHelp("The message's text (Markdown); '-' or none reads it from standard input.", valueName: "text"))
    var text: String?

    @OptionGroup var options: NewContentOptions

    func validate() throws {
        guard Slug.isValid(log) else { throw ValidationError("the log's name may use only lowercase letters, digits, '-' and '_'") }
    }

    func run() throws {
        try options.when.reportingFailure { () throws(Diagnostic) in
            let text = try messageText()
            let (_, author, sol, time) = try options.resolve()
            let message = NewMessage(author: author, sol: sol, time: time, text: text)
            let relative = NewMessage.path(ofLog: log)
            let path = options.path(relative)
            if FileManager.default.fileExists(atPath: path) {
                guard let handle = FileHandle(forUpdatingAtPath: path) else {
                    throw Diagnostic.error("cannot write to the log", at: SourceLocation(path: relative), hint: "check that you may write in it")
                }
                defer { try? handle.close() }
                do {
                    // Only the log's end decides what goes before the heading: it is not read whole.
                    let size = try handle.seekToEnd()
                    try handle.seek(toOffset: size - min(size, 4))
                    let end = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
                    try handle.write(contentsOf: Data(message.appended(to: end).utf8))
                } catch {
                    throw Diagnostic.error("cannot write to the log: \(error.localizedDescription)", at: SourceLocation(path: relative),
                                           hint: "check that you may write in it and the disk has room")
                }
            } else {
                let header = NewMessage.logHeader(log)
                try NewContentFile.create(relative, text: header + message.appended(to: header), in: options.when.source)
            }
            Console.out("Added a message to \(relative) (sol \(sol), \(time.writtenText) LMST)")
        }
    }

    /// The text given, or read from standard input (`-`, or none given), checked to make
    /// one message.
    private func messageText() throws(Diagnostic) -> String {
        var text = self.text ?? "-"
        if text == "-" {
            text = try StandardInput.text(for: "the message",
                                          hint: "give it after the log's name, or pipe it in: echo 'Hatch sealed.' | marsgen new message \(log) -")
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            throw Diagnostic.error("the message has no text", hint: "give its text after the log's name, or pipe it in")
        }
        if let problem = NewMessage.problem(inText: text) { throw Diagnostic.error(problem.message, hint: problem.hint) }
        return text
    }
}

/// `marsgen new weather`: writes `content/weather/sol-NN.md`, the sol's one report.
struct NewWeatherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather",
        abstract: "Write a sol's weather report: content/weather/sol-<sol>.md.",
        discussion: """
              marsgen new weather --temperature -38 --high -22 --low -61 --sunrise 05:54 --sunset 17:52 --condition "dust storm"
            """
    )

    // Unconditional: a Martian temperature is mostly below zero, `--low -61`, not an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The temperature now, °C.", valueName: "c"))
    var temperature: Double

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The sol's high, °C.", valueName: "c"))
    var high: Double

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The sol's low, °C.", valueName: "c"))
    var low: Double

    @Option(name: .long, help: ArgumentHelp("Sunrise, LMST HH:MM[:SS].", valueName: "time"))
    var sunrise: String

    @Option(name: .long, help: ArgumentHelp("Sunset, LMST HH:MM[:SS].", valueName: "time"))
    var sunset: String

    @Option(name: .long, help: ArgumentHelp("The sky: clear, cloudy, dust storm, windy, snow or fog.", valueName: "sky"))
    var condition: String

    @Argument(help: "Notes in Markdown (optional; - reads them from standard input).")
    var notes: String = ""

    @OptionGroup var when: NewContentWhen

    func validate() throws {
        for (name, value) in [("--sunrise", sunrise), ("--sunset", sunset)] where MarsClockTime(parsing: value) == nil {
            throw ValidationError("\(name) must be HH:MM or HH:MM:SS on the 24-hour clock, like 05:54")
        }
        guard WeatherCondition(rawValue: condition.lowercased()) != nil else {
            throw ValidationError("--condition must be one of: \(WeatherCondition.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if low > high { throw ValidationError("--low is above --high") }
    }

    func run() throws {
        try when.reportingFailure { () throws(Diagnostic) in
            let (_, sol, time) = try when.resolve()
            guard let rise = MarsClockTime(parsing: sunrise), let set = MarsClockTime(parsing: sunset),
                  let sky = WeatherCondition(rawValue: condition.lowercased()) else {
                throw Diagnostic.error("internal: --sunrise, --sunset or --condition unread after they were checked")
            }
            let notes = self.notes == "-"
                ? try StandardInput.text(for: "the notes", hint: "give them after the options, or pipe them in: cat notes.md | marsgen new weather … -")
                : self.notes
            let report = NewWeatherReport(sol: sol, temperature: temperature, high: high, low: low, sunrise: rise, sunset: set,
                                          condition: sky, notes: notes, time: when.time == nil ? nil : time)
            try NewContentFile.create(report.path, text: report.text, in: when.source, ifThere: "a sol has one report: edit it")
            Console.out("Created \(report.path) (sol \(sol))")
        }
    }
}

/// A text piped to `marsgen new` (`-` in place of it).
enum StandardInput {
    /// The most read: a message or notes longer than this is a mistake (a file piped in
    /// whole, a command that never ends), not a text of a log.
    static let limit = 1 << 20

    /// Standard input, read whole, as UTF-8 text for `what`; `hint` says how to give it
    /// when standard input is a terminal, where nothing is piped.
    static func text(for what: String, hint: String) throws(Diagnostic) -> String {
        let input = FileHandle.standardInput
        guard isatty(input.fileDescriptor) == 0 else { throw Diagnostic.error("no text for \(what)", hint: hint) }
        var bytes = Data()
        do {
            while bytes.count <= limit, let chunk = try input.read(upToCount: 64 * 1024), !chunk.isEmpty { bytes.append(chunk) }
        } catch {
            // Part of a text is not the text: nothing is written. (Foundation's description
            // of a read error names no cause a reader could act on.)
            throw Diagnostic.error("cannot read standard input (a folder, or a device that failed?)", hint: "pipe \(what) in from a file or a command")
        }
        guard bytes.count <= limit else {
            throw Diagnostic.error("the text on standard input is over 1 MB", hint: "write \(what) in the file itself, or pipe in less")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Diagnostic.error("the text on standard input is not UTF-8", hint: "convert it first, for example with iconv -t UTF-8")
        }
        return text
    }
}

struct NewPageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract: "Start a page of its own: content/pages/<path>.md, at /<path>/ (an about page, the habitat's rules).",
        discussion: """
              marsgen new page "About the mission" --nav --slug about
              marsgen new page "Quiet hours" --slug station/rules --no-draft
              marsgen new page "The crew" --template roster --description "Who is on the station."
            """
    )

    @Argument(help: "The page's title.")
    var title: String

    @Option(name: .long, help: ArgumentHelp("Its path from the site's root, folders separated by '/' (default: made from the title).",
                                            valueName: "path"))
    var slug: String?

    /// Nil when neither is given: the archetype's `nav`, else not in the navigation.
    @Flag(inversion: .prefixedNo, help: "Link to it from the navigation of every page ('nav: true'; default: the archetype's, else not).")
    var nav: Bool?

    @Option(name: .long, help: ArgumentHelp("What it is about, for its card, link previews and search engines.", valueName: "text"))
    var description: String?

    @Option(name: .long, help: ArgumentHelp("A template of the site's own to render it with: templates/<name>.mustache.", valueName: "name"))
    var template: String?

    @Option(name: .long, help: ArgumentHelp("The archetype to start from: archetypes/<kind>.md (default: archetypes/page.md, when the site has it).",
                                            valueName: "kind"))
    var kind: String?

    /// A draft by default; nil when neither is given: the archetype's `draft`, else a draft.
    @Flag(inversion: .prefixedNo, help: "Mark it 'draft: true' (built only with --drafts until you remove it; the default).")
    var draft: Bool?

    @Option(name: .long, help: ArgumentHelp("The site's folder, holding marsgen.yml.", valueName: "dir"))
    var source = "."

    func validate() throws {
        if let slug, slug.split(separator: "/").isEmpty || !slug.split(separator: "/").allSatisfy({ Slug.isValid(String($0)) }) {
            throw ValidationError("--slug may use only lowercase letters, digits, '-', '_' and '.' in each part between '/'")
        }
        if let kind, !Slug.isValid(kind) { throw ValidationError("--kind may use only lowercase letters, digits, '-' and '_'") }
    }

    func run() throws {
        try NewContentWhen.reportingFailure(in: source) { () throws(Diagnostic) in
            guard let config = try SiteBuilder.configuration(ofSiteIn: source) else {
                throw Diagnostic.error("no \(SiteConfiguration.fileName) in \(source)",
                                       hint: "run it in a site's folder, or pass --source with it ('marsgen init' starts one)")
            }
            let archetype = try Archetype.load(kind: kind, form: .page, in: source)
            let isDraft = draft ?? archetype?.isDraft ?? true
            var page = NewStandalonePage(title: title, path: slug.map { $0.split(separator: "/").joined(separator: "/") },
                                         isInNavigation: nav ?? archetype?.isInNavigation ?? false, isDraft: isDraft)
            page.description = (description ?? archetype?.description).map { String($0.trimmingSpaces) }.flatMap { $0.isEmpty ? nil : $0 }
            if let template {
                page.template = try checkedTemplate(template)
            } else if let given = archetype?.template {
                // The archetype's template, checked there.
                do throws(Diagnostic) {
                    page.template = try checkedTemplate(given.name)
                } catch {
                    var located = error
                    located.location = given.location
                    throw located
                }
            }
            // Read as a build reads it: a path marsgen's own pages take is an error, nothing written.
            func head() throws(Diagnostic) -> StandalonePageLoader.Head {
                do throws(Diagnostic) {
                    return try StandalonePageLoader.head(SourceFile(path: page.filePath, text: page.text))
                } catch {
                    throw Diagnostic.error(error.message, hint: "give it another path with --slug")
                }
            }
            page.writesPath = try head().path != page.path
            let head = try head()
            if let archetype {
                page.otherFrontMatter = archetype.otherFrontMatter.map(\.text)
                let template = try TextTemplate(archetype.body, path: archetype.path, firstLine: archetype.bodyFirstLine,
                                                names: Archetype.Form.page.names)
                template.warnings.forEach { Console.report($0, shownAfter: Console.shownFolder(source)) }
                page.body = template.render(["title": title, "path": head.path])
                // Read as a build reads it: an archetype making pages a build refuses is found now.
                let context = ContentContext(config: config, crew: Crew(members: []))
                try archetype.check(page.text, at: page.filePath, firstCopiedLine: page.otherFrontMatterFirstLine, in: source) {
                    file, log throws(Diagnostic) in
                    var links = LinkUses()
                    _ = try StandalonePageLoader.load(file, context: context, log: &log, links: &links)
                }
            }
            try NewContentFile.create(page.filePath, text: page.text, in: source,
                                      ifThere: "edit it, or give the new one another path (--slug)")
            let from = archetype.map { " from \($0.path)" } ?? ""
            Console.out("Created \(page.filePath)\(from) (at /\(head.path)/\(isDraft ? "; a draft until you remove 'draft: true'" : ""))")
        }
    }
}

extension NewPageCommand {
    /// `name` (`roster`, or `roster.mustache`) as `template:` writes it, when the site has
    /// that template of its own, as a build would render the page with.
    ///
    /// - Throws: A ``Diagnostic`` for a template the site lacks (with the likeliest of its
    ///   own), or one of marsgen's own other than a page of its own's.
    func checkedTemplate(_ name: String) throws(Diagnostic) -> String {
        let name = name.hasSuffix(".mustache") ? String(name.dropLast(".mustache".count)) : name
        let folder = (source as NSString).appendingPathComponent("templates")
        let own = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }.sorted()
        let relative = "templates/\(name).mustache"
        switch TemplateLibrary.problem(withPageTemplate: name, siteTemplates: own) {
        case .marsgens:
            throw Diagnostic.error("'\(name)' is one of marsgen's templates, for its own pages", at: SourceLocation(path: relative),
                                   hint: "give a template of the site's own, or none for '\(TemplateLibrary.standalonePageName)'")
        case .missing(let near):
            throw Diagnostic.error("no template '\(name)': \(relative) is not there", at: SourceLocation(path: relative),
                                   hint: near.map { "did you mean '\($0)'?" }
                                       ?? "write \(relative) first: it gets the values \(TemplateLibrary.standalonePageName) gets")
        case nil:
            return name
        }
    }
}

/// Writing a new file of the site's content, never over one that is there.
enum NewContentFile {
    static func create(_ relative: String, text: String, in site: String,
                       ifThere hint: String = "edit it, or give the new one another name (--slug)") throws(Diagnostic) {
        let path = (site as NSString).appendingPathComponent(relative)
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
        } catch {
            throw Diagnostic.error("cannot write \(relative)", at: SourceLocation(path: relative),
                                   hint: "check that the folder exists and you may write in it")
        }
        // Created here or not at all: never over a file that is there, or was made meanwhile.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST {
                throw Diagnostic.error("\(relative) is already there", at: SourceLocation(path: relative), hint: hint)
            }
            throw Diagnostic.error("cannot write \(relative): \(String(cString: strerror(code)))", at: SourceLocation(path: relative),
                                   hint: "check that the folder exists and you may write in it")
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw Diagnostic.error("cannot write \(relative): \(String(cString: strerror(errno)))", at: SourceLocation(path: relative),
                                       hint: "check that the disk has room")
            }
            written += count
        }
    }
}
