import Content
import Diagnostics
import Foundation

/// The small half of the build state: every input file's stat and hash, and what the build
/// produced, in a line-based text file that loads in milliseconds.
///
/// A build reads it first. When no input changed (same file list, same stats, or the same
/// hashes where the stat is unsure) the site is already up to date and the build stops
/// there, without loading the large half (``BuildState``: the parsed objects and the page
/// records), planning or rendering anything. The index names the state file it belongs to
/// by its size and token, so a truncated or mismatched pair means a full build.
struct BuildIndex: Equatable {
    /// Bumped whenever the format or the meaning of a field changes.
    static let formatVersion = 8

    /// The marsgen version that wrote it; another version means a full build.
    var marsgenVersion = BuildState.marsgenVersion
    /// The output directory, relative to the site root when inside it (see
    /// ``BuildOptions/recordedOutput``), else absolute.
    var outputDirectory: String
    /// A hash of the site's settings (``SiteConfiguration``, as parsed).
    var configurationHash: String
    /// Whether that build showed drafts (`--drafts`). Another setting now is no reason for a
    /// full build: the drafts' objects enter or leave the object list, as when one file's
    /// `draft:` changes, and only the pages that show them change.
    var includesDrafts = false
    /// When the build that wrote it started reading sources (ns since the epoch).
    var scanStartedAt: Int64
    /// The token of the ``BuildState`` written with it.
    var stateToken: String
    /// The size in bytes of that state file.
    var stateSize: Int64
    /// What that build made, for the summary line of a build that changes nothing.
    var journalEntries = 0, messages = 0, weatherReports = 0, pages = 0
    /// The warnings that build gave about the site's files (not its configuration, which
    /// every build reads again), for a build that changes nothing to give them too.
    var warnings: [Diagnostic] = []
    /// Every file the build read besides the configuration, by site-relative path.
    var inputs: IndexInputs
    /// The input folders as that build listed them, sorted by path, when it listed them
    /// itself, met no symbolic link and read every file it listed: what lets the next build
    /// list the inputs without reading every folder again (see
    /// ``SiteReader/inputFiles(recordedIn:)``). Empty otherwise.
    var folders: [InputFolder] = []
    /// The output folder and the folders directly in it (but hidden ones), with their stat
    /// once the build that wrote this index had written its last page (see
    /// ``OutputFolders``): a build that finds them otherwise knows that pages were removed or
    /// moved by hand (`mv public/* /srv/www/`, `rm -r public/journal`), which its records
    /// cannot tell, and builds everything.
    var outputFolders: [InputFolder] = []
    /// The input lines of the file the index was read from, for a save to copy the lines that
    /// stay the same (see ``inputLines(paths:records:reusing:input:)``). Not part of what an
    /// index says.
    private(set) var lineSource: LineSource?
    /// Whether ``inputs`` are every line the file said it held (it was not cut short): only
    /// then can a listing take them for the files of the folders it does not read again. Not
    /// part of what an index says.
    private(set) var inputsAreWhole = false

    /// The input paths in order and the folders, when the index holds both whole: an index
    /// read from a file whose folders and paths passed their checks. An index made in memory
    /// (the one `watch` remembers after a save) has none.
    var recordedListing: (paths: [String], folders: [InputFolder])? {
        guard !folders.isEmpty, inputsAreWhole else { return nil }
        return (inputs.paths, folders)
    }

    static func == (left: BuildIndex, right: BuildIndex) -> Bool {
        left.marsgenVersion == right.marsgenVersion && left.outputDirectory == right.outputDirectory
            && left.configurationHash == right.configurationHash && left.includesDrafts == right.includesDrafts
            && left.scanStartedAt == right.scanStartedAt
            && left.stateToken == right.stateToken && left.stateSize == right.stateSize
            && (left.journalEntries, left.messages, left.weatherReports, left.pages)
                == (right.journalEntries, right.messages, right.weatherReports, right.pages)
            && left.warnings == right.warnings && left.inputs == right.inputs && left.folders == right.folders
            && left.outputFolders == right.outputFolders
    }

    /// One input file.
    struct Input: Equatable, RecordedStat {
        var size: Int64
        var modified: Int64
        var changed: Int64
        var hash: String

        init(size: Int64, modified: Int64, changed: Int64, hash: String) {
            (self.size, self.modified, self.changed, self.hash) = (size, modified, changed, hash)
        }

