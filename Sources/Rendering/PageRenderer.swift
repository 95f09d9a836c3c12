import Diagnostics
import Feed
import Search

/// Renders pages: each section once (cached by object), then the page body, then the layout.
public struct PageRenderer {
    /// The templates.
    public let templates: TemplateLibrary
    private let section: (Page.SectionKey) throws(Diagnostic) -> FeedSection?
    private var sectionHTML: [Page.SectionKey: String] = [:]
    /// Rows rendered by earlier builds, when the caller keeps them (see ``RowCache``).
    public var rowCache: RowCache?
    /// Whatever else rows kept in ``rowCache`` depend on (a hash of the configuration): rows
    /// are kept by a hash of their inputs, which leaves it out.
    public var cacheSalt = ""

    /// Creates a renderer over the sections of every object in the site, as the feed shows
    /// them: an object's own page (an entry's) gets the same section here.
    public init(templates: TemplateLibrary, sections: [FeedSection]) {
        let byID = Dictionary(sections.map { ($0.diffIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(templates: templates, section: { byID[$0.objectID] })
    }

    /// Creates a renderer that asks for an object's section only when a page shows it, so an
    /// incremental build that renders three pages builds only their sections.
    public init(templates: TemplateLibrary, section: @escaping (Page.SectionKey) throws(Diagnostic) -> FeedSection?) {
        self.templates = templates
        self.section = section
    }

    /// Renders a section to HTML (once per object and rendering per build).
    public mutating func html(forSection key: Page.SectionKey) throws(Diagnostic) -> String {
        if let cached = sectionHTML[key] { return cached }
        guard let section = try section(key) else {
            throw Diagnostic.error("internal: page refers to an unknown object '\(key.objectID)'")
        }
        let html = try html(for: section)
        sectionHTML[key] = html
        return html
    }

    /// Renders the section of the object `id` as the feed shows it.
    public mutating func html(forSection id: String) throws(Diagnostic) -> String {
        try html(forSection: Page.SectionKey(objectID: id))
    }

    /// Renders `section` to HTML: its cells, then the section wrapper with its diff id and hash.
    public func html(for section: FeedSection) throws(Diagnostic) -> String {
        var cells: [String] = []
        for cell in section.cells { cells.append(try templates.render(cell)) }
        var context: TemplateContext = [
            "kind": section.kind.rawValue,
            "id": section.diffIdentifier,
            "hash": section.contentHash.description,
            "anchor": section.anchor,
            "isExpandable": section.layout == .expandable,
            "cells": cells.map { ["html": $0] },
        ]
        if section.layout == .expandable {
            context["summary"] = cells.first ?? ""
            context["details"] = cells.dropFirst().map { ["html": $0] }
        }
        return try templates.render("section", context: context)
    }

    /// Renders a whole page to bytes, caching each section's HTML for the next page.
    public mutating func render(_ page: Page) throws(Diagnostic) -> [UInt8] {
        for key in page.slots.values.joined().map(\.section) where sectionHTML[key] == nil {
            _ = try html(forSection: key)
        }
        return try render(page, sections: sectionHTML)
    }

    /// Renders a whole page to bytes from sections already rendered.
    /// It does not mutate anything, so pages can be rendered on several threads at once.
    public func render(_ page: Page, sections: [Page.SectionKey: String]) throws(Diagnostic) -> [UInt8] {
        try render(page, sections: sections, splicingRows: true)
    }

    private func render(_ page: Page, sections: [Page.SectionKey: String], splicingRows: Bool) throws(Diagnostic) -> [UInt8] {
        // JSON, which no template engine escapes: written by marsgen, whatever the templates.
        if let file = page.searchFile { return file.json }
        if page.kind == .sitemap, page.layout == nil, templates.isBuiltIn(page.template) {
            return Self.builtInSitemap(page.sitemapLocations)
        }
        var context = Self.withShared(page.context, of: page)
        if page.kind == .sitemap { context["urls"] = Self.sitemapContext(page.sitemapLocations) }
        for (slot, items) in page.slots {
            var rendered: [TemplateContext] = []
            rendered.reserveCapacity(items.count)
            for item in items {
                guard let html = sections[item.section] else {
                    throw Diagnostic.error("internal: page \(page.outputPath) refers to an unrendered object '\(item.objectID)'")
                }
                var value = item.extra
                value["html"] = html
                rendered.append(value)
            }
            context[slot] = rendered
        }
        // The sol index's thousands of rows, hundreds of kB, went through the page template
        // and the layout as one string, each copying it, and then into bytes: with the
        // built-in templates, which insert the rows' HTML once and as it is, the page is
        // rendered around a marker and the rows are put in its place as bytes.
        let splicesRows = splicingRows && page.rows.count == 1 && insertsRowsAsIs(page)
        var splicedRows: [UInt8] = []
        for (name, rows) in page.rows {
            let (list, html) = try render(rows, named: name, of: page)
            context[name] = list
            if splicesRows {
                context[name + "HTML"] = Self.rowsMarker
                splicedRows = html.html
            } else {
                context[name + "HTML"] = String(decoding: html.html, as: UTF8.self)
            }
        }
        var output = try templates.render(page.template, context: context)
        if let layout = page.layout {
            context["content"] = output
            output = try templates.render(layout, context: context)
        }
        guard splicesRows else { return Array(output.utf8) }
        // Not the one marker the built-in templates give: rendered as any other page.
        if let bytes = Self.bytes(of: output, withRows: splicedRows) { return bytes }
        return try render(page, sections: sections, splicingRows: false)
    }

    /// What a page's rows' HTML is rendered as when their bytes are put in after (see
    /// ``render(_:sections:)``): NUL characters, which no built-in template holds. A page
    /// whose text holds the marker too is not spliced (see ``bytes(of:withRows:)``).
    static let rowsMarker = "\u{0}rows\u{0}"

    /// Whether the page's template, layout and their partials are the built-in ones, which
    /// insert a list's `…HTML` once, unescaped, and the layout its `content` likewise.
    private func insertsRowsAsIs(_ page: Page) -> Bool {
        var used = templates.templatesUsed(by: page.template)
        if let layout = page.layout { used.formUnion(templates.templatesUsed(by: layout)) }
        return used.allSatisfy(templates.isBuiltIn)
    }

    /// `output`'s bytes with `rows` (the rows' HTML, a newline between each two) in place of
    /// its ``rowsMarker``; nil unless it holds the marker once.
    static func bytes(of output: String, withRows rows: [UInt8]) -> [UInt8]? {
        var output = output
        return output.withUTF8 { text -> [UInt8]? in
            let marker = rowsMarker.utf8
            guard let found = text.firstRange(of: marker), text[found.upperBound...].firstRange(of: marker) == nil else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count - marker.count + rows.count)
            bytes.append(contentsOf: text[..<found.lowerBound])
            bytes.append(contentsOf: rows)
            bytes.append(contentsOf: text[found.upperBound...])
            return bytes
        }
    }

    /// The sitemap as the built-in `sitemap.mustache` renders it, byte for byte, without
    /// the template: it loops over every page of the site, and swift-mustache took 60 ms
    /// for 19,500 URLs, paid by every rebuild that adds or removes a page. A site's own
    /// `sitemap.mustache` is rendered as usual.
    static func builtInSitemap(_ locations: [String]) -> [UInt8] {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        bytes.reserveCapacity(bytes.count + locations.count * 80)
        for var location in locations {
            bytes.append(contentsOf: "  <url><loc>".utf8)
            // Escaped as the template's {{loc}} escapes it.
            location.withUTF8 { MarkupEscaping.append(UnsafeRawBufferPointer($0), escapedTo: &bytes) }
            bytes.append(contentsOf: "</loc></url>\n".utf8)
        }
        bytes.append(contentsOf: "</urlset>\n".utf8)
        return bytes
    }

    /// The sitemap's URLs as its template sees them: `urls`, each URL as `loc`.
    public static func sitemapContext(_ locations: [String]) -> [TemplateContext] {
        locations.map { ["loc": $0] }
    }

    /// Each row's values plus `html`, the row rendered with the list's template (and the
    /// values every page shares), and the rows' HTML; no values when no template of the page
    /// names the list. A row is taken from ``rowCache`` when the same row was rendered from
    /// the same inputs, templates and configuration (``cacheSalt``) before; only the other
    /// rows are rendered.
    func render(_ rows: Page.Rows, named name: String, of page: Page) throws(Diagnostic)
        -> (rows: [TemplateContext], html: RowCache.RenderedList) {
        // What every row of the list depends on besides its own inputs.
        var salt = PageFingerprint.of(page.shared)
        salt.combine(cacheSalt)
        for template in templates.templatesUsed(by: rows.template).sorted() {
            salt.combine(template)
            salt.combine(templates.sourceHashes[template] ?? "")
        }
        let keys = rows.hashes.map { hash in
            var key = salt
            key.combine(Int64(bitPattern: hash))
            return key.value
        }
        let list = "\(page.outputPath)#\(name)"
        // Taken out of the cache, so that its rows are this rendering's alone to change in place.
        var kept = rowCache?.take(list) ?? RowCache.Kept(rows: RowCache.RenderedList())
        var html = kept.rows
        kept.rows = RowCache.RenderedList()
        // The built-in sol index inserts only `solsHTML`: then the rows kept as HTML alone
        // need no values made again (a date and a dictionary for each of thousands of rows).
        var pageTemplates = templates.templatesUsed(by: page.template)
        if let layout = page.layout { pageTemplates.formUnion(templates.templatesUsed(by: layout)) }
        let showsValues = templates.mayLookUp(name, in: pageTemplates)
        var values: [UInt64: TemplateContext] = [:]
        /// Row `index` rendered, its values kept.
        func rendered(_ index: Int) throws(Diagnostic) -> String {
            var rowValues = rows.values(index)
            let rowHTML = try templates.render(rows.template, context: Self.withShared(rowValues, of: page))
            rowValues["html"] = rowHTML
            values[keys[index]] = rowValues
            return rowHTML
        }
        var changed = false
        // An append changes one row of the sol index's thousands: the list kept is changed in
        // place, the others' bytes neither copied nor faulted into fresh memory.
        let differing = keys.count == html.count ? keys.indices.filter { keys[$0] != html.keys[$0] } : nil
        if let differing, differing.count <= Self.mostReplacedInPlace {
            for index in differing {
                let key = keys[index]
                // A row of the same inputs elsewhere in the list (each row's HTML is its key's).
                if let source = html.keys.firstIndex(of: key) {
                    html.replace(row: index, key: key, html: Array(html.html[html.range(of: source)]))
                } else {
                    html.replace(row: index, key: key, html: try rendered(index).utf8)
                }
                changed = true
            }
        } else {
            let old = html
            html = RowCache.RenderedList()
            html.reserveCapacity(rows: keys.count, bytes: old.html.count + 256)
            /// Where each key is in the old list, and in this one for a row rendered here.
            let oldPositions = Self.positions(of: old.keys)
            var renderedHere: [UInt64: Int] = [:]
            for (index, key) in keys.enumerated() {
                if index < old.count, old.keys[index] == key {
                    html.append(row: index, of: old)
                } else if let position = renderedHere[key] {
                    html.append(key: key, html: Array(html.html[html.range(of: position)]))
                } else if let position = oldPositions[key] {
                    html.append(row: position, of: old)
                } else {
                    renderedHere[key] = html.count
                    html.append(key: key, html: try rendered(index).utf8)
                }
            }
            changed = html.keys != old.keys
        }
        var result: [TemplateContext] = []
        if showsValues {
            result.reserveCapacity(keys.count)
            for (index, key) in keys.enumerated() {
                // A row kept as HTML only (read from a file) has its values made again.
                var rowValues = values[key] ?? kept.values[key] ?? rows.values(index)
                if rowValues["html"] == nil { rowValues["html"] = html.text(of: index) }
                values[key] = rowValues
                result.append(rowValues)
            }
        }
        rowCache?.keep(RowCache.Kept(rows: html, values: values), of: list, changed: changed)
        return (result, html)
    }

    /// The most rows of a list changed in place (see ``render(_:named:of:)``); past it, the
    /// list is made anew.
    static let mostReplacedInPlace = 64

    /// Each key's position in `keys` (the first, for a key there twice).
    private static func positions(of keys: [UInt64]) -> [UInt64: Int] {
        var positions: [UInt64: Int] = [:]
        positions.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() where positions[key] == nil { positions[key] = position }
        return positions
    }

    /// `values` plus the values every page shares (``Page/shared``), where they do not clash.
    static func withShared(_ values: TemplateContext, of page: Page) -> TemplateContext {
        var context = values
        for (name, value) in page.shared where context[name] == nil { context[name] = value }
        return context
    }

    /// The templates a page is made from: its own, its layout's, its rows', its sections'
    /// cells', and every partial they use.
    public func templatesUsed(by page: Page, adapter: FeedAdapter) -> Set<String> {
        var names = templates.templatesUsed(by: page.template)
        for rows in page.rows.values { names.formUnion(templates.templatesUsed(by: rows.template)) }
        if let layout = page.layout { names.formUnion(templates.templatesUsed(by: layout)) }
        if !page.slots.isEmpty {
            names.formUnion(templates.templatesUsed(by: "section"))
            for cell in adapter.cellTemplates { names.formUnion(templates.templatesUsed(by: cell)) }
        }
        return names
    }
}
