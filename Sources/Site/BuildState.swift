import Content
import Diagnostics
import GFM
import Images
import Foundation

/// What a successful build leaves for the next one, in `.marsgen/` in the site root.
///
/// It records the sources it read (with their stat and hash, and the objects parsed from
/// each), the ordered object list, the templates' hashes, and every file it wrote (with the
/// hash of its bytes, its fingerprint and what it was made from). A missing, corrupt or
/// old-version state means a full build, never a wrong site.
public struct BuildState: Sendable, Equatable {
    /// Bumped whenever the format or the meaning of a field changes.
    public static let formatVersion = 28

    /// The format version this state was written with.
    public var formatVersion: Int
    /// The marsgen version that wrote it; another version means a full build.
    public var marsgenVersion: String
    /// Names this state; the ``BuildIndex`` written with it names it too.
    public var token: String = ""
    /// The output directory it describes, relative to the site root when inside it (see
    /// ``BuildOptions/recordedOutput``), else absolute.
    public var outputDirectory: String
    /// A hash of the site's settings (``SiteConfiguration``, as parsed). Whether drafts were
    /// shown is the index's (``BuildIndex/includesDrafts``): what the records keep that
    /// depends on it (where links to a draft lead) every build checks again.
    public var configurationHash: String
    /// When the previous build started reading sources (ns since the epoch): a file whose
    /// modification time is not clearly before it is hashed again, whatever its stat says.
    public var scanStartedAt: Int64
    /// Every content source read, by site-relative path.
    public var sources: RecordTable<SourceRecord>
    /// The hash of each template's source, by template name.
    public var templates: [String: String]
    /// The object list, in feed order.
    public var objects: [ObjectFingerprint] {
        get { objectList.fingerprints(in: 0..<objectList.count) }
        set { objectList = ObjectList(newValue) }
    }
    /// The object list, with each object's stamp at hand (see ``ObjectList``).
    var objectList: ObjectList
    /// Every page written, by output-relative path.
    public var pages: RecordTable<PageRecord>
    /// Every other file written (theme assets, static files), by output-relative path.
    public var files: [String: FileRecord]
    /// The chunks of its long lists as it was last loaded or saved (none for a new state).
    var chunks = Chunks()

    /// Creates a state.
    public init(formatVersion: Int, marsgenVersion: String, token: String = "", outputDirectory: String, configurationHash: String,
                scanStartedAt: Int64, sources: [String: SourceRecord], templates: [String: String], objects: [ObjectFingerprint],
                pages: [String: PageRecord], files: [String: FileRecord]) {
        (self.formatVersion, self.marsgenVersion, self.token, self.outputDirectory) = (formatVersion, marsgenVersion, token, outputDirectory)
        (self.configurationHash, self.scanStartedAt, self.sources, self.templates) = (configurationHash, scanStartedAt, RecordTable(sources), templates)
        (objectList, self.pages, self.files) = (ObjectList(objects), RecordTable(pages), files)
    }

    /// The paths of ``pages`` and ``sources`` in the order the state was last loaded or saved
    /// in (sorted, as a save writes them): while the paths stay the same, a save writes them
    /// in this order instead of sorting tens of thousands of them again.
    var savedOrder: (pages: [String], sources: [String]) { (chunks.pages.keys, chunks.sources.keys) }

    /// What the state says; how it was last encoded (``chunks``) is not part of it.
    public static func == (lhs: BuildState, rhs: BuildState) -> Bool {
        lhs.formatVersion == rhs.formatVersion && lhs.marsgenVersion == rhs.marsgenVersion && lhs.token == rhs.token
            && lhs.outputDirectory == rhs.outputDirectory && lhs.configurationHash == rhs.configurationHash
            && lhs.scanStartedAt == rhs.scanStartedAt && lhs.sources == rhs.sources && lhs.templates == rhs.templates
            && lhs.objects == rhs.objects && lhs.pages == rhs.pages && lhs.files == rhs.files
    }

