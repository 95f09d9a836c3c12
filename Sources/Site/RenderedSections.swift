import Rendering

/// The sections (see ``Rendering/SectionCache``) of the pages the last `marsgen build`
/// rendered, in `.marsgen/` beside the build state, so the next build renders only the
/// sections of objects that changed: an append to a log of a hundred messages rendered all
/// of them again for the sol's page.
///
/// Laid out as ``RenderedRows``, with one list, named by what the sections depend on
/// besides their objects (see `SiteBuilder.sectionCacheKey(_:)`), holding each section's
/// HTML by its object's stamp: a file of another configuration, templates or crew, of
/// another marsgen version, missing or damaged, is only a miss.
enum RenderedSections {
    /// The most sections a build saves (a few MB): an edit's pages show a few hundred.
    static let mostKept = 4_096

    /// The file for `output` under the site root.
    static func path(siteRoot: String, output: String) -> String {
        SitePaths.join(siteRoot, ".marsgen/build-\(BuildState.outputKey(output, siteRoot: siteRoot)).sections")
    }

    /// The sections kept under `key`, by object stamp; none when the file holds another key.
    static func load(from path: String, key: String) -> [UInt64: String] {
        RenderedRows.load(from: path)[key]?.byKey ?? [:]
    }

    /// Writes `sections` under `key` atomically, replacing what the file held.
    static func save(_ sections: [UInt64: String], key: String, to path: String) throws {
        let list = RowCache.RenderedList(sections.sorted { $0.key < $1.key }.lazy.map { (key: $0.key, html: $0.value) })
        try RenderedRows.save([key: list], to: path)
    }
}