        /// A file of stat `stat` and hash `hash`.
        init(_ stat: FileStat, hash: String) {
            self.init(size: stat.size, modified: stat.modified, changed: stat.changed, hash: hash)
        }
    }

    /// The index file beside the state file at `statePath`.
    static func path(forState statePath: String) -> String {
        (statePath.hasSuffix(".state") ? String(statePath.dropLast(6)) : statePath) + ".index"
    }

    // MARK: - Text form

    /// The file's bytes: a header of `key value` lines, one `warning` line per warning (the
    /// warning in the build state's binary form, in Base64), one `folder CTIME INODE PATH`
    /// line per folder (the inode number as a signed number, the path last and escaped), one
    /// `output-folder CTIME INODE PATH` line per output folder, then `inputLines`, this index's
    /// ``inputLines`` (which a build makes while it writes the state: they do not depend on
    /// its size), and last a `check HASH` line (see ``signed(_:)``).
    func bytes(inputLines: [UInt8]) -> [UInt8] {
        Self.signed(uncheckedBytes(inputLines: inputLines))
    }

    /// ``bytes(inputLines:)`` without its last line, the check.
    func uncheckedBytes(inputLines: [UInt8]) -> [UInt8] {
        Array(bodyPieces(inputLines: inputLines).joined())
    }

    /// ``uncheckedBytes(inputLines:)`` as the pieces it is made of (the header, the folders',
    /// the output folders' and the input lines), which a save hashes and writes as they are:
    /// joined, they were a megabyte of fresh memory on a large site.
    ///
    /// - Parameter lines: The lines of the index a build read, whose folders' lines are taken
    ///   as they were when the folders are the same (thousands of lines made again for nothing).
    func bodyPieces(inputLines: [UInt8], reusing lines: LineSource? = nil) -> [[UInt8]] {
        let folderLines = if let lines, lines.folders == folders { Array(lines.folderLines) } else { folderLines(folders, prefix: "folder ") }
        return [headerLines, folderLines, self.folderLines(outputFolders, prefix: "output-folder "), inputLines]
    }

    /// `body` and the line that ends an index file: `check`, then the hash of `body` (see
    /// ``StateWriter/checkHash(_:)``) in 16 hexadecimal digits.
    ///
    /// Every build trusts the index for what changed: a damaged number could make a file
    /// look unchanged, or (the last build's start, `scan-started`) make a stat look
    /// reliable when it is not. With the check, a damaged index is unreadable, so a full
    /// build, like a damaged state.
    static func signed(_ body: [UInt8]) -> [UInt8] {
        body + checkLine(of: [body])
    }

    /// The check line of a body made of `pieces`, one after another.
    private static func checkLine<Piece: ContiguousBytes>(of pieces: [Piece]) -> [UInt8] {
        Array((checkPrefix + checkDigits(pieces) + "\n").utf8)
    }

    /// The check of a body made of `pieces` as an index writes it: ``StateWriter/checkHash(pieces:)``
    /// in sixteen lowercase hexadecimal digits.
    private static func checkDigits<Piece: ContiguousBytes>(_ pieces: [Piece]) -> String {
        ContentHash(value: StateWriter.checkHash(pieces: pieces)).description
    }

    private static let checkPrefix = "check "
    /// How long the check line is: the prefix, sixteen digits and the newline.
    private static let checkLineLength = checkPrefix.utf8.count + 16 + 1

