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
        let base = SitePaths.join(root, directory)
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: base, isDirectory: &isDirectory), isDirectory.boolValue,
              let enumerator = files.enumerator(atPath: base)
        else { return [] }
        var result: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = SitePaths.name(relative)
            if name.hasPrefix(".") {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            guard !Self.isEditorTemporary(name) else { continue }
            if let suffix, !name.hasSuffix(suffix) { continue }
            var isDir: ObjCBool = false
            let full = SitePaths.join(base, relative)
            guard files.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue else { continue }
            result.append(SitePaths.join(directory, relative))
        }
        return result.sorted()
    }

    /// Swap files, backups and lock files that editors leave beside the files being edited.
    static func isEditorTemporary(_ name: String) -> Bool {
        name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasSuffix(".tmp")
            || name == "4913" || name.hasPrefix(".#") || name.hasPrefix("#")
    }

    /// The site's template overrides, by template name.
    func templateOverrides() throws(Diagnostic) -> [String: TemplateLibrary.Source] {
        var overrides: [String: TemplateLibrary.Source] = [:]
        for path in files(under: "templates", suffix: ".mustache") {
            let file = try sourceFile(path)
            let name = String(path.dropFirst("templates/".count).dropLast(".mustache".count))
            overrides[name] = TemplateLibrary.Source(text: file.text, path: path)
        }
        return overrides
    }
}
