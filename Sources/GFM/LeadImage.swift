/// The image a link preview shows for a page (Open Graph's `og:image`): what URLs can be
/// one (``LinkEscaping`` writes them so that any client reads them).
public enum LeadImage {
    /// Whether `url` is one a link preview can fetch: a path from the host's root
    /// (`/img/landing.jpg`, not `//host/…`), or an `http:` or `https:` URL. Not `data:`,
    /// not a path relative to a page (a preview has no page to resolve it against).
    public static func isFetchable(_ url: String) -> Bool {
        if url.utf8.first == UInt8(ascii: "/") { return url.utf8.dropFirst().first != UInt8(ascii: "/") }
        let lowered = url.prefix(8).lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// `written`, an image's URL as marsgen's content and settings give it, from the host's
    /// root: a path relative to the site's root (`img/landing.jpg`) after `basePath`, as the
    /// text's links are written; any other URL as it is.
    public static func url(written: String, basePath: String) -> String {
        MarkdownDocument.isRelativeReference(written) ? basePath + written : written
    }

    /// Whether `url` names an SVG image (its path ends in `.svg`), which link previews
    /// (Facebook's, X's, Mastodon's, chat apps') do not show.
    public static func isSVG(_ url: String) -> Bool {
        let path = url.prefix { $0 != "?" && $0 != "#" }
        return path.lowercased().hasSuffix(".svg")
    }
}