    /// ``bytes(inputLines:)`` up to the folders' lines.
    private var headerLines: [UInt8] {
        let lines = [
            "\(Self.formatPrefix)\(Self.formatVersion)",
            "marsgen \(marsgenVersion)",
            "output \(Self.escape(outputDirectory))",
            "configuration \(configurationHash)",
            "drafts \(includesDrafts ? "shown" : "left-out")",
            "scan-started \(scanStartedAt)",
            "state \(stateToken) \(stateSize)",
            "made \(journalEntries) \(messages) \(weatherReports) \(pages)",
            "lines \(folders.count) \(inputs.count) \(outputFolders.count)",
        ] + warnings.map { warning in
            var writer = StateWriter(capacity: 256)
            writer.write(warning)
            return "warning " + Data(writer.bytes).base64EncodedString()
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// A line per folder of `list` (`PREFIX CTIME INODE PATH`).
    private func folderLines(_ list: [InputFolder], prefix: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(list.count * 48)
        // Without a string per line: a journal kept in a folder per sol has thousands.
        for folder in list {
            bytes.append(contentsOf: prefix.utf8)
            Self.append(folder.changed, to: &bytes)
            // The inode number as the Int64 with its bits, so that every number is read one way.
            Self.append(Int64(bitPattern: folder.inode), to: &bytes)
            bytes.append(contentsOf: Self.escapedIfNeeded(folder.path).utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// `value` in decimal, then a space. The digits come last first, by division by the
    /// constant 10 (which compiles to a multiplication) rather than by a varying power of
    /// ten, and are then put in order.
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
        bytes.append(UInt8(ascii: " "))
    }

    /// The `input` lines, one per file (`input SIZE MTIME CTIME-MTIME HASH PATH`, sorted by
    /// path; the status-change time as its distance from the modification time, most often
    /// 0; the path last and escaped). Built without a `String` per line: a large site has tens of
    /// thousands of inputs, and this is written by every build that changes something.
    var inputLines: [UInt8] {
        Self.inputLines(paths: inputs.paths, records: inputs.inputs) { $0 }
    }

    /// The `input` lines of `paths` (sorted), each with what `input` says of its record in `records`.
    ///
    /// - Parameter source: The lines of an index as read from its file: a line for the same
    ///   path and input is copied from there rather than made again (most of them, after an
    ///   edit: 13,400 lines made took 4-6 ms of a save).
    static func inputLines<Records: Collection>(paths: [String], records: Records, reusing source: LineSource? = nil,
                                                input: (Records.Element) -> Input) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(paths.count * 100)
        // Both in path order: each path is looked for from where the last one was found.
        var sourcePaths = source.map { SortedWalk($0.inputs.paths) }
        // Taken out of the source once: read through it, each line retained and released them.
        let (sourceInputs, sourceEnds, sourceLines) = (source?.inputs.inputs ?? [], source?.ends ?? [], source?.lines)
        for (path, record) in zip(paths, records) {
            let input = input(record)
            if let sourceLines, let position = sourcePaths?.index(of: path), sourceInputs[position] == input {
                let start = position == 0 ? 0 : sourceEnds[position - 1]
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: sourceLines[start..<sourceEnds[position]]))
                continue
            }
            bytes.append(contentsOf: "input ".utf8)
            Self.append(input.size, to: &bytes)
            Self.append(input.modified, to: &bytes)
            Self.append(input.changed &- input.modified, to: &bytes)
            bytes.append(contentsOf: input.hash.utf8)
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: Self.escapedIfNeeded(path).utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Parses an index, or returns `nil` for anything malformed or damaged (a full build follows).
    init?(text: String) {
        var text = text
        guard let index = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = index
    }

    /// Parses an index without its check line (see ``uncheckedBytes(inputLines:)``), as
    /// ``parse(_:keptBy:)`` does once the check holds: what the text says, line by line.
    init?(uncheckedText text: String) {
        var text = text
        guard let index = text.withUTF8({ Self.parseUnchecked($0) }) else { return nil }
        self = index
    }

    /// Parses an index from its bytes, whose last line must be the check of the rest (see
    /// ``signed(_:)``): otherwise the index is damaged, and `nil`.
    ///
    /// - Parameter file: What keeps `bytes` valid and unchanged, if anything does: the index
    ///   then keeps its input lines (see ``lineSource``).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, keptBy file: FileSystem.MappedFile? = nil) -> BuildIndex? {
        let lineLength = checkLineLength
        guard bytes.count >= lineLength else { return nil }
        let bodyEnd = bytes.count - lineLength
        let line = UnsafeBufferPointer(rebasing: bytes[bodyEnd...])
        guard bodyEnd == 0 || bytes[bodyEnd - 1] == UInt8(ascii: "\n"), line.last == UInt8(ascii: "\n"),
              line.starts(with: checkPrefix.utf8) else { return nil }
        let body = UnsafeBufferPointer(rebasing: bytes[..<bodyEnd])
        // Compared as text, digit for digit as written: a damaged digit is never read as another.
        guard line[checkPrefix.utf8.count..<(lineLength - 1)].elementsEqual(checkDigits([UnsafeRawBufferPointer(body)]).utf8)
        else { return nil }
        return parseUnchecked(body, keptBy: file)
    }

    /// Parses an index from its bytes but the check line, line by line in place: an index
    /// has a line per input file, read by every build, so no array of lines or string per
    /// line is made.
    static func parseUnchecked(_ bytes: UnsafeBufferPointer<UInt8>, keptBy file: FileSystem.MappedFile? = nil) -> BuildIndex? {
        var position = 0
        /// The next line, without its newline; nil at the end or when the last line is unfinished.
        func nextLine() -> UnsafeBufferPointer<UInt8>? {
            guard position < bytes.count, let base = bytes.baseAddress,
                  let newline = memchr(base + position, Int32(UInt8(ascii: "\n")), bytes.count - position) else { return nil }
            let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            defer { position = end + 1 }
            return UnsafeBufferPointer(rebasing: bytes[position..<end])
        }
        func text(_ line: UnsafeBufferPointer<UInt8>) -> String { String(decoding: line, as: UTF8.self) }
        guard let first = nextLine(), text(first) == "\(formatPrefix)\(formatVersion)" else { return nil }
        func field(_ name: String) -> Substring? {
            guard let line = nextLine().map(text), line.hasPrefix(name + " ") else { return nil }
            return line.dropFirst(name.count + 1)
        }
        guard let version = field("marsgen"), let output = field("output"), let configuration = field("configuration"),
              let drafts = field("drafts"), drafts == "shown" || drafts == "left-out",
              let scan = field("scan-started").flatMap({ Int64($0) }), let state = field("state"), let made = field("made"),
              let lineCounts = field("lines")
        else { return nil }
        let stateFields = state.split(separator: " ")
        let counts = made.split(separator: " ").compactMap { Int($0) }
        let written = lineCounts.split(separator: " ").compactMap { Int($0) }
        guard stateFields.count == 2, let stateSize = Int64(stateFields[1]), counts.count == 4, written.count == 3 else { return nil }
        var index = BuildIndex(outputDirectory: unescape(output), configurationHash: String(configuration), scanStartedAt: scan,
                               stateToken: String(stateFields[0]), stateSize: stateSize, inputs: [:])
        index.marsgenVersion = String(version)
        index.includesDrafts = drafts == "shown"
        (index.journalEntries, index.messages, index.weatherReports, index.pages) = (counts[0], counts[1], counts[2], counts[3])
        let warningPrefix = Array("warning ".utf8)
        var line = nextLine()
        while let current = line, current.starts(with: warningPrefix) {
            guard let bytes = Data(base64Encoded: text(UnsafeBufferPointer(rebasing: current[warningPrefix.count...]))) else { return nil }
            let warning: Diagnostic? = [UInt8](bytes).withUnsafeBytes { buffer in
                var reader = StateReader(buffer)
                guard let warning = try? reader.readDiagnostic(), reader.isAtEnd else { return nil }
                return warning
            }
            guard let warning else { return nil }
            index.warnings.append(warning)
            line = nextLine()
        }
        /// Where the folders' lines start and end.
        let foldersStart = line.map { position - $0.count - 1 } ?? position
        var foldersEnd = foldersStart
        while let current = line, current.starts(with: folderPrefix) {
            guard let folder = parseFolder(current, prefix: folderPrefix) else { return nil }
            index.folders.append(folder)
            foldersEnd = position
            line = nextLine()
        }
        while let current = line, current.starts(with: outputFolderPrefix) {
            guard let folder = parseFolder(current, prefix: outputFolderPrefix) else { return nil }
            index.outputFolders.append(folder)
            line = nextLine()
        }
        // Cut short, they would not show what the output held: a damaged index.
        guard index.outputFolders.count == written[2] else { return nil }
        // The input lines: all that is left, each ending with a newline (an index cut short
        // is not an index).
        if let current = line {
            let start = position - current.count - 1
            let lines = UnsafeBufferPointer(rebasing: bytes[start...])
            guard bytes.last == UInt8(ascii: "\n"), let (inputs, ends) = parseInputs(lines) else { return nil }
            index.inputs = inputs
            if let file {
                index.lineSource = LineSource(file: file, lines: lines, inputs: inputs, ends: ends,
                                              folderLines: UnsafeBufferPointer(rebasing: bytes[foldersStart..<foldersEnd]),
                                              folders: index.folders)
            }
        } else {
            guard position == bytes.count else { return nil }
        }
        // The listing trusts these lists to be whole, and binary-searches them: with folders
        // out of order, or either list cut short, it does not use them, and the build lists
        // every folder (the inputs not read count as changed, and are read again).
        if index.folders.count != written[0] || index.inputs.count != written[1]
            || !zip(index.folders, index.folders.dropFirst()).allSatisfy({ $0.path < $1.path }) {
            index.folders = []
        } else {
            index.inputsAreWhole = true
        }
        return index
    }

    /// Parses `input` lines, each ending with a newline: a large site's are a megabyte, read
    /// by every build, so two halves are parsed at once (on two cores when there are two).
    /// Nil when a line is malformed or the paths are not in increasing order, each once (a
    /// build writes them so: anything else is a damaged index).
    /// - Returns: The inputs, and where each line ends in `bytes` (after its newline).
    private static func parseInputs(_ bytes: UnsafeBufferPointer<UInt8>) -> (IndexInputs, ends: [Int])? {
        /// The lines of `part` (whole lines), with their paths in increasing order, and their ends.
        func parsed(_ part: UnsafeBufferPointer<UInt8>) -> (IndexInputs, ends: [Int])? {
            var inputs = IndexInputs()
            var ends: [Int] = []
            // About 80 bytes a line.
            inputs.reserveCapacity(part.count / 64)
            ends.reserveCapacity(part.count / 64)
            var start = 0
            while start < part.count {
                guard let base = part.baseAddress,
                      let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), part.count - start) else { return nil }
                let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                guard let (path, input) = parseInput(UnsafeBufferPointer(rebasing: part[start..<end])),
                      inputs.append(input, at: path) else { return nil }
                start = end + 1
                ends.append(start)
            }
            return (inputs, ends)
        }
        // A small index is parsed whole; a large one split after the first newline past the middle.
        guard bytes.count >= 1 << 16 else { return parsed(bytes) }
        var middle = bytes.count / 2
        while middle < bytes.count, bytes[middle - 1] != UInt8(ascii: "\n") { middle += 1 }
        guard middle < bytes.count else { return parsed(bytes) }
        let (first, second) = inParallel({ parsed(UnsafeBufferPointer(rebasing: bytes[..<middle])) },
                                         { parsed(UnsafeBufferPointer(rebasing: bytes[middle...])) })
        guard var (inputs, ends) = first, let second, inputs.append(contentsOf: second.0) else { return nil }
        ends += second.ends.lazy.map { $0 + middle }
        return (inputs, ends)
    }

