import Content
import Diagnostics
import GFM
import Images
import MarsTime
import SiteConfig

// How each record of the build state is laid out in its binary form. Every `read` mirrors
// the `write` above it field for field; the round trip is tested in BuildStateCodingTests.

extension StateWriter {
    mutating func write(_ hash: ContentHash) {
        write(fixed: hash.value)
    }

    mutating func write(_ member: CrewMember) {
        write(member.id)
        write(member.name)
        write(member.role)
    }

    /// `value` as its position among the values of `table` met so far in this chunk, plus
    /// one, or as 0 and then the value (written by `write`), which then joins the table.
    mutating func write<Value>(repeated value: Value, in table: WritableKeyPath<RepeatedFields, RepeatedValues<Value>>,
                               _ write: (Value, inout StateWriter) -> Void) {
        if let position = repeated[keyPath: table].position(of: value) {
            self.write(count: position + 1)
            return
        }
        self.write(count: 0)
        write(value, &self)
        repeated[keyPath: table].add(value)
    }

    /// A source path, through the chunk's table of paths: an object's path is its file's,
    /// written just before it as the record's key.
    mutating func write(path: String) {
        write(repeated: path, in: \.paths) { path, writer in writer.write(path) }
    }

    /// An author, through the chunk's table of authors.
    mutating func write(author: CrewMember) {
        write(repeated: author, in: \.authors) { author, writer in writer.write(author) }
    }

    /// Laid out as a text (see ``write(text:)-(UnsafeRawBufferPointer)``); text still held as
    /// bytes is copied as it is.
    mutating func write(_ body: StoredText) {
        body.withUTF8 { utf8 in write(text: utf8) }
    }

    mutating func write(_ instant: Instant) {
        write(instant.unixMillis)
    }

    mutating func write(_ time: MarsClockTime) {
        write(time.secondsOfSol)
    }

    // Each object's stamp is written after its hash: computing it again on every load hashed
    // the identifiers of 63,000 objects (and of the object list's as many) at 10,000 entries.

    mutating func write(_ entry: JournalEntry) {
        write(entry.identifier)
        write(entry.contentHash)
        write(fixed: entry.stamp)
        write(path: entry.sourcePath)
        write(entry.explicitTitle)
        write(entry.slug)
        write(author: entry.author)
        write(entry.instant)
        write(entry.sol)
        write(entry.lmst)
        write(entry.tags)
        write(entry.isDraft)
        write(entry.body)
        write(entry.description)
        write(entry.aliases)
        write(entry.image)
        write(entry.imageAlt)
        write(entry.imageSize)
        write(entry.teaser)
        write(entry.tableOfContents)
        write(entry.wordCount)
        write(extra: entry.extra)
    }

    /// Values of `extra:`, keys sorted; each value a kind (0 text, 1 flag, 2 list, 3
    /// mapping), then what it holds.
    mutating func write(extra fields: [String: ExtraValue]) {
        write(count: fields.count)
        for key in fields.keys.sorted() {
            write(key)
            if let value = fields[key] { write(value) }
        }
    }

    mutating func write(_ value: ExtraValue) {
        switch value {
        case .text(let text):
            write(count: 0)
            write(text)
        case .flag(let flag):
            write(count: 1)
            write(flag)
        case .list(let items):
            write(count: 2)
            write(count: items.count)
            for item in items { write(item) }
        case .mapping(let fields):
            write(count: 3)
            write(extra: fields)
        }
    }

    mutating func write(_ message: Message) {
        write(message.identifier)
        write(message.contentHash)
        write(fixed: message.stamp)
        write(path: message.sourcePath)
        write(repeated: message.channel, in: \.channels) { channel, writer in writer.write(channel) }
        write(author: message.author)
        write(message.instant)
        write(message.sol)
        write(message.lmst)
        write(message.body)
        write(message.line)
    }

    mutating func write(_ report: WeatherReport) {
        write(report.diffIdentifier)
        write(report.contentHash)
        write(fixed: report.stamp)
        write(path: report.sourcePath)
        write(report.instant)
        write(report.sol)
        write(report.lmst)
        write(report.temperature)
        write(report.high)
        write(report.low)
        write(report.sunrise)
        write(report.sunset)
        write(report.condition.rawValue)
        write(report.notesHTML)
        write(extra: report.extra)
    }

    mutating func write(_ diagnostic: Diagnostic) {
        write(diagnostic.severity == .error)
        write(diagnostic.message)
        write(diagnostic.location != nil)
        if let location = diagnostic.location {
            write(location.path)
            write(location.line)
            write(location.column)
        }
        write(diagnostic.hint)
        write(diagnostic.step)
    }

