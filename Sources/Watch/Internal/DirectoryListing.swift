import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Root-relative path joining, without Foundation's URL machinery.
enum SitePath {
    static func join(_ base: String, _ name: String) -> String {
        if base.isEmpty { return name }
        return base.hasSuffix("/") ? base + name : base + "/" + name
    }
}

/// A folder's device and inode: the same folder reached twice through symbolic links is
/// walked once.
struct DirectoryIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// The entries of one folder, read with `readdir`.
enum DirectoryListing {
    struct Entry {
        let name: String
        /// Whether the entry is a folder, or a symbolic link to one.
        let isDirectory: Bool
        /// Whether the entry is a symbolic link (to a folder, a file, or nothing yet).
        var isSymbolicLink = false
        /// Whether the name is not valid UTF-8: no path made from ``name`` opens the entry,
        /// and only a build that lists every input can report it.
        var isUndecodable = false
    }

    static func entries(of path: String) -> [Entry] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var result: [Entry] = []
        while let entry = readdir(directory) {
            let decoded = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(validating: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let name = decoded else {
                result.append(Entry(name: "", isDirectory: false, isUndecodable: true))
                continue
            }
            guard name != ".", name != ".." else { continue }
            let type = entry.pointee.d_type
            var isDirectory = type == UInt8(DT_DIR)
            var isSymbolicLink = type == UInt8(DT_LNK)
            if type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isSymbolicLink = lstat(SitePath.join(path, name), &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
            }
            if isSymbolicLink || type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isDirectory = stat(SitePath.join(path, name), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            result.append(Entry(name: name, isDirectory: isDirectory, isSymbolicLink: isSymbolicLink))
        }
        return result.sorted { $0.name < $1.name }
    }
}
