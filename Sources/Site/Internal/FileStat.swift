#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Size and modification time of a file, to the nanosecond, from `stat(2)`.
struct FileStat: Equatable {
    var size: Int64
    var modified: Int64

    /// The stat of `path` (following symbolic links), or `nil` when it cannot be read.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modified = info.st_mtimespec.nanoseconds
        #else
        modified = info.st_mtim.nanoseconds
        #endif
    }

    /// Files modified less than this long (ns) before a build started reading are hashed
    /// again even when their stat matches: a coarse clock can give an edit the same mtime.
    static let racyWindow: Int64 = 2_000_000_000

    /// Whether this stat shows, with no need to read the file, the one a build that started
    /// reading at `scanStartedAt` recorded with `size` and `modified`: the same size and
    /// modification time, clearly older than that build (see ``racyWindow``).
    func isUnchanged(size: Int64, modified: Int64, recordedBy scanStartedAt: Int64) -> Bool {
        self.size == size && self.modified == modified && modified < scanStartedAt - Self.racyWindow
    }

    /// Now, in the same units as ``modified``.
    static var now: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time.nanoseconds
    }
}

extension timespec {
    /// The time in nanoseconds since the epoch, as a build records times.
    var nanoseconds: Int64 { Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec) }
}