    mutating func write(_ record: BuildState.SourceRecord) {
        write(record.size)
        write(record.modified)
        // Most often the same time: one byte.
        write(record.changed &- record.modified)
        write(record.hash)
        write(count: record.journalEntries.count)
        for entry in record.journalEntries { write(entry) }
        write(count: record.messages.count)
        for message in record.messages { write(message) }
        write(count: record.weatherReports.count)
        for report in record.weatherReports { write(report) }
        write(count: record.warnings.count)
        for warning in record.warnings { write(warning) }
        write(count: record.links.count)
        for link in record.links {
            write(link.target)
            write(link.resolution)
        }
        write(count: record.siteLinks.count)
        for link in record.siteLinks {
            write(link.path)
            write(link.line)
            write(link.column)
            write(link.isImage)
            write(link.element)
            write(link.origin.rawValue)
            write(link.fragment)
            write(link.fileLink)
            write(link.imageSize)
        }
        write(record.imageSize)
    }

    mutating func write(_ size: ImageSize?) {
        write(size != nil)
        if let size {
            write(size.width)
            write(size.height)
        }
    }
}

/// The values that repeat from object to object in a chunk of records (a log's path and
/// channel, a handful of authors), each written in full once, then as its position in a
/// table both sides keep alike: a load then neither compares nor makes them again.
struct RepeatedFields {
    var paths = RepeatedValues<String>()
    var channels = RepeatedValues<String>()
    var authors = RepeatedValues<CrewMember>()
    /// `[id]` for each author id met (a crew is a handful), for the objects by that author to
    /// share; only a reader uses it.
    private var authorIDs: [[String]] = []
    /// The messages' origins met (see ``MessageOrigin``), for the messages of one sender in
    /// one log to share one; only a reader uses them.
    private var origins = RepeatedValues<KnownOrigin>()

    /// The numbers of a message's path, channel and author in their tables (see
    /// ``RepeatedValues/numbers``).
    typealias OriginNumbers = (path: Int, channel: Int, author: Int)

    /// An origin met, with the numbers its path, channel and author had.
    private struct KnownOrigin: Equatable {
        let path: Int, channel: Int, author: Int
        let origin: MessageOrigin
    }

    /// The origin of a message of `author` in the log at `sourcePath` on `channel`, whose
    /// numbers in their tables are `numbers`: one met already if there is one.
    mutating func origin(sourcePath: String, channel: String, author: CrewMember, numbers: OriginNumbers) -> MessageOrigin {
        // The origin met last is most often the one: its log's messages come one after
        // another. Numbers tell it without comparing three strings and an author per message
        // (a tenth of decoding 50,000 messages).
        for known in origins.values.reversed() where (known.path, known.channel, known.author) == numbers { return known.origin }
        // A value can join its table again after leaving it, with a new number.
        let origin = origins.values.reversed().lazy.map(\.origin).first { $0.isOrigin(sourcePath: sourcePath, channel: channel, author: author) }
            ?? MessageOrigin(sourcePath: sourcePath, channel: channel, author: author, authorIDs: authorIDs(author.id))
        origins.add(KnownOrigin(path: numbers.path, channel: numbers.channel, author: numbers.author, origin: origin))
        return origin
    }

    /// `[id]`, the array already made for `id` if there is one.
    mutating func authorIDs(_ id: String) -> [String] {
        for ids in authorIDs where ids[0] == id { return ids }
        let ids = [id]
        if authorIDs.count < 16 { authorIDs.append(ids) }
        return ids
    }
}

/// One field's table of values met (see ``RepeatedFields``): the first sixteen, then each
/// new one in the place of the one that joined longest ago, so that the current file's path
/// (which joins as the record's key, just before its objects) is always at hand.
struct RepeatedValues<Value: Equatable> {
    private(set) var values: [Value] = []
    /// For each value, when it joined: 0 for the first to join, 1 for the next. Equal
    /// numbers are the same value, without comparing it.
    private(set) var numbers: [Int] = []
    /// How many values joined.
    private var joined = 0
    private static var capacity: Int { 16 }

    /// Where `value` is in the table, if it is.
    func position(of value: Value) -> Int? {
        values.firstIndex(of: value)
    }

    /// Adds `value`, returning its number (see ``numbers``).
    @discardableResult
    mutating func add(_ value: Value) -> Int {
        let number = joined
        joined += 1
        guard values.count == Self.capacity else {
            values.append(value)
            numbers.append(number)
            return number
        }
        values[number % Self.capacity] = value
        numbers[number % Self.capacity] = number
        return number
    }
}

