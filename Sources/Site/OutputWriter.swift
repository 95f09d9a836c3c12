import CSystemCalls
import Diagnostics
import Foundation

/// Writes a finished site into the output directory without ever leaving it half-written.
///
/// Everything is written into a staging directory beside the output first; only when all
/// of it is on disk are the two directories exchanged (atomically where the system offers
/// `renameat2(RENAME_EXCHANGE)` or `renamex_np(RENAME_SWAP)`). A failed or killed build leaves
/// the previous site in place. Top-level dot files of the old output (`.git`, `.gitkeep`,
/// `.nojekyll`) are carried over, so publishing from a git checkout of `public/` keeps working.
///
/// An output folder that cannot be replaced (a mount point, such as a Docker volume, or one
/// whose parent is not writable) is staged inside instead, in `.marsgen-staging-<pid>`, and
/// its top-level entries are exchanged one by one: each atomically, the whole not. A build
/// removes its index before it commits, so one killed midway is followed by a full build.
///
///     let writer = OutputWriter(output: "/site/public")
///     try writer.begin()                       // an empty staging directory
///     try writer.stage(bytes, at: "index.html")  // as each page is rendered, from any thread
///     try writer.commit(copies: staticFiles)   // copy, then swap into place
struct OutputWriter {
    /// The output directory (absolute), or the folder it links to.
    let output: String
    /// Whether the staging directory is inside the output, which cannot itself be replaced.
    let stagesInside: Bool
    /// Whether a file staged with the bytes of the output's file at its path is that file,
    /// linked into the staging folder, rather than a new one: a full build then leaves the
    /// files whose bytes it did not change as an incremental build does, modification time
    /// and all. (`--clean` writes every file anew.)
    var keepsIdenticalFiles = false
    private let files = FileManager.default

    /// A writer for the output at `output`. When that is a symbolic link (`public` linked to
    /// a web server's folder), the folder it points to is the one written and swapped: the
    /// swap replaced the link itself with a new folder, leaving the web server's empty.
    ///
    /// - Parameter stagesInside: Whether to stage inside the output; by default, when the
    ///   output cannot be replaced (see ``cannotBeReplaced(_:)``).
    init(output: String, stagesInside: Bool? = nil) {
        var info = stat()
        let isLink = lstat(output, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
        self.output = isLink ? FileSystem.realPath(output) ?? output : output
        self.stagesInside = stagesInside ?? Self.cannotBeReplaced(self.output)
    }

    /// Whether the existing folder at `path` cannot be renamed: it is a mount point (`rename`
    /// fails with `EBUSY`, or `EXDEV` from beside it), or its parent is not writable.
    static func cannotBeReplaced(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return false }
        if marsgen_is_mount_root(path) == 1 { return true }
        let parent = SitePaths.parent(path)
        var parentInfo = stat()
        // Where statx cannot tell: a mount of another file system has another device.
        guard stat(parent, &parentInfo) == 0 else { return access(parent, W_OK | X_OK) != 0 }
        if parentInfo.st_dev != info.st_dev { return true }
        // In a sticky folder (/tmp) only the owner of an entry or of the folder may rename it.
        let user = geteuid()
        if parentInfo.st_mode & S_ISVTX != 0, user != 0, info.st_uid != user, parentInfo.st_uid != user { return true }
        return access(parent, W_OK | X_OK) != 0
    }

    var parent: String { SitePaths.parent(output) }
    var stagingPath: String {
        stagesInside ? SitePaths.join(output, "\(Self.insideStagingPrefix)\(getpid())")
            : SitePaths.join(parent, ".\(SitePaths.name(output)).staging-\(getpid())")
    }
    var retiredPath: String {
        stagesInside ? SitePaths.join(output, "\(Self.insideRetiredPrefix)\(getpid())")
            : SitePaths.join(parent, ".\(SitePaths.name(output)).old-\(getpid())")
    }
    /// The names of the folders a writer that stages inside the output keeps there while it works.
    static let insideStagingPrefix = ".marsgen-staging-"
    static let insideRetiredPrefix = ".marsgen-old-"

