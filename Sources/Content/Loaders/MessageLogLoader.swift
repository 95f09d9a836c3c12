import Diagnostics
import GFM
import MarsTime

/// Reads message logs from `content/messages/**/*.md`: one file per conversation, one
/// message per level-2 heading.
///
///     ---
///     channel: pathfinder
///     sol: 12
///     ---
///     ## 09:14 lewis
///     Morning, Houston.
///
///     ## Sol 13 07:02 watney
///     Still here.
///
///     ## 2037-03-02T10:15:00Z beck
///     A message at a full UTC instant.
///
/// `HH:MM` is on the log's default day: LMST when the default is a `sol`, UTC when it is a `date`.
public enum MessageLogLoader {
    static let knownKeys: Set<String> = ["channel", "date", "sol"]

    /// The default day of a log's messages.
    enum DefaultDay {
        case none
        case sol(Int)
        case utcDate(year: Int, month: Int, day: Int)
    }

    /// Parses one message log into its messages, in file order.
    ///
    /// - Throws: A ``Diagnostic`` at the heading that does not parse or names an unknown author.
    public static func load(_ file: SourceFile, context: ContentContext, log: inout DiagnosticLog) throws(Diagnostic) -> [Message] {
        var links = LinkUses()
        return try load(file, context: context, log: &log, links: &links)
    }

    /// What parsing a log gave before the file grew: the bytes it had are still its first
    /// ones (an append), so its messages but the last are still what those bytes give.
    public struct EarlierParse: Sendable {
        /// Its messages, in file order.
        public var messages: [Message]
        /// Its links and images to the site's pages and files.
        public var siteLinks: [MarkdownSiteLink]

        public init(messages: [Message], siteLinks: [MarkdownSiteLink]) {
            (self.messages, self.siteLinks) = (messages, siteLinks)
        }
    }

    /// Warns at each footnote's definition in a log `document` split into messages: cmark-gfm
    /// gathers a document's footnotes at its end, so each would show under the log's last
    /// message, and two with one label would be one (the second's text lost).
    static func warnAboutFootnotes(_ document: MarkdownDocument, in file: SourceFile, log: inout DiagnosticLog) {
        for (line, column) in document.footnoteDefinitions {
            log.warn("a footnote in a message log is not kept with its message: it shows under the log's last message",
                     at: file.location(line: line, column: column),
                     hint: "write the note in the message itself; footnotes are for journal entries and weather reports")
        }
    }

