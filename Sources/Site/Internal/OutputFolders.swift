#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output folder and the folders directly in it, as their stat shows them: what a build
/// compares with the index to know whether someone else added or removed what it holds.
///
/// A build writes only the pages whose bytes change, trusting its records for the others;
/// pages deleted or moved out by hand (a deploy that runs `mv public/* /srv/www/`, an
/// `rm -r public/journal`) would stay missing. Adding, removing or renaming an entry changes
/// its folder's status-change time, so such a change to the output folder or to one of its
/// sections (`journal/`, `sol/`, `crew/`…) shows here; a single page removed deeper down does
/// not. Hidden folders are left out: a deploy repository kept in `public/.git` changes with
/// every commit.
enum OutputFolders {
    /// The folders of the output at `path`, the output itself as `.` first, then the others
    /// by name; empty when the output cannot be opened.
    static func stamp(of path: String) -> [InputFolder] {
        guard let output = FileSystem.OpenFolder(path: path), let info = output.info else { return [] }
        var folders = [InputFolder(path: ".", info)]
        for (name, type) in output.entries where !name.hasPrefix(".") && (type == Int32(DT_DIR) || type == Int32(DT_UNKNOWN)) {
            guard let info = name.withCString({ output.info(of: $0) }), (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            folders.append(InputFolder(path: name, info))
        }
        folders[1...].sort { $0.path < $1.path }
        return folders
    }
}
