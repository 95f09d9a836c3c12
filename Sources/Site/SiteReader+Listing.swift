import Content
import Diagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The input files under a folder as a listing found them.
struct ListedInputs {
    /// Site-relative paths with their stat, taken as they were listed, sorted by path.
    var files: [(path: String, stat: FileStat)] = []
    /// Whether a symbolic link was followed on the way.
    var hasLinks = false
    /// The folders listed, sorted by path, each with its stat taken before its entries were
    /// read: with them, a later build can tell which folders still hold the same entries
    /// without reading them (see ``SiteReader/inputFiles(recordedIn:)``). Nil when they cannot
    /// be relied on: a link was met, or the listing did not walk the folders itself.
    var folders: [InputFolder]? = []
}

extension SiteReader {
    /// Site-relative paths of the regular files under `directory` whose names end in `suffix`,
    /// sorted; hidden files and editors' temporary files are skipped.
    ///
    /// Symbolic links are followed while they stay inside the site. A link that leads out of
    /// the site, nowhere, or in a loop is an error: the first such path, in sorted order.
    func files(under directory: String, suffix: String? = nil) throws(Diagnostic) -> [String] {
        try listing(under: directory, suffix: suffix).files.map(\.path)
    }

    /// ``files(under:suffix:)`` with each file's stat, taken as it was listed, whether a
    /// symbolic link was followed on the way, and the folders listed.
    func listing(under directory: String, suffix: String? = nil) throws(Diagnostic) -> ListedInputs {
        if let listed = listingWithoutLinks(under: directory, suffix: suffix) { return listed }
        var result: [(path: String, stat: FileStat)] = []
        var hasLinks = false
        var problems: [Diagnostic] = []
        // Resolved only when a link is met: most sites have none.
        var siteRoot: String?
        FileSystem.walk(SitePaths.join(root, directory)) { entry in
            // Hidden folders (.git) are skipped whole; hidden and temporary files one by one.
            guard !SiteInputs.ignores(name: entry.name) else { return false }
            let path = SitePaths.join(directory, entry.relative)
            switch entry.kind {
            case .brokenLink(let code):
                guard suffix.map(entry.name.hasSuffix) ?? true else { return false }
                problems.append(code == ELOOP
                    ? .error("symbolic link loop", at: SourceLocation(path: path, line: 1, column: 1),
                             hint: "the link leads back to itself; point it at a file, or remove it")
                    : .error("symbolic link to a file that does not exist (\(String(cString: strerror(code))))",
                             at: SourceLocation(path: path, line: 1, column: 1), hint: "fix the link's target, or remove the link"))
                return false
            case .directoryLoop:
                problems.append(.error("symbolic link loop: this folder leads back to a folder already read",
                                       at: SourceLocation(path: path, line: 1, column: 1), hint: "remove the link, or point it outside its own parents"))
                return false
            case .undecodableName:
                problems.append(.error("the name is not valid UTF-8, so marsgen cannot read what it holds",
                                       at: SourceLocation(path: path, line: 1, column: 1),
                                       hint: "rename it (it was likely named in Latin-1 or another encoding; convmv can convert names to UTF-8)"))
                return false
            case .special(let what):
                guard suffix.map(entry.name.hasSuffix) ?? true else { return false }
                problems.append(Self.notAFile(path, what: what))
                return false
            case .directory, .file:
                break
            }
            if entry.isLink {
                hasLinks = true
                let target = FileSystem.realPath(SitePaths.join(root, path)) ?? ""
                if siteRoot == nil { siteRoot = FileSystem.realPath(root) ?? root }
                guard SitePaths.isWithin(target, siteRoot ?? root) else {
                    if entry.kind == .file, let suffix, !entry.name.hasSuffix(suffix) { return false }
                    problems.append(Self.linkOutOfSite(path, to: target, what: "the file"))
                    return false
                }
            }
            if entry.kind == .directory { return true }
            if let suffix, !entry.name.hasSuffix(suffix) { return true }
            if let stat = entry.stat { result.append((path, stat)) }
            return true
        }
        if let first = problems.min(by: { ($0.location?.path ?? "") < ($1.location?.path ?? "") }) { throw first }
        result.sort { $0.path < $1.path }
        return ListedInputs(files: result, hasLinks: hasLinks, folders: nil)
    }

