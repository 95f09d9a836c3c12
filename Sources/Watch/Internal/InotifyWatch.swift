#if os(Linux)
import Foundation
import Glibc

/// Notices changes through Linux's inotify: one watch per folder (the kernel watches
/// folders, not trees), added as folders appear and dropped as they go.
struct InotifyWatch: ChangeSource {
    let target: WatchTarget
    private let fd: Int32
    private let watchLimit: Int?
    /// Each watch's root-relative folder ("" for the root itself).
    private var folders: [Int32: String] = [:]
    /// For each watch on a folder holding the file a symbolic link in the watched places
    /// leads to: by that file's name, the root-relative paths of the links. The kernel tells
    /// of a change to a file in the folder that holds it, never through a link to it, so
    /// editing the file behind `content/crew.yml` → `../shared/crew.yml` would go unnoticed.
    /// (A link to a folder needs none of this: its watch is on the folder it leads to.)
    private var linkTargets: [Int32: [String: Set<String>]] = [:]
    /// Where each link's file was found (its folder's watch and its name there), so that a
    /// link removed or pointed elsewhere stops being reported for it.
    private var linkPlaces: [String: (watch: Int32, name: String)] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    private static let folderEvents = UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE)
        | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_ONLYDIR)
        | UInt32(IN_EXCL_UNLINK)

    static func open(target: WatchTarget, watchLimit: Int?) -> Result<InotifyWatch, FallbackReason> {
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else {
            return .failure(errno == EMFILE ? .instanceLimit : .unavailable(String(cString: strerror(errno))))
        }
        var watch = InotifyWatch(target: target, fd: fd, watchLimit: watchLimit)
        do {
            try watch.addWatch(relative: "")
            for file in target.files { try watch.followLink(relative: file) }
            for directory in target.directories {
                // What is there before watching starts is for the first build to list.
                var ignored: [String] = []
                _ = try watch.addTree(relative: directory, found: &ignored)
            }
        } catch {
            close(fd)
            return .failure(error)
        }
        return .success(watch)
    }

    private init(target: WatchTarget, fd: Int32, watchLimit: Int?) {
        self.target = target
        self.fd = fd
        self.watchLimit = watchLimit
    }

    var method: SiteWatcher.Method { .inotify }
    var descriptor: Int32? { fd }
    func timeUntilNextScan(at now: ContinuousClock.Instant) -> Duration? { nil }

    mutating func collect(into coalescer: inout ChangeCoalescer, readable: Bool, at now: ContinuousClock.Instant) -> FallbackReason? {
        guard readable else { return nil }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
                offset += 16 + length
                guard let name = String(validating: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self) else {
                    // No path made from this name opens the file: a build that lists every
                    // input reports it, where one that looks at reported paths would miss it.
                    coalescer.addOverflow(at: now)
                    continue
                }
                if let reason = handle(wd: wd, mask: mask, name: name, into: &coalescer, at: now) {
                    close(fd)
                    return reason
                }
            }
        }
        return nil
    }

    /// One event: report the path when the target cares, and follow folders coming and going.
    private mutating func handle(wd: Int32, mask: UInt32, name: String, into coalescer: inout ChangeCoalescer,
                                 at now: ContinuousClock.Instant) -> FallbackReason? {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            coalescer.addOverflow(at: now)
            return nil
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            folders[wd] = nil
            if let gone = linkTargets.removeValue(forKey: wd) {
                for link in gone.values.joined() { linkPlaces[link] = nil }
            }
            return nil
        }
        // The file behind a link changed: the link's path is what the site reads.
        if !name.isEmpty, let links = linkTargets[wd]?[name] {
            for link in links.sorted() { coalescer.add(link, at: now) }
        }
        guard let folder = folders[wd], !name.isEmpty else { return nil }
        let relative = SitePath.join(folder, name)
        var isFolder = mask & UInt32(IN_ISDIR) != 0
        // At the root only the watched files and the watched folders themselves matter.
        if folder.isEmpty, !target.files.contains(name), !target.directories.contains(name) { return nil }
        guard target.reports(relative) else { return nil }
        // A link to a folder made while watching is watched as the folder it leads to, as
        // one there at the start is (the kernel says only that a link came).
        if !isFolder, mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0,
           DirectoryIdentity(path: SitePath.join(target.root, relative)) != nil {
            isFolder = true
        }

        if isFolder, mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
            // Files may have landed in the new folder before its watch was in place: report them all.
            var found: [String] = []
            let metUndecodableName: Bool
            do {
                metUndecodableName = try addTree(relative: relative, found: &found)
            } catch {
                return error
            }
            for path in found { coalescer.add(path, at: now) }
            coalescer.add(relative, at: now)
            // As for an event with such a name (see `collect`).
            if metUndecodableName { coalescer.addOverflow(at: now) }
        } else if isFolder, mask & UInt32(IN_MOVED_FROM) != 0 {
            // Gone from the tree: its watches (and its children's) would report stale paths.
            for (descriptor, path) in folders where path == relative || path.hasPrefix(relative + "/") {
                inotify_rm_watch(fd, descriptor)
                folders[descriptor] = nil
            }
            coalescer.add(relative, at: now)
        } else if isFolder, mask & UInt32(IN_ATTRIB) != 0 {
            return nil
        } else {
            coalescer.add(relative, at: now)
            // A file that came (or a link made anew: `ln -sf` renames a new link over the old)
            // may be a link to a file elsewhere; one that went no longer leads anywhere.
            if mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
                do {
                    try followLink(relative: relative)
                } catch {
                    return error
                }
            } else if mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 {
                forgetLink(relative)
            }
        }
        return nil
    }

    /// When `relative` is a symbolic link to a file (or to nothing yet), watches the folder
    /// that file is in, and reports the link when the file changes (see ``linkTargets``).
    private mutating func followLink(relative: String) throws(FallbackReason) {
        forgetLink(relative)
        let path = SitePath.join(target.root, relative)
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
              let (folder, name) = Self.linkedFile(of: path) else { return }
        // The folder may be watched already, as part of the site or for another link: the
        // kernel then gives the same watch, with the same events.
        if let watchLimit, watchCount >= watchLimit { throw .watchLimit }
        let wd = inotify_add_watch(fd, folder, Self.folderEvents)
        guard wd >= 0 else {
            switch errno {
            case ENOSPC: throw .watchLimit
            case ENOENT, ENOTDIR, EACCES: return
            default: throw .unavailable(String(cString: strerror(errno)))
            }
        }
        linkTargets[wd, default: [:]][name, default: []].insert(relative)
        linkPlaces[relative] = (wd, name)
    }

    /// Stops reporting `relative` for the file it led to, and drops that file's folder's
    /// watch when nothing else needs it.
    private mutating func forgetLink(_ relative: String) {
        guard let place = linkPlaces.removeValue(forKey: relative) else { return }
        linkTargets[place.watch]?[place.name]?.remove(relative)
        if linkTargets[place.watch]?[place.name]?.isEmpty == true { linkTargets[place.watch]?[place.name] = nil }
        if linkTargets[place.watch]?.isEmpty == true {
            linkTargets[place.watch] = nil
            if folders[place.watch] == nil { inotify_rm_watch(fd, place.watch) }
        }
    }

    /// The folder (resolved) and name of the file the link at `path` leads to through any
    /// chain of links; for a link to nothing, where its own text leads, so that the file is
    /// noticed when it is made.
    private static func linkedFile(of path: String) -> (folder: String, name: String)? {
        var file: String
        if let resolved = realpath(path, nil) {
            file = String(cString: resolved)
            free(resolved)
        } else {
            var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &bytes, bytes.count - 1)
            guard count > 0 else { return nil }
            let text = String(decoding: bytes[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let linkFolder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            file = text.hasPrefix("/") ? text : SitePath.join(linkFolder.isEmpty ? "/" : linkFolder, text)
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            guard let last = parts.last, let folder = realpath(parts.dropLast().joined(separator: "/"), nil) else { return nil }
            file = SitePath.join(String(cString: folder), String(last))
            free(folder)
        }
        guard let slash = file.lastIndex(of: "/") else { return nil }
        let name = String(file[file.index(after: slash)...])
        guard !name.isEmpty else { return nil }
        return (slash == file.startIndex ? "/" : String(file[..<slash]), name)
    }

    /// How many watches this instance holds: the site's folders and those of linked files.
    /// (Counted only under a simulated limit: the kernel's own says when it is reached.)
    private var watchCount: Int {
        folders.count + linkTargets.keys.count { folders[$0] == nil }
    }

    /// Watches `relative` and every folder under it, listing the files found on the way.
    ///
    /// - Returns: Whether it met a name that is not valid UTF-8 (see
    ///   ``DirectoryListing/Entry/isUndecodable``), which no path in `found` can stand for.
    private mutating func addTree(relative: String, found: inout [String]) throws(FallbackReason) -> Bool {
        var visited: Set<DirectoryIdentity> = []
        var metUndecodableName = false
        try addTree(relative: relative, found: &found, visited: &visited, metUndecodableName: &metUndecodableName)
        return metUndecodableName
    }

    private mutating func addTree(relative: String, found: inout [String], visited: inout Set<DirectoryIdentity>,
                                  metUndecodableName: inout Bool) throws(FallbackReason) {
        let path = SitePath.join(target.root, relative)
        guard let identity = DirectoryIdentity(path: path), visited.insert(identity).inserted else { return }
        guard try addWatch(relative: relative) else { return }
        for entry in DirectoryListing.entries(of: path) where !target.ignores(entry.name) {
            guard !entry.isUndecodable else {
                metUndecodableName = true
                continue
            }
            let child = SitePath.join(relative, entry.name)
            if entry.isDirectory {
                try addTree(relative: child, found: &found, visited: &visited, metUndecodableName: &metUndecodableName)
            } else {
                if entry.isSymbolicLink { try followLink(relative: child) }
                found.append(child)
            }
        }
    }

    /// Adds one folder's watch. False when the folder is gone already.
    @discardableResult
    private mutating func addWatch(relative: String) throws(FallbackReason) -> Bool {
        if let watchLimit, watchCount >= watchLimit { throw .watchLimit }
        let path = relative.isEmpty ? target.root : SitePath.join(target.root, relative)
        let wd = inotify_add_watch(fd, path, Self.folderEvents)
        guard wd >= 0 else {
            switch errno {
            case ENOSPC: throw .watchLimit
            case ENOENT, ENOTDIR, EACCES: return false
            default: throw .unavailable(String(cString: strerror(errno)))
            }
        }
        folders[wd] = relative
        return true
    }
}
#endif
