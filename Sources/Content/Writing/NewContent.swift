import GFM
import MarsTime

/// A journal entry's file as `marsgen new entry` starts it: its front matter, dated by sol
/// and local time, and an empty text to write.
public struct NewJournalEntry: Sendable {
    public var title: String
    /// The author's crew id.
    public var author: String
    public var sol: Int
    public var time: MarsClockTime
    public var tags: [String]
    public var isDraft: Bool
    /// Its slug: the file's name, and its page's (`/journal/<slug>/`).
    public var slug: String
    /// Front matter lines written after the keys above (an archetype's other keys).
    public var otherFrontMatter: [String] = []
    /// Its text so far: empty, or what its archetype starts it with.
    public var body = ""

    /// An entry whose slug is made from `title` unless `slug` is given.
    public init(title: String, author: String, sol: Int, time: MarsClockTime, tags: [String] = [], isDraft: Bool = false,
                slug: String? = nil) {
        self.title = title
        self.author = author
        self.sol = sol
        self.time = time
        self.tags = tags
        self.isDraft = isDraft
        self.slug = slug ?? Slug.derive(from: title)
    }

    /// Where it is written, relative to the site's folder.
    public var path: String { "content/journal/\(slug).md" }

    /// The file's text: its front matter, then a blank line and its text (a line to start
    /// writing on when it has none).
    public var text: String {
        let body = body.trimmingLineBreaks
        return (frontMatterLines + otherFrontMatter + ["---", "", body.isEmpty ? "" : body + "\n"]).joined(separator: "\n")
    }

    /// The line of ``text`` the first of ``otherFrontMatter`` is on.
    public var otherFrontMatterFirstLine: Int { frontMatterLines.count + 1 }

    /// The `---` line and the keys the command writes.
    private var frontMatterLines: [String] {
        var lines = ["---", "title: \(YAMLText.quoted(title))", "author: \(author)", "sol: \(sol)", "time: \"\(time.writtenText)\""]
        if !tags.isEmpty { lines.append("tags: [" + tags.map(YAMLText.quoted).joined(separator: ", ") + "]") }
        if isDraft { lines.append("draft: true") }
        return lines
    }
}

/// A page of its own as `marsgen new page` starts it: its title, whether the navigation
/// links to it, and a draft until said otherwise.
public struct NewStandalonePage: Sendable {
    public var title: String
    /// Where it is from the site's root (`about`, `station/rules`): its file's path under
    /// `content/pages/`, so its front matter needs no `slug:`.
    public var path: String
    public var isInNavigation: Bool
    public var isDraft: Bool
    /// Whether its front matter says its path (`slug:`): when its file's path would give
    /// another (`v1.2` is written `v1-2` from a file name).
    public var writesPath = false
    /// What it is about, for its card, its link previews and search engines (`description:`).
    public var description: String?
    /// The template of the site's own it is rendered with (`template:`), by name (`roster`).
    public var template: String?
    /// Front matter lines written after the keys above (an archetype's other keys).
    public var otherFrontMatter: [String] = []
    /// Its text so far: empty, or what its archetype starts it with.
    public var body = ""

    /// A page whose path is made from `title` unless `path` is given.
    public init(title: String, path: String? = nil, isInNavigation: Bool = false, isDraft: Bool = true) {
        self.title = title
        self.path = path ?? Slug.derive(from: title, orElse: "page")
        self.isInNavigation = isInNavigation
        self.isDraft = isDraft
    }

    /// Where it is written, relative to the site's folder.
    public var filePath: String { StandalonePageLoader.folder + "/\(path).md" }

    /// The file's text: its front matter, then a blank line and its text (a line to start
    /// writing on when it has none).
    public var text: String {
        let body = body.trimmingLineBreaks
        return (frontMatterLines + otherFrontMatter + ["---", "", body.isEmpty ? "" : body + "\n"]).joined(separator: "\n")
    }

    /// The line of ``text`` the first of ``otherFrontMatter`` is on.
    public var otherFrontMatterFirstLine: Int { frontMatterLines.count + 1 }

    /// The `---` line and the keys the command writes.
    private var frontMatterLines: [String] {
        var lines = ["---", "title: \(YAMLText.quoted(title))"]
        if writesPath { lines.append("slug: \(path)") }
        if let description { lines.append("description: \(YAMLText.quoted(description))") }
        if let template { lines.append("template: \(template)") }
        if isInNavigation { lines.append("nav: true") }
        if isDraft { lines.append("draft: true") }
        return lines
    }
}