extension StateReader {
    mutating func readHash() throws(Damaged) -> ContentHash {
        ContentHash(value: try readFixedUInt64())
    }

    mutating func skipHash() throws(Damaged) {
        try skip(MemoryLayout<UInt64>.size)
    }

    mutating func readCrewMember() throws(Damaged) -> CrewMember {
        CrewMember(id: try readString(), name: try readString(), role: try readString())
    }

    /// What ``StateWriter/write(repeated:in:_:)`` wrote, the value itself read by `read`.
    mutating func readRepeated<Value>(_ table: inout RepeatedValues<Value>,
                                      _ read: (inout StateReader) throws(Damaged) -> Value) throws(Damaged) -> Value {
        try readNumbered(&table, read).value
    }

    /// ``readRepeated(_:_:)``, with the value's number in `table` (see ``RepeatedValues/numbers``).
    mutating func readNumbered<Value>(_ table: inout RepeatedValues<Value>,
                                      _ read: (inout StateReader) throws(Damaged) -> Value) throws(Damaged) -> (value: Value, number: Int) {
        let position = try readUInt64()
        guard position > 0 else {
            let value = try read(&self)
            return (value, table.add(value))
        }
        guard position <= UInt64(table.values.count) else { throw Damaged() }
        return (table.values[Int(position - 1)], table.numbers[Int(position - 1)])
    }

    /// What ``StateWriter/write(path:)`` wrote.
    mutating func readPath(_ fields: inout RepeatedFields) throws(Damaged) -> String {
        try readNumberedPath(&fields).value
    }

    /// ``readPath(_:)``, with the path's number in its table.
    mutating func readNumberedPath(_ fields: inout RepeatedFields) throws(Damaged) -> (value: String, number: Int) {
        try readNumbered(&fields.paths) { reader throws(Damaged) in try reader.readString() }
    }

    /// What ``StateWriter/write(author:)`` wrote.
    mutating func readAuthor(_ fields: inout RepeatedFields) throws(Damaged) -> CrewMember {
        try readNumberedAuthor(&fields).value
    }

    /// ``readAuthor(_:)``, with the author's number in its table.
    mutating func readNumberedAuthor(_ fields: inout RepeatedFields) throws(Damaged) -> (value: CrewMember, number: Int) {
        try readNumbered(&fields.authors) { reader throws(Damaged) in try reader.readCrewMember() }
    }

    /// What ``StateWriter/write(_:)-(StoredText)`` wrote: left as bytes, with their check,
    /// when this reader's texts have an owner to keep them (see ``StateReader/init(separated:owner:)``).
    mutating func readStoredText() throws(Damaged) -> StoredText {
        let (utf8, check) = try readCheckedText()
        guard let owner = bytesOwner, let check else { return StoredText(String(decoding: utf8, as: UTF8.self)) }
        return StoredText(utf8: utf8, check: check, keptBy: owner)
    }

    mutating func readInstant() throws(Damaged) -> Instant {
        Instant(unixMillis: try readInt64())
    }

    mutating func readClockTime() throws(Damaged) -> MarsClockTime {
        MarsClockTime(secondsOfSol: try readDouble())
    }

    mutating func readJournalEntry(_ fields: inout RepeatedFields) throws(Damaged) -> JournalEntry {
        let (identifier, hash, stamp) = (try readStoredText(), try readHash(), try readFixedUInt64())
        let sourcePath = try readPath(&fields)
        let (title, slug, author) = (try readOptionalString(), try readString(), try readAuthor(&fields))
        return JournalEntry(restoring: identifier, contentHash: hash, sourcePath: sourcePath, explicitTitle: title, slug: slug,
                            author: author, instant: try readInstant(), sol: try readInt(), lmst: try readClockTime(),
                            tags: try readStrings(), isDraft: try readBool(), body: try readStoredText(),
                            description: try readStoredText(), aliases: try readStrings(), image: try readStoredText(),
                            imageAlt: try readStoredText(), imageSize: try readImageSize(), teaser: try readStoredText(),
                            tableOfContents: try readStoredText(), wordCount: try readInt(), extra: try readExtra(),
                            authorIDs: fields.authorIDs(author.id),
                            stamp: stamp)
    }