    /// Parses one message log, adding its links to other content files and to the site's pages and files to `links`.
    ///
    /// - Parameter earlier: When the file only grew since it gave these messages, with no
    ///   warning and no link to another content file, only its last message and what
    ///   follows are parsed: an append to a log of 20,000 messages parses one or two, not all.
    ///   Nothing before a top-level heading can change how what follows it parses, but a
    ///   link reference or footnote definition (`[x]: …`) anywhere can change any message:
    ///   a log holding one (or anything like one) is parsed whole.
    public static func load(_ file: SourceFile, context: ContentContext, log: inout DiagnosticLog,
                            links: inout LinkUses, appendedTo earlier: EarlierParse? = nil) throws(Diagnostic) -> [Message] {
        let matter = try FrontMatter(splitting: file)
        let fields = matter.fields
        fields.warnAboutUnknownKeys(knownKeys, into: &log, context: "message log front matter")
        let fileName = file.path.split(separator: "/").last.map { String($0.dropLast(3)) } ?? "log"
        let channel = try fields.string("channel") ?? fileName
        let defaultDay = try readDefaultDay(fields: matter, context: context)

        var messages: [Message] = []
        var seen: [String: Int] = [:]
        /// One origin per sender, for all their messages in this log.
        var origins: [MessageOrigin] = []
        var parts: [MarkdownPart] = []
        /// The text before the first message, when the whole log is parsed.
        var preambleOfWhole: MarkdownPart?
        /// How many of `messages` are an earlier parse's.
        var taken = 0
        // The earlier links are told from the last message's by their lines. A link whose
        // place is not known (column 0) could be either; `GFM.InlinePlaces` finds the places
        // cmark-gfm is known to get wrong, so this is a guard for what it does not know of.
        if let earlier, let last = earlier.messages.last, earlier.siteLinks.allSatisfy({ $0.column > 0 }),
           let tail = text(of: matter, fromLine: last.line), !holdsReferenceDefinitionMark(matter.body) {
            var tailLinks = LinkUses()
            var tailLog = DiagnosticLog()
            let document = try context.markdown(tail, firstLine: last.line, ids: .messageLog, in: file, uses: &tailLinks, log: &tailLog)
            let (preamble, tailParts) = document.split(atHeadingLevel: 2)
            warnAboutFootnotes(document, in: file, log: &tailLog)
            // The last message's heading starts the tail, as it did in the whole file; and a
            // link whose place is not known would be put elsewhere than a whole parse puts it.
            if preamble == nil, tailParts.first?.line == last.line, tailLinks.site.allSatisfy({ $0.column > 0 }) {
                messages = Array(earlier.messages.dropLast())
                taken = messages.count
                for message in messages where !origins.contains(where: { $0.author == message.author }) { origins.append(message.origin) }
                parts = tailParts
                links.files += tailLinks.files
                links.site += earlier.siteLinks.filter { $0.line < last.line } + tailLinks.site
                log.merge(tailLog)
            }
        }
        if parts.isEmpty {
            let document = try context.markdown(matter.body, firstLine: matter.bodyFirstLine, ids: .messageLog, in: file,
                                                uses: &links, log: &log)
            let (preamble, allParts) = document.split(atHeadingLevel: 2)
            warnAboutFootnotes(document, in: file, log: &log)
            preambleOfWhole = preamble
            if let preamble {
                log.warn("text before the first message heading is ignored", at: file.location(line: preamble.line),
                         hint: "start each message with a heading '## HH:MM author'")
            }
            if allParts.isEmpty {
                log.warn("this message log has no messages", at: file.location(line: matter.bodyFirstLine),
                         hint: "start each message with a heading '## HH:MM author'")
            }
            parts = allParts
        }
        // `### 09:02 vega` or `# 09:02 vega`: a message heading at another level, taken for
        // a heading of the message above it.
        for part in (preambleOfWhole.map { [$0] } ?? []) + parts {
            for heading in part.otherHeadings {
                let location = file.location(line: heading.line, column: heading.column)
                guard let (_, id) = try? parseHeading(heading.text, defaultDay: defaultDay, context: context, at: location),
                      context.crew.member(id: id) != nil else { continue }
                let marks = String(repeating: "#", count: heading.level)
                log.warn("'\(marks) \(Diagnostic.excerpt(heading.text))' is a level-\(heading.level) heading: it stays part of "
                         + (part.heading.isEmpty ? "the text before the first message, which is ignored" : "the message above it"),
                         at: location, hint: "write '## \(Diagnostic.excerpt(heading.text))' to start a message of its own")
            }
        }
        for part in parts {
            let location = file.location(line: part.line, column: part.column)
            let (moment, authorID) = try parseHeading(part.heading, defaultDay: defaultDay, context: context, at: location)
            let author = try context.author(authorID, at: location)
            if part.bodyHTML.isEmpty {
                log.warn("message from '\(authorID)' has no text", at: location, hint: "write the message below its heading")
            }
            let key = "\(moment.instant.unixMillis)/\(author.id)"
            // Counted among the messages taken from an earlier parse only for the keys the
            // new ones have (a key per message of 20,000 was most of an append's time).
            let ordinal = seen[key] ?? messages[..<taken].count { $0.instant == moment.instant && $0.author.id == author.id }
            seen[key] = ordinal + 1
            let origin: MessageOrigin
            if let known = origins.first(where: { $0.author == author }) {
                origin = known
            } else {
                origin = MessageOrigin(sourcePath: file.path, channel: channel, author: author)
                origins.append(origin)
            }
            messages.append(Message(origin: origin, instant: moment.instant, sol: moment.sol, lmst: moment.lmst,
                                    bodyHTML: part.bodyHTML, line: part.line, ordinal: ordinal))
        }
        return messages
    }