    /// ``listing(under:suffix:)`` for a tree without symbolic links, spread over every core
    /// (see ``entries(of:at:suffix:skipping:)``). `nil` when a link (or anything the full walk
    /// reports) is met: only the full walk, one folder after another, can tell a loop from a
    /// second way in.
    private func listingWithoutLinks(under directory: String, suffix: String?) -> ListedInputs? {
        guard let base = FileSystem.OpenFolder(path: SitePaths.join(root, directory)) else { return ListedInputs() }
        // Before its entries are read (see `ListedInputs.folders`).
        guard let info = base.info, var listed = entries(of: base, at: directory, suffix: suffix, skipping: []) else { return nil }
        listed.folders?.insert(InputFolder(path: directory, info), at: 0)
        return listed
    }

    /// The input files in the open folder at the site-relative `path` and in every folder
    /// under it, except the subfolders in `skipping` (with what is under them), each folder
    /// walked with its stat, but not `path`'s own. Each subfolder is walked on its own and
    /// the folder's own files are stat'ed in batches, on every core: a journal kept in a
    /// folder per sol has thousands of folders, the weather thousands of files in one, and
    /// the system calls to list and stat them were most of a build that changes little.
    /// `nil` when a symbolic link (or a folder not listed as one) is met.
    private func entries(of folder: FileSystem.OpenFolder, at path: String, suffix: String?,
                         skipping: Set<String>) -> ListedInputs? {
        enum Job {
            case folder(String)
            case files(ArraySlice<(name: String, type: Int32)>)
        }
        var jobs: [Job] = []
        var ownFiles: [(name: String, type: Int32)] = []
        for entry in folder.entries where !SiteInputs.ignores(name: entry.name) {
            if entry.type != Int32(DT_DIR) {
                ownFiles.append(entry)
            } else if skipping.isEmpty || !skipping.contains(path + "/" + entry.name) {
                jobs.append(.folder(entry.name))
            }
        }
        let batch = 256
        for start in stride(from: 0, to: ownFiles.count, by: batch) {
            jobs.append(.files(ownFiles[start..<min(start + batch, ownFiles.count)]))
        }
        func accepts(_ name: String) -> Bool { suffix.map(name.hasSuffix) ?? true }
        let parts = try? parallelMap(jobs) { job throws(Diagnostic) -> ListedInputs? in
            var files: [(path: String, stat: FileStat)] = []
            var folders: [InputFolder] = []
            var plain = true
            switch job {
            case .folder(let name):
                let prefix = path + "/" + name
                FileSystem.walk(name, in: folder, stopsAtLinks: true, opened: { relative, info in
                    folders.append(InputFolder(path: relative.isEmpty ? prefix : prefix + "/" + relative, info))
                }) { entry in
                    guard plain, !entry.isLink else {
                        plain = false
                        return false
                    }
                    guard !SiteInputs.ignores(name: entry.name) else { return false }
                    switch entry.kind {
                    case .directory:
                        return true
                    case .file:
                        if accepts(entry.name), let stat = entry.stat { files.append((prefix + "/" + entry.relative, stat)) }
                    case .directoryLoop, .brokenLink, .undecodableName:
                        plain = false
                    case .special:
                        // One the listing takes: the full walk reports it.
                        if accepts(entry.name) { plain = false }
                    }
                    return false
                }
            case .files(let entries):
                for (name, type) in entries where type != Int32(DT_REG) || accepts(name) {
                    // A name no path can open: the full walk reports it.
                    guard type != FileSystem.undecodableName else { return nil }
                    guard let (entry, _) = FileSystem.look(at: name, type: type, in: folder.descriptor, relative: name) else { continue }
                    if case .special = entry.kind, !accepts(name) { continue }
                    // A link, or a folder the listing did not name as one: the full walk decides.
                    guard !entry.isLink, entry.kind == .file else { return nil }
                    if accepts(name), let stat = entry.stat { files.append((path + "/" + name, stat)) }
                }
            }
            return plain ? ListedInputs(files: files, folders: folders) : nil
        }
        guard let parts else { return nil }
        var listed = ListedInputs()
        listed.files.reserveCapacity(parts.reduce(0) { $0 + ($1?.files.count ?? 0) })
        var folders: [InputFolder] = []
        for part in parts {
            guard let part else { return nil }
            listed.files += part.files
            folders += part.folders ?? []
        }
        listed.files.sort { $0.path < $1.path }
        folders.sort { $0.path < $1.path }
        listed.folders = folders
        return listed
    }

