import Content
import Diagnostics
import Feed
import Foundation
import ListDiff
import Rendering
import SiteConfig

// The page steps: templates, the plan of every page, the object list's diff, and rendering
// the pages whose inputs changed, each with its reason for --explain.

extension SiteBuilder {
    /// The site's templates as read from `templates/` and compiled with the built-in ones.
    struct ReadTemplates: Sendable {
        /// Each template file's record, for the state.
        var records: [(path: String, record: BuildState.SourceRecord)] = []
        /// The names the files give (`cell-message` for `templates/cell-message.mustache`).
        var names: [String] = []
        /// Names the files by path and hash: under watch, the same ones as last time are not
        /// compiled again.
        var key = ""
        var library: TemplateLibrary
        /// The files in `templates/` not named `….mustache` (a Zola or Hugo template,
        /// `page.html`), which no page is made with: each a warning.
        var unread: [String] = []
    }

    /// Starts reading and compiling the templates on another core: they depend on nothing
    /// the content steps do, and those leave a core idle for most of an incremental build
    /// (1.5-2 ms of compiling at 10,000 entries). "Load templates" takes the result.
    func startReadingTemplates(_ context: inout BuildContext) {
        let listed = context.inputListing["templates"]
        let words = (context.config?.words ?? ThemeWords()).templateValues
        context.pendingTemplates = BackgroundWork { [self] in
            do throws(Diagnostic) {
                defer { TemplateLibrary.warmUpValueLookups() }
                return .success(try readTemplates(listed: listed, words: words))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Reads every template file (those `listed`, or those found under `templates/`) and
    /// compiles the library they override, with the site's `words`.
    func readTemplates(listed: [String]?, words: [String: String]) throws(Diagnostic) -> ReadTemplates {
        var overrides: [String: TemplateLibrary.Source] = [:]
        var records: [(path: String, record: BuildState.SourceRecord)] = []
        var names: [String] = []
        var key = ""
        var unread: [String] = []
        for path in try files(under: "templates", listed: listed) {
            let bytes = try reader.bytes(path)
            let record = try sourceRecord(path, bytes: bytes)
            records.append((path, record))
            key += "\(path)=\(record.hash)|"
            guard path.hasSuffix(".mustache") else {
                unread.append(path)
                continue
            }
            let file = try SourceFile(path: path, bytes: bytes)
            let name = String(path.dropFirst("templates/".count).dropLast(".mustache".count))
            overrides[name] = TemplateLibrary.Source(text: file.text, path: path)
            names.append(name)
        }
        // The built-in templates are compiled with the words written in: other words, another library.
        var wordsHash = ContentHash()
        for (name, word) in words.sorted(by: { $0.key < $1.key }) {
            wordsHash.combine(name)
            wordsHash.combine(word)
        }
        key += "words=\(wordsHash)"
        let library: TemplateLibrary
        if let kept = options.memory?.templates(key: key) {
            library = kept
        } else {
            library = try TemplateLibrary(overrides: overrides, words: words)
        }
        return ReadTemplates(records: records, names: names, key: key, library: library, unread: unread)
    }

    /// Zola's and Hugo's names for the templates marsgen has (`single.html` is `page-entry`),
    /// by name without its extension: the hint for such a file copied into `templates/`.
    static let otherGeneratorsTemplates = [
        "page": "page-entry", "single": "page-entry", "index": "page-feed", "list": "page-journal", "section": "page-journal",
        "base": "layout", "baseof": "layout", "404": "page-404",
        "taxonomy": "page-tags", "taxonomy_list": "page-tags", "term": "page-tag", "taxonomy_single": "page-tag", "alias": "alias",
    ]

    func loadTemplates(_ context: inout BuildContext) throws(Diagnostic) {
        let read: ReadTemplates
        if let pending = context.pendingTemplates {
            context.pendingTemplates = nil
            read = try pending.value().get()
        } else {
            read = try readTemplates(listed: context.inputListing["templates"], words: try context.requireConfig().words.templateValues)
        }
        for (path, record) in read.records { context.state.sources[path] = record }
        let templates = read.library
        options.memory?.keepTemplates(templates, key: read.key)
        let pageTemplates = try checkPageTemplates(context.standalonePages, templates: templates)
        for name in templates.unusedOverrides(read.names.filter { !pageTemplates.contains($0) }) {
            let near = name.closestMatch(among: TemplateLibrary.builtInNames)
            let hint = near.map { "did you mean templates/\($0).mustache?" }
            context.log.warn("template '\(name)' is not one marsgen uses, nor a partial of one",
                             at: SourceLocation(path: "templates/\(name).mustache", line: 1, column: 1),
                             hint: hint ?? "name it after a built-in template (see README, Templates), or include it with {{> \(name)}}")
        }
        for unknown in templates.unknownNames(pageTemplates: pageTemplates) {
            context.log.warn(unknown.message, at: unknown.location, hint: unknown.hint)
        }
        for path in read.unread {
            let name = String(path.dropFirst("templates/".count))
            let stem = String(name.prefix { $0 != "." })
            let near = Self.otherGeneratorsTemplates[stem] ?? stem.closestMatch(among: TemplateLibrary.builtInNames)
            context.log.warn("'\(name)' does not end in '.mustache': marsgen makes no page with it",
                             at: SourceLocation(path: path),
                             hint: "marsgen's templates are Mustache, each named after the one it replaces "
                                + (near.map { "(templates/\($0).mustache)" } ?? "(see README, Templates)")
                                + "; Hugo's and Zola's templates are another language, to be written again")
        }
        context.templates = templates
        context.templateHashes = templates.sourceHashes
        context.state.templates = templates.sourceHashes
    }

    /// The site's own templates that pages of their own name in `template:`, each checked: one
    /// of marsgen's other templates, or one the site lacks, is an error at the page's line.
    func checkPageTemplates(_ pages: [StandalonePage], templates: TemplateLibrary) throws(Diagnostic) -> Set<String> {
        var names: Set<String> = []
        let own = Set(templates.origins.keys).subtracting(TemplateLibrary.builtInNames)
        for page in pages {
            guard let name = page.template, name != TemplateLibrary.standalonePageName else { continue }
            let location = page.templateLocation ?? SourceLocation(path: page.sourcePath, line: 1, column: 1)
            switch TemplateLibrary.problem(withPageTemplate: name, siteTemplates: own) {
            case .marsgens:
                throw Diagnostic.error("template '\(name)' is marsgen's for other pages, which give it other values", at: location,
                                       hint: "a page of its own is rendered with \(TemplateLibrary.standalonePageName), or with a template "
                                           + "of your own in templates/ that gets the same values; leave 'template:' out for the first")
            case .missing(let near):
                throw Diagnostic.error("template '\(name)' is not in templates/", at: location,
                                       hint: near.map { "did you mean '\($0)'?" }
                                           ?? "add templates/\(name).mustache (it gets the values \(TemplateLibrary.standalonePageName) gets), or fix the name")
            case nil:
                names.insert(name)
            }
        }
        return names
    }

    func planPages(_ context: inout BuildContext) throws(Diagnostic) {
        guard let library = context.library else { return }
        var config = try context.requireConfig()
        config.navigationLinks = try navigationLinks(&context)
        context.navigationLinks = config.navigationLinks
        let planner = PagePlanner(library: library, config: config, reusing: options.memory?.takeReadObjects())
        options.memory?.keepReadObjects(planner.readObjects)
        // The inputs hash leaves out the templates: when one changed, every page is planned.
        if let previous = context.previous, previous.templates == context.state.templates {
            // An inputs hash starts from the page's output path (see `PagePlan.inputs`): a set
            // of numbers answers as the records by path would, and far faster.
            var inputs = HashValueSet(minimumCapacity: previous.pages.count)
            previous.pages.forEach { inputs.insert($0.value.inputs.value) }
            let known = inputs
            context.pages = planner.plans { known.contains($0.value) }
        } else {
            context.pages = planner.plans()
        }
        context.state.objectList = ObjectList(planner.feedFingerprints, stamps: planner.feedStamps)
        context.heldUntilEnd.append(planner)
    }

    func diffObjects(_ context: inout BuildContext) throws(Diagnostic) {
        guard let previous = context.previous else { return }
        let objects = context.state.objectList
        let old = previous.objectList
        // Identifiers are unique in the object list, so the objects that a common prefix or
        // suffix keeps in place are neither inserted, deleted, updated nor moved: only the
        // middle needs the diff (after one edit, a handful of objects, not tens of thousands).
        // The ends are found by stamps, which stand for identifier and content hash as they
        // do in every page's inputs hash; only the middle's identifiers are read.
        let (oldStamps, newStamps) = (old.stamps, objects.stamps)
        let shorter = min(oldStamps.count, newStamps.count)
        var prefix = 0
        while prefix < shorter, oldStamps[prefix] == newStamps[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, oldStamps[oldStamps.count - 1 - suffix] == newStamps[newStamps.count - 1 - suffix] { suffix += 1 }
        context.sharedObjects = SharedEnds(prefix: prefix, suffix: suffix)
        let oldMiddle = old.fingerprints(in: prefix..<(old.count - suffix))
        let newMiddle = objects.fingerprints(in: prefix..<(objects.count - suffix))
        let result = listDiff(old: oldMiddle, new: newMiddle)
        if result.hasChanges || old.count != objects.count || previous.templates != context.state.templates
            || context.previousSourceCount != context.state.sources.count {
            context.stateChanged = true
        }
        var changes = ObjectChanges()
        changes.inserted = Set(result.inserts.map { newMiddle[$0].diffIdentifier })
        changes.deleted = Set(result.deletes.map { oldMiddle[$0].diffIdentifier })
        changes.updated = Set(result.updates.map { oldMiddle[$0].diffIdentifier })
        changes.moved = Set(result.moves.map { newMiddle[$0.to].diffIdentifier })
        context.objectChanges = changes
    }

    func renderPages(_ context: inout BuildContext) throws(Diagnostic) {
        guard context.library != nil, let templates = context.templates else { return }
        let config = try context.requireConfig()
        let adapter = FeedAdapter.standard(context: FeedContext(links: SiteLinks(config: config), words: config.words))
        var renderer = PageRenderer(templates: templates, sections: [])
        // The rows the last build left on disk, read only if a list is rendered (and, under
        // `watch` and `serve`, only by the first build that renders one). A full build
        // renders every row afresh: `--clean` must not trust anything kept.
        let path = rowsPath
        let rows = options.memory?.rows ?? RowCache()
        let load: @Sendable () -> [String: RowCache.RenderedList] = { RenderedRows.load(from: path) }
        rows.loadOnFirstUse(context.isIncremental ? load : nil)
        renderer.rowCache = rows
        if options.memory == nil { context.renderedRows = rows }
        renderer.cacheSalt = context.state.configurationHash
        // Pages of one template, layout and shape use the same templates: look them up once.
        var templatesByShape: [String: [String]] = [:]
        // The hashes of the output paths seen (see `PagePlan.place`), much faster to look up
        // than the paths; a hash seen before is then compared as paths.
        var seen = HashValueSet(minimumCapacity: context.pages.count)
        var planned: [(plan: Int, page: Page)] = []
        // The previous records, kept for every page made from the same inputs as last time
        // (the planner checked: the same page); the others are replaced or removed below.
        if let previous = context.previous {
            context.state.pages = context.sparePages ?? previous.pages
            context.sparePages = nil
        }
        // By index: a loop over the plans copied each of 19,600 (a retain and a release of
        // each of its strings) to read a number and find the handful with a page.
        for index in context.pages.indices {
            let place = context.pages[index].place
            if !seen.insert(place) {
                let outputPath = context.pages[index].outputPath
                if context.pages[..<index].contains(where: { $0.place == place && $0.outputPath == outputPath }) {
                    throw Diagnostic.error("two pages would be written to \(outputPath)", hint: "give one of the entries a different 'slug:'")
                }
            }
            guard let page = context.pages[index].page else {
                context.report.pagesUnchanged += 1
                continue
            }
            planned.append((index, page))
            let key = shape(of: page)
            if templatesByShape[key] == nil {
                templatesByShape[key] = renderer.templatesUsed(by: page, adapter: adapter).sorted()
            }
        }
        if let previous = context.previous {
            // Unplanned pages exist in the previous records (that is how the planner knew them
            // unchanged): when those and the planned ones that existed account for every
            // record, no page is gone and the records need no search.
            let unplanned = context.pages.count - planned.count
            let added = planned.lazy.map(\.page.outputPath).filter { previous.pages[$0] == nil }
            context.pagesAdded = Array(added)
            let plannedThatExisted = planned.count - context.pagesAdded.count
            var gone: [String] = []
            let goneCount = previous.pages.count - unplanned - plannedThatExisted
            if goneCount != 0 {
                // A recorded path whose hash is not among the planned pages' places (`seen`)
                // is gone, without making the plans' 19,600 output paths. Only a 64-bit
                // collision could hide one: then the count falls short, and paths decide.
                gone = previous.pages.keys.filter { path in
                    var hash = ContentHash()
                    hash.combine(path)
                    return !seen.contains(hash.value)
                }
                if gone.count != goneCount {
                    let paths = Set(context.pages.map(\.outputPath))
                    gone = previous.pages.keys.filter { !paths.contains($0) }
                }
                for path in gone { context.state.pages[path] = nil }
            }
            context.pagesGone = gone
        }
        let templateHashes = context.templateHashes
        let fingerprints = try parallelMap(planned) { _, page throws(Diagnostic) -> ContentHash in
            var fingerprint = PageFingerprint.of(page)
            for name in templatesByShape[shape(of: page)] ?? [] {
                fingerprint.combine(name)
                fingerprint.combine(templateHashes[name] ?? "?")
            }
            return fingerprint
        }

        // Same fingerprint as last time: same inputs, same bytes, so the page is not even rendered.
        var toRender: [Int] = []
        for (position, (plan, page)) in planned.enumerated() {
            let previous = context.previous?.pages[page.outputPath]
            if let previous, previous.fingerprint == fingerprints[position] {
                context.state.pages[page.outputPath] = BuildState.PageRecord(bytes: previous.bytes, fingerprint: previous.fingerprint,
                                                                             inputs: context.pages[plan].inputs)
                context.report.pagesUnchanged += 1
            } else {
                toRender.append(position)
            }
        }
        guard !toRender.isEmpty else { return }
        context.stateChanged = true

        // Each section once, then the pages, both on every core.
        var shown: [Page.SlotItem] = []
        var wanted: Set<Page.SectionKey> = []
        for index in toRender {
            for item in planned[index].page.slots.values.joined() where wanted.insert(item.section).inserted {
                shown.append(item)
            }
        }
        // The sections of objects shown last time as they are now come from memory under
        // watch, from the file the last build left otherwise (not for a full build: `--clean`
        // must not trust anything kept).
        let cacheKey = sectionCacheKey(context)
        let kept: [UInt64: String]
        if let memory = options.memory {
            kept = memory.sections.sections(key: cacheKey)
        } else {
            kept = context.isIncremental && !shown.isEmpty ? RenderedSections.load(from: sectionsPath, key: cacheKey) : [:]
        }
        let stamps = shown.map(\.sectionStamp)
        let sectionHTML = try parallelMap(Array(shown.indices)) { index throws(Diagnostic) -> String in
            if let html = kept[stamps[index]] { return html }
            return try renderer.html(for: try adapter.section(for: shown[index].object, isOwnPage: shown[index].isOwnPage))
        }
        let shownSections = Dictionary(zip(stamps, sectionHTML), uniquingKeysWith: { first, _ in first })
        options.memory?.sections.keep(shownSections, key: cacheKey)
        // What an edit's pages show, not what a full build or a template edit renders (every
        // object's, or thousands: megabytes to write for a next build that shows a few).
        if options.memory == nil, context.isIncremental, shownSections.count <= RenderedSections.mostKept,
           shownSections.count != kept.count || stamps.contains(where: { kept[$0] == nil }) {
            context.renderedSections = (cacheKey, shownSections)
        }
        let sections = Dictionary(uniqueKeysWithValues: zip(shown.map(\.section), sectionHTML))
        let pages = planned.map(\.page)
        // Each page whose bytes changed goes into the staging directory as soon as it is
        // rendered, so a build holds only the pages in hand (a template edit renders
        // thousands): a full build then swaps the directory into place, an incremental one
        // moves those pages into the output. A failed build only removes the directory.
        let staging = outputWriter(context)
        try staging.begin()
        context.staging = staging
        if !context.isIncremental {
            let output = staging.output
            context.oldOutputFiles = BackgroundWork { Self.oldOutputFiles(in: output) }
        }
        let previousBytes = toRender.map { context.previous?.pages[pages[$0].outputPath]?.bytes }
        let rendered = try parallelMap(Array(toRender.indices)) { position throws(Diagnostic) -> (hash: ContentHash, kept: Bool) in
            let page = pages[toRender[position]]
            let bytes = try renderer.render(page, sections: sections)
            var hash = ContentHash()
            hash.combine(bytes: bytes)
            guard hash != previousBytes[position] else { return (hash, false) }
            return (hash, try staging.stage(bytes, at: page.outputPath))
        }

        // What every page's reason names (see `reason(for:…)`), made once, not per page
        // written: a navigation change writes them all.
        let changedPageFiles = context.changedPageFiles.keys.sorted()
        let siteLinks = SiteLinks(config: config)
        for (position, index) in toRender.enumerated() {
            let page = pages[index]
            let previous = context.previous?.pages[page.outputPath]
            let used = templatesByShape[shape(of: page)] ?? []
            let record = BuildState.PageRecord(bytes: rendered[position].hash, fingerprint: fingerprints[index],
                                               inputs: context.pages[planned[index].plan].inputs)
            context.state.pages[page.outputPath] = record
            if let previous, previous.bytes == record.bytes {
                context.report.pagesUnchanged += 1
                continue
            }
            context.staged.append(page.outputPath)
            if rendered[position].kept {
                context.kept.insert(page.outputPath)
                context.report.pagesUnchanged += 1
                continue
            }
            context.report.pagesWritten += 1
            let why = reason(for: page, templates: used, isNew: previous == nil, changedPages: changedPageFiles, links: siteLinks,
                             context: context)
            context.report.explanations.append("\(displayPath(page.outputPath)): \(why)")
        }
    }

    /// What a section's HTML depends on besides its object: the configuration, the templates
    /// and the crew file (objects' hashes already hold their authors' names and roles; the
    /// crew is in the key so that a section showing more of the crew stays right).
    func sectionCacheKey(_ context: BuildContext) -> String {
        var key = "\(context.state.configurationHash)|\(context.state.sources[CrewLoader.path]?.hash ?? "no crew")"
        for (name, hash) in context.templateHashes.sorted(by: { $0.key < $1.key }) { key += "|\(name)=\(hash)" }
        return key
    }

    /// Pages of one template, layout and shape use the same templates.
    func shape(of page: Page) -> String {
        "\(page.template)|\(page.layout ?? "")|\(page.slots.isEmpty)|\(page.rows.values.map(\.template).sorted())"
    }

    /// Why a page is written, for `--explain`.
    ///
    /// - Parameter changedPages: The paths of the pages of their own changed since the last
    ///   build (the keys of `context.changedPageFiles`), sorted.
    func reason(for page: Page, templates: [String], isNew: Bool, changedPages: [String], links: SiteLinks,
                context: BuildContext) -> String {
        guard context.isIncremental else { return "full build" }
        guard !isNew else { return "new page" }
        if let template = templates.first(where: { context.previous?.templates[$0] != context.templateHashes[$0] }) {
            return "template \(template).mustache changed"
        }
        // A renamed crew member changes every object they wrote without their files
        // changing: naming one of those files would point at the wrong file.
        if context.crewChanged, !context.contentFileChanged {
            return "crew.yml changed"
        }
        if page.kind == .standalone {
            let own = context.standalonePages.first { links.standalonePageAddress($0.path).outputPath == page.outputPath }
            let name = own.map { String($0.sourcePath.dropFirst("content/".count)) } ?? "it"
            if let own, changedPages.contains(own.sourcePath) { return "\(name) updated" }
            // Another page of its own changed it: one above or below it (whose title or
            // description it shows), else one in the navigation.
            func isRelated(_ path: String) -> Bool {
                guard let own, let other = context.standalonePages.first(where: { $0.sourcePath == path }) else { return false }
                return other.path.hasPrefix(own.path + "/") || own.path.hasPrefix(other.path + "/")
            }
            if let path = changedPages.first(where: isRelated) ?? changedPages.first {
                return "\(path.dropFirst("content/".count)) \(context.changedPageFiles[path] ?? "updated")"
            }
            return "a link or an image in \(name) changed"
        }
        // An old address of a page of its own (an entry's names the entry): it leads on to
        // the page, which moved or was renamed.
        if page.kind == .alias, page.objectIDs.isEmpty, let owner = context.standalonePages.first(where: { owner in
            owner.aliases.contains { links.aliasAddress($0).outputPath == page.outputPath }
        }) {
            return "\(owner.sourcePath.dropFirst("content/".count)) updated"
        }
        // The sol index shows every object only as counts: naming one would mislead.
        if page.kind == .solIndex { return "a sol's counts or weather changed" }
        if page.kind == .tagIndex { return "a tag's count changed, or a tag came or went" }
        let changes = context.objectChanges
        let ids = page.objectIDs.sorted()
        let updated = ids.filter(changes.updated.contains)
        if let first = updated.first {
            // A file parsed again for its links alone was not edited (an edited file's links
            // are never recorded as moved): an edited one is the likelier cause; failing
            // that, say which link moved.
            func relinked(_ id: String) -> String? { sourcePath(of: id).flatMap { context.relinked[$0] } }
            if let id = updated.first(where: { relinked($0) == nil }) { return "\(shortName(id)) updated" }
            return "\(shortName(first)) updated: \(relinked(first) ?? "")"
        }
        if let id = ids.first(where: changes.inserted.contains) { return entered(id, added: true, context: context) }
        if let id = changes.deleted.sorted().first {
            return changes.deleted.count == 1 ? entered(id, added: false, context: context) : "\(changes.deleted.count) objects removed"
        }
        // Every page's navigation links to the pages of their own that ask for it; the
        // sitemap and the search index list them.
        if updated.isEmpty, !ids.contains(where: changes.moved.contains), let path = changedPages.first {
            return (page.layout == nil ? "" : "navigation changed: ") + "\(path.dropFirst("content/".count)) \(context.changedPageFiles[path] ?? "updated")"
        }
        let change = ids.contains(where: changes.moved.contains) ? "order changed" : "links or counts changed"
        // The page shows no changed object now. When one object changed in the whole build,
        // it is what changed the page (it left the page, or moved or relinked what the page
        // shows): name it too. With several, which one did is not known here.
        if changes.updated.count + changes.inserted.count == 1,
           let cause = changes.updated.first.map({ "\(shortName($0)) updated" })
            ?? changes.inserted.first.map({ entered($0, added: true, context: context) }) {
            return "\(change), \(cause)"
        }
        return change
    }

    /// How the object `id`, added to the object list or removed from it, is named: a draft
    /// that `--drafts` alone brought in or took out (its file unchanged) says so.
    func entered(_ id: String, added: Bool, context: BuildContext) -> String {
        if let path = sourcePath(of: id), isDraftToggled(path, context: context) {
            return "draft \(shortName(id)) " + (added ? "shown (--drafts)" : "left out (no --drafts)")
        }
        return "\(shortName(id)) " + (added ? "added" : "removed")
    }

    /// Whether the content file at `path` is a draft this build shows and the last one did
    /// not, or the other way round, for `--drafts` alone (the file did not change).
    func isDraftToggled(_ path: String, context: BuildContext) -> Bool {
        context.draftsToggled && context.isIncremental && context.changedInputs?.sortedIndex(of: path) == nil
            && context.state.sources[path]?.journalEntries.first?.isDraft == true
    }

    /// The site-relative path of the file the object `id` comes from (`journal:content/journal/a.md`,
    /// `message:content/messages/hab.md@2038-…/vega`).
    func sourcePath(of id: String) -> String? {
        guard let colon = id.firstIndex(of: ":") else { return nil }
        let rest = id[id.index(after: colon)...]
        return String(rest[..<(rest.firstIndex(of: "@") ?? rest.endIndex)])
    }

    func shortName(_ id: String) -> String {
        id.replacingOccurrences(of: ":content/", with: " ").replacingOccurrences(of: "journal journal/", with: "journal/")
    }

    func displayPath(_ path: String) -> String {
        if path == "index.html" { return "index" }
        return path.hasSuffix("/index.html") ? String(path.dropLast("/index.html".count)) : path
    }
}