    /// One content source file and what was parsed from it: its ``Fields``, read and set
    /// as the record's own (`record.size`, `record.messages`).
    ///
    /// The fields live in one shared box, copied on write: a build copies the table of every
    /// source's record (tens of thousands) more than once, and copying a record then retains
    /// one reference instead of one per field. Two records sharing a box are equal at once.
    @dynamicMemberLookup
    public struct SourceRecord: Sendable, Equatable {
        /// What a record holds.
        public struct Fields: Sendable, Equatable {
            /// Size in bytes.
            public var size: Int64
            /// Modification time, ns since the epoch.
            public var modified: Int64
            /// Status-change time, ns since the epoch (see ``FileStat``).
            public var changed: Int64
            /// Hash of the file's bytes.
            public var hash: String
            /// Entries, messages or reports parsed from it (one kind per file).
            public var journalEntries: [JournalEntry] = []
            public var messages: [Message] = []
            public var weatherReports: [WeatherReport] = []
            /// Warnings found while parsing it, replayed when it is reused.
            public var warnings: [Diagnostic] = []
            /// Its links to other content files, as they were written (see ``ContentLinkUse``),
            /// and its links and images to the site's pages and static files (`img/map.png`),
            /// which every build checks against what the site then holds. One field: each
            /// build looks at every record's, and one look costs half of two.
            public var linkUses = LinkUses()
            /// Its links to other content files.
            public var links: [ContentLinkUse] {
                get { linkUses.files }
                set { linkUses.files = newValue }
            }
            /// Its links and images to the site's pages and static files.
            public var siteLinks: [MarkdownSiteLink] {
                get { linkUses.site }
                set { linkUses.site = newValue }
            }
            /// For a static file that is an image, the size its bytes give it (see
            /// ``ImageSize``), which the text's images of it are written with.
            public var imageSize: ImageSize?
        }

        private final class Box: Sendable {
            // Only ever changed while this box is the one record's alone (see `subscript`).
            nonisolated(unsafe) var fields: Fields

            init(_ fields: Fields) {
                self.fields = fields
            }
        }

        private var box: Box

        public init(size: Int64, modified: Int64, changed: Int64, hash: String) {
            box = Box(Fields(size: size, modified: modified, changed: changed, hash: hash))
        }

        /// A record of nothing but `siteLinks`, for "Check site links" to look at beside the
        /// sources' own: a page of its own's links, the configuration's image and navigation.
        static func holding(siteLinks: [MarkdownSiteLink]) -> SourceRecord {
            var record = SourceRecord(size: 0, modified: 0, changed: 0, hash: "")
            record.siteLinks = siteLinks
            return record
        }

        /// A field, read from the shared box; set, in a box made this record's alone first.
        public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
            get { box.fields[keyPath: field] }
            set {
                if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
                box.fields[keyPath: field] = newValue
            }
        }

        /// The file's stat when it was read.
        var stat: FileStat {
            get { FileStat(size: box.fields.size, modified: box.fields.modified, changed: box.fields.changed) }
            set { (self.size, self.modified, self.changed) = (newValue.size, newValue.modified, newValue.changed) }
        }

        /// Whether it holds links of either kind (see ``Fields/linkUses``).
        var holdsLinks: Bool {
            !box.fields.linkUses.files.isEmpty || !box.fields.linkUses.site.isEmpty
        }

