import Foundation
import Hummingbird
import Logging
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The served folder as Hummingbird's ``FileMiddleware`` sees it, with two differences from
/// its `LocalFileSystem`: nothing whose real path (symbolic links resolved) lies outside the
/// folder is ever found, and modification times keep their nanoseconds, so a page saved
/// twice in one second gets a new ETag. Files up to ``directReadLimit`` are read in one
/// `read` on the calling thread (a page from the page cache takes microseconds, less than
/// the hop to a thread pool); larger ones stream through Hummingbird's file I/O.
struct ContainedFileSystem: FileProvider {
    struct FileAttributes: Sendable, FileMiddlewareFileAttributes {
        var isFolder: Bool
        var size: Int
        var modificationDate: Date
    }

    typealias FileIdentifier = String

    let root: String
    private let files: LocalFileSystem
    /// The root with symbolic links resolved, once: a build swaps the folder at the same path.
    private let realRoot: String?
    static let directReadLimit = 4 << 20

    init(root: String) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.realRoot = Self.realPath(self.root)
        var logger = Logger(label: "marsgen.files")
        logger.logLevel = .warning
        self.files = LocalFileSystem(rootFolder: self.root, threadPool: .singleton, logger: logger)
    }

    func getFileIdentifier(_ path: String) -> String? {
        contained(path)
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

    func getAttributes(id: String) async throws -> FileAttributes? {
        var info = stat()
        guard stat(id, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        guard isFolder || (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileAttributes(isFolder: isFolder, size: Int(info.st_size),
                              modificationDate: Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9))
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        if let bytes = Self.read(id, range: nil) { return ResponseBody(byteBuffer: bytes) }
        return try await files.loadFile(id: id, context: context)
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        if let bytes = Self.read(id, range: range) { return ResponseBody(byteBuffer: bytes) }
        return try await files.loadFile(id: id, range: range, context: context)
    }

    /// The file's bytes (or a range of them) when it is small enough to read at once.
    private static func read(_ path: String, range: ClosedRange<Int>?) -> ByteBuffer? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        let start = range.map { min(max(0, $0.lowerBound), size) } ?? 0
        let end = range.map { min($0.upperBound, size - 1) + 1 } ?? size
        let count = max(0, end - start)
        guard count <= directReadLimit else { return nil }
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
        return read == count ? buffer : nil
    }

    /// Whether the request path names a folder inside the served one.
    func isFolder(_ path: String) -> Bool {
        var info = stat()
        let candidate = absolute(path)
        // stat first: resolving links is only worth it for folders.
        guard stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return false }
        return contained(path) != nil
    }

    /// The size of a regular file inside the served folder.
    func size(_ path: String) -> Int? {
        guard let absolute = contained(path) else { return nil }
        var info = stat()
        guard stat(absolute, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The bytes of a file inside the served folder.
    func contents(_ path: String) -> [UInt8]? {
        guard let absolute = contained(path), let data = FileManager.default.contents(atPath: absolute) else { return nil }
        return [UInt8](data)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