    /// Whether `text` holds `]:`, as every link reference and footnote definition does.
    static func holdsReferenceDefinitionMark(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count > 1 else { return false }
            for index in 1..<bytes.count where bytes[index] == UInt8(ascii: ":") && bytes[index - 1] == UInt8(ascii: "]") {
                return true
            }
            return false
        }
    }

    /// The body of `matter` from the file's line `line` on; nil when the body has no such line.
    static func text(of matter: FrontMatter, fromLine line: Int) -> String? {
        var linesToSkip = line - matter.bodyFirstLine
        guard linesToSkip >= 0 else { return nil }
        var body = matter.body
        // On the bytes: a log of 20,000 messages is 60,000 lines to count.
        return body.withUTF8 { bytes -> String? in
            var index = 0
            while linesToSkip > 0 {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                guard index < bytes.count else { return nil }
                index += 1
                linesToSkip -= 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[index...]), as: UTF8.self)
        }
    }

    static func readDefaultDay(fields matter: FrontMatter, context: ContentContext) throws(Diagnostic) -> DefaultDay {
        let fields = matter.fields
        if let dateText = try fields.string("date") {
            if fields.contains("sol") {
                throw Diagnostic.error("give either 'date' or 'sol' as the log's default day, not both", at: fields.keyLocation(of: "sol"),
                                       hint: "remove 'sol' (the log's headings are then UTC times) or 'date' (they are then LMST)")
            }
            if let instant = Instant(iso8601: dateText) {
                let c = instant.utcComponents
                return .utcDate(year: c.year, month: c.month, day: c.day)
            }
            if let day = Instant(iso8601: dateText + "T00:00:00Z") {
                let c = day.utcComponents
                return .utcDate(year: c.year, month: c.month, day: c.day)
            }
            throw Diagnostic.error("'date' must be a UTC day like 2037-03-01, not '\(dateText)'", at: fields.location(of: "date"),
                                   hint: "a year, month and day that exist, written YYYY-MM-DD")
        }
        if let sol = try fields.int("sol") {
            try context.checkSol(sol, at: fields.location(of: "sol"), what: "this log")
            return .sol(sol)
        }
        return .none
    }

    /// Parses `HH:MM[:SS] author`, `<ISO 8601 instant> author` or `Sol N HH:MM[:SS] author`.
    static func parseHeading(_ heading: String, defaultDay: DefaultDay, context: ContentContext,
                             at location: SourceLocation) throws(Diagnostic) -> (Moment, String) {
        let words = heading.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let formHint = "write the heading as '## HH:MM author', '## Sol N HH:MM author' or '## 2037-03-01T14:02:00Z author'"
        guard let first = words.first else {
            throw Diagnostic.error("message heading is empty", at: location, hint: formHint)
        }
        // `7:30 pm`, `7:30pm`: a time on the 12-hour clock.
        let meridiem = words.count > 1 && ["am", "pm", "a.m.", "p.m."].contains(words[1].lowercased())
        let twelveHour = meridiem ? "\(first) \(words[1])" : first
        if let clock = MarsClockTime.twentyFourHour(twelveHour) {
            throw Diagnostic.error("'\(Diagnostic.excerpt(twelveHour))' in message heading is on the 12-hour clock", at: location,
                                   hint: "write it on the 24-hour clock: '\(clock)'")
        }
        let moment: Moment
        let rest: ArraySlice<String>
        if first.lowercased() == "sol" {
            guard words.count >= 3, let sol = Int(words[1]) else {
                throw Diagnostic.error("message heading '\(Diagnostic.excerpt(heading))' has no sol and time", at: location, hint: formHint)
            }
            guard let lmst = MarsClockTime(parsing: words[2]) else {
                throw Diagnostic.error("'\(Diagnostic.excerpt(words[2]))' in message heading is not a time HH:MM", at: location, hint: formHint)
            }
            try context.checkSol(sol, at: location, what: "this message")
            moment = context.moment(sol: sol, lmst: lmst)
            rest = words[3...]
        } else if first.count > 8, first.contains("-") {
            guard let instant = Instant(iso8601: first) else {
                throw Diagnostic.error("'\(Diagnostic.excerpt(first))' in message heading is not an ISO 8601 instant with a zone", at: location,
                                       hint: "write it like 2037-03-01T14:02:00Z")
            }
            moment = context.moment(at: instant)
            try context.checkSol(moment.sol, at: location, what: "this message")
            rest = words[1...]
        } else if let time = MarsClockTime(parsing: first) {
            switch defaultDay {
            case .none:
                throw Diagnostic.error("message heading gives a time but the log has no default day", at: location,
                                       hint: "add 'sol: N' or 'date: YYYY-MM-DD' to the log's front matter, or write '## Sol N \(first) …'")
            case .sol(let sol):
                moment = context.moment(sol: sol, lmst: time)
            case .utcDate(let year, let month, let day):
                let seconds = Int(time.secondsOfSol)
                guard let instant = Instant(year: year, month: month, day: day, hour: seconds / 3600,
                                            minute: seconds / 60 % 60, second: seconds % 60) else {
                    throw Diagnostic.error("'\(first)' is not a valid UTC time", at: location,
                                           hint: "the log's 'date' and this time must make an instant between the years 0001 and 9999")
                }
                moment = context.moment(at: instant)
                try context.checkSol(moment.sol, at: location, what: "this message")
            }
            rest = words[1...]
        } else if first.split(separator: ":").count >= 2, first.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) {
            // One digit short (`9:05`): the time it likely means, written as headings want it.
            let ranges = first.split(separator: ":").count > 2 ? "minutes and seconds 00–59" : "minutes 00–59"
            throw Diagnostic.error("'\(Diagnostic.excerpt(first))' in message heading is not a time of day: hours run 00–23, \(ranges)",
                                   at: location, hint: ContentContext.paddingHint(for: first) { "'\($0)'" } ?? formHint)
        } else {
            throw Diagnostic.error("message heading '\(Diagnostic.excerpt(heading))' does not start with a time", at: location, hint: formHint)
        }
        guard let author = rest.first else {
            throw Diagnostic.error("message heading '\(Diagnostic.excerpt(heading))' names no author", at: location,
                                   hint: "add the sender's crew id after the time, e.g. '## 14:02 lewis'")
        }
        guard rest.count == 1 else {
            // `## 08:05 Sam Okafor`: a name where the id goes.
            let isID = context.crew.member(id: author) != nil
            if !isID, let member = context.crew.member(named: rest.joined(separator: " ")) {
                throw Diagnostic.error("message heading '\(Diagnostic.excerpt(heading))' names \(member.name), not a crew id", at: location,
                                       hint: "write the crew id after the time: did you mean '\(member.id)'?")
            }
            // `## 08:05 UTC okoro`, `## 08:05 - okoro`: words between the time and a crew id.
            if !isID, let id = rest.dropFirst().first(where: { context.crew.member(id: $0) != nil }) {
                let zone = ["utc", "z", "gmt", "lmst", "ltst", "mtc"].contains(author.lowercased())
                throw Diagnostic.error("message heading '\(Diagnostic.excerpt(heading))' has '\(Diagnostic.excerpt(author))' "
                                       + "between the time and the author", at: location,
                                       hint: (zone ? "a time alone is LMST on a log dated by sol, UTC on one dated by date; " : "")
                                           + "write the time, then the crew id: '\(id)' right after it")
            }
            throw Diagnostic.error("message heading '\(Diagnostic.excerpt(heading))' has extra words after the author", at: location,
                                   hint: "the heading is only the time and the sender's crew id; the text goes below it")
        }
        return (moment, author)
    }
}