        public static func == (lhs: SourceRecord, rhs: SourceRecord) -> Bool {
            lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
        }
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
        SitePaths.join(siteRoot, ".marsgen/build-\(outputKey(output, siteRoot: siteRoot)).state")
    }

    /// The folder of the state file at `path` that holds its chunks (of pages, the object list and sources), each in a
    /// file named by the hash of its bytes.
    static func chunkDirectory(forState path: String) -> String {
        (path.hasSuffix(".state") ? String(path.dropLast(6)) : path) + ".chunks"
    }

    /// Where marsgen before state format 3 kept the state for `output` (as JSON).
    static func legacyPath(siteRoot: String, output: String) -> String {
        // Those versions named every output by its absolute path.
        SitePaths.join(siteRoot, ".marsgen/build-\(key(naming: output)).json")
    }

    /// Names the files of one output directory in `.marsgen/`: from its path as recorded,
    /// relative to the site root when inside it, so a site folder that moved keeps its state.
    static func outputKey(_ output: String, siteRoot: String) -> Substring {
        key(naming: SitePaths.recorded(output, siteRoot: siteRoot))
    }

    private static func key(naming path: String) -> Substring {
        var hash = ContentHash()
        hash.combine(path)
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

    /// Removes what `.marsgen/` holds for output folders that no longer exist, as their
    /// indexes name them: a site built once into `dist/` and never again would otherwise keep
    /// that state (tens of megabytes on a large site) for good. (A folder inside the site is
    /// named from the site root, wherever the site is now.) The files of `output` itself are
    /// kept whatever happened to it (a missing output means a full build, which replaces
    /// them), and so are files no index names.
    ///
    /// Also removes a state of `output` kept under another name: marsgen before 0.11.3 named
    /// an output inside the site by its absolute path. Such a state means a marsgen of then
    /// built into `output` after this one did, so this one's state may no longer describe it.
    ///
    /// - Returns: Whether a state of `output` was removed: the build must then be a full one.
    static func removeOtherStates(siteRoot: String, keeping output: String) -> Bool {
        let directory = SitePaths.join(siteRoot, ".marsgen")
        guard let names = FileSystem.OpenFolder(path: directory)?.entries.map(\.name) else { return false }
        let kept = "build-\(outputKey(output, siteRoot: siteRoot))."
        var removedOutputsState = false
        for name in names where name.hasPrefix("build-") && name.hasSuffix(".index") && !name.hasPrefix(kept) {
            guard let recorded = BuildIndex.outputDirectory(ofIndexAt: SitePaths.join(directory, name)) else { continue }
            let folder = SitePaths.resolvingRecorded(recorded, siteRoot: siteRoot)
            let isOutput = folder == output
            guard isOutput || !FileManager.default.fileExists(atPath: folder) else { continue }
            removedOutputsState = removedOutputsState || isOutput
            let prefix = String(name.dropLast("index".count))
            for other in names where other.hasPrefix(prefix) {
                try? FileSystem.removeTree(SitePaths.join(directory, other))
            }
        }
        return removedOutputsState
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
            let version = try readFormat(&reader)
            guard version == formatVersion else { return .failure(.otherFormat(version)) }
            // The file ends with the hash of the rest: a changed byte (a template's hash, the
            // time the build started) would read as another state. (Its chunks check their own.)
            let bytes = file.bytes
            guard bytes.count >= reader.position + 8 else { return .failure(.unreadable) }
            let body = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 8)])
            let written = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: body.count, as: UInt64.self))
            guard written == StateWriter.checkHash(body) else { return .failure(.unreadable) }
            var rest = StateReader(UnsafeRawBufferPointer(rebasing: body[reader.position...]))
            return .success(try BuildState(reading: &rest, chunkDirectory: chunkDirectory(forState: path)))
        } catch {
            return .failure(.unreadable)
        }
    }

    /// The format of the state file at `path`, read from its first bytes only; nil when it
    /// cannot be read or is not a state. A build that finds nothing changed reads no more of
    /// the state than this, to know the next edit can use it.
    static func format(ofStateAt path: String) -> Int? {
        guard let bytes = try? FileSystem.read(path) else { return nil }
        return bytes.withUnsafeBytes { bytes in
            var reader = StateReader(bytes)
            return try? readFormat(&reader)
        }
    }

    /// The magic every state file starts with, then its format version.
    private static func readFormat(_ reader: inout StateReader) throws(StateReader.Damaged) -> Int {
        try reader.expect(magic)
        return try reader.readInt()
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

    /// The keys of `map`, sorted, with their values, taking the order of `known` (a state's
    /// ``savedOrder``, increasing) for the keys it holds. Only the keys added since are
    /// sorted, never the records with them: sorting all 19,600 page paths again because one
    /// page was added took 8-10 ms of saving an entry added.
    ///
    /// - Parameter candidates: Keys that may have been added (the pages a build added, the
    ///   inputs that changed), so that the added ones need not be found by hashing every key.
    ///   Any list gives the right result: when it misses an added key, every key is looked at.
    static func sorted<Value>(_ map: RecordTable<Value>, known: [String], added candidates: [String] = [])
        -> (keys: [String], values: [Value]) {
        var keys: [String] = []
        var values: [Value] = []
        keys.reserveCapacity(map.count)
        values.reserveCapacity(map.count)
        for (position, key) in known.enumerated() {
            // Out of order (never from a state that loaded): sorted anew.
            guard position == 0 || known[position - 1] < key else { return sortedAnew(map) }
            if let value = map[key] {
                keys.append(key)
                values.append(value)
            }
        }
        guard keys.count < map.count else { return (keys, values) }
        var added = Set(candidates.filter { map[$0] != nil && known.sortedIndex(of: $0) == nil })
        if keys.count + added.count != map.count {
            let knownKeys = Set(known)
            added = Set(map.keys.filter { !knownKeys.contains($0) })
        }
        // A build adds a few: each goes in at its place. Many (a first save) are sorted with the rest.
        guard added.count <= 64 else { return sortedAnew(map) }
        for key in added {
            // Every added key is in the map: it came from it.
            guard let value = map[key] else { continue }
            let position = keys.sortedInsertionIndex(of: key)
            keys.insert(key, at: position)
            values.insert(value, at: position)
        }
        return (keys, values)
    }

    /// The paths of `table` sorted, with their records: those it did not set since it was made
    /// from `old` taken from there as they are (see ``RecordTable``), else by
    /// ``sorted(_:known:added:)`` in `old`'s order; and the chunks of `old` taken whole, by
    /// where each starts among them (see ``ChunkedList/encoding(keys:items:sharedEnds:kept:write:)``).
    static func sorted<Value>(_ table: RecordTable<Value>, old: ChunkedList<Value>, added: [String])
        -> (keys: [String], values: [Value], kept: [Int: Int]) {
        guard let sorted = table.sortedRecords(takingUnchangedFrom: old) else {
            let looked = Self.sorted(table, known: old.keys, added: added)
            return (looked.keys, looked.values, [:])
        }
        // Tests run debug builds: every save there checks the records taken against a lookup of each.
        assert({
            let looked = Self.sorted(table, known: old.keys, added: added)
            return looked.keys == sorted.keys && looked.values == sorted.values
        }(), "a record table set a path without remembering it")
        return sorted
    }

    /// Paths that may be new in a state since the one it reuses chunks of (see
    /// ``encodedForSaving(reusing:sharedObjects:added:alongside:)``).
    struct AddedKeys: Sendable {
        var pages: [String] = []
        var sources: [String] = []
    }

    /// Every key of `map`, sorted, with its value.
    private static func sortedAnew<Value>(_ map: RecordTable<Value>) -> (keys: [String], values: [Value]) {
        let keys = map.keys.sorted()
        // Every key is in the map: it came from it.
        return (keys, keys.compactMap { map[$0] })
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

    /// The chunks of the state's long lists as it was last loaded or saved, so that a save
    /// keeps the chunk files whose items did not change instead of encoding and writing them
    /// again.
    struct Chunks: Sendable {
        var pages = ChunkedList<PageRecord>(averageItems: 1_024)
        /// The object list's content hashes, keyed by identifier, in feed order.
        var objects = ChunkedList<ContentHash>(averageItems: 1_024)
        /// A source's record holds its objects' bodies: its chunks are kept smaller, and a
        /// log's record weighs one more per four messages (a message takes about a fifth of
        /// an entry's bytes in the state: 210 against some 900 on the bench's site), so that a
        /// chunk of logs is no larger than one of entries. A chunk of 256 logs of a hundred
        /// messages was 6 MB, encoded and written again for one message appended; at one
        /// more per eight messages, the chunk holding the bench's log of the day held 73
        /// logs (1.5 MB, 3.5 ms of saving each append), and 21 at one per four (440 kB).
        var sources = ChunkedList<SourceRecord>(averageItems: 256) { 1 + $0.messages.count / 4 }

        var count: Int { pages.count + objects.count + sources.count }
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
        fileprivate let chunks: [EncodedChunk]
        fileprivate let saved: Chunks
    }

    /// Encodes the state for saving (on two cores), keeping the chunks whose items equal
    /// those of `previous` as the files it was loaded from.
    func encodedForSaving(reusing previous: BuildState? = nil) -> Encoded {
        encodedForSaving(reusing: previous, alongside: { _, _ in }).encoded
    }

    /// ``encodedForSaving(reusing:)``, and `extra` of the sources' paths and records in the
    /// order they are saved in (sorted), run beside the encoding on a second core.
    ///
    /// - Parameters:
    ///   - sharedObjects: How many objects at each end of the object list are known to be
    ///     those of `previous` (see `SiteBuilder.diffObjects`): their chunks are kept without
    ///     comparing them.
    ///   - added: Pages and sources that may be new since `previous` (see
    ///     ``sorted(_:known:added:)``).
    func encodedForSaving<Extra>(reusing previous: BuildState?, sharedObjects: SharedEnds = .none,
                                 added: AddedKeys = AddedKeys(),
                                 alongside extra: (_ sourcePaths: [String], _ sources: [SourceRecord]) -> Extra)
        -> (encoded: Encoded, extra: Extra) {
        let old = previous?.chunks ?? Chunks()
        // Two lanes of about even work: this one encodes the pages and the object list, then
        // the sources; the other sorts the sources (by the time the first lane needs them,
        // they are), then runs `extra`. As two jobs, the pages and the object list against
        // the whole of the sources, the second took about twice the first.
        typealias Encoding<Item: Equatable & Sendable> = (chunks: [EncodedChunk], list: ChunkedList<Item>)
        typealias Sorted = (keys: [String], values: [SourceRecord], kept: [Int: Int])
        let ((pages, objects, sources), extraResult) = inTwoLanes({ (sortedSources: () -> Sorted)
            -> (Encoding<PageRecord>, Encoding<ContentHash>, Encoding<SourceRecord>) in
            let (paths, records, kept) = Self.sorted(self.pages, old: old.pages, added: added.pages)
            let pages = old.pages.encoding(keys: paths, items: records, kept: kept) { path, record, writer in
                writer.write(path)
                writer.write(record.bytes)
                writer.write(record.fingerprint)
                writer.write(record.inputs)
            }
            // The state's object list is the one its chunks hold: the runs a build says are
            // unchanged from `previous.objects` are unchanged from those chunks too.
            let shared = previous.map { $0.objectList.count == old.objects.itemCount } == true ? sharedObjects : .none
            let list = self.objectList.lazyFingerprints
            let objects = old.objects.encoding(keys: list.lazy.map(\.diffIdentifier), items: list.lazy.map(\.contentHash),
                                               sharedEnds: shared) { identifier, hash, writer in
                writer.write(text: identifier)
                writer.write(hash)
                // The stamp too, which a load would otherwise hash every identifier for.
                writer.write(fixed: ObjectFingerprint(diffIdentifier: identifier, contentHash: hash).stamp)
            }
            let (sourcePaths, sourceRecords, keptSources) = sortedSources()
            let sources = old.sources.encoding(keys: sourcePaths, items: sourceRecords, kept: keptSources) { path, record, writer in
                writer.write(path: path)
                writer.write(record)
            }
            return (pages, objects, sources)
        }, { (handSortedSources: (Sorted) -> Void) -> Extra in
            let sorted = Self.sorted(self.sources, old: old.sources, added: added.sources)
            handSortedSources(sorted)
            return extra(sorted.keys, sorted.values)
        })
        var writer = StateWriter(capacity: 1 << 16)
        writer.write(raw: Self.magic)
        writer.write(Self.formatVersion)
        writer.write(marsgenVersion)
        writer.write(token)
        writer.write(outputDirectory)
        writer.write(configurationHash)
        writer.write(scanStartedAt)
        Self.writeMap(templates, to: &writer) { hash, writer in writer.write(hash) }
        Self.writeMap(files, to: &writer) { record, writer in writer.write(record.bytes) }
        // Then each list: its chunks' names and sizes.
        var chunks: [EncodedChunk] = []
        for list in [pages.chunks, objects.chunks, sources.chunks] {
            writer.write(count: list.count)
            for chunk in list {
                writer.write(chunk.name)
                writer.write(chunk.bytes.count)
            }
            chunks += list
        }
        writer.write(fixed: writer.bytes.withUnsafeBytes { StateWriter.checkHash($0) })
        let encoded = Encoded(file: writer.bytes, chunks: chunks, saved: Chunks(pages: pages.list, objects: objects.list, sources: sources.list))
        return (encoded, extraResult)
    }

    /// Writes the state: the chunks that changed (each to a file named by the hash of its
    /// bytes, in ``chunkDirectory(forState:)``), then the state file, atomically
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
        // The chunks' folder and `.marsgen/`, not the site's folder.
        try FileSystem.createDirectories(directory, levels: 2)
        let existing = Set(FileSystem.OpenFolder(path: directory)?.entries.map(\.name) ?? [])
        // A chunk kept from the loaded state is written again only if its file went meanwhile.
        for chunk in encoded.chunks where chunk.isNew || !existing.contains(chunk.name + ".chunk") {
            try FileSystem.writeAtomically([chunk.bytes], to: SitePaths.join(directory, chunk.name + ".chunk"))
        }
        try FileSystem.writeAtomically(encoded.file, to: path)
        chunks = encoded.saved
        // The chunks hold every record now: the next save takes from them all it does not set.
        pages.rebase(on: chunks.pages)
        sources.rebase(on: chunks.sources)
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
    /// Decodes everything after the magic and version. The long lists (the pages, the object
    /// list and the sources, which hold the parsed objects and most of the bytes) are read
    /// from their chunk files in `chunkDirectory`, on every core; the files stay mapped, for
    /// the next save to keep.
    fileprivate init(reading reader: inout StateReader, chunkDirectory: String) throws(StateReader.Damaged) {
        formatVersion = Self.formatVersion
        objectList = ObjectList([])
        marsgenVersion = try reader.readString()
        token = try reader.readString()
        outputDirectory = try reader.readString()
        configurationHash = try reader.readString()
        scanStartedAt = try reader.readInt64()
        templates = try Self.readMap(&reader) { reader throws(StateReader.Damaged) in try reader.readString() }
        files = try Self.readMap(&reader) { reader throws(StateReader.Damaged) in FileRecord(bytes: try reader.readString()) }
        // Each list: the name and size of each of its chunk files.
        var lists: [[(name: String, size: Int)]] = []
        for _ in 0..<3 {
            var list: [(name: String, size: Int)] = []
            for _ in 0..<(try reader.readCount()) { list.append((try reader.readString(), try reader.readInt())) }
            lists.append(list)
        }
        guard reader.isAtEnd, lists.joined().allSatisfy({ !$0.name.contains("/") && !$0.name.isEmpty }) else {
            throw StateReader.Damaged()
        }
        let (pageChunks, objectChunks, sourceChunks) = (lists[0], lists[1], lists[2])

        /// What one chunk file decoded to, by list.
        enum Decoded {
            case pages(keys: [String], items: [PageRecord])
            /// The object list's identifiers are made strings only when asked for; their stamps now.
            case objects(keys: LaterKeys, items: [ContentHash], stamps: [UInt64])
            case sources(keys: [String], items: [SourceRecord])
        }
        let all = pageChunks + objectChunks + sourceChunks
        let decoded = UnsafeMutableBufferPointer<(Decoded, FileSystem.MappedFile)?>.allocate(capacity: all.count)
        decoded.initialize(repeating: nil)
        defer {
            decoded.deinitialize()
            decoded.deallocate()
        }
        let shared = UncheckedBox((directory: chunkDirectory, all: all, decoded: decoded,
                                   objectsStart: pageChunks.count, sourcesStart: pageChunks.count + objectChunks.count))
        DispatchQueue.concurrentPerform(iterations: all.count) { index in
            let (directory, all, decoded, objectsStart, sourcesStart) = shared.value
            // Not populated: a chunk's texts (objects' bodies and identifiers, most of its
            // bytes) are kept after its records and read only for the pages that show them.
            guard let file = try? FileSystem.MappedFile(path: SitePaths.join(directory, all[index].name + ".chunk"), populate: false),
                  file.bytes.count == all[index].size else { return }
            let texts = ChunkTexts(file, folder: directory)
            let chunk: Decoded?
            if index < objectsStart {
                chunk = ChunkedList<PageRecord>.decode(texts) { reader, _ throws(StateReader.Damaged) in
                    (try reader.readString(),
                     PageRecord(bytes: try reader.readHash(), fingerprint: try reader.readHash(), inputs: try reader.readHash()))
                }.map { .pages(keys: $0.keys, items: $0.items) }
            } else if index < sourcesStart {
                var stamps: [UInt64] = []
                chunk = ChunkedList<ContentHash>.decodeKeysLater(texts) { reader throws(StateReader.Damaged) in
                    let hash = try reader.readHash()
                    stamps.append(try reader.readFixedUInt64())
                    return hash
                }.map { .objects(keys: $0.keys, items: $0.items, stamps: stamps) }
            } else {
                chunk = ChunkedList<SourceRecord>.decode(texts) { reader, fields throws(StateReader.Damaged) in
                    // The path through the chunk's table of paths, as its objects' paths: one string for all.
                    (try reader.readPath(&fields), try reader.readSourceRecord(&fields))
                }.map { .sources(keys: $0.keys, items: $0.items) }
            }
            decoded[index] = chunk.map { ($0, file) }
        }
        var loaded = Chunks()
        var stamps: [UInt64] = []
        for (index, chunk) in decoded.enumerated() {
            switch chunk {
            case (.pages(let keys, let items), let file)?: loaded.pages.add(keys: keys, items: items, file: file, name: all[index].name)
            case (.objects(let keys, let items, let chunkStamps), let file)?:
                loaded.objects.add(keys: keys, items: items, file: file, name: all[index].name)
                stamps += chunkStamps
            case (.sources(let keys, let items), let file)?: loaded.sources.add(keys: keys, items: items, file: file, name: all[index].name)
            case nil: throw StateReader.Damaged()
            }
        }
        // Two jobs on two cores: the sources' table and the pages' table. The object list
        // stays in its chunks, but for its stamps.
        let (sourceTable, pageTable) = inParallel({ loaded.sources.table() }, { loaded.pages.table() })
        guard let pageTable, let sourceTable else { throw StateReader.Damaged() }
        pages = pageTable
        objectList = ObjectList(loaded.objects, stamps: stamps)
        sources = sourceTable
        chunks = loaded
    }
}


