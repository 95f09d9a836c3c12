#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemCalls
import Foundation

/// The few file operations the writers need, straight on the system calls.
///
/// Foundation's `Data.write` syncs each file to disk and `FileManager` stats every path it
/// creates or removes; for tens of thousands of pages that is most of a build. Durability
/// comes from the atomic renames around these calls, not from syncing each file.
enum FileSystem {
    #if canImport(Glibc)
    private static let systemWrite = Glibc.write
    private static let systemRead = Glibc.read
    private static let systemLink = Glibc.link
    #else
    private static let systemWrite = Darwin.write
    private static let systemRead = Darwin.read
    private static let systemLink = Darwin.link
    #endif

    struct Failure: LocalizedError, CustomStringConvertible {
        let operation: String
        let path: String
        let code: Int32
        /// What the path is when it is not a regular file (`a named pipe`): `code` is then `EINVAL`.
        var notRegular: String? = nil
        var description: String { "\(operation) \(path): \(notRegular.map { $0 + ", not a regular file" } ?? String(cString: strerror(code)))" }
        var errorDescription: String? { description }
    }

    /// What a file of `mode` is, in words, when it is neither a regular file nor a folder.
    static func specialKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a special file"
        }
    }

    /// Writes `bytes` to `path`, creating or truncating it (mode 0644 before the umask).
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        try write([bytes[...]], to: path)
    }

    /// Runs a `read` or `write` call again while a signal interrupts it (`EINTR`); any other
    /// failure is returned as it is, with `errno` set.
    private static func uninterrupted(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Writes the concatenation of `parts` to `path`, each part from where it lies in memory.
    static func write<Part: ContiguousBytes>(_ parts: [Part], to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        for part in parts {
            var offset = 0
            let count = part.withUnsafeBytes(\.count)
            while offset < count {
                let written = uninterrupted {
                    part.withUnsafeBytes { buffer in
                        systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                    }
                }
                guard written >= 0 else { throw Failure(operation: "write", path: path, code: errno) }
                offset += written
            }
        }
    }

    /// Writes `bytes` to a new file at `path`. A file already there is unlinked first, never
    /// written through: in a staging folder it may be a link to the output's file of the
    /// same bytes (see ``link(_:holding:to:)``), which must stay as it was.
    static func writeNew(_ bytes: [UInt8], to path: String) throws(Failure) {
        if unlink(path) != 0, errno != ENOENT { throw Failure(operation: "unlink", path: path, code: errno) }
        try write(bytes, to: path)
    }

    /// Makes `path` a second name of the file at `existing` when that file holds exactly
    /// `bytes`, is a regular file of this user's and has no other name: true if it did. A
    /// full build keeps this way the output's files it would write with the same bytes, so
    /// their modification times stay as they were (what rsync and `aws s3 sync` go by).
    /// Any doubt (another owner, a second link, a read that fails) is false: a new file.
    static func link(_ existing: String, holding bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(existing, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1,
              info.st_uid == geteuid(), info.st_size == off_t(bytes.count) else { return false }
        var buffer = [UInt8](repeating: 0, count: min(max(bytes.count, 1), 1 << 16) + 1)
        var offset = 0
        let same = bytes.withUnsafeBytes { expected in
            buffer.withUnsafeMutableBytes { chunk in
                while true {
                    let count = uninterrupted { systemRead(descriptor, chunk.baseAddress, chunk.count) }
                    // The end where the size said, or a file that changed under the read.
                    if count <= 0 { return count == 0 && offset == expected.count }
                    guard offset + count <= expected.count, let read = chunk.baseAddress, let start = expected.baseAddress,
                          memcmp(read, start + offset, count) == 0 else { return false }
                    offset += count
                }
            }
        }
        guard same, systemLink(existing, path) == 0 else { return false }
        // The name linked is the file compared, not one put in its place meanwhile.
        var linked = stat()
        guard lstat(path, &linked) == 0, linked.st_ino == info.st_ino, linked.st_dev == info.st_dev else {
            unlink(path)
            return false
        }
        return true
    }

    /// Writes `bytes` to a temporary file beside `path` (named `*.tmp-PID`, which the next
    /// build removes if this process dies first), then renames it over `path`.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        try writeAtomically([bytes[...]], to: path)
    }

    /// Writes the concatenation of `parts` atomically, as ``writeAtomically(_:to:)-([UInt8],_)`` does.
    static func writeAtomically<Part: ContiguousBytes>(_ parts: [Part], to path: String) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())"
        do throws(Failure) {
            try write(parts, to: temporary)
            guard rename(temporary, path) == 0 else { throw Failure(operation: "rename", path: path, code: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The whole contents of the regular file at `path`.
    static func read(_ path: String, limit: Int = .max) throws(Failure) -> [UInt8] {
        // Non-blocking, so that opening a named pipe does not wait for a writer (for ever, in
        // a build); a regular file reads the same either way.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(operation: "fstat", path: path, code: errno) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw Failure(operation: "read", path: path, code: EISDIR) }
        // A pipe, a socket or a device has no end a build could wait for (`/dev/zero`).
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(operation: "read", path: path, code: EINVAL, notRegular: specialKind(info.st_mode))
        }
        var bytes: [UInt8] = []
        var capacity = min(max(Int(info.st_size), 0) + 1, limit)
        // Read until end of file, not just st_size bytes: the file may grow while it is read.
        while bytes.count < limit {
            let previous = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: capacity))
            var filled = previous
            while filled < bytes.count {
                let count = uninterrupted {
                    bytes.withUnsafeMutableBytes { buffer in
                        systemRead(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
                    }
                }
                guard count >= 0 else { throw Failure(operation: "read", path: path, code: errno) }
                if count == 0 {
                    bytes.removeLast(bytes.count - filled)
                    return bytes
                }
                filled += count
            }
            capacity = min(bytes.count, limit - bytes.count)
        }
        return bytes
    }

    /// A file mapped into memory, read-only, for as long as the instance lives.
    ///
    /// The build state is tens of megabytes read by every build that has something to do;
    /// mapping it shares the page cache's pages instead of copying them into fresh memory
    /// (13 of the 61 ms its loading took on a large site). marsgen only ever replaces the
    /// state by rename, never rewrites it in place, so the mapped bytes do not change under
    /// a reader, and a file replaced or removed stays readable while it is mapped. The
    /// bodies of objects restored from a chunk point into its mapping and keep it alive, so
    /// under `watch` a chunk stays mapped while its objects are in use. (Another program
    /// truncating such a file in place would stop the process with SIGBUS when it next reads
    /// those bytes; as after any build that is killed, the next one is then a full build.)
    final class MappedFile: @unchecked Sendable {
        /// The file's bytes (empty for an empty file).
        let bytes: UnsafeRawBufferPointer

        /// Maps the file at `path`; with `populate`, every page at once (for a file read
        /// whole next: one call instead of a fault per few pages), else each as it is first read.
        init(path: String, populate: Bool = true) throws(Failure) {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw Failure(operation: "fstat", path: path, code: errno) }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw Failure(operation: "mmap", path: path, code: EINVAL, notRegular: specialKind(info.st_mode))
            }
            let size = Int(info.st_size)
            guard size > 0 else {
                bytes = UnsafeRawBufferPointer(start: nil, count: 0)
                return
            }
            #if os(Linux)
            let flags = populate ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE
            #else
            let flags = MAP_PRIVATE
            #endif
            guard let address = mmap(nil, size, PROT_READ, flags, descriptor, 0), address != MAP_FAILED else {
                throw Failure(operation: "mmap", path: path, code: errno)
            }
            bytes = UnsafeRawBufferPointer(start: address, count: size)
        }

        deinit {
            if let address = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: address), bytes.count) }
        }
    }

    /// Renames `source` to `destination`, replacing a file there (atomically).
    static func move(_ source: String, to destination: String) throws(Failure) {
        guard rename(source, destination) == 0 else { throw Failure(operation: "rename", path: "\(source) to \(destination)", code: errno) }
    }

    /// Creates `path` and any missing parents, up to `levels` folders in all (the build
    /// state's folders stop at the site's: a site folder deleted while `watch` was saving
    /// is not made again); an existing directory is fine.
    static func createDirectories(_ path: String, levels: Int = .max) throws(Failure) {
        if mkdir(path, 0o755) == 0 { return }
        switch errno {
        case EEXIST:
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw Failure(operation: "mkdir", path: path, code: ENOTDIR)
        case ENOENT:
            let parent = SitePaths.parent(path)
            guard levels > 1, parent != path, !parent.isEmpty else { throw Failure(operation: "mkdir", path: path, code: ENOENT) }
            try createDirectories(parent, levels: levels - 1)
            if mkdir(path, 0o755) != 0, errno != EEXIST { throw Failure(operation: "mkdir", path: path, code: errno) }
        default:
            throw Failure(operation: "mkdir", path: path, code: errno)
        }
    }

    /// Removes `path` and everything under it, without following symbolic links.
    /// A path that does not exist is not an error.
    static func removeTree(_ path: String) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw Failure(operation: "lstat", path: path, code: errno)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            let directory = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard directory >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
            try removeContents(of: directory, path: path)
            if rmdir(path) != 0, errno != ENOENT { throw Failure(operation: "rmdir", path: path, code: errno) }
        } else if unlink(path) != 0, errno != ENOENT {
            throw Failure(operation: "unlink", path: path, code: errno)
        }
    }

    /// Removes the entries of the folder at `path` for which `isRemoved` says so (given each
    /// name's bytes), each with everything under it, without following symbolic links.
    static func removeEntries(of path: String, where isRemoved: (UnsafeRawBufferPointer) -> Bool) throws(Failure) {
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        try removeContents(of: directory, path: path, where: isRemoved)
    }

    /// Empties the directory open at `directory` (and closes it), or removes those of its
    /// entries `isRemoved` names.
    private static func removeContents(of directory: Int32, path: String,
                                       where isRemoved: (UnsafeRawBufferPointer) -> Bool = { _ in true }) throws(Failure) {
        defer { close(directory) }
        // A folder that cannot be read is left as it is, and its removal fails (ENOTEMPTY).
        // By the names' own bytes: one that is not UTF-8 (a file someone put in the output)
        // would not survive a String, and the folder would not empty.
        var names: [(name: [CChar], isDirectory: Bool)] = []
        forEachEntry(of: directory) { bytes, type in
            guard !bytes.elementsEqual(".".utf8), !bytes.elementsEqual("..".utf8), isRemoved(bytes) else { return }
            names.append((bytes.map { CChar(bitPattern: $0) } + [0], type == Int32(DT_DIR)))
        }
        for (name, isDirectory) in names {
            let shown = path + "/" + String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !isDirectory {
                if unlinkat(directory, name, 0) == 0 || errno == ENOENT { continue }
                // EISDIR: d_type was unknown on this file system, and it is a directory after all.
                guard errno == EISDIR else { throw Failure(operation: "unlink", path: shown, code: errno) }
            }
            let child = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { throw Failure(operation: "open", path: shown, code: errno) }
            try removeContents(of: child, path: shown)
            if unlinkat(directory, name, AT_REMOVEDIR) != 0, errno != ENOENT {
                throw Failure(operation: "rmdir", path: shown, code: errno)
            }
        }
    }

    /// One entry met by ``walk(_:stopsAtLinks:_:)``.
    struct WalkEntry {
        /// What the entry is, seen through symbolic links.
        enum Kind: Equatable {
            case file
            case directory
            /// A folder already walked: a symbolic link leads back to it.
            case directoryLoop
            /// A symbolic link that cannot be followed (`ELOOP`, `ENOENT`, `EACCES`).
            case brokenLink(Int32)
            /// An entry whose name is not valid UTF-8, which no path marsgen makes can open
            /// (see ``FileSystem/undecodableName``); its name shows each bad byte as `\xNN`.
            case undecodableName
            /// Neither a regular file nor a folder (a named pipe, a socket, a device), as
            /// ``FileSystem/specialKind(_:)`` names it: nothing a build can read or copy.
            case special(String)
        }

        /// The path relative to the walk's root.
        let relative: String
        /// The last path component.
        let name: String
        let kind: Kind
        /// Whether the entry itself is a symbolic link.
        let isLink: Bool
        /// For a file, its stat as `stat` sees it (through a link), taken during the walk.
        var stat: FileStat? = nil
    }

    /// A folder's identity, to meet each folder once however many links lead to it.
    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Walks the tree under `root`, following symbolic links to files and folders the way
    /// `stat` sees them, and calls `visit` for every entry: regular files, folders, links
    /// that lead nowhere, and other kinds of files (`special`). For a folder, `visit` returns
    /// whether to descend into it; otherwise its answer is ignored. A missing root visits
    /// nothing.
    ///
    /// Every entry is looked at relative to its folder's descriptor (`fstatat`, `openat`):
    /// resolving each full path again from `/` was most of the time a build spent listing a
    /// large site. Files come with their stat, so a build need not stat them a second time.
    ///
    /// - Parameters:
    ///   - parent: The open folder a relative `root` is opened from.
    ///   - stopsAtLinks: The caller descends into nothing once `visit` met a link. Without
    ///     links no folder can be reached twice, so folders the listing already says are
    ///     folders are not stat'ed to tell them apart: a site with a folder per sol has
    ///     thousands.
    ///   - opened: Called with each folder walked (the root as `""`) and its stat, taken
    ///     once it is open and before its entries are read: an entry added later changes
    ///     that folder's stat after the one given.
    static func walk(_ root: String, in parent: OpenFolder? = nil, stopsAtLinks: Bool = false,
                     opened: ((_ relative: String, _ info: stat) -> Void)? = nil, _ visit: (WalkEntry) -> Bool) {
        let descriptor = openat(parent?.descriptor ?? AT_FDCWD, root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        var seen: Set<FolderIdentity> = []
        var rootInfo = stat()
        if !stopsAtLinks, fstat(descriptor, &rootInfo) == 0 { seen.insert(FolderIdentity(rootInfo)) }
        walk(folder: descriptor, relative: "", stopsAtLinks: stopsAtLinks, seen: &seen, opened: opened, visit)
    }

    /// Visits the entries of the open folder `descriptor` (which it closes), then walks the
    /// folders `visit` chose. Every entry of a folder is seen before any folder below it, and
    /// the folders are walked last first, so that which of two ways into a folder counts as
    /// the loop does not depend on how deep the walk is.
    private static func walk(folder descriptor: Int32, relative: String, stopsAtLinks: Bool, seen: inout Set<FolderIdentity>,
                             opened: ((String, stat) -> Void)?, _ visit: (WalkEntry) -> Bool) {
        defer { close(descriptor) }
        if let opened {
            var info = stat()
            if fstat(descriptor, &info) == 0 { opened(relative, info) }
        }
        var folders: [(name: String, relative: String)] = []
        for (name, directType) in entries(of: descriptor) {
            let child = relative.isEmpty ? name : relative + "/" + name
            if directType == undecodableName {
                _ = visit(WalkEntry(relative: child, name: name, kind: .undecodableName, isLink: false))
                continue
            }
            if stopsAtLinks, directType == Int32(DT_DIR) {
                if visit(WalkEntry(relative: child, name: name, kind: .directory, isLink: false)) { folders.append((name, child)) }
                continue
            }
            guard let (entry, info) = look(at: name, type: directType, in: descriptor, relative: child) else { continue }
            // A folder reached twice through links is a loop: walk it once.
            if entry.kind == .directory, let info, !stopsAtLinks, !seen.insert(FolderIdentity(info)).inserted {
                _ = visit(WalkEntry(relative: child, name: name, kind: .directoryLoop, isLink: entry.isLink))
                continue
            }
            if visit(entry), entry.kind == .directory { folders.append((name, child)) }
        }
        for folder in folders.reversed() {
            let child = openat(descriptor, folder.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard child >= 0 else { continue }
            walk(folder: child, relative: folder.relative, stopsAtLinks: stopsAtLinks, seen: &seen, opened: opened, visit)
        }
    }

    /// The entry `name` of the open folder `descriptor`, whose listed type is `type`, seen
    /// through a symbolic link (with its stat, for a folder's identity). `nil` when it went
    /// since it was listed.
    static func look(at name: String, type: Int32, in descriptor: Int32, relative: String) -> (WalkEntry, stat?)? {
        var info = stat()
        guard fstatat(descriptor, name, &info, 0) == 0 else {
            let code = errno
            var linkInfo = stat()
            if type != Int32(DT_REG), fstatat(descriptor, name, &linkInfo, AT_SYMLINK_NOFOLLOW) == 0,
               (linkInfo.st_mode & S_IFMT) == S_IFLNK {
                return (WalkEntry(relative: relative, name: name, kind: .brokenLink(code), isLink: true), nil)
            }
            // Otherwise the entry went between the listing and the stat: as if listed later.
            return nil
        }
        var linked = type == Int32(DT_LNK)
        if type == Int32(DT_UNKNOWN) {
            var linkInfo = stat()
            linked = fstatat(descriptor, name, &linkInfo, AT_SYMLINK_NOFOLLOW) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return (WalkEntry(relative: relative, name: name, kind: .directory, isLink: linked), info)
        case S_IFREG: return (WalkEntry(relative: relative, name: name, kind: .file, isLink: linked, stat: FileStat(info)), info)
        default: return (WalkEntry(relative: relative, name: name, kind: .special(specialKind(info.st_mode)), isLink: linked), info)
        }
    }

    /// The relative paths of everything under the folder at `root` that is not a folder (a
    /// symbolic link is one entry, not followed), those of its top-level entries that
    /// `skipsTopLevel` names left out whole. Names and types only, from the folders' listings:
    /// no file is stat'ed, which made a `walk` of a 20,000-page output cost 0.4 s.
    static func filePaths(under root: String, skipsTopLevel: (String) -> Bool = { _ in false }) -> [String] {
        guard let folder = OpenFolder(path: root) else { return [] }
        var paths: [String] = []
        func visit(_ folder: OpenFolder, prefix: String) {
            for (name, type) in folder.entries {
                if prefix.isEmpty, skipsTopLevel(name) { continue }
                let relative = prefix.isEmpty ? name : prefix + "/" + name
                var isFolder = type == Int32(DT_DIR)
                if type == Int32(DT_UNKNOWN), let info = folder.info(of: name) { isFolder = info.st_mode & S_IFMT == S_IFDIR }
                if isFolder, let inner = OpenFolder(name, in: folder) {
                    visit(inner, prefix: relative)
                } else {
                    paths.append(relative)
                }
            }
        }
        visit(folder, prefix: "")
        return paths
    }

    /// A folder held open, so that what is under it is reached without resolving its path
    /// again; closed when the last reference goes.
    final class OpenFolder: @unchecked Sendable {
        let descriptor: Int32

        /// Nil when `path` is not a folder that can be opened.
        init?(path: String) {
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
        }

        /// The folder at `relative` under `parent`, without following a symbolic link at
        /// its end; nil when that is not a folder that can be opened.
        init?(_ relative: String, in parent: OpenFolder) {
            descriptor = openat(parent.descriptor, relative, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
        }

        deinit { close(descriptor) }

        /// Its stat, now; nil when it cannot be read.
        var info: stat? {
            var info = stat()
            return fstat(descriptor, &info) == 0 ? info : nil
        }

        /// The stat of `relative` under it, not following a symbolic link at its end; nil
        /// with `errno` set when there is none.
        func info(of relative: UnsafePointer<CChar>) -> stat? {
            var info = stat()
            return fstatat(descriptor, relative, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
        }

        /// The names and types (`d_type`) of its entries, without `.` and `..`.
        var entries: [(name: String, type: Int32)] { FileSystem.entries(of: descriptor) }
    }

    /// The names and types (`d_type`) of the entries of the open folder `descriptor`, without
    /// `.` and `..`. The descriptor stays open.
    private static func entries(of descriptor: Int32) -> [(name: String, type: Int32)] {
        var entries: [(name: String, type: Int32)] = []
        forEachEntry(of: descriptor) { bytes, type in
            if let (name, isValid) = self.name(bytes) { entries.append((name, isValid ? type : undecodableName)) }
        }
        return entries
    }

    /// Calls `body` with the name (its bytes, without the NUL) and the `d_type` of each entry
    /// of the open folder `descriptor`, `.` and `..` included.
    private static func forEachEntry(of descriptor: Int32, _ body: (UnsafeRawBufferPointer, Int32) -> Void) {
        // Linux: the entries straight from the system call, into one buffer per folder.
        let size = 32 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = marsgen_read_directory(descriptor, buffer.baseAddress, UInt(size))
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == ENOSYS { break }
            guard count > 0 else { return }
            var offset = 0
            while offset < count {
                // struct linux_dirent64: d_reclen at byte 16, d_type at 18, the name from 19.
                // A record cut short would be the system's error: stop rather than read past it.
                guard offset + 19 < count else { return }
                let length = Int(buffer.load(fromByteOffset: offset + 16, as: UInt16.self))
                guard length > 19, offset + length <= count else { return }
                let type = Int32(buffer[offset + 18])
                let name = UnsafeRawBufferPointer(rebasing: buffer[(offset + 19)..<(offset + length)])
                body(UnsafeRawBufferPointer(rebasing: name[..<(name.firstIndex(of: 0) ?? name.count)]), type)
                offset += length
            }
        }
        // Elsewhere: readdir on a second descriptor, which closedir closes.
        let copy = dup(descriptor)
        guard copy >= 0 else { return }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                body(UnsafeRawBufferPointer(rebasing: raw.prefix(while: { $0 != 0 })), Int32(entry.pointee.d_type))
            }
        }
    }

    /// The canonical absolute path of `path`, with every symbolic link resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The type ``entries(of:)`` gives an entry whose name is not valid UTF-8: a String
    /// cannot hold its bytes, so no path made from it opens the file, and a listing that
    /// skipped it would lose the file without a word.
    static let undecodableName: Int32 = -1

    /// A directory entry's name from its bytes, and whether they are valid UTF-8 (if not,
    /// each byte that is not is shown as `\xNN`); `nil` for `.` and `..`.
    private static func name(_ bytes: UnsafeRawBufferPointer) -> (name: String, isValid: Bool)? {
        if let name = String(validating: bytes, as: UTF8.self) {
            return name == "." || name == ".." || name.isEmpty ? nil : (name, true)
        }
        var shown = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest valid run, then one byte that is not.
            var length = rest.count
            while length > 0, String(validating: rest.prefix(length), as: UTF8.self) == nil { length -= 1 }
            shown += String(decoding: rest.prefix(length), as: UTF8.self)
            rest = rest.dropFirst(length)
            if let byte = rest.first {
                let hex = String(byte, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                rest = rest.dropFirst()
            }
        }
        return (shown, false)
    }
}
