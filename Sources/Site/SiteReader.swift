import Content
import Diagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Rendering
import SiteConfig

/// Reads a site's files from disk: the config, `content/`, `templates/` and `static/`.
///
/// Every path it hands on is relative to the site root, as the user would write it.
struct SiteReader {
    let root: String
    private let files = FileManager.default

    init(root: String) { self.root = root }

    /// The bytes of a site-relative file.
    func bytes(_ relative: String) throws(Diagnostic) -> [UInt8] {
        let path = SitePaths.join(root, relative)
        do {
            return try FileSystem.read(path)
        } catch {
            switch error.code {
            case EACCES, EPERM:
                throw Diagnostic.error("cannot read the file: permission denied", at: SourceLocation(path: relative, line: 1, column: 1),
                                       hint: "let your user read it, e.g. chmod a+r \(relative)")
            case ENOENT:
                throw Diagnostic.error("the file disappeared while the site was being read", at: SourceLocation(path: relative, line: 1, column: 1),
                                       hint: "build again once the files have settled")
            default:
                throw Diagnostic.error("cannot read the file: \(String(cString: strerror(error.code)))",
                                       at: SourceLocation(path: relative, line: 1, column: 1), hint: "check the file and the disk it is on")
            }
        }
    }

    func sourceFile(_ relative: String) throws(Diagnostic) -> SourceFile {
        try SourceFile(path: relative, bytes: try bytes(relative))
    }

    func exists(_ relative: String) -> Bool {
        files.fileExists(atPath: SitePaths.join(root, relative))
    }

    /// Site-relative paths of the regular files under `directory` whose names end in `suffix`,
    /// sorted; hidden files and editors' temporary files are skipped.
    ///
    /// Symbolic links are followed while they stay inside the site. A link that leads out of
    /// the site, nowhere, or in a loop is an error: the first such path, in sorted order.
    func files(under directory: String, suffix: String? = nil) throws(Diagnostic) -> [String] {
        try listing(under: directory, suffix: suffix).files.map(\.path)
    }

