import Content
import Diagnostics
import GFM
import MarsTime

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

    /// Laid out as a string; text still held as bytes is copied as it is.
    mutating func write(_ body: StoredText) {
        body.withUTF8 { utf8 in
            write(count: utf8.count)
            write(raw: utf8)
        }
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
        write(entry.sourcePath)
        write(entry.explicitTitle)
        write(entry.slug)
        write(entry.author)
        write(entry.instant)
        write(entry.sol)
        write(entry.lmst)
        write(entry.tags)
        write(entry.isDraft)
        write(entry.body)
    }

    mutating func write(_ message: Message) {
        write(message.identifier)
        write(message.contentHash)
        write(fixed: message.stamp)
        write(message.sourcePath)
        write(message.channel)
        write(message.author)
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
        write(report.sourcePath)
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
        }
    }
}

/// The fields that repeat from object to object in a chunk of records, each read through a
/// ``StateReader/StringMemo`` so that equal values share one string.
struct RepeatedFields {
    var sourcePath = StateReader.StringMemo()
    var channel = StateReader.StringMemo()
    var authorID = StateReader.StringMemo()
    var authorName = StateReader.StringMemo()
    var authorRole = StateReader.StringMemo()
    /// `[id]` for each author id met (a crew is a handful), for the objects by that author to share.
    var authorIDs: [[String]] = []

    /// `[id]`, the array already made for `id` if there is one.
    mutating func authorIDs(_ id: String) -> [String] {
        for ids in authorIDs where ids[0] == id { return ids }
        let ids = [id]
        if authorIDs.count < 16 { authorIDs.append(ids) }
        return ids
    }
}

extension StateReader {
    mutating func readHash() throws(Damaged) -> ContentHash {
        ContentHash(value: try readFixedUInt64())
    }

    mutating func skipHash() throws(Damaged) {
        try skip(MemoryLayout<UInt64>.size)
    }

    mutating func readCrewMember(_ fields: inout RepeatedFields) throws(Damaged) -> CrewMember {
        CrewMember(id: try readString(&fields.authorID), name: try readString(&fields.authorName),
                   role: try readString(&fields.authorRole))
    }

    /// What ``StateWriter/write(_:)-(StoredText)`` wrote: left as bytes when this reader's
    /// bytes have an owner to keep them (see ``StateReader/init(_:owner:)``).
    mutating func readStoredText() throws(Damaged) -> StoredText {
        guard let owner = bytesOwner else { return StoredText(try readString()) }
        return StoredText(utf8: try readUTF8(), keptBy: owner)
    }

    mutating func readInstant() throws(Damaged) -> Instant {
        Instant(unixMillis: try readInt64())
    }

    mutating func readClockTime() throws(Damaged) -> MarsClockTime {
        MarsClockTime(secondsOfSol: try readDouble())
    }

    mutating func readJournalEntry(_ fields: inout RepeatedFields) throws(Damaged) -> JournalEntry {
        let (identifier, hash, stamp) = (try readStoredText(), try readHash(), try readFixedUInt64())
        let sourcePath = try readString(&fields.sourcePath)
        let (title, slug, author) = (try readOptionalString(), try readString(), try readCrewMember(&fields))
        return JournalEntry(restoring: identifier, contentHash: hash, sourcePath: sourcePath, explicitTitle: title, slug: slug,
                            author: author, instant: try readInstant(), sol: try readInt(), lmst: try readClockTime(),
                            tags: try readStrings(), isDraft: try readBool(), body: try readStoredText(),
                            authorIDs: fields.authorIDs(author.id), stamp: stamp)
    }

    mutating func readMessage(_ fields: inout RepeatedFields) throws(Damaged) -> Message {
        let (identifier, hash, stamp) = (try readStoredText(), try readHash(), try readFixedUInt64())
        let sourcePath = try readString(&fields.sourcePath)
        let (channel, author) = (try readString(&fields.channel), try readCrewMember(&fields))
        return Message(restoring: identifier, contentHash: hash, sourcePath: sourcePath, channel: channel, author: author,
                       instant: try readInstant(), sol: try readInt(), lmst: try readClockTime(), body: try readStoredText(),
                       line: try readInt(), authorIDs: fields.authorIDs(author.id), stamp: stamp)
    }

    mutating func readWeatherReport(_ fields: inout RepeatedFields) throws(Damaged) -> WeatherReport {
        let identifier = try readString()
        let hash = try readHash()
        let stamp = try readFixedUInt64()
        let sourcePath = try readString(&fields.sourcePath)
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
                             condition: condition, notesHTML: try readString(), stamp: stamp)
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
        var record = BuildState.SourceRecord(size: try readInt64(), modified: try readInt64(), hash: try readString())
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
            return MarkdownSiteLink(path: path, line: line, column: column, isImage: isImage, element: element, origin: origin,
                                    fragment: try reader.readString())
        }
        return record
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
