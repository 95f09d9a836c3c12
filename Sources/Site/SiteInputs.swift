import SiteConfig

/// What a build reads, for tools that watch a site: the folders and files whose changes
/// can change the output, and the names a build never reads.
public enum SiteInputs {
    /// Site-relative folders read with everything under them.
    public static let directories = ["content", "templates", "static"]
    /// Site-relative files read on their own.
    public static let files = [SiteConfiguration.fileName]

    /// Whether a file or folder of this name is skipped by every build: hidden files and
    /// folders (`.git`, `.DS_Store`) and the swap files, backups and lock files editors leave
    /// beside the files being edited (vim, emacs, JetBrains, gedit).
    public static func ignores(name: String) -> Bool {
        name.hasPrefix(".") || name.hasPrefix("#") || name.hasSuffix("~") || name == "4913"
            || [".swp", ".swx", ".swo", ".tmp", "___jb_tmp___", "___jb_old___"].contains(where: name.hasSuffix)
    }
}
