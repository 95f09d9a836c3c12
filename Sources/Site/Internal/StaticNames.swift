import Diagnostics

/// Checks the names static files take in the output against the files a build generates,
/// before anything is written.
///
/// A static file may not take a generated page's path, and a file and a folder cannot share
/// a name: `static/journal` cannot be copied where the journal's pages need a folder, nor
/// `static/feed.xml/notes.txt` where the feed is a file. Checked here rather than when a
/// write fails, every clash is reported at once, and an incremental build that adds the
/// first page of a folder a static file is named like reports it as a full build does
/// (its write failed with "Not a directory").
struct StaticNames {
    /// One static file that cannot be written.
    struct Clash: Equatable {
        /// Output-relative, as under `static/`.
        var file: String
        /// The generated file it would overwrite, when it takes one's path.
        var overwrites: String?

        var message: String {
            if let overwrites { return "static file would overwrite the generated page \(overwrites)" }
            return "static file \(file) and a generated page need the same name, one as a file and the other as a folder"
        }
    }

    /// The static files, output-relative, in order.
    let files: [String]

    /// The clashes of ``files`` with `pages` (every page the build writes, by output-relative
    /// path) and `themeFiles` (the theme's files no static file replaces), in ``files`` order.
    ///
    /// - Parameter added: When the previous build wrote its files beside these same static
    ///   files without a clash, the pages it did not write: only those can need a static
    ///   file's name as a folder. Nil to look at every page.
    func clashes(pages: RecordTable<some Any>, themeFiles: [String], added: [String]?) -> [Clash] {
        // The folders the generated files need, or those the added ones need.
        var folders = Set<Substring>()
        for path in (added ?? Array(pages.keys)) + themeFiles { Self.insertFolders(of: path, into: &folders) }
        let isGenerated = { (path: Substring) in pages[String(path)] != nil || themeFiles.contains { $0 == path } }
        var clashes: [Clash] = []
        for file in files {
            if pages[file] != nil {
                clashes.append(Clash(file: file, overwrites: file))
            } else if folders.contains(Substring(file)) || Self.folders(of: file).contains(where: isGenerated) {
                clashes.append(Clash(file: file))
            }
        }
        return clashes
    }

    /// The error for `clashes` (not empty): the first, with the others named in its hint.
    static func diagnostic(for clashes: [Clash]) -> Diagnostic {
        let first = clashes[0]
        var hint = "rename or move the file in static/"
        let others = clashes.dropFirst().map { "static/\($0.file)" }
        if !others.isEmpty {
            let named = others.prefix(5).joined(separator: ", ")
            hint += "; so too \(named)" + (others.count > 5 ? " and \(others.count - 5) more" : "")
        }
        return Diagnostic.error(first.message, at: SourceLocation(path: "static/\(first.file)"), hint: hint)
    }

    /// The folders `path` is in, innermost first (`a/b/c` → `a/b`, `a`).
    static func folders(of path: String) -> [Substring] {
        var result: [Substring] = []
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            result.append(path[..<slash])
            end = slash
        }
        return result
    }

    /// Adds the folders `path` is in to `folders`, innermost first, stopping at one already
    /// there (its own folders are then there too): most pages share all their folders.
    private static func insertFolders(of path: String, into folders: inout Set<Substring>) {
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            guard folders.insert(path[..<slash]).inserted else { return }
            end = slash
        }
    }
}
