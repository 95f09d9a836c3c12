/// What a ``SiteWatcher`` watches: folders under a root, recursively, and single files in it.
///
///     let target = WatchTarget(root: "/site", directories: ["content", "templates", "static"],
///                              files: ["marsgen.yml"], ignores: { $0.hasPrefix(".") })
public struct WatchTarget: Sendable {
    /// The absolute folder every reported path is relative to.
    public var root: String
    /// Root-relative folders watched with everything under them. They need not exist yet:
    /// one created later is picked up.
    public var directories: [String]
    /// Root-relative files watched one by one (`marsgen.yml`).
    public var files: [String]
    /// Whether a file or folder of this name is never a reason to rebuild (hidden files,
    /// editors' swap files). An ignored folder is not watched at all.
    public var ignores: @Sendable (_ name: String) -> Bool

    /// Creates a target.
    public init(root: String, directories: [String], files: [String] = [],
                ignores: @escaping @Sendable (_ name: String) -> Bool = { _ in false }) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.directories = directories
        self.files = files
        self.ignores = ignores
    }

    /// Whether a root-relative path is one this target reports: a watched file, or a path
    /// under a watched folder none of whose parts is ignored.
    func reports(_ relative: String) -> Bool {
        if files.contains(relative) { return true }
        guard directories.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) else { return false }
        return !relative.split(separator: "/").contains { ignores(String($0)) }
    }
}

/// How a ``SiteWatcher`` learns of changes.
public enum WatchMode: Sendable, Equatable {
    /// The kernel's notifications (inotify on Linux), or polling where there are none or the
    /// kernel's watch limit is reached.
    case automatic
    /// Scanning the folders every `interval`: slower to notice, but works on every file
    /// system (network shares, some containers) and needs no kernel watches.
    case polling(interval: Duration)
}

/// The files that changed during one burst of activity, reported once the burst is over.
public struct ChangeSet: Sendable, Equatable {
    /// Root-relative paths created, changed, renamed or deleted, sorted, each once.
    public var paths: [String]
    /// Whether the kernel dropped events (its queue overflowed): anything may have changed.
    public var isOverflow: Bool

    /// Creates a change set.
    public init(paths: [String], isOverflow: Bool = false) {
        self.paths = paths
        self.isOverflow = isOverflow
    }

    /// `content/journal/sol-12.md`, `3 files` or `files (events were dropped)`, for a log line.
    public var summary: String {
        if isOverflow { return "files (events were dropped)" }
        if paths.count == 1, let only = paths.first { return only }
        return "\(paths.count) files"
    }
}