    /// ``files(under:suffix:)`` with each file's stat, taken as it was listed, and whether
    /// a symbolic link was followed on the way.
    func listing(under directory: String, suffix: String? = nil) throws(Diagnostic)
        -> (files: [(path: String, stat: FileStat)], hasLinks: Bool) {
        if let files = listingWithoutLinks(under: directory, suffix: suffix) { return (files, false) }
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
            case .directory, .file:
                break
            }
            if entry.isLink {
                hasLinks = true
                let target = FileSystem.realPath(SitePaths.join(root, path)) ?? ""
                if siteRoot == nil { siteRoot = FileSystem.realPath(root) ?? root }
                guard SitePaths.isWithin(target, siteRoot ?? root) else {
                    if entry.kind == .file, let suffix, !entry.name.hasSuffix(suffix) { return false }
                    problems.append(.error("symbolic link points outside the site, to \(target)", at: SourceLocation(path: path, line: 1, column: 1),
                                           hint: "marsgen reads only files inside the site folder; copy the file in instead of linking"))
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
        return (result, hasLinks)
    }

    /// ``listing(under:suffix:)`` for a tree without symbolic links, spread over every core:
    /// each of the top folder's subfolders is walked on its own, and its own files are
    /// stat'ed in batches. A journal kept in a folder per sol has thousands of folders, the
    /// weather thousands of files in one, and the system calls to list and stat them were
    /// most of a build that changes little. `nil` when a link (or anything the full walk
    /// reports) is met: only the full walk, one folder after another, can tell a loop from a
    /// second way in.
    private func listingWithoutLinks(under directory: String, suffix: String?) -> [(path: String, stat: FileStat)]? {
        guard let base = FileSystem.OpenFolder(path: SitePaths.join(root, directory)) else { return [] }
        enum Job {
            case folder(String)
            case files(ArraySlice<(name: String, type: Int32)>)
        }
        var jobs: [Job] = []
        var topFiles: [(name: String, type: Int32)] = []
        for entry in base.entries where !SiteInputs.ignores(name: entry.name) {
            if entry.type == Int32(DT_DIR) { jobs.append(.folder(entry.name)) } else { topFiles.append(entry) }
        }
        let batch = 256
        for start in stride(from: 0, to: topFiles.count, by: batch) {
            jobs.append(.files(topFiles[start..<min(start + batch, topFiles.count)]))
        }
        func accepts(_ name: String) -> Bool { suffix.map(name.hasSuffix) ?? true }
        let parts = try? parallelMap(jobs) { job throws(Diagnostic) -> [(path: String, stat: FileStat)]? in
            var files: [(path: String, stat: FileStat)] = []
            var plain = true
            switch job {
            case .folder(let folder):
                FileSystem.walk(folder, in: base, stopsAtLinks: true) { entry in
                    guard plain, !entry.isLink else {
                        plain = false
                        return false
                    }
                    guard !SiteInputs.ignores(name: entry.name) else { return false }
                    switch entry.kind {
                    case .directory:
                        return true
                    case .file:
                        if accepts(entry.name), let stat = entry.stat {
                            files.append((SitePaths.join(directory, folder + "/" + entry.relative), stat))
                        }
                    case .directoryLoop, .brokenLink:
                        plain = false
                    }
                    return false
                }
            case .files(let entries):
                for (name, type) in entries where type != Int32(DT_REG) || accepts(name) {
                    guard let (entry, _) = FileSystem.look(at: name, type: type, in: base.descriptor, relative: name) else { continue }
                    // A link, or a folder the listing did not name as one: the full walk decides.
                    guard !entry.isLink, entry.kind == .file else { return nil }
                    if accepts(name), let stat = entry.stat { files.append((SitePaths.join(directory, name), stat)) }
                }
            }
            return plain ? files : nil
        }
        guard let parts, !parts.contains(where: { $0 == nil }) else { return nil }
        var files: [(path: String, stat: FileStat)] = []
        files.reserveCapacity(parts.reduce(0) { $0 + ($1?.count ?? 0) })
        for part in parts { files += part ?? [] }
        files.sort { $0.path < $1.path }
        return files
    }

    /// The folders a build reads files from, each with the ending of the files it reads
    /// (`nil`: every file), in path order, so ``inputFiles()`` is sorted as one list (a
    /// watched rebuild binary-searches it).
    static let inputFolders: [(directory: String, suffix: String?)] = [
        ("content/journal", ".md"), ("content/messages", ".md"), ("content/weather", ".md"),
        ("static", nil), ("templates", ".mustache"),
    ]

    /// Every file a build reads besides `marsgen.yml`: the crew file, the content loaders'
    /// Markdown files, template overrides and static files, sorted.
    func inputFiles() throws(Diagnostic) -> (files: [(path: String, stat: FileStat)], hasLinks: Bool) {
        var files: [(path: String, stat: FileStat)] = []
        if let stat = FileStat(path: SitePaths.join(root, CrewLoader.path)) {
            files.append((CrewLoader.path, stat))
        }
        var hasLinks = false
        for (directory, suffix) in Self.inputFolders {
            let listed = try listing(under: directory, suffix: suffix)
            files += listed.files
            hasLinks = hasLinks || listed.hasLinks
        }
        return (files, hasLinks)
    }

    /// How a site-relative path a watcher reported bears on ``inputFiles()``.
    enum InputKind: Equatable {
        /// Not something a build reads (a hidden or temporary file, `marsgen.yml`, which
        /// the configuration hash covers, or a file of the wrong kind for its folder).
        case none
        /// An input file, if it is a regular file.
        case file
        /// A folder that holds input folders (`content`, `content/journal`, `static`).
        case folderOfInputs
        /// Under an input folder: a file or a folder.
        case underInputFolder
    }

    static func inputKind(of path: String) -> InputKind {
        let components = path.split(separator: "/")
        guard !components.contains(where: { SiteInputs.ignores(name: String($0)) }) else { return .none }
        if path == CrewLoader.path { return .file }
        for (directory, suffix) in inputFolders {
            if directory == path || directory.hasPrefix(path + "/") { return .folderOfInputs }
            guard path.hasPrefix(directory + "/") else { continue }
            return suffix.map(path.hasSuffix) ?? true ? .file : .underInputFolder
        }
        return .none
    }

}