    mutating func readMessage(_ fields: inout RepeatedFields) throws(Damaged) -> Message {
        let (identifier, hash, stamp) = (try readStoredText(), try readHash(), try readFixedUInt64())
        let path = try readNumberedPath(&fields)
        let channel = try readNumbered(&fields.channels) { reader throws(Damaged) in try reader.readString() }
        let author = try readNumberedAuthor(&fields)
        let origin = fields.origin(sourcePath: path.value, channel: channel.value, author: author.value,
                                   numbers: (path.number, channel.number, author.number))
        return Message(restoring: identifier, contentHash: hash, origin: origin, instant: try readInstant(), sol: try readInt(),
                       lmst: try readClockTime(), body: try readStoredText(), line: try readInt(), stamp: stamp)
    }

    mutating func readWeatherReport(_ fields: inout RepeatedFields) throws(Damaged) -> WeatherReport {
        let identifier = try readString()
        let hash = try readHash()
        let stamp = try readFixedUInt64()
        let sourcePath = try readPath(&fields)
        let instant = try readInstant()
        let sol = try readInt()
        let lmst = try readClockTime()
        let temperature = try readDouble()
        let high = try readDouble()
        let low = try readDouble()
        let sunrise = try readClockTime()
        let sunset = try readClockTime()
        guard let condition = WeatherCondition(rawValue: try readString()) else { throw Damaged() }
        return WeatherReport(restoring: identifier, contentHash: hash, sourcePath: sourcePath, instant: instant, sol: sol,
                             lmst: lmst, temperature: temperature, high: high, low: low, sunrise: sunrise, sunset: sunset,
                             condition: condition, notesHTML: try readString(), extra: try readExtra(), stamp: stamp)
    }

    mutating func readDiagnostic() throws(Damaged) -> Diagnostic {
        let severity: Diagnostic.Severity = try readBool() ? .error : .warning
        let message = try readString()
        var location: SourceLocation?
        if try readBool() {
            location = SourceLocation(path: try readString(), line: try readInt(), column: try readInt())
        }
        var diagnostic = Diagnostic(severity, message, at: location, hint: try readOptionalString())
        diagnostic.step = try readOptionalString()
        return diagnostic
    }

    /// A record; `fields` carries repeated values from one record of a chunk to the next.
    mutating func readSourceRecord(_ fields: inout RepeatedFields) throws(Damaged) -> BuildState.SourceRecord {
        let (size, modified) = (try readInt64(), try readInt64())
        var record = BuildState.SourceRecord(size: size, modified: modified, changed: modified &+ (try readInt64()), hash: try readString())
        record.journalEntries = try readList { reader throws(Damaged) in try reader.readJournalEntry(&fields) }
        record.messages = try readList { reader throws(Damaged) in try reader.readMessage(&fields) }
        record.weatherReports = try readList { reader throws(Damaged) in try reader.readWeatherReport(&fields) }
        record.warnings = try readList { reader throws(Damaged) in try reader.readDiagnostic() }
        record.links = try readList { reader throws(Damaged) in
            ContentLinkUse(target: try reader.readString(), resolution: try reader.readString())
        }
        record.siteLinks = try readList { reader throws(Damaged) in
            let (path, line, column, isImage) = (try reader.readString(), try reader.readInt(), try reader.readInt(), try reader.readBool())
            let element = try reader.readString()
            guard let origin = MarkdownSiteLink.Origin(rawValue: try reader.readInt()) else { throw Damaged() }
            var link = MarkdownSiteLink(path: path, line: line, column: column, isImage: isImage, element: element, origin: origin,
                                        fragment: try reader.readString())
            link.fileLink = try reader.readString()
            link.imageSize = try reader.readImageSize()
            return link
        }
        record.imageSize = try readImageSize()
        return record
    }

    mutating func readExtra() throws(Damaged) -> [String: ExtraValue] {
        let count = try readCount()
        var fields: [String: ExtraValue] = [:]
        for _ in 0..<count { fields[try readString()] = try readExtraValue() }
        return fields
    }

    mutating func readExtraValue() throws(Damaged) -> ExtraValue {
        switch try readCount() {
        case 0: return .text(try readString())
        case 1: return .flag(try readBool())
        case 2: return .list(try readList { reader throws(Damaged) in try reader.readExtraValue() })
        case 3: return .mapping(try readExtra())
        default: throw Damaged()
        }
    }

    mutating func readImageSize() throws(Damaged) -> ImageSize? {
        guard try readBool() else { return nil }
        return ImageSize(width: try readInt(), height: try readInt())
    }

    /// A count, then that many elements.
    mutating func readList<Element>(_ element: (inout StateReader) throws(Damaged) -> Element) throws(Damaged) -> [Element] {
        let count = try readCount()
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try element(&self)) }
        return elements
    }
}