    /// The input lines of an index file as it was read: the file (mapped, and kept so while
    /// the index is: a save replaces the file, it never writes into it), where its input lines
    /// are, what they say, and where each ends.
    struct LineSource: @unchecked Sendable {
        let file: FileSystem.MappedFile
        let lines: UnsafeBufferPointer<UInt8>
        let inputs: IndexInputs
        /// Where each input's line ends in ``lines``, with its newline.
        let ends: [Int]
        /// The folders' lines of the file, and the folders they say.
        var folderLines = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var folders: [InputFolder] = []
    }

    private static let folderPrefix = Array("folder ".utf8)
    private static let outputFolderPrefix = Array("output-folder ".utf8)
    private static let inputPrefix = Array("input ".utf8)

    /// Parses `folder CTIME INODE PATH` (or another `prefix`).
    private static func parseFolder(_ bytes: UnsafeBufferPointer<UInt8>, prefix: [UInt8]) -> InputFolder? {
        var line = LineScanner(bytes, from: prefix.count)
        guard let changed = line.number(), let inode = line.number(), let path = line.path() else { return nil }
        return InputFolder(path: path, changed: changed, inode: UInt64(bitPattern: inode))
    }

    /// Parses `input SIZE MTIME CTIME-MTIME HASH PATH` on its UTF-8 bytes: tens of thousands of lines
    /// are read on every build, so this avoids splitting into substrings.
    private static func parseInput(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, Input)? {
        guard bytes.count > inputPrefix.count, bytes.starts(with: inputPrefix) else { return nil }
        var line = LineScanner(bytes, from: inputPrefix.count)
        guard let size = line.number(), let modified = line.number(), let changedAfter = line.number(), let hash = line.word(),
              let path = line.path() else { return nil }
        return (path, Input(size: size, modified: modified, changed: modified &+ changedAfter, hash: hash))
    }

