import Foundation

/// Path arithmetic on plain strings, so output paths stay byte-identical across platforms.
enum SitePaths {
    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let joined = expanded.hasPrefix("/") ? expanded : join(FileManager.default.currentDirectoryPath, expanded)
        return (joined as NSString).standardizingPath
    }

    static func join(_ base: String, _ relative: String) -> String {
        if relative.isEmpty { return base }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    static func parent(_ path: String) -> String { (path as NSString).deletingLastPathComponent }
    static func name(_ path: String) -> String { (path as NSString).lastPathComponent }

    /// Whether `path` is `ancestor` or inside it.
    static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        path == ancestor || path.hasPrefix(ancestor.hasSuffix("/") ? ancestor : ancestor + "/")
    }
}
