import Content
import Diagnostics
import Foundation

/// What a successful build leaves for the next one, in `.marsgen/` in the site root.
///
/// It records the sources it read (with their stat and hash, and the objects parsed from
/// each), the ordered object list, the templates' hashes, and every file it wrote (with the
/// hash of its bytes, its fingerprint and what it was made from). A missing, corrupt or
/// old-version state means a full build, never a wrong site.
public struct BuildState: Sendable, Equatable {
    /// Bumped whenever the format or the meaning of a field changes.
    public static let formatVersion = 5

    /// The format version this state was written with.
    public var formatVersion: Int
    /// The marsgen version that wrote it; another version means a full build.
    public var marsgenVersion: String
    /// Names this state; the ``BuildIndex`` written with it names it too.
    public var token: String = ""
    /// The output directory it describes (absolute).
    public var outputDirectory: String
    /// A hash of the configuration text and the build options that change output.
    public var configurationHash: String
    /// When the previous build started reading sources (ns since the epoch): a file whose
    /// modification time is not clearly before it is hashed again, whatever its stat says.
    public var scanStartedAt: Int64
    /// Every content source read, by site-relative path.
    public var sources: [String: SourceRecord]
    /// The hash of each template's source, by template name.
    public var templates: [String: String]
    /// The object list, in feed order.
    public var objects: [ObjectFingerprint]
    /// Every page written, by output-relative path.
    public var pages: [String: PageRecord]
    /// Every other file written (theme assets, static files), by output-relative path.
    public var files: [String: FileRecord]
    /// The chunks of the file it was loaded from (empty for a new state).
    var encodedChunks = EncodedChunks()

    /// One content source file and what was parsed from it.
    public struct SourceRecord: Sendable, Equatable {
        /// Size in bytes.
        public var size: Int64
        /// Modification time, ns since the epoch.
        public var modified: Int64
        /// Hash of the file's bytes.
        public var hash: String
        /// Entries, messages or reports parsed from it (one kind per file).
        public var journalEntries: [JournalEntry] = []
        public var messages: [Message] = []
        public var weatherReports: [WeatherReport] = []
        /// Warnings found while parsing it, replayed when it is reused.
        public var warnings: [Diagnostic] = []
    }

    /// One page written by the build.
    public struct PageRecord: Sendable, Equatable {
        /// Hash of the page's bytes.
        public var bytes: ContentHash
        /// The page's fingerprint (see `PageFingerprint`): everything it is made from,
        /// templates included. What it shows is not stored; the plan says it each build.
        public var fingerprint: ContentHash
        /// The hash of its inputs as the planner saw them (see `PagePlan.inputs`): unchanged,
        /// the page is not even planned.
        public var inputs: ContentHash
    }

    /// A file copied or generated as it is.
    public struct FileRecord: Sendable, Equatable {
        /// Hash of the file's bytes.
        public var bytes: String
    }

    /// The state file for `output` under the site root: one per output directory.
    static func path(siteRoot: String, output: String) -> String {
        SitePaths.join(siteRoot, ".marsgen/build-\(outputKey(output)).state")
    }

    /// Where marsgen before state format 3 kept the state for `output` (as JSON).
    static func legacyPath(siteRoot: String, output: String) -> String {
        SitePaths.join(siteRoot, ".marsgen/build-\(outputKey(output)).json")
    }

    /// Names the files of one output directory in `.marsgen/`.
    static func outputKey(_ output: String) -> Substring {
        var hash = ContentHash()
        hash.combine(output)
        return hash.description.prefix(12)
    }