    /// Checks that the output can be written before any work is done.
    func validate() throws(Diagnostic) {
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Diagnostic.error("the output path is a file, not a directory", at: SourceLocation(path: output),
                                   hint: "remove the file or choose another --output")
        }
    }

    /// Starts a build: an empty staging directory beside the output. One inside the output
    /// is made when the first file is staged: a build that stages nothing leaves the output
    /// folder untouched, as the next build checks (see `OutputFolders`).
    func begin() throws(Diagnostic) {
        try validate()
        do {
            try FileSystem.removeTree(stagingPath)
            if !stagesInside { try FileSystem.createDirectories(stagingPath) }
        } catch {
            throw failure(error)
        }
    }

    /// Writes one file into the staging directory. Safe to call from several threads at once
    /// for different paths.
    ///
    /// - Returns: Whether the output's file at `relative`, which holds `bytes`, was kept
    ///   instead (see ``keepsIdenticalFiles``).
    @discardableResult
    func stage(_ bytes: [UInt8], at relative: String) throws(Diagnostic) -> Bool {
        do {
            return try write(bytes, at: relative)
        } catch {
            throw failure(error)
        }
    }

    private func write(_ bytes: [UInt8], at relative: String) throws(FileSystem.Failure) -> Bool {
        let path = SitePaths.join(stagingPath, relative)
        try FileSystem.createDirectories(SitePaths.parent(path))
        if keepsIdenticalFiles, FileSystem.link(SitePaths.join(output, relative), holding: bytes, to: path) { return true }
        try FileSystem.writeNew(bytes, to: path)
        return false
    }

    /// The error for static file `relative` (of `static/`) when writing it failed with
    /// `failure`: a clear one when a generated page needs its name as a folder, or it needs
    /// a page's name as one (`static/journal` beside the pages in `journal/`).
    static func staticFileFailure(_ relative: String, _ failure: FileSystem.Failure) -> Diagnostic? {
        guard failure.code == EISDIR || failure.code == ENOTDIR else { return nil }
        return Diagnostic.error("static file \(relative) and a generated page need the same name, one as a file and the other as a folder",
                                at: SourceLocation(path: "static/\(relative)"), hint: "rename or move the file in static/")
    }

    /// Copies `copies` into the staging directory, carries over the old output's dot files,
    /// and swaps the staging directory into place.
    ///
    /// - Returns: The copies for which the output's file was kept (see ``keepsIdenticalFiles``).
    @discardableResult
    func commit(copies: [String: String]) throws(Diagnostic) -> Set<String> {
        let staging = stagingPath
        var kept: Set<String> = []
        do {
            for relative in copies.keys.sorted() {
                guard let source = copies[relative] else { continue }
                guard let data = files.contents(atPath: source) else {
                    throw Diagnostic.error("cannot read static file", at: SourceLocation(path: source),
                                           hint: "check that it still exists and your user may read it")
                }
                do {
                    if try write([UInt8](data), at: relative) { kept.insert(relative) }
                } catch {
                    throw Self.staticFileFailure(relative, error) ?? failure(error)
                }
            }
            if stagesInside {
                try FileSystem.createDirectories(staging)
                try replaceEntries(with: staging)
            } else {
                try carryOverDotFiles(into: staging)
                try swapIntoPlace(staging)
            }
            return kept
        } catch let diagnostic as Diagnostic {
            discard()
            throw diagnostic
        } catch {
            discard()
            throw failure(error)
        }
    }

    /// Removes the staging directory of a build that failed; the output is untouched.
    func discard() {
        try? FileSystem.removeTree(stagingPath)
        if stagesInside { try? FileSystem.removeTree(retiredPath) }
    }

    private func failure(_ error: any Error) -> Diagnostic {
        if let diagnostic = error as? Diagnostic { return diagnostic }
        return Diagnostic.error("cannot write the site: \(error.localizedDescription)", at: SourceLocation(path: output),
                                hint: "check that the output directory's parent is writable and the disk is not full")
    }

    private func carryOverDotFiles(into staging: String) throws {
        guard let names = try? files.contentsOfDirectory(atPath: output) else { return }
        // Not the temporary files of an incremental build that was killed while writing.
        for name in names.sorted() where name.hasPrefix(".") && !IncrementalWriter.isTemporaryName(name) {
            let destination = SitePaths.join(staging, name)
            guard !files.fileExists(atPath: destination) else { continue }
            try files.copyItem(atPath: SitePaths.join(output, name), toPath: destination)
        }
    }

    private func swapIntoPlace(_ staging: String) throws {
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: output, isDirectory: &isDirectory) else {
            try FileSystem.move(staging, to: output)
            return
        }
        do {
            try replace(output, with: staging, keepingPreviousIn: retiredPath)
        } catch let failure as FileSystem.Failure where [EPERM, EACCES, EBUSY].contains(failure.code) {
            // The folder cannot be moved after all (a case `cannotBeReplaced` did not foresee):
            // its entries can, from the staging folder on the same file system.
            try replaceEntries(with: staging)
        }
    }

    /// Puts what is at `source` at `target` (which exists): exchanged where the system can,
    /// else two renames, the previous one kept at `retired` until the new one is in place.
    /// Afterwards neither `source` nor `retired` holds anything, but what of the previous
    /// one cannot be removed (files another user left there): it stays behind for the next
    /// build to try again, and fails nothing, as the new one is in place.
    private func replace(_ target: String, with source: String, keepingPreviousIn retired: String) throws {
        if marsgen_exchange_paths(source, target) == 0 {
            try? FileSystem.removeTree(source)
            return
        }
        try? FileSystem.removeTree(retired)
        try FileSystem.move(target, to: retired)
        do {
            try FileSystem.move(source, to: target)
        } catch {
            try? FileSystem.move(retired, to: target)
            throw error
        }
        try? FileSystem.removeTree(retired)
    }

    /// For an output staged inside itself: puts each top-level entry of `staging` in place
    /// (a file by a rename, a folder by an exchange), then removes the entries the new site
    /// no longer has. Top-level dot files the new site does not have stay, as when staging
    /// beside the output.
    private func replaceEntries(with staging: String) throws {
        let names = try files.contentsOfDirectory(atPath: staging).sorted()
        for name in names {
            let (source, target) = (SitePaths.join(staging, name), SitePaths.join(output, name))
            var sourceInfo = stat(), targetInfo = stat()
            guard lstat(target, &targetInfo) == 0 else {
                try FileSystem.move(source, to: target)
                continue
            }
            let isFolder = { (info: stat) in (info.st_mode & S_IFMT) == S_IFDIR }
            if lstat(source, &sourceInfo) == 0, !isFolder(sourceInfo), !isFolder(targetInfo) {
                try FileSystem.move(source, to: target)
            } else {
                try replace(target, with: source, keepingPreviousIn: retiredPath)
            }
        }
        // The staging folder itself is hidden, as is the retired one. Hidden files stay, but
        // for the temporary files of an incremental build that was killed while writing.
        let kept = Set(names.map { Array($0.utf8) })
        try FileSystem.removeEntries(of: output) { name in
            if name.first == UInt8(ascii: ".") { return IncrementalWriter.isTemporaryName(String(decoding: name, as: UTF8.self)) }
            return !kept.contains(Array(name))
        }
        // What stays behind (another user's files) the next build tries again.
        try? FileSystem.removeTree(staging)
    }

    /// Removes staging directories left by builds that were killed (their process is gone),
    /// beside the output and inside it.
    func removeAbandonedStaging() {
        let places = [
            (parent, [".\(SitePaths.name(output)).staging-", ".\(SitePaths.name(output)).old-"]),
            (output, [Self.insideStagingPrefix, Self.insideRetiredPrefix]),
        ]
        for (folder, prefixes) in places {
            guard let names = try? files.contentsOfDirectory(atPath: folder) else { continue }
            for name in names {
                guard let prefix = prefixes.first(where: { name.hasPrefix($0) }),
                      let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0
                else { continue }
                try? FileSystem.removeTree(SitePaths.join(folder, name))
            }
        }
    }
}
