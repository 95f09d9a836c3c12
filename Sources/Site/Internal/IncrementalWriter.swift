import Diagnostics
import Foundation

/// Applies an incremental build to an existing output directory: deletes files no longer
/// produced and removes the directories they leave empty, then writes each changed file
/// atomically (temporary file beside it, then rename). Unchanged files are never touched, so their
/// modification times stay as they were.
struct IncrementalWriter {
    let output: String
    private let files = FileManager.default

    init(output: String) { self.output = output }

    /// - Parameter moves: Files already written under a staging folder (`from`), each moved
    ///   to the same relative path in the output (a rename: the page appears whole).
    func apply(writes: [String: [UInt8]], copies: [String: String], deletes: [String],
               moves: (from: String, paths: [String])? = nil) throws(Diagnostic) {
        do {
            // What is no longer produced goes first: a file and a folder may trade a name
            // (a static file `journal` where the removed entries' folder was, or a page's
            // folder where a removed static file was).
            for relative in deletes.sorted() {
                let path = SitePaths.join(output, relative)
                if files.fileExists(atPath: path) { try files.removeItem(atPath: path) }
                removeEmptyDirectories(above: relative)
            }
            if let moves {
                for relative in moves.paths.sorted() {
                    let path = SitePaths.join(output, relative)
                    try FileSystem.createDirectories(SitePaths.parent(path))
                    try FileSystem.move(SitePaths.join(moves.from, relative), to: path)
                }
            }
            for relative in writes.keys.sorted() {
                guard let bytes = writes[relative] else { continue }
                try write(bytes, to: relative)
            }
            for relative in copies.keys.sorted() {
                guard let source = copies[relative], let data = files.contents(atPath: source) else {
                    throw Diagnostic.error("cannot read static file", at: SourceLocation(path: copies[relative] ?? relative),
                                           hint: "check that it still exists and your user may read it")
                }
                do {
                    try write([UInt8](data), to: relative)
                } catch let failure as FileSystem.Failure {
                    throw OutputWriter.staticFileFailure(relative, failure) ?? failure
                }
            }
        } catch let diagnostic as Diagnostic {
            throw diagnostic
        } catch {
            throw Diagnostic.error("cannot update the site: \(error.localizedDescription)", at: SourceLocation(path: output),
                                   hint: "check that the output directory is writable and the disk is not full")
        }
    }

    private static let temporaryMarker = ".marsgen-"

    /// Whether `name` is one of this writer's temporary files (`.index.html.marsgen-1234`).
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let range = name.range(of: temporaryMarker, options: .backwards) else { return false }
        let pid = name[range.upperBound...]
        return !pid.isEmpty && pid.allSatisfy(\.isASCII) && pid.allSatisfy(\.isNumber)
    }

    /// The temporary file a file named `name` is written to before it is renamed into
    /// place: `.<name>.marsgen-<pid>`, with the name cut short to keep within the 255 bytes a
    /// file name may have (a static file's name can be long). Files are written one at a
    /// time, so two names cut to the same do not meet.
    static func temporaryName(for name: String) -> String {
        let suffix = "\(temporaryMarker)\(getpid())"
        var kept = Substring(name)
        while kept.utf8.count + suffix.utf8.count + 1 > 255 { kept = kept.dropLast() }
        return ".\(kept)\(suffix)"
    }

    private func write(_ bytes: [UInt8], to relative: String) throws {
        let path = SitePaths.join(output, relative)
        let directory = SitePaths.parent(path)
        try FileSystem.createDirectories(directory)
        let temporary = SitePaths.join(directory, Self.temporaryName(for: SitePaths.name(path)))
        try FileSystem.write(bytes, to: temporary)
        do {
            try FileSystem.move(temporary, to: path)
        } catch {
            try? files.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Removes `relative`'s parent directories while they are empty, up to the output root.
    private func removeEmptyDirectories(above relative: String) {
        var directory = SitePaths.parent(relative)
        while !directory.isEmpty, directory != "/", directory != "." {
            let path = SitePaths.join(output, directory)
            guard let contents = try? files.contentsOfDirectory(atPath: path), contents.isEmpty else { return }
            try? files.removeItem(atPath: path)
            directory = SitePaths.parent(directory)
        }
    }
}
