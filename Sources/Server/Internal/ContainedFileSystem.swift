import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The served folder as Hummingbird's ``FileMiddleware`` sees it, with these differences
/// from its `LocalFileSystem`:
///
/// - nothing whose real path (symbolic links resolved) lies outside the folder is ever
///   found;
/// - modification times keep their nanoseconds, so a page saved twice in one second gets a
///   new ETag;
/// - with a page transform (the live-update script), HTML files are served transformed, and
///   their size, ETag and ranges are those of the bytes sent;
/// - files up to ``directReadLimit`` are read in one `pread` on the calling thread (a page
///   from the page cache takes microseconds, less than the hop to a thread pool); larger
///   ones stream through Hummingbird's file I/O.
///
/// Per request it costs one `stat` of the path, plus, for a file not served before or
/// changed since, one `lstat` per path component (the containment check) and, for a page,
/// reading and transforming it once.
struct ContainedFileSystem: FileProvider {
    struct FileAttributes: Sendable, FileMiddlewareFileAttributes {
        var isFolder: Bool
        var size: Int
        var modificationDate: Date
    }

    /// A file as the request found it: the attributes come from the `stat` that found it,
    /// and a transformed page carries its bytes.
    struct FoundFile: Sendable {
        let path: String
        let version: FileVersion
        let attributes: FileAttributes
        let page: ByteBuffer?
    }

    typealias FileIdentifier = FoundFile

    let root: String
    private let files: LocalFileSystem
    /// The root with symbolic links resolved, once: a build swaps the folder at the same path.
    private let realRoot: String?
    /// What HTML pages are served as (nil: as they are on disk).
    private let pageTransform: (@Sendable (ByteBuffer) -> ByteBuffer)?
    /// Names the transform as it is now, and since when it has been so: a page transformed
    /// under another key is transformed again (the site moved to another base path, and the
    /// live script says so), and is served as modified no earlier than that change, so its
    /// ETag and Last-Modified change even where its bytes on disk did not.
    private let transformKey: @Sendable () -> (key: String, since: Date?)
    private let memory = FoundFileMemory()
    static let directReadLimit = 4 << 20

    init(root: String, pageTransform: (@Sendable (ByteBuffer) -> ByteBuffer)? = nil,
         transformKey: @escaping @Sendable () -> (key: String, since: Date?) = { ("", nil) }) {
        self.transformKey = transformKey
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.realRoot = Self.realPath(self.root)
        self.pageTransform = pageTransform
        var logger = Logger(label: "marsgen.files")
        logger.logLevel = .warning
        self.files = LocalFileSystem(rootFolder: self.root, threadPool: .singleton, logger: logger)
    }

    /// Whether HTML pages are served transformed, so a byte range of one means nothing on disk.
    var transformsPages: Bool { pageTransform != nil }

    func getFileIdentifier(_ path: String) -> FoundFile? {
        let candidate = absolute(path)
        var info = stat()
        guard stat(candidate, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFDIR || kind == S_IFREG else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let version = FileVersion(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                                  seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
        // The file this path reaches now was found inside the folder before (the same
        // inode: a build's rename gives a rewritten page a new one), or is checked now.
        if !memory.isKnownInside(path: candidate, version: version) {
            guard contained(path) != nil else { return nil }
            // Remembered only if the path still reaches the same file after the check, so a
            // swap between the stat and the check is never remembered as inside.
            var again = stat()
            guard stat(candidate, &again) == 0, again.st_dev == info.st_dev, again.st_ino == info.st_ino else { return nil }
            memory.rememberInside(path: candidate, version: version)
        }
        var attributes = FileAttributes(isFolder: kind == S_IFDIR, size: Int(info.st_size),
                                        modificationDate: Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9))
        var page: ByteBuffer?
        if kind == S_IFREG, let pageTransform, Self.isPage(candidate) {
            let (key, since) = transformKey()
            if let since, since > attributes.modificationDate { attributes.modificationDate = since }
            page = memory.page(path: candidate, version: version, key: key) ?? {
                guard case .bytes(let bytes) = Self.read(candidate, range: nil, expecting: version) else { return nil }
                let transformed = pageTransform(bytes)
                memory.rememberPage(transformed, path: candidate, version: version, key: key)
                return transformed
            }()
            guard let page else { return nil }
            attributes.size = page.readableBytes
        }
        return FoundFile(path: candidate, version: version, attributes: attributes, page: page)
    }

    /// The absolute path of a request path, when it is inside the served folder (or does not
    /// exist, which the caller then reports as missing).
    ///
    /// Request paths reach here without `..` (``SitePathMiddleware`` turns those away), so
    /// only a symbolic link can lead out. Each step below the root is checked with `lstat`;
    /// the real path is worked out only when one of them is a link.
    func contained(_ path: String) -> String? {
        let candidate = absolute(path)
        var prefix = root
        var info = stat()
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            guard lstat(prefix, &info) == 0 else { return candidate }  // missing: nothing to leak
            if (info.st_mode & S_IFMT) == S_IFLNK { return resolvesInside(candidate) ? candidate : nil }
        }
        return candidate
    }

    /// The file path of a request path, unchecked.
    private func absolute(_ path: String) -> String {
        root + (path.hasPrefix("/") ? path : "/" + path)
    }

