import Foundation

/// A folder of the inputs as a listing found it, so that a later build can tell, from the
/// folder's stat alone, that its entries are still the ones listed then.
///
/// Adding, removing or renaming an entry changes a folder's status-change time (`ctime`).
/// Unlike the modification time, it cannot be set back by hand (`touch`, `rsync -a`): setting
/// the modification time changes it too. The inode number tells a folder from another moved
/// into its place.
struct InputFolder: Equatable {
    /// Site-relative path.
    var path: String
    /// Status-change time, in ns since the epoch (like ``FileStat/modified``).
    var changed: Int64
    var inode: UInt64

    init(path: String, changed: Int64, inode: UInt64) {
        self.path = path
        self.changed = changed
        self.inode = inode
    }

    init(path: String, _ info: stat) {
        self.path = path
        #if canImport(Darwin)
        changed = info.st_ctimespec.nanoseconds
        #else
        changed = info.st_ctim.nanoseconds
        #endif
        inode = UInt64(info.st_ino)
    }

    /// Whether `now`, this folder's stat taken now, shows it with the entries it had when
    /// a build that started reading at `scanStartedAt` recorded it: the same folder, not
    /// changed since, and that change clearly older than that build (a coarse clock could
    /// give a later change the same time; see ``FileStat/racyWindow``).
    func isUnchanged(_ now: InputFolder, recordedBy scanStartedAt: Int64) -> Bool {
        now == self && changed < scanStartedAt - FileStat.racyWindow
    }
}