    /// Reads the space-separated fields of one line, in place.
    private struct LineScanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int

        init(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// A decimal Int64 and the space after it; nil for anything else (one out of
        /// range included: a damaged index means a full build, never a crash).
        mutating func number() -> Int64? {
            var magnitude: UInt64 = 0
            var negative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
                negative = true
                position += 1
            }
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: " ") {
                let digit = bytes[position] &- UInt8(ascii: "0")
                let (tens, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
                guard digit < 10, !overflowed, tens <= UInt64.max - UInt64(digit) else { return nil }
                magnitude = tens + UInt64(digit)
                position += 1
            }
            guard position > start, position < bytes.count,
                  magnitude <= (negative ? Int64.min.magnitude : UInt64(Int64.max)) else { return nil }
            position += 1
            return negative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude)
        }

        /// The text up to the next space, and that space.
        mutating func word() -> String? {
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: " ") { position += 1 }
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }

        /// The rest of the line, a path, unescaped; nil when empty.
        mutating func path() -> String? {
            guard position < bytes.count else { return nil }
            let pathBytes = UnsafeBufferPointer(rebasing: bytes[position...])
            position = bytes.count
            return pathBytes.contains(UInt8(ascii: "\\"))
                ? unescape(Substring(String(decoding: pathBytes, as: UTF8.self)))
                : String(decoding: pathBytes, as: UTF8.self)
        }
    }

    init(outputDirectory: String, configurationHash: String, scanStartedAt: Int64, stateToken: String, stateSize: Int64,
         inputs: IndexInputs) {
        self.outputDirectory = outputDirectory
        self.configurationHash = configurationHash
        self.scanStartedAt = scanStartedAt
        self.stateToken = stateToken
        self.stateSize = stateSize
        self.inputs = inputs
    }

    /// Backslash, newline and carriage return escaped, so a path is always one line.
    ///
    /// Byte by byte, as ``unescape(_:)`` reads it back: Foundation's search, which matches
    /// whole composed sequences, passed over a newline, carriage return or backslash followed
    /// by a combining mark, and the index got a broken line.
    static func escape(_ path: String) -> String {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(path.utf8.count + 4)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): escaped.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): escaped.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): escaped.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// ``escape(_:)``, checking first whether there is anything to escape (most paths have not).
    static func escapedIfNeeded(_ path: String) -> String {
        let needsEscape = path.utf8.contains { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        return needsEscape ? escape(path) : path
    }

    /// What ``escape(_:)`` escaped, read back byte by byte.
    static func unescape(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var escaping = false
        for byte in text.utf8 {
            if escaping {
                result.append(byte == UInt8(ascii: "n") ? UInt8(ascii: "\n") : byte == UInt8(ascii: "r") ? UInt8(ascii: "\r") : byte)
                escaping = false
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    // MARK: - Files

    /// Reads the index at `path`, or `nil` when it is missing or malformed.
    static func load(from path: String) -> BuildIndex? {
        guard let file = try? FileSystem.MappedFile(path: path) else { return nil }
        return parse(file.bytes.assumingMemoryBound(to: UInt8.self), keptBy: file)
    }

    /// The output folder the index at `path` describes, as recorded (relative to the site
    /// root when inside it), read from its first lines only (any format that has an `output`
    /// line third); nil when it has none.
    static func outputDirectory(ofIndexAt path: String) -> String? {
        let lines = firstLines(ofIndexAt: path)
        guard lines.count > 3, lines[2].hasPrefix("output "), lines[2].count > "output ".count else { return nil }
        return unescape(lines[2].dropFirst("output ".count))
    }

    /// Whether the file at `path` is an index in another format than this marsgen's.
    static func isOtherFormat(at path: String) -> Bool {
        guard let first = firstLines(ofIndexAt: path).first else { return false }
        return first != "\(formatPrefix)\(formatVersion)"
    }

    private static let formatPrefix = "marsgen-build-index "

    /// The first lines of the index at `path` (the header, whatever its format), without
    /// reading the rest; none when the file is missing or not an index.
    private static func firstLines(ofIndexAt path: String) -> [Substring] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let start = String(decoding: (try? handle.read(upToCount: 8192)) ?? Data(), as: UTF8.self)
        guard start.hasPrefix(formatPrefix) else { return [] }
        return start.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
    }

    /// Writes the index atomically (temporary file, then rename), with its ``inputLines``
    /// when they are already made, from its pieces (see ``bodyPieces(inputLines:reusing:)``).
    func save(to path: String, inputLines: [UInt8]? = nil, reusing lines: LineSource? = nil) throws {
        // `.marsgen/`, not the site's folder (see `FileSystem.createDirectories`).
        try FileSystem.createDirectories(SitePaths.parent(path), levels: 1)
        let body = bodyPieces(inputLines: inputLines ?? self.inputLines, reusing: lines)
        try FileSystem.writeAtomically(body + [Self.checkLine(of: body)], to: path)
    }
}

extension BuildIndex.Input {
    /// What the index records of a source: its stat and hash, as `record` holds them.
    init(_ record: BuildState.SourceRecord) {
        self.init(record.stat, hash: record.hash)
    }
}