/// A message as `marsgen new message` adds it to a log: its heading (`## Sol 14 21:05 vega`)
/// and its text.
public struct NewMessage: Sendable {
    public var author: String
    public var sol: Int
    public var time: MarsClockTime
    public var text: String

    public init(author: String, sol: Int, time: MarsClockTime, text: String) {
        self.author = author
        self.sol = sol
        self.time = time
        self.text = text
    }

    /// The path of the log named `log` (`habitat`), relative to the site's folder.
    public static func path(ofLog log: String) -> String { "content/messages/\(log).md" }

    /// The front matter a new log named `log` starts with: its channel.
    public static func logHeader(_ log: String) -> String { "---\nchannel: \(log)\n---\n" }

    /// Why `text` cannot be one message, or nil: in a log, a level-two heading (`## …`, or a
    /// line underlined with `---`) starts the next message, so the text would end this one
    /// there and make another of what follows.
    public static func problem(inText text: String) -> (message: String, hint: String)? {
        guard let heading = MarkdownDocument(parsing: text).split(atHeadingLevel: 2).parts.first else { return nil }
        let quoted = heading.heading.count > 40 ? String(heading.heading.prefix(39)) + "…" : heading.heading
        return ("line \(heading.line) of the text is a level-two heading ('\(quoted)'), which starts a new message in a log",
                "make it '### \(quoted)' for a heading within the message, or add each message on its own")
    }

    /// What is appended to a log whose text ends with `existing` (its last few characters
    /// are enough): the heading and the text, a blank line before them (a line break first
    /// when the log's last line has none), none right after the front matter.
    public func appended(to existing: String) -> String {
        var added = existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n"
        if !existing.isEmpty, !existing.hasSuffix("---\n") { added += "\n" }
        added += "## Sol \(sol) \(time.writtenText) \(author)\n"
        let body = text.trimmingLineBreaks
        return added + (body.isEmpty ? "" : body + "\n")
    }
}

/// A weather report's file as `marsgen new weather` writes it: one a sol.
public struct NewWeatherReport: Sendable {
    public var sol: Int
    public var temperature: Double
    public var high: Double
    public var low: Double
    public var sunrise: MarsClockTime
    public var sunset: MarsClockTime
    public var condition: WeatherCondition
    /// Notes in Markdown; empty for none.
    public var notes: String
    /// Its local time; nil for the start of the sol, where a report dated by its sol alone is.
    public var time: MarsClockTime?

    public init(sol: Int, temperature: Double, high: Double, low: Double, sunrise: MarsClockTime, sunset: MarsClockTime,
                condition: WeatherCondition, notes: String = "", time: MarsClockTime? = nil) {
        self.sol = sol
        self.temperature = temperature
        self.high = high
        self.low = low
        self.sunrise = sunrise
        self.sunset = sunset
        self.condition = condition
        self.notes = notes
        self.time = time
    }

    /// Where it is written, relative to the site's folder (`content/weather/sol-07.md`).
    public var path: String { "content/weather/sol-\(String(sol).leftPadded(to: 2)).md" }

    /// The file's text.
    public var text: String {
        // As given: whole degrees without a fraction, others to their last digit.
        func number(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value) }
        let lines = ["---", "sol: \(sol)"] + (time.map { ["time: \"\($0.writtenText)\""] } ?? []) + ["temperature: \(number(temperature))", "high: \(number(high))",
                     "low: \(number(low))", "sunrise: \"\(sunrise.writtenText)\"", "sunset: \"\(sunset.writtenText)\"",
                     "condition: \(condition.rawValue)", "---"]
        let body = notes.trimmingLineBreaks
        return lines.joined(separator: "\n") + "\n" + (body.isEmpty ? "" : body + "\n")
    }
}

/// Text written as a YAML value.
enum YAMLText {
    /// `text` in double quotes, with what YAML would read otherwise escaped: a title holding
    /// `: `, quotes, a backslash, `#` or a line break is read back as it was.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }

    /// The text without the line breaks at its ends.
    fileprivate var trimmingLineBreaks: String {
        var slice = Substring(self)
        while slice.first?.isNewline == true { slice.removeFirst() }
        while slice.last?.isNewline == true { slice.removeLast() }
        return String(slice)
    }
}