    /// ``listing(under:suffix:)`` from an earlier listing's `files` and `folders` under
    /// `directory` (sorted, `directory` itself first among the folders), recorded by a build
    /// that started reading at `scanStartedAt`.
    ///
    /// Each folder is stat'ed: one whose stat shows it unchanged (see
    /// ``InputFolder/isUnchanged(_:recordedBy:)``) holds the entries it held then, so its
    /// recorded files are only stat'ed again, not listed. Only the folders that changed are
    /// read again, and folders new since are walked. Every file and folder is still looked
    /// at, so the result is the listing a walk gives; the walk's reading of thousands of
    /// folders is what this saves.
    ///
    /// - Returns: nil when the record does not fit the folders as they are (a file gone from
    ///   an unchanged folder, a link met): the caller lists them afresh.
    func recordedListing(under directory: String, suffix: String?, files recorded: ArraySlice<String>,
                         folders recordedFolders: ArraySlice<InputFolder>, recordedBy scanStartedAt: Int64) -> ListedInputs? {
        guard recordedFolders.first?.path == directory, let base = FileSystem.OpenFolder(path: SitePaths.join(root, directory))
        else { return nil }
        /// Where a path under `directory` starts, as seen from `base`.
        let offset = directory.utf8.count + 1
        /// Runs of positions `start..<end`, to spread over the cores.
        func batches(_ start: Int, _ end: Int) -> [Range<Int>] {
            stride(from: start, to: end, by: 512).map { $0..<min($0 + 512, end) }
        }
        // Each folder now: nil when it is gone, or no longer a folder.
        guard let nowParts = try? parallelMap(batches(recordedFolders.startIndex, recordedFolders.endIndex), { run throws(Diagnostic) in
            recordedFolders[run].map { folder -> InputFolder? in
                let info = folder.path == directory ? base.info : folder.path.withCString { base.info(of: $0 + offset) }
                guard let info, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
                return InputFolder(path: folder.path, info)
            }
        }) else { return nil }
        let now = nowParts.joined()
        /// The folders whose entries must be read again; of them, those that went.
        var changed: Set<String> = [], gone: Set<String> = []
        for (old, new) in zip(recordedFolders, now) {
            guard let new else {
                gone.insert(old.path)
                continue
            }
            if !old.isUnchanged(new, recordedBy: scanStartedAt) { changed.insert(old.path) }
        }
        let unsure = changed.union(gone)
        // A folder goes from a folder whose entries change; anything else is not what was recorded.
        for path in gone where path == directory || !unsure.contains(SitePaths.parent(path)) { return nil }
        // The recorded files of the folders that did not change: each must still be a file.
        var trusted = [Bool](repeating: true, count: recorded.count)
        for folder in unsure {
            let ownStart = folder.utf8.count + 1
            // Only the folder's own files: those of its subfolders go by their own folder.
            for position in recorded.sortedRun(under: folder) where !recorded[position].utf8.dropFirst(ownStart).contains(UInt8(ascii: "/")) {
                trusted[position - recorded.startIndex] = false
            }
        }
        let trustedFiles = trusted
        let stats = try? parallelMap(batches(recorded.startIndex, recorded.endIndex)) { run throws(Diagnostic) -> [(path: String, stat: FileStat)]? in
            var files: [(path: String, stat: FileStat)] = []
            files.reserveCapacity(run.count)
            for position in run where trustedFiles[position - recorded.startIndex] {
                let path = recorded[position]
                guard let info = path.withCString({ base.info(of: $0 + offset) }), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
                files.append((path, FileStat(info)))
            }
            return files
        }
        guard let stats, !stats.contains(where: { $0 == nil }) else { return nil }
        // The folders that changed, read again; what they hold that was not recorded is new.
        var listed = ListedInputs()
        if !changed.isEmpty {
            let known = Set(recordedFolders.lazy.map(\.path))
            for path in changed.subtracting(gone).sorted() {
                guard let folder = path == directory ? base : FileSystem.OpenFolder(String(path.dropFirst(directory.count + 1)), in: base),
                      let part = entries(of: folder, at: path, suffix: suffix, skipping: known) else { return nil }
                listed.files += part.files
                listed.folders? += part.folders ?? []
            }
            listed.files.sort { $0.path < $1.path }
            listed.folders?.sort { $0.path < $1.path }
        }
        listed.files = Self.merged(stats.compactMap { $0 }.joined(), listed.files) { $0.path < $1.path }
        listed.folders = Self.merged(now.compactMap { $0 }, listed.folders ?? []) { $0.path < $1.path }
        return listed
    }