    /// Removes the half-written state files (`*.tmp-PID`) of builds killed while saving.
    static func removeAbandonedTemporaries(siteRoot: String) {
        let directory = SitePaths.join(siteRoot, ".marsgen")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            guard let range = name.range(of: ".tmp-", options: .backwards), let pid = Int32(name[range.upperBound...]),
                  pid != getpid(), kill(pid, 0) != 0 else { continue }
            try? FileManager.default.removeItem(atPath: SitePaths.join(directory, name))
        }
    }

    /// The first bytes of every state file.
    private static let magic = Array("marsgen-state\n".utf8)

    /// Reads the state, or says why it cannot be used.
    static func load(from path: String) -> Result<BuildState, StateProblem> {
        let file: FileSystem.MappedFile
        do {
            file = try FileSystem.MappedFile(path: path)
        } catch {
            return .failure(error.code == ENOENT ? .missing : .unreadable)
        }
        var reader = StateReader(file.bytes)
        do throws(StateReader.Damaged) {
            try reader.expect(magic)
            let version = try reader.readInt()
            guard version == formatVersion else { return .failure(.otherFormat(version)) }
            return .success(try BuildState(reading: &reader, file: file))
        } catch {
            return .failure(.unreadable)
        }
    }

    fileprivate static func readMap<Value>(_ reader: inout StateReader,
                                           _ value: (inout StateReader) throws(StateReader.Damaged) -> Value)
        throws(StateReader.Damaged) -> [String: Value] {
        let count = try reader.readCount()
        var map: [String: Value] = [:]
        map.reserveCapacity(count)
        for _ in 0..<count {
            let key = try reader.readString()
            map[key] = try value(&reader)
        }
        return map
    }

    private static func writeMap<Value>(_ map: [String: Value], to writer: inout StateWriter,
                                        _ value: (Value, inout StateWriter) -> Void) {
        writer.write(count: map.count)
        // Sorted, so two builds that agree leave the same bytes; with the values, so that no
        // key is looked up again.
        for (key, item) in map.sorted(by: { $0.key < $1.key }) {
            writer.write(key)
            value(item, &writer)
        }
    }

    /// The encoded chunks of sources of the file this state was loaded from, so a save can
    /// copy the chunks whose records did not change instead of encoding them again. Not part
    /// of what the state says: two states that differ only here are equal.
    struct EncodedChunks: Equatable, Sendable {
        /// Each chunk's paths, the records encoded (in the same order) and the bytes, by its
        /// first path. The records are compared in place, not looked up by path again; a
        /// record carried over from the loaded state shares its arrays with it, which makes
        /// that comparison immediate.
        var byFirstPath: [String: (paths: [String], records: [SourceRecord], bytes: EncodedBytes)] = [:]
        /// The size of the whole file.
        var fileSize = 0

        static func == (_: EncodedChunks, _: EncodedChunks) -> Bool { true }
    }

    /// Where the sorted source paths are cut into chunks: after a path whose hash ends in
    /// eight zero bits (so adding or removing a file moves only its own chunk's boundaries),
    /// and after 2,048 paths at most.
    static func chunks(of paths: [String]) -> [ArraySlice<String>] {
        var chunks: [ArraySlice<String>] = []
        var start = 0
        for (index, path) in paths.enumerated() {
            var hash = ContentHash()
            hash.combine(path)
            if hash.value & 0xFF == 0 || index + 1 - start == 2_048 || index + 1 == paths.count {
                chunks.append(paths[start...index])
                start = index + 1
            }
        }
        return chunks
    }

    /// The state in its binary form. Source chunks whose paths and records equal those of
    /// `previous` are copied from the file `previous` was loaded from.
    func encoded(reusing previous: BuildState? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in encodedWithChunks(reusing: previous).parts { part.withUnsafeBytes { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// The binary form as consecutive parts (the file is their concatenation), and where its
    /// chunks of sources are, for the next save to reuse. A chunk reused is a slice of the
    /// bytes it was loaded from: it is written from there, never copied into one buffer.
    private func encodedWithChunks(reusing previous: BuildState?) -> (parts: [EncodedBytes], chunks: EncodedChunks) {
        // The head and the sources are encoded at the same time: neither needs the other.
        let (head, sources) = inParallel({ encodedHead() }, { encodedSources(reusing: previous) })
        var encoded = sources.chunks
        encoded.fileSize = head.count + sources.parts.reduce(0) { $0 + $1.count }
        return ([.encoded(head[...])] + sources.parts, encoded)
    }

    /// Everything before the chunks of sources.
    private func encodedHead() -> [UInt8] {
        var writer = StateWriter(capacity: 1 << 20)
        writer.write(raw: Self.magic)
        writer.write(Self.formatVersion)
        writer.write(marsgenVersion)
        writer.write(token)
        writer.write(outputDirectory)
        writer.write(configurationHash)
        writer.write(scanStartedAt)
        Self.writeMap(templates, to: &writer) { hash, writer in writer.write(hash) }
        Self.writeMap(files, to: &writer) { record, writer in writer.write(record.bytes) }
        Self.writeMap(pages, to: &writer) { record, writer in
            writer.write(record.bytes)
            writer.write(record.fingerprint)
            writer.write(record.inputs)
        }
        writer.write(count: objects.count)
        // By index, so each identifier is borrowed rather than copied (a retain each).
        for index in objects.indices {
            writer.write(objects[index].diffIdentifier)
            writer.write(objects[index].contentHash)
        }
        return writer.bytes
    }

    /// The chunks of sources, each preceded by its length, after their count.
    private func encodedSources(reusing previous: BuildState?) -> (parts: [EncodedBytes], chunks: EncodedChunks) {
        // Sorted with their records, so that no path is looked up again below.
        let sorted = sources.sorted { $0.key < $1.key }
        let chunks = Self.chunks(of: sorted.map(\.key))
        var writer = StateWriter(capacity: 16)
        writer.write(count: chunks.count)
        var parts: [EncodedBytes] = []
        var encoded = EncodedChunks()
        for slice in chunks {
            guard let first = slice.first else { continue }
            let records = sorted[slice.indices].map(\.value)
            var body: EncodedBytes
            if let old = previous?.encodedChunks.byFirstPath[first], old.paths.elementsEqual(slice),
               old.records == records {
                body = old.bytes
            } else {
                var chunk = StateWriter()
                chunk.write(count: slice.count)
                for (path, record) in zip(slice, records) {
                    chunk.write(path)
                    chunk.write(record)
                }
                body = .encoded(chunk.bytes[...])
            }
            writer.write(count: body.count)
            parts.append(.encoded(writer.bytes[...]))
            writer = StateWriter(capacity: 16)
            parts.append(body)
            encoded.byFirstPath[first] = (Array(slice), records, body)
        }
        parts.append(.encoded(writer.bytes[...]))
        return (parts, encoded)
    }

    /// The state encoded for ``save(_:to:)``.
    struct Encoded {
        fileprivate let parts: [EncodedBytes]
        fileprivate let chunks: EncodedChunks
    }

    /// Encodes the state for saving (on two cores), copying the chunks of sources whose
    /// records equal those of `previous` from the file it was loaded from.
    func encodedForSaving(reusing previous: BuildState? = nil) -> Encoded {
        let (parts, chunks) = encodedWithChunks(reusing: previous)
        return Encoded(parts: parts, chunks: chunks)
    }

    /// Writes the state atomically (temporary file, then rename), and remembers the chunks
    /// written so that the next save of this state, kept in memory, can reuse them.
    ///
    /// - Returns: The size of the file written, for the ``BuildIndex``.
    @discardableResult
    mutating func save(to path: String, reusing previous: BuildState? = nil) throws -> Int64 {
        try save(encodedForSaving(reusing: previous), to: path)
    }

    /// Writes `encoded`, this state's encoding, as ``save(to:reusing:)`` does.
    @discardableResult
    mutating func save(_ encoded: Encoded, to path: String) throws -> Int64 {
        try FileManager.default.createDirectory(atPath: SitePaths.parent(path), withIntermediateDirectories: true)
        encodedChunks = encoded.chunks
        try FileSystem.writeAtomically(encoded.parts, to: path)
        return Int64(encoded.chunks.fileSize)
    }

    /// Why a state was not used.
    enum StateProblem: Error, Equatable {
        case missing
        case unreadable
        case otherFormat(Int)
        /// A state without the index that names it: a build stopped after touching the output.
        case unfinished

        var notice: String? {
            switch self {
            case .missing: return nil
            case .unreadable: return "build state is unreadable; doing a full build"
            case .unfinished: return "the last build did not finish; doing a full build"
            case .otherFormat(let version): return "build state has format \(version), not \(BuildState.formatVersion); doing a full build"
            }
        }
    }
}

extension BuildState {
    /// Decodes everything after the magic and version. The sources, which hold the parsed
    /// objects and most of the bytes, are stored in chunks that decode on every core.
    /// `reader` reads `file`: the chunks keep ranges of it (no copy) for the next save to
    /// write again.
    fileprivate init(reading reader: inout StateReader, file: FileSystem.MappedFile) throws(StateReader.Damaged) {
        let buffer = file.bytes
        formatVersion = Self.formatVersion
        marsgenVersion = try reader.readString()
        token = try reader.readString()
        outputDirectory = try reader.readString()
        configurationHash = try reader.readString()
        scanStartedAt = try reader.readInt64()
        templates = try Self.readMap(&reader) { reader throws(StateReader.Damaged) in try reader.readString() }
        files = try Self.readMap(&reader) { reader throws(StateReader.Damaged) in FileRecord(bytes: try reader.readString()) }
        pages = try Self.readMap(&reader) { reader throws(StateReader.Damaged) in
            PageRecord(bytes: try reader.readHash(), fingerprint: try reader.readHash(), inputs: try reader.readHash())
        }
        objects = try reader.readList { reader throws(StateReader.Damaged) in
            ObjectFingerprint(diffIdentifier: try reader.readString(), contentHash: try reader.readHash())
        }
        // Each chunk: its length in bytes, then a map of records. Decoded apart, then merged.
        var chunks: [Range<Int>] = []
        for _ in 0..<(try reader.readCount()) {
            let length = try reader.readCount()
            let start = reader.position
            try reader.skip(length)
            chunks.append(start..<(start + length))
        }
        guard reader.isAtEnd else { throw StateReader.Damaged() }
        let decoded = UnsafeMutableBufferPointer<(paths: [String], records: [SourceRecord])?>.allocate(capacity: chunks.count)
        decoded.initialize(repeating: nil)
        defer {
            decoded.deinitialize()
            decoded.deallocate()
        }
        let shared = UncheckedBox((buffer: buffer, chunks: chunks, decoded: decoded))
        DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
            let (buffer, chunks, decoded) = shared.value
            var chunkReader = StateReader(UnsafeRawBufferPointer(rebasing: buffer[chunks[index]]))
            var paths: [String] = []
            var records: [SourceRecord] = []
            do throws(StateReader.Damaged) {
                let count = try chunkReader.readCount()
                paths.reserveCapacity(count)
                records.reserveCapacity(count)
                var fields = RepeatedFields()
                for _ in 0..<count {
                    // The path through the same memo as its objects' paths: one string for all.
                    paths.append(try chunkReader.readString(&fields.sourcePath))
                    records.append(try chunkReader.readSourceRecord(&fields))
                }
            } catch {
                return
            }
            guard chunkReader.isAtEnd else { return }
            decoded[index] = (paths, records)
        }
        var sources: [String: SourceRecord] = [:]
        sources.reserveCapacity(decoded.reduce(0) { $0 + ($1?.records.count ?? 0) })
        var encoded = EncodedChunks()
        for (index, chunk) in decoded.enumerated() {
            guard let chunk, let first = chunk.paths.first else { throw StateReader.Damaged() }
            for (path, record) in zip(chunk.paths, chunk.records) where sources.updateValue(record, forKey: path) != nil {
                throw StateReader.Damaged()
            }
            encoded.byFirstPath[first] = (chunk.paths, chunk.records, .mapped(file, chunks[index]))
        }
        self.sources = sources
        encoded.fileSize = buffer.count
        self.encodedChunks = encoded
    }
}

/// Bytes of a state file: just encoded, or a range of the file a state was loaded from (kept
/// mapped while these bytes are).
enum EncodedBytes: ContiguousBytes, Sendable {
    case encoded(ArraySlice<UInt8>)
    case mapped(FileSystem.MappedFile, Range<Int>)

    var count: Int {
        switch self {
        case .encoded(let bytes): bytes.count
        case .mapped(_, let range): range.count
        }
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch self {
        case .encoded(let bytes): try bytes.withUnsafeBytes(body)
        case .mapped(let file, let range): try withExtendedLifetime(file) { try body(UnsafeRawBufferPointer(rebasing: file.bytes[range])) }
        }
    }
}
