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
    ///
    /// - Parameter limit: The most bytes read: the file's first ones.
    func bytes(_ relative: String, limit: Int = .max) throws(Diagnostic) -> [UInt8] {
        let path = SitePaths.join(root, relative)
        do {
            return try FileSystem.read(path, limit: limit)
        } catch {
            if let what = error.notRegular { throw Self.notAFile(relative, what: what) }
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
