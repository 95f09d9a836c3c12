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
/// twice in one second gets a new ETag.
struct ContainedFileSystem: FileProvider {
    struct FileAttributes: Sendable, FileMiddlewareFileAttributes {
        var isFolder: Bool
        var size: Int
        var modificationDate: Date
    }

    typealias FileIdentifier = String

    let root: String
    private let files: LocalFileSystem

    init(root: String) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        var logger = Logger(label: "marsgen.files")
        logger.logLevel = .warning
        self.files = LocalFileSystem(rootFolder: self.root, threadPool: .singleton, logger: logger)
    }

    func getFileIdentifier(_ path: String) -> String? {
        contained(path)
    }

    /// The absolute path of a request path, when it is inside the served folder (or does not
    /// exist, which the caller then reports as missing).
    func contained(_ path: String) -> String? {
        let candidate = root + (path.hasPrefix("/") ? path : "/" + path)
        guard let real = Self.realPath(candidate) else {
            // Missing: nothing to leak. A dangling symlink is missing too.
            return candidate
        }
        guard let realRoot = Self.realPath(root) else { return nil }
        guard real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else { return nil }
        return candidate
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
        try await files.loadFile(id: id, context: context)
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, range: range, context: context)
    }

    /// Whether the request path names a folder inside the served one.
    func isFolder(_ path: String) -> Bool {
        guard let absolute = contained(path) else { return false }
        var info = stat()
        return stat(absolute, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
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
