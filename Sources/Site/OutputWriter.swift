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
///     let writer = OutputWriter(output: "/site/public")
///     try writer.begin()                       // an empty staging directory
///     try writer.stage(bytes, at: "index.html")  // as each page is rendered, from any thread
///     try writer.commit(copies: staticFiles)   // copy, then swap into place
struct OutputWriter {
    /// The output directory (absolute), or the folder it links to.
    let output: String
    private let files = FileManager.default

    /// A writer for the output at `output`. When that is a symbolic link (`public` linked to
    /// a web server's folder), the folder it points to is the one written and swapped: the
    /// swap replaced the link itself with a new folder, leaving the web server's empty.
    init(output: String) {
        var info = stat()
        let isLink = lstat(output, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
        self.output = isLink ? FileSystem.realPath(output) ?? output : output
    }

    var parent: String { SitePaths.parent(output) }
    var stagingPath: String { SitePaths.join(parent, ".\(SitePaths.name(output)).staging-\(getpid())") }
    var retiredPath: String { SitePaths.join(parent, ".\(SitePaths.name(output)).old-\(getpid())") }

    /// Checks that the output can be written before any work is done.
    func validate() throws(Diagnostic) {
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Diagnostic.error("the output path is a file, not a directory", at: SourceLocation(path: output),
                                   hint: "remove the file or choose another --output")
        }
    }

    /// Starts a build: an empty staging directory beside the output.
    func begin() throws(Diagnostic) {
        try validate()
        do {
            try FileSystem.removeTree(stagingPath)
            try FileSystem.createDirectories(stagingPath)
        } catch {
            throw failure(error)
        }
    }

    /// Writes one file into the staging directory. Safe to call from several threads at once
    /// for different paths.
    func stage(_ bytes: [UInt8], at relative: String) throws(Diagnostic) {
        let path = SitePaths.join(stagingPath, relative)
        do {
            try FileSystem.createDirectories(SitePaths.parent(path))
            try FileSystem.write(bytes, to: path)
        } catch {
            throw failure(error)
        }
    }

    /// Copies `copies` into the staging directory, carries over the old output's dot files,
    /// and swaps the staging directory into place.
    func commit(copies: [String: String]) throws(Diagnostic) {
        let staging = stagingPath
        do {
            for relative in copies.keys.sorted() {
                guard let source = copies[relative] else { continue }
                guard let data = files.contents(atPath: source) else {
                    throw Diagnostic.error("cannot read static file", at: SourceLocation(path: source))
                }
                try stage([UInt8](data), at: relative)
            }
            try carryOverDotFiles(into: staging)
            try swapIntoPlace(staging)
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
            try files.moveItem(atPath: staging, toPath: output)
            return
        }
        if marsgen_exchange_paths(staging, output) == 0 {
            // `staging` now holds the previous site.
            try FileSystem.removeTree(staging)
            return
        }
        // No atomic exchange here: two renames, the old site kept until the new one is in place.
        let retired = retiredPath
        try? FileSystem.removeTree(retired)
        try files.moveItem(atPath: output, toPath: retired)
        do {
            try files.moveItem(atPath: staging, toPath: output)
        } catch {
            try? files.moveItem(atPath: retired, toPath: output)
            throw error
        }
        try? FileSystem.removeTree(retired)
    }

    /// Removes staging directories left by builds that were killed (their process is gone).
    func removeAbandonedStaging() {
        let prefixes = [".\(SitePaths.name(output)).staging-", ".\(SitePaths.name(output)).old-"]
        guard let names = try? files.contentsOfDirectory(atPath: parent) else { return }
        for name in names {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }),
                  let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0
            else { continue }
            try? FileSystem.removeTree(SitePaths.join(parent, name))
        }
    }
}