    private func resolvesInside(_ candidate: String) -> Bool {
        // A dangling link is missing, like any other missing file.
        guard let real = Self.realPath(candidate) else { return true }
        guard let realRoot = realRoot ?? Self.realPath(root) else { return false }
        return real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    func getAttributes(id: FoundFile) async throws -> FileAttributes? {
        id.attributes
    }

    func loadFile(id: FoundFile, context: some RequestContext) async throws -> ResponseBody {
        if let page = id.page { return ResponseBody(byteBuffer: page) }
        switch Self.read(id.path, range: nil, expecting: id.version) {
        case .bytes(let bytes): return ResponseBody(byteBuffer: bytes)
        case .tooLarge: return try await files.loadFile(id: id.path, context: context)
        case .changed: throw Self.changedWhileServing
        }
    }

    func loadFile(id: FoundFile, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        if let page = id.page {
            let start = min(max(0, range.lowerBound), page.readableBytes)
            let end = min(range.upperBound + 1, page.readableBytes)
            return ResponseBody(byteBuffer: page.getSlice(at: page.readerIndex + start, length: max(0, end - start)) ?? ByteBuffer())
        }
        switch Self.read(id.path, range: range, expecting: id.version) {
        case .bytes(let bytes): return ResponseBody(byteBuffer: bytes)
        case .tooLarge: return try await files.loadFile(id: id.path, range: range, context: context)
        case .changed: throw Self.changedWhileServing
        }
    }

    /// The headers already sent promise other bytes; the client should ask again.
    private static let changedWhileServing = HTTPError(.serviceUnavailable, headers: [.retryAfter: "1"])

    /// The bytes a request path is served as (a page transformed), when it is a file inside the folder.
    func servedBytes(_ path: String) -> ByteBuffer? {
        guard let found = getFileIdentifier(path), !found.attributes.isFolder else { return nil }
        if let page = found.page { return page }
        if case .bytes(let bytes) = Self.read(found.path, range: nil, expecting: found.version) { return bytes }
        return nil
    }

    /// The size a request path is served with, when it is a file inside the folder.
    func servedSize(_ path: String) -> Int? {
        guard let found = getFileIdentifier(path), !found.attributes.isFolder else { return nil }
        return found.attributes.size
    }

    /// Whether a file is served as an HTML page.
    static func isPage(_ path: String) -> Bool {
        path.hasSuffix(".html") || path.hasSuffix(".htm")
    }

    enum ReadResult {
        case bytes(ByteBuffer)
        /// Larger than ``directReadLimit``: stream it.
        case tooLarge
        /// Gone, or no longer the file that was checked (a path swapped in between is not followed).
        case changed
    }

    /// The file's bytes (or a range of them) when it is small enough to read at once.
    private static func read(_ path: String, range: ClosedRange<Int>?, expecting version: FileVersion) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .changed }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              UInt64(info.st_dev) == version.device, UInt64(info.st_ino) == version.inode,
              Int64(info.st_size) == version.size else { return .changed }
        let size = Int(info.st_size)
        let start = range.map { min(max(0, $0.lowerBound), size) } ?? 0
        let end = range.map { min($0.upperBound, size - 1) + 1 } ?? size
        let count = max(0, end - start)
        guard count <= directReadLimit else { return .tooLarge }
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            guard let base = raw.baseAddress else { return 0 }
            var done = 0
            while done < count {
                let n = pread(fd, base + done, count - done, off_t(start + done))
                if n <= 0 { break }
                done += n
            }
            return done
        }
        return read == count ? .bytes(buffer) : .changed
    }

    /// Whether the request path names a folder inside the served one.
    func isFolder(_ path: String) -> Bool {
        var info = stat()
        let candidate = absolute(path)
        // stat first: resolving links is only worth it for folders.
        guard stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return false }
        return contained(path) != nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Which file a path reached: a page rewritten by a build is renamed into place, so it gets
/// a new inode, and any other change moves its size or modification time.
struct FileVersion: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int64
    let nanoseconds: Int64
}

/// What the server remembers between requests: which paths were found inside the folder
/// (and as which file), and the transformed pages. Both forget everything past a bound, so
/// a huge site cannot make the server grow without end.
final class FoundFileMemory: @unchecked Sendable {
    private let lock = NIOLock()
    private var inside: [String: FileVersion] = [:]
    private var pages: [String: (version: FileVersion, key: String, bytes: ByteBuffer)] = [:]
    private var pageBytes = 0
    static let maximumPaths = 200_000
    static let maximumPageBytes = 64 << 20

    func isKnownInside(path: String, version: FileVersion) -> Bool {
        lock.withLock { inside[path] == version }
    }

    func rememberInside(path: String, version: FileVersion) {
        lock.withLock {
            if inside.count >= Self.maximumPaths { inside.removeAll(keepingCapacity: true) }
            inside[path] = version
        }
    }

    func page(path: String, version: FileVersion, key: String) -> ByteBuffer? {
        lock.withLock {
            guard let page = pages[path], page.version == version, page.key == key else { return nil }
            return page.bytes
        }
    }

    func rememberPage(_ bytes: ByteBuffer, path: String, version: FileVersion, key: String) {
        lock.withLock {
            if let old = pages[path] { pageBytes -= old.bytes.readableBytes }
            if pageBytes + bytes.readableBytes > Self.maximumPageBytes {
                pages.removeAll(keepingCapacity: true)
                pageBytes = 0
            }
            pages[path] = (version, key, bytes)
            pageBytes += bytes.readableBytes
        }
    }
}
