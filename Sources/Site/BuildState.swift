import Content
import Diagnostics
import Foundation

/// What a successful build leaves for the next one, in `.marsgen/` in the site root.
///
/// It records the sources it read (with their stat and hash, and the objects parsed from
/// each), the ordered object list, the templates' hashes, and every file it wrote (with the
/// hash of its bytes, its fingerprint and what it was made from). A missing, corrupt or
/// old-version state means a full build, never a wrong site.
public struct BuildState: Codable, Sendable {
    /// Bumped whenever the format or the meaning of a field changes.
    public static let formatVersion = 2

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

    /// One content source file and what was parsed from it.
    public struct SourceRecord: Codable, Sendable, Equatable {
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
    public struct PageRecord: Codable, Sendable, Equatable {
        /// Hash of the page's bytes.
        public var bytes: String
        /// The page's fingerprint (see `PageFingerprint`): everything it is made from,
        /// templates included. What it shows is not stored; the plan says it each build.
        public var fingerprint: String
    }

    /// A file copied or generated as it is.
    public struct FileRecord: Codable, Sendable, Equatable {
        /// Hash of the file's bytes.
        public var bytes: String
    }

    /// The state file for `output` under the site root: one per output directory.
    static func path(siteRoot: String, output: String) -> String {
        var hash = ContentHash()
        hash.combine(output)
        return SitePaths.join(siteRoot, ".marsgen/build-\(hash.description.prefix(12)).json")
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

    /// Reads the state, or says why it cannot be used.
    static func load(from path: String) -> Result<BuildState, StateProblem> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(.missing) }
        guard let state = try? JSONDecoder().decode(BuildState.self, from: data) else { return .failure(.unreadable) }
        guard state.formatVersion == formatVersion else { return .failure(.otherFormat(state.formatVersion)) }
        return .success(state)
    }

    /// Writes the state atomically (temporary file, then rename).
    ///
    /// The JSON is written a record at a time rather than by one `JSONEncoder` call: encoding
    /// tens of thousands of objects at once builds the whole document in memory, several times
    /// over its size. The result is the same JSON that `Decodable` reads back.
    ///
    /// - Returns: The size of the file written, for the ``BuildIndex``.
    func save(to path: String) throws -> Int64 {
        try FileManager.default.createDirectory(atPath: SitePaths.parent(path), withIntermediateDirectories: true)
        let temporary = path + ".tmp-\(getpid())"
        var writer = try ChunkedFileWriter(path: temporary)
        do {
            let encoder = JSONEncoder()
            func value(_ item: some Encodable) throws { try writer.append(encoder.encode(item)) }
            func key(_ name: String, first: Bool = false) throws {
                try writer.append(Data((first ? "" : ",").utf8))
                try value(name)
                try writer.append(Data(":".utf8))
            }
            func map<Value: Encodable>(_ dictionary: [String: Value]) throws {
                try writer.append(Data("{".utf8))
                for (index, name) in dictionary.keys.sorted().enumerated() {
                    guard let item = dictionary[name] else { continue }
                    try key(name, first: index == 0)
                    try value(item)
                }
                try writer.append(Data("}".utf8))
            }
            try writer.append(Data("{".utf8))
            try key("formatVersion", first: true); try value(formatVersion)
            try key("marsgenVersion"); try value(marsgenVersion)
            try key("token"); try value(token)
            try key("outputDirectory"); try value(outputDirectory)
            try key("configurationHash"); try value(configurationHash)
            try key("scanStartedAt"); try value(scanStartedAt)
            try key("templates"); try value(templates)
            try key("files"); try value(files)
            try key("pages"); try map(pages)
            try key("sources"); try map(sources)
            try key("objects")
            try writer.append(Data("[".utf8))
            for (index, object) in objects.enumerated() {
                if index > 0 { try writer.append(Data(",".utf8)) }
                try value(object)
            }
            try writer.append(Data("]}".utf8))
            let size = try writer.close()
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return size
        } catch {
            _ = try? writer.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Why a state was not used.
    enum StateProblem: Error, Equatable {
        case missing
        case unreadable
        case otherFormat(Int)

        var notice: String? {
            switch self {
            case .missing: return nil
            case .unreadable: return "build state is unreadable; doing a full build"
            case .otherFormat(let version): return "build state has format \(version), not \(BuildState.formatVersion); doing a full build"
            }
        }
    }
}

/// Appends bytes to a new file through a buffer, so a large file never sits whole in memory.
struct ChunkedFileWriter {
    private let handle: FileHandle
    private var buffer = Data()
    private var written: Int64 = 0
    private var isClosed = false

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    mutating func append(_ data: Data) throws {
        buffer.append(data)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private mutating func flush() throws {
        try handle.write(contentsOf: buffer)
        written += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file; returns its size.
    mutating func close() throws -> Int64 {
        guard !isClosed else { return written }
        isClosed = true
        try flush()
        try handle.close()
        return written
    }
}
