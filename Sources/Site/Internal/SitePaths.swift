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

    /// `path` with every symbolic link in it resolved, so that two paths to one folder
    /// compare equal: of a path that does not exist yet (an output folder a build will
    /// make), the deepest part that exists is resolved and the rest kept as it is, and a
    /// link to nothing yet stands for where its text leads.
    static func resolvingLinks(_ path: String) -> String {
        resolvingLinks(path, linksLeft: 40)
    }

    private static func resolvingLinks(_ path: String, linksLeft: Int) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let parent = parent(path)
        guard !parent.isEmpty, parent != path else { return path }
        let resolvedParent = resolvingLinks(parent, linksLeft: linksLeft)
        let candidate = join(resolvedParent, name(path))
        if linksLeft > 0, let text = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate) {
            return resolvingLinks(text.hasPrefix("/") ? text : join(resolvedParent, text), linksLeft: linksLeft - 1)
        }
        return candidate
    }

    /// The output folder `output` as the files in `.marsgen/` record it: relative to the site
    /// root `siteRoot` when inside it (`public`), so that a site folder moved or renamed with
    /// its output keeps its build state; otherwise absolute. The two never meet: an absolute
    /// path starts with `/`. Inside is judged with symbolic links resolved too, so that
    /// `--output` spelt through a link to the site (`/srv/site-link/public` for the site's
    /// `public`) names the same state as the default does.
    static func recorded(_ output: String, siteRoot: String) -> String {
        func relative(_ output: String, _ siteRoot: String) -> String? {
            guard output != siteRoot, isWithin(output, siteRoot) else { return nil }
            return String(output.dropFirst(siteRoot.hasSuffix("/") ? siteRoot.count : siteRoot.count + 1))
        }
        return relative(output, siteRoot) ?? relative(resolvingLinks(output), resolvingLinks(siteRoot)) ?? output
    }

    /// The absolute path of an output folder `recorded` (see ``recorded(_:siteRoot:)``).
    static func resolvingRecorded(_ recorded: String, siteRoot: String) -> String {
        recorded.hasPrefix("/") ? recorded : join(siteRoot, recorded)
    }

    /// Whether `path` is `ancestor` or inside it.
    static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        path == ancestor || path.hasPrefix(ancestor.hasSuffix("/") ? ancestor : ancestor + "/")
    }
}
