import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices changes by scanning the watched files every interval and comparing each file's
/// size, modification time, status-change time and inode with the last scan.
struct PollingScan: ChangeSource {
    /// A file's stat as a scan compares it. The status-change time moves with every write,
    /// rename and change of times: an edit that keeps the size and sets the modification
    /// time back (`touch -r`, `cp -p`) still shows.
    struct Stamp: Equatable {
        var size: Int64
        var modified: Time
        var changed: Time
        var inode: UInt64
    }

    /// A time from `stat`, to the nanosecond.
    struct Time: Equatable {
        var seconds: Int
        var nanoseconds: Int

        init(_ time: timespec) {
            (seconds, nanoseconds) = (Int(time.tv_sec), Int(time.tv_nsec))
        }
    }

    /// What one scan found: every reported file with its stamp, and how many names that are
    /// not valid UTF-8 each folder holds.
    struct Scan {
        var files: [String: Stamp] = [:]
        var undecodableNames: [String: Int] = [:]
    }

    let target: WatchTarget
    let interval: Duration
    private var snapshot: Scan
    private var lastScan: ContinuousClock.Instant

    init(target: WatchTarget, interval: Duration) {
        self.target = target
        self.interval = max(interval, .milliseconds(10))
        self.snapshot = Self.scan(target)
        self.lastScan = ContinuousClock.now
    }

    var method: SiteWatcher.Method { .polling(interval: interval) }
    var descriptor: Int32? { nil }

    func timeUntilNextScan(at now: ContinuousClock.Instant) -> Duration? {
        max(.zero, lastScan + interval - now)
    }

    mutating func collect(into coalescer: inout ChangeCoalescer, readable: Bool, at now: ContinuousClock.Instant) -> FallbackReason? {
        guard now >= lastScan + interval else { return nil }
        let fresh = Self.scan(target)
        for (path, stamp) in fresh.files where snapshot.files[path] != stamp { coalescer.add(path, at: now) }
        for path in snapshot.files.keys where fresh.files[path] == nil { coalescer.add(path, at: now) }
        // A name that is not valid UTF-8 came or went: no path stands for it, and only a build
        // that lists every input reports it (as inotify's watcher does).
        if fresh.undecodableNames != snapshot.undecodableNames { coalescer.addOverflow(at: now) }
        snapshot = fresh
        lastScan = now
        return nil
    }

    /// Every reported file under the target with its stamp, and the names no path stands for.
    static func scan(_ target: WatchTarget) -> Scan {
        var result = Scan()
        for file in target.files {
            if let stamp = stamp(SitePath.join(target.root, file)) { result.files[file] = stamp }
        }
        for directory in target.directories {
            var visited: Set<DirectoryIdentity> = []
            walk(root: target.root, relative: directory, target: target, visited: &visited, into: &result)
        }
        return result
    }

    private static func walk(root: String, relative: String, target: WatchTarget, visited: inout Set<DirectoryIdentity>,
                             into result: inout Scan) {
        let path = SitePath.join(root, relative)
        guard let identity = DirectoryIdentity(path: path), visited.insert(identity).inserted else { return }
        for entry in DirectoryListing.entries(of: path) {
            // A name that is not valid UTF-8 cannot be stat'ed by path: counted instead.
            guard !entry.isUndecodable else {
                result.undecodableNames[relative, default: 0] += 1
                continue
            }
            guard !target.ignores(entry.name) else { continue }
            let child = SitePath.join(relative, entry.name)
            if entry.isDirectory {
                walk(root: root, relative: child, target: target, visited: &visited, into: &result)
            } else if let stamp = stamp(SitePath.join(root, child)) {
                result.files[child] = stamp
            }
        }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        return Stamp(size: Int64(info.st_size), modified: Time(modified), changed: Time(changed), inode: UInt64(info.st_ino))
    }
}
