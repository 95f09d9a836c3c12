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
    public static let formatVersion = 6

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
    /// The sorted paths of ``pages`` and ``sources`` as the state was last loaded or saved:
    /// while the paths stay the same, a save writes them in this order instead of sorting
    /// tens of thousands of them again.
    var savedOrder = SavedOrder()

    struct SavedOrder: Sendable {
        var pages: [String] = []
        var sources: [String] = []
    }

    /// What the state says; how it was last encoded (``encodedChunks``, ``savedOrder``) is
    /// not part of it.
    public static func == (lhs: BuildState, rhs: BuildState) -> Bool {
        lhs.formatVersion == rhs.formatVersion && lhs.marsgenVersion == rhs.marsgenVersion && lhs.token == rhs.token
            && lhs.outputDirectory == rhs.outputDirectory && lhs.configurationHash == rhs.configurationHash
            && lhs.scanStartedAt == rhs.scanStartedAt && lhs.sources == rhs.sources && lhs.templates == rhs.templates
            && lhs.objects == rhs.objects && lhs.pages == rhs.pages && lhs.files == rhs.files
    }

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

    /// The folder of the state file at `path` that holds its chunks of sources, each in a
    /// file named by the hash of its bytes.
    static func chunkDirectory(forState path: String) -> String {
        (path.hasSuffix(".state") ? String(path.dropLast(6)) : path) + ".chunks"
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
            return .success(try BuildState(reading: &reader, chunkDirectory: chunkDirectory(forState: path)))
        } catch {
            return .failure(.unreadable)
        }
    }

    fileprivate static func readMap<Value>(_ reader: inout StateReader,
                                           _ value: (inout StateReader) throws(StateReader.Damaged) -> Value)
        throws(StateReader.Damaged) -> [String: Value] {
        var keys: [String] = []
        return try readMap(&reader, keys: &keys, value)
    }

    /// ``readMap(_:_:)``, which also gives the keys in the order read, or none when they were
    /// not sorted (then nothing can be learnt from that order).
    fileprivate static func readMap<Value>(_ reader: inout StateReader, keys: inout [String],
                                           _ value: (inout StateReader) throws(StateReader.Damaged) -> Value)
        throws(StateReader.Damaged) -> [String: Value] {
        let count = try reader.readCount()
        var map: [String: Value] = [:]
        map.reserveCapacity(count)
        keys.reserveCapacity(count)
        for _ in 0..<count {
            let key = try reader.readString()
            map[key] = try value(&reader)
            keys.append(key)
        }
        if !isSorted(keys) { keys = [] }
        return map
    }

    /// Whether `keys` are in increasing order, as a save writes them.
    fileprivate static func isSorted(_ keys: [String]) -> Bool {
        keys.indices.dropFirst().allSatisfy { keys[$0 - 1] < keys[$0] }
    }

    /// The keys of `map`, sorted, with their values: `known` when it holds exactly those
    /// keys (a state's ``savedOrder``), else sorted now. Only the keys are sorted, never the
    /// records with them.
    static func sorted<Value>(_ map: [String: Value], known: [String]) -> (keys: [String], values: [Value]) {
        var values: [Value] = []
        values.reserveCapacity(map.count)
        if known.count == map.count {
            for key in known {
                guard let value = map[key] else { break }
                values.append(value)
            }
            if values.count == known.count { return (known, values) }
            values.removeAll(keepingCapacity: true)
        }
        let keys = map.keys.sorted()
        for key in keys {
            // Every key is in the map: it came from it.
            if let value = map[key] { values.append(value) }
        }
        return (keys, values)
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

    /// The chunks of sources as the state was last loaded or saved, so a save can keep the
    /// chunk files whose records did not change instead of encoding and writing them again.
    /// Not part of what the state says: two states that differ only here are equal.
    struct EncodedChunks: Sendable {
        /// Each chunk's paths, the records encoded (in the same order), its bytes and the
        /// name of its file, by its first path. The records are compared in place, not looked
        /// up by path again; a record carried over from the loaded state shares its arrays
        /// with it, which makes that comparison immediate.
        var byFirstPath: [String: (paths: [String], records: [SourceRecord], bytes: EncodedBytes, name: String)] = [:]
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

    /// The state file's bytes followed by those of its chunks, in order: what a save writes,
    /// in one array. Chunks whose paths and records equal those of `previous` are taken from
    /// the files `previous` was loaded from.
    func encoded(reusing previous: BuildState? = nil) -> [UInt8] {
        let encoded = encodedForSaving(reusing: previous)
        var bytes = encoded.file
        for chunk in encoded.chunks { chunk.bytes.withUnsafeBytes { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// The state encoded for ``save(_:to:)``: the state file's bytes, and its chunks in
    /// order (a chunk reused is the file it was loaded from, mapped, never copied).
    struct Encoded {
        fileprivate let file: [UInt8]
        fileprivate let chunks: [(name: String, bytes: EncodedBytes, isNew: Bool)]
        fileprivate let encoded: EncodedChunks
        fileprivate let order: SavedOrder

        /// The sources' paths in the order written: sorted.
        var sourcePaths: [String] { order.sources }
    }

    /// Encodes the state for saving (on two cores), keeping the chunks of sources whose
    /// records equal those of `previous` as the files it was loaded from.
    func encodedForSaving(reusing previous: BuildState? = nil) -> Encoded {
        // The head and the sources are encoded at the same time: neither needs the other.
        let known = previous?.savedOrder ?? SavedOrder()
        var ((writer, pageOrder), sources) = inParallel({ encodedHead(knownPages: known.pages) },
                                                        { encodedSources(reusing: previous, known: known.sources) })
        // The state file ends with the chunks' names and sizes.
        writer.write(count: sources.chunks.count)
        for chunk in sources.chunks {
            writer.write(chunk.name)
            writer.write(chunk.bytes.count)
        }
        return Encoded(file: writer.bytes, chunks: sources.chunks, encoded: sources.encoded,
                       order: SavedOrder(pages: pageOrder, sources: sources.order))
    }

    /// Everything before the list of chunks of sources, and the pages' paths in the order
    /// written. `knownPages`: see ``sorted(_:known:)``.
    private func encodedHead(knownPages: [String]) -> (StateWriter, [String]) {
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
        let (pagePaths, pageRecords) = Self.sorted(pages, known: knownPages)
        writer.write(count: pagePaths.count)
        for index in pagePaths.indices {
            writer.write(pagePaths[index])
            writer.write(pageRecords[index].bytes)
            writer.write(pageRecords[index].fingerprint)
            writer.write(pageRecords[index].inputs)
        }
        writer.write(count: objects.count)
        // By index, so each identifier is borrowed rather than copied (a retain each).
        for index in objects.indices {
            writer.write(objects[index].diffIdentifier)
            writer.write(objects[index].contentHash)
        }
        return (writer, pagePaths)
    }

    /// The chunks of sources, each named by the hash of its bytes, and the sources' paths in
    /// the order written. `known`: see ``sorted(_:known:)``.
    private func encodedSources(reusing previous: BuildState?, known: [String])
        -> (chunks: [(name: String, bytes: EncodedBytes, isNew: Bool)], encoded: EncodedChunks, order: [String]) {
        // Sorted with their records, so that no path is looked up again below.
        let (paths, values) = Self.sorted(sources, known: known)
        var chunks: [(name: String, bytes: EncodedBytes, isNew: Bool)] = []
        var encoded = EncodedChunks()
        for slice in Self.chunks(of: paths) {
            guard let first = slice.first else { continue }
            let records = Array(values[slice.indices])
            if let old = previous?.encodedChunks.byFirstPath[first], old.paths.elementsEqual(slice), old.records == records {
                chunks.append((old.name, old.bytes, false))
                encoded.byFirstPath[first] = (old.paths, records, old.bytes, old.name)
                continue
            }
            var writer = StateWriter()
            writer.write(count: slice.count)
            for (path, record) in zip(slice, records) {
                writer.write(path)
                writer.write(record)
            }
            var hash = ContentHash()
            hash.combine(bytes: writer.bytes)
            let bytes = EncodedBytes.encoded(writer.bytes[...])
            chunks.append((hash.description, bytes, true))
            encoded.byFirstPath[first] = (Array(slice), records, bytes, hash.description)
        }
        return (chunks, encoded, paths)
    }

    /// Writes the state: the chunks of sources that changed (each to a file named by the hash
    /// of its bytes, in ``chunkDirectory(forState:)``), then the state file, atomically
    /// (temporary file, then rename), which names them all; then removes the chunk files it
    /// no longer names. A save killed midway leaves the previous state whole. Remembers the
    /// chunks, so that the next save of this state, kept in memory, keeps them.
    ///
    /// - Returns: The size of the state file, for the ``BuildIndex``.
    @discardableResult
    mutating func save(to path: String, reusing previous: BuildState? = nil) throws -> Int64 {
        try save(encodedForSaving(reusing: previous), to: path)
    }

    /// Writes `encoded`, this state's encoding, as ``save(to:reusing:)`` does.
    @discardableResult
    mutating func save(_ encoded: Encoded, to path: String) throws -> Int64 {
        let directory = Self.chunkDirectory(forState: path)
        try FileSystem.createDirectories(directory)
        let existing = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        // A chunk kept from the loaded state is written again only if its file went meanwhile.
        for chunk in encoded.chunks where chunk.isNew || !existing.contains(chunk.name + ".chunk") {
            try FileSystem.writeAtomically([chunk.bytes], to: SitePaths.join(directory, chunk.name + ".chunk"))
        }
        try FileSystem.writeAtomically(encoded.file, to: path)
        encodedChunks = encoded.encoded
        savedOrder = encoded.order
        // Named by their bytes, the chunks of an earlier state that this one shares are the
        // same files; the others go (with the temporaries of a save killed midway).
        let names = Set(encoded.chunks.map { $0.name + ".chunk" })
        for name in existing where !names.contains(name) { unlink(SitePaths.join(directory, name)) }
        return Int64(encoded.file.count)
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
    /// The chunks are read from `chunkDirectory` and stay mapped, for the next save to keep.
    fileprivate init(reading reader: inout StateReader, chunkDirectory: String) throws(StateReader.Damaged) {
        formatVersion = Self.formatVersion
        marsgenVersion = try reader.readString()
        token = try reader.readString()
        outputDirectory = try reader.readString()
        configurationHash = try reader.readString()
        scanStartedAt = try reader.readInt64()
        templates = try Self.readMap(&reader) { reader throws(StateReader.Damaged) in try reader.readString() }
        files = try Self.readMap(&reader) { reader throws(StateReader.Damaged) in FileRecord(bytes: try reader.readString()) }
        pages = try Self.readMap(&reader, keys: &savedOrder.pages) { reader throws(StateReader.Damaged) in
            PageRecord(bytes: try reader.readHash(), fingerprint: try reader.readHash(), inputs: try reader.readHash())
        }
        // The object list is decoded below, on a core of its own while the chunks decode:
        // here it is only stepped over.
        let objectsStart = reader
        for _ in 0..<(try reader.readCount()) {
            try reader.skipString()
            try reader.skipHash()
        }
        // Each chunk: the name of its file and its size. Each file holds a map of records;
        // they are decoded apart, then merged.
        var chunks: [(name: String, size: Int)] = []
        for _ in 0..<(try reader.readCount()) {
            chunks.append((try reader.readString(), try reader.readInt()))
        }
        guard reader.isAtEnd, chunks.allSatisfy({ !$0.name.contains("/") }) else { throw StateReader.Damaged() }
        typealias Decoded = (paths: [String], records: [SourceRecord], file: FileSystem.MappedFile)
        let decoded = UnsafeMutableBufferPointer<Decoded?>.allocate(capacity: chunks.count)
        decoded.initialize(repeating: nil)
        let decodedObjects = UnsafeMutablePointer<[ObjectFingerprint]?>.allocate(capacity: 1)
        decodedObjects.initialize(to: nil)
        defer {
            decoded.deinitialize()
            decoded.deallocate()
            decodedObjects.deinitialize(count: 1)
            decodedObjects.deallocate()
        }
        let shared = UncheckedBox((directory: chunkDirectory, chunks: chunks, decoded: decoded,
                                   objects: (reader: objectsStart, decoded: decodedObjects)))
        // The first iteration (handed out first) decodes the object list; each other one, a chunk.
        DispatchQueue.concurrentPerform(iterations: chunks.count + 1) { iteration in
            let (directory, chunks, decoded, objects) = shared.value
            guard iteration > 0 else {
                var reader = objects.reader
                objects.decoded.pointee = try? reader.readList { reader throws(StateReader.Damaged) in
                    ObjectFingerprint(diffIdentifier: try reader.readString(), contentHash: try reader.readHash())
                }
                return
            }
            let index = iteration - 1
            guard let file = try? FileSystem.MappedFile(path: SitePaths.join(directory, chunks[index].name + ".chunk")),
                  file.bytes.count == chunks[index].size else { return }
            // The objects' bodies stay in the mapped file until a page shows them.
            var chunkReader = StateReader(file.bytes, owner: file)
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
            decoded[index] = (paths, records, file)
        }
        guard let decodedObjects = decodedObjects.pointee else { throw StateReader.Damaged() }
        objects = decodedObjects
        var sources: [String: SourceRecord] = [:]
        let count = decoded.reduce(0) { $0 + ($1?.records.count ?? 0) }
        sources.reserveCapacity(count)
        savedOrder.sources.reserveCapacity(count)
        var encoded = EncodedChunks()
        for (index, chunk) in decoded.enumerated() {
            guard let chunk, let first = chunk.paths.first else { throw StateReader.Damaged() }
            savedOrder.sources += chunk.paths
            for (path, record) in zip(chunk.paths, chunk.records) where sources.updateValue(record, forKey: path) != nil {
                throw StateReader.Damaged()
            }
            encoded.byFirstPath[first] = (chunk.paths, chunk.records, .mapped(chunk.file), chunks[index].name)
        }
        self.sources = sources
        self.encodedChunks = encoded
        if !Self.isSorted(savedOrder.sources) { savedOrder.sources = [] }
    }
}

/// The bytes of a chunk of sources: just encoded, or the chunk file a state was loaded from
/// (kept mapped while these bytes are).
enum EncodedBytes: ContiguousBytes, Sendable {
    case encoded(ArraySlice<UInt8>)
    case mapped(FileSystem.MappedFile)

    var count: Int {
        switch self {
        case .encoded(let bytes): bytes.count
        case .mapped(let file): file.bytes.count
        }
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch self {
        case .encoded(let bytes): try bytes.withUnsafeBytes(body)
        case .mapped(let file): try withExtendedLifetime(file) { try body(file.bytes) }
        }
    }
}
