import Content
import Diagnostics
import Foundation
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
        guard let data = files.contents(atPath: path) else {
            let exists = files.fileExists(atPath: path)
            throw Diagnostic.error(exists ? "cannot read the file (permission denied?)" : "file not found",
                                   at: SourceLocation(path: relative),
                                   hint: exists ? "check the file's permissions" : nil)
        }
        return [UInt8](data)
    }

    func sourceFile(_ relative: String) throws(Diagnostic) -> SourceFile {
        try SourceFile(path: relative, bytes: try bytes(relative))
    }

    func exists(_ relative: String) -> Bool {
        files.fileExists(atPath: SitePaths.join(root, relative))
    }

    /// Site-relative paths of the regular files under `directory` whose names end in `suffix`,
    /// sorted; hidden files and editors' temporary files are skipped.
    func files(under directory: String, suffix: String? = nil) -> [String] {
        var result: [String] = []
        FileSystem.walk(SitePaths.join(root, directory)) { relative, name, isDirectory in
            // Hidden folders (.git) are skipped whole; hidden and temporary files one by one.
            guard !SiteInputs.ignores(name: name) else { return false }
            if isDirectory { return true }
            if let suffix, !name.hasSuffix(suffix) { return true }
            result.append(SitePaths.join(directory, relative))
            return true
        }
        return result.sorted()
    }

    /// Every file a build reads besides `marsgen.yml`: the crew file, the content loaders'
    /// Markdown files, template overrides and static files, sorted.
    func inputFiles() -> [String] {
        var paths = exists(CrewLoader.path) ? [CrewLoader.path] : []
        for directory in ["content/journal", "content/messages", "content/weather"] {
            paths += files(under: directory, suffix: ".md")
        }
        paths += files(under: "templates", suffix: ".mustache")
        paths += files(under: "static")
        return paths
    }
}