    /// Two sorted lists as one sorted list.
    private static func merged<Item>(_ first: some Collection<Item>, _ second: [Item], by less: (Item, Item) -> Bool) -> [Item] {
        guard !second.isEmpty else { return Array(first) }
        var result: [Item] = []
        result.reserveCapacity(first.count + second.count)
        var other = second[...]
        for item in first {
            while let next = other.first, less(next, item) {
                result.append(next)
                other.removeFirst()
            }
            result.append(item)
        }
        result += other
        return result
    }

    /// The folders a build reads files from, each with the ending of the files it reads
    /// (`nil`: every file), in path order, so ``inputFiles()`` is sorted as one list (a
    /// watched rebuild binary-searches it). Every file in a content folder or in `templates/`
    /// is an input: one not named as marsgen reads it is recorded with a warning (see
    /// ``ContentKind/unreadFile(at:)``), which every build gives until it is renamed or moved.
    static let inputFolders: [(directory: String, suffix: String?)] = [
        ("content/journal", nil), ("content/messages", nil), ("content/pages", nil), ("content/weather", nil),
        ("static", nil), ("templates", nil),
    ]

    /// Every file a build reads besides `marsgen.yml`: the crew file, the content loaders'
    /// Markdown files, template overrides and static files, sorted, with the folders listed.
    func inputFiles() throws(Diagnostic) -> ListedInputs {
        try inputFiles(recordedIn: nil)
    }

    /// Checks that the input folders and the crew file, when they are symbolic links or lie
    /// under one (`static` → a folder elsewhere), stay inside the site, as every link met
    /// while listing must: the listing starts inside each folder, and would never see it.
    func checkInputsStayInside() throws(Diagnostic) {
        var siteRoot: String?
        for relative in [CrewLoader.path] + Self.inputFolders.map(\.directory) {
            guard let target = FileSystem.realPath(SitePaths.join(root, relative)) else { continue }
            if siteRoot == nil { siteRoot = FileSystem.realPath(root) ?? root }
            guard let siteRoot, !SitePaths.isWithin(target, siteRoot) else { continue }
            throw Self.linkOutOfSite(relative, to: target, what: "the files")
        }
    }

    /// The error for what is at `path` when it is `what` (a named pipe, a socket, a device;
    /// see ``FileSystem/specialKind(_:)``) where a file should be: reading a pipe would wait
    /// for a writer, a device might never end.
    static func notAFile(_ path: String, what: String) -> Diagnostic {
        .error("\(what), not a regular file: marsgen reads and copies only regular files", at: SourceLocation(path: path, line: 1, column: 1),
               hint: "put a file here (or a symbolic link to one), or move it out of the site")
    }

    /// The error for the symbolic link at `path` that leads to `target`, out of the site;
    /// `what` names what to copy in instead.
    static func linkOutOfSite(_ path: String, to target: String, what: String) -> Diagnostic {
        .error("symbolic link points outside the site, to \(target)", at: SourceLocation(path: path, line: 1, column: 1),
               hint: "marsgen reads only files inside the site folder; copy \(what) in instead of linking")
    }

    /// ``inputFiles()``, taking what `index` recorded of each input folder (its
    /// ``BuildIndex/folders``) for what it can tell without reading the folders again (see
    /// ``recordedListing(under:suffix:files:folders:recordedBy:)``); the same listing.
    func inputFiles(recordedIn index: BuildIndex?) throws(Diagnostic) -> ListedInputs {
        try checkInputsStayInside()
        var listed = ListedInputs()
        if let stat = FileStat(path: SitePaths.join(root, CrewLoader.path)) {
            listed.files.append((CrewLoader.path, stat))
        }
        for (directory, suffix) in Self.inputFolders {
            var part: ListedInputs?
            if let index, let (paths, folders) = index.recordedListing {
                // The folder itself sorts first among its folders.
                let run = folders.sortedRun(under: directory, including: true) { $0.path }
                part = recordedListing(under: directory, suffix: suffix, files: paths[paths.sortedRun(under: directory)],
                                       folders: folders[run], recordedBy: index.scanStartedAt)
            }
            let listedPart: ListedInputs
            if let part { listedPart = part } else { listedPart = try listing(under: directory, suffix: suffix) }
            listed.files += listedPart.files
            listed.hasLinks = listed.hasLinks || listedPart.hasLinks
            if let folders = listedPart.folders { listed.folders? += folders } else { listed.folders = nil }
        }
        return listed
    }
}
