#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Size, modification time and status-change time of a file, to the nanosecond, from
/// `stat(2)`.
///
/// The status-change time (ctime) is what tells an edit that kept the file's size and
/// modification time (`touch -r`, `cp -p`, a file renamed over another of the same size and
/// time): no program can set it back, and the kernel moves it on every write, rename and
/// `utimensat`. Git compares it too.
struct FileStat: Equatable, RecordedStat {
    var size: Int64
    var modified: Int64
    var changed: Int64

    /// The stat of `path` (following symbolic links), or `nil` when it cannot be read.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(size: Int64, modified: Int64, changed: Int64) {
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modified = info.st_mtimespec.nanoseconds
        changed = info.st_ctimespec.nanoseconds
        #else
        modified = info.st_mtim.nanoseconds
        changed = info.st_ctim.nanoseconds
        #endif
    }

    /// Files modified less than this long (ns) before a build started reading are hashed
    /// again even when their stat matches: a coarse clock can give an edit the same mtime.
    static let racyWindow: Int64 = 2_000_000_000

    /// Whether this stat shows, with no need to read the file, the one a build that started
    /// reading at `scanStartedAt` recorded as `recorded`: the same size, modification time and
    /// status-change time, the modification time clearly older than that build (see
    /// ``racyWindow``).
    ///
    /// The window is kept on the modification time alone: a file's status-change time is
    /// the time it was last written, renamed or had its times set, so a build right after
    /// files were dated back (a restore, `touch -d`) would otherwise read them all again.
    /// An edit that keeps the size and both times needs two changes in one tick of the
    /// clock around the moment the previous build looked at the file, the second of them
    /// setting the modification time back.
    func isUnchanged(from recorded: some RecordedStat, recordedBy scanStartedAt: Int64) -> Bool {
        isRecorded(in: recorded) && modified < scanStartedAt - Self.racyWindow
    }

    /// Whether `recorded` holds this stat.
    func isRecorded(in recorded: some RecordedStat) -> Bool {
        size == recorded.size && modified == recorded.modified && changed == recorded.changed
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
    ///
    /// Wrapping: a file can be dated past 2262 (`touch -d 2400-01-01`), beyond what 64 bits of
    /// nanoseconds hold. Such a time wraps to another number, still one of its own, which is
    /// all a build asks of it (is it the time recorded?).
    var nanoseconds: Int64 { Int64(tv_sec) &* 1_000_000_000 &+ Int64(tv_nsec) }
}

/// A file's stat as a build recorded it (in its index or its state), to compare with the
/// file's stat now (see ``FileStat/isUnchanged(from:recordedBy:)``).
protocol RecordedStat {
    var size: Int64 { get }
    var modified: Int64 { get }
    var changed: Int64 { get }
}
