/// The theme built into marsgen: templates and assets compiled into the binary, so a site
/// with no `templates/` of its own still builds and looks right.
public enum DefaultTheme {
    /// Every default template's source, by name (`layout`, `cell-message`).
    public static var templates: [String: String] {
        var result: [String: String] = [:]
        for (name, bytes) in embeddedTemplates {
            result[name] = String(decoding: bytes, as: UTF8.self)
        }
        return result
    }

    /// Theme files written into every site, by output path. A site's `static/` file at the
    /// same path replaces one.
    public static var assets: [String: [UInt8]] {
        ["theme/marsgen.css": PackageResources.marsgen_css, "theme/favicon.svg": PackageResources.favicon_svg]
    }

    /// Where the search page's script is written, with `search: true` only.
    public static let searchScriptPath = "theme/search.js"

    /// Where the crawlers' file is written (see ``robots(sitemapURL:)``).
    public static let robotsPath = "robots.txt"

    /// The theme files a site gets: ``assets``, the search page's script when it has one,
    /// and `robots.txt` naming its sitemap at `sitemapURL` when given.
    public static func assets(search: Bool, sitemapURL: String? = nil) -> [String: [UInt8]] {
        var files = assets
        if search { files[searchScriptPath] = PackageResources.search_js }
        if let sitemapURL { files[robotsPath] = robots(sitemapURL: sitemapURL) }
        return files
    }

    /// `robots.txt`, as Zola writes one: every crawler may read every page, and the sitemap
    /// at `sitemapURL` (absolute, as the protocol asks) lists them.
    static func robots(sitemapURL: String) -> [UInt8] {
        Array("User-agent: *\nAllow: /\n\nSitemap: \(sitemapURL)\n".utf8)
    }

    static var embeddedTemplates: [(String, [UInt8])] {
        [
            ("layout", PackageResources.layout_mustache),
            ("header", PackageResources.header_mustache),
            ("footer", PackageResources.footer_mustache),
            ("pager", PackageResources.pager_mustache),
            ("section", PackageResources.section_mustache),
            ("page-feed", PackageResources.page_feed_mustache),
            ("page-entry", PackageResources.page_entry_mustache),
            ("page-sol", PackageResources.page_sol_mustache),
            ("page-sols", PackageResources.page_sols_mustache),
            ("sol-row", PackageResources.sol_row_mustache),
            ("page-journal", PackageResources.page_journal_mustache),
            ("journal-list", PackageResources.journal_list_mustache),
            ("page-tag", PackageResources.page_tag_mustache),
            ("page-tags", PackageResources.page_tags_mustache),
            ("page-crew", PackageResources.page_crew_mustache),
            ("page-crew-index", PackageResources.page_crew_index_mustache),
            ("page-404", PackageResources.page_404_mustache),
            ("page-search", PackageResources.page_search_mustache),
            ("page-standalone", PackageResources.page_standalone_mustache),
            ("alias", PackageResources.alias_mustache),
            ("cell-journal-date", PackageResources.cell_journal_date_mustache),
            ("cell-journal-text", PackageResources.cell_journal_text_mustache),
            ("cell-message", PackageResources.cell_message_mustache),
            ("cell-weather-summary", PackageResources.cell_weather_summary_mustache),
            ("cell-weather-detail", PackageResources.cell_weather_detail_mustache),
            ("cell-weather-notes", PackageResources.cell_weather_notes_mustache),
            ("atom", PackageResources.atom_mustache),
            ("sitemap", PackageResources.sitemap_mustache),
            ("sitemap-index", PackageResources.sitemap_index_mustache),
        ]
    }
}
