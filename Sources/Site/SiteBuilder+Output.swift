import Content
import Diagnostics
import Feed
import Foundation
import Images
import Rendering
import SiteConfig

// The last steps: static files, writing the output through a staging folder, and saving the
// state and index for the next build.

extension SiteBuilder {
    /// Reads the static files' records (a changed file is read and hashed, and an image's
    /// size read from its bytes) before the content, whose images are written with their
    /// sizes: into ``BuildContext/imageSizes``, with the theme's, and, for an incremental
    /// build, the images whose size may have changed into ``BuildContext/resizedImages``.
    func readStaticFiles(_ context: inout BuildContext) throws(Diagnostic) {
        var sizes = Self.themeImageSizes
        var records: [(path: String, record: BuildState.SourceRecord)] = []
        for path in try files(under: "static", context: context) {
            let relative = String(path.dropFirst("static/".count))
            var record: BuildState.SourceRecord
            switch try readIfChanged(path, context: context) {
            case .unchanged(let old, _):
                record = old
            case .changed(let bytes, let fresh, _):
                record = fresh
                if ImageSize.mayRead(fileNamed: relative) { record.imageSize = ImageSize(ofFileNamed: relative, bytes: bytes) }
            }
            // A static file takes the theme's file's place, size or none.
            sizes[relative] = record.imageSize
            if context.isIncremental, context.previousRecord(of: path)?.imageSize != record.imageSize {
                context.resizedImages.insert(relative)
            }
            if context.state.sources.updateValue(record, forKey: path) != record { context.stateChanged = true }
            records.append((path, record))
        }
        for path in context.goneInputs where path.hasPrefix("static/") {
            context.resizedImages.insert(String(path.dropFirst("static/".count)))
        }
        (context.imageSizes, context.staticRecords) = (sizes, records)
    }

    /// The size of each image among the theme's files (see ``DefaultTheme/assets``).
    static let themeImageSizes: [String: ImageSize] = {
        var sizes: [String: ImageSize] = [:]
        for (path, bytes) in DefaultTheme.assets where ImageSize.mayRead(fileNamed: path) {
            sizes[path] = ImageSize(ofFileNamed: path, bytes: bytes)
        }
        return sizes
    }()

    /// The sitemap's URL for the site's `robots.txt`, or nil for a site under a path
    /// (`/mission/`): crawlers read only the host's `/robots.txt`, which is not the site's to write.
    static func robotsSitemap(_ config: SiteConfiguration) -> String? {
        config.basePath == "/" ? config.baseURL + "sitemap.xml" : nil
    }

    func collectStatic(_ context: inout BuildContext) throws(Diagnostic) {
        var produced: Set<String> = []
        let staticPaths = context.staticRecords.map(\.path)
        let names = StaticNames(files: staticPaths.map { String($0.dropFirst("static/".count)) })
        let themeAssets = DefaultTheme.assets(search: context.config?.hasSearch ?? false, sitemapURL: context.config.flatMap(Self.robotsSitemap))
        let themeFiles = themeAssets.keys.filter { !names.files.contains($0) }.sorted()
        // Files the previous build wrote beside these static files did not clash with them.
        let sameStaticFiles = context.previous.map { previous in names.files.allSatisfy { previous.files[$0] != nil } } ?? false
        let clashes = names.clashes(pages: context.state.pages, themeFiles: themeFiles,
                                    added: sameStaticFiles ? context.pagesAdded : nil)
        if !clashes.isEmpty { throw StaticNames.diagnostic(for: clashes) }
        for (path, record) in context.staticRecords {
            let relative = String(path.dropFirst("static/".count))
            produced.insert(relative)
            context.state.files[relative] = BuildState.FileRecord(bytes: record.hash)
            guard context.previous?.files[relative]?.bytes != record.hash else { continue }
            context.copies[relative] = SitePaths.join(options.sourceDirectory, path)
            // A full build counts and explains the files it writes once it knows which it kept.
            guard context.isIncremental else { continue }
            context.report.filesCopied += 1
            let why = context.previous?.files[relative] == nil ? "new static file" : "static file changed"
            context.report.explanations.append("\(relative): \(why)")
        }
        for (relative, bytes) in themeAssets.sorted(by: { $0.key < $1.key }) where !produced.contains(relative) {
            // Recorded as a static file's bytes are (see `contentHash(of:)`).
            let hash = Self.contentHash(of: bytes)
            context.state.files[relative] = BuildState.FileRecord(bytes: hash)
            guard context.previous?.files[relative]?.bytes != hash else { continue }
            context.writes[relative] = bytes
            guard context.isIncremental else { continue }
            context.report.filesCopied += 1
            context.report.explanations.append("\(relative): theme file changed")
        }
        guard let previous = context.previous else { return }
        let (pages, files) = (context.state.pages, context.state.files)
        // Of the previous pages, only those planning found gone can be stale: not all 19,500 again.
        let candidates = (context.pagesGone ?? Array(previous.pages.keys)) + Array(previous.files.keys)
        let stale = Set(candidates.filter { pages[$0] == nil && files[$0] == nil })
        let draftPages = stale.isEmpty ? [:] : draftPagesLeftOut(context)
        for path in stale.sorted() {
            context.deletes.append(path)
            let reason = draftPages[path] ?? deletionReason(path, wasFile: previous.files[path] != nil)
            context.report.explanations.append("\(displayPath(path)): deleted, \(reason)")
        }
        context.report.filesDeleted = context.deletes.count
    }

    /// The pages of the drafts that turning `--drafts` off took out of the object list, by
    /// output path, each with its reason for `--explain`; empty for any other build.
    func draftPagesLeftOut(_ context: BuildContext) -> [String: String] {
        guard context.draftsToggled, !options.includesDrafts, let config = context.config else { return [:] }
        let links = SiteLinks(config: config)
        var reasons: [String: String] = [:]
        // Only an object this build took out of the object list can have left a page.
        for id in context.objectChanges.deleted.sorted() {
            guard let source = sourcePath(of: id), isDraftToggled(source, context: context),
                  let entry = context.state.sources[source]?.journalEntries.first else { continue }
            let path = links.journalAddress(slug: entry.slug).outputPath
            if reasons[path] == nil { reasons[path] = "draft \(shortName(id)) left out (no --drafts)" }
        }
        return reasons
    }

    /// Why `path` is no longer produced; `wasFile` when the previous build copied it (a
    /// static file) rather than generating it (static files may not share a page's path).
    func deletionReason(_ path: String, wasFile: Bool) -> String {
        if wasFile { return "static file removed" }
        if path.hasPrefix("sol/") { return "sol \(path.split(separator: "/").dropFirst().first ?? ""): lost last object" }
        if path.hasPrefix("page/") || path.hasPrefix("journal/page/") || path.contains("/page/") { return "fewer objects to page through" }
        if path.hasPrefix("journal/") { return "entry removed or its slug changed" }
        if path.hasPrefix("crew/") { return "crew member removed" }
        return "no longer produced"
    }

    /// The writer "Check paths" made for the output.
    func outputWriter(_ context: BuildContext) -> OutputWriter {
        var writer = context.outputWriter ?? OutputWriter(output: options.outputDirectory)
        // Only a full build stages what it did not change; `--clean` trusts nothing kept.
        writer.keepsIdenticalFiles = !context.isIncremental && !options.isClean
        return writer
    }

    func writeOutput(_ context: inout BuildContext) throws(Diagnostic) {
        // The state's texts are checked as they are read (see `StoredText`): after rendering,
        // before anything is written, is when a damaged one must be known.
        if DamagedTexts.take(in: chunkDirectory), context.previous != nil {
            context.readDamagedState = true
            return
        }
        if context.isIncremental, context.writes.isEmpty, context.copies.isEmpty, context.deletes.isEmpty, context.staged.isEmpty {
            context.staging?.discard()
            context.staging = nil
            return
        }
        if !context.isIncremental { try checkOutputHoldsOnlyTheSite(context) }
        // The state describes the output as it was; remove its index before touching the
        // output, so a build killed while writing leads to a full build, never to a wrong
        // site. (A state is only read when the index names it. Removing the state itself
        // here would free tens of megabytes on the build's path; the next save replaces it.)
        try? FileManager.default.removeItem(atPath: indexPath)
        if context.keepsNoState { options.memory?.keepOnly(nil, index: nil) }
        context.stateChanged = true
        if context.isIncremental {
            let staging = context.staging
            try IncrementalWriter(output: options.outputDirectory).apply(writes: context.writes, copies: context.copies,
                                                                       deletes: context.deletes,
                                                                       moves: staging.map { ($0.stagingPath, context.staged) })
            staging?.discard()
            context.staging = nil
        } else {
            let writer = context.staging ?? outputWriter(context)
            if context.staging == nil { try writer.begin() }
            context.staging = writer
            var kept: Set<String> = []
            for relative in context.writes.keys.sorted() {
                guard let bytes = context.writes[relative] else { continue }
                if try writer.stage(bytes, at: relative) { kept.insert(relative) }
            }
            // Listed before the old folder goes: its files this build does not make go with it.
            let old = context.oldOutputFiles?.value() ?? Self.oldOutputFiles(in: writer.output)
            context.oldOutputFiles = nil
            kept.formUnion(try writer.commit(copies: context.copies))
            context.staging = nil
            let files = (Array(context.writes.keys) + Array(context.copies.keys)).filter { !kept.contains($0) }.sorted()
            context.report.filesCopied = files.count
            context.report.explanations += files.map { "\($0): full build" }
            // The summary, --explain and open pages under `serve` hear of them as after an incremental build.
            let made = Set(context.madePaths)
            context.deletes = old.filter { !made.contains($0) }.sorted()
            context.report.filesDeleted = context.deletes.count
            context.report.explanations += context.deletes.map { "\(displayPath($0)): deleted, no longer produced" }
            context.kept.formUnion(kept)
        }
        let kept = context.kept
        context.report.written = context.madePaths.filter { !kept.contains($0) }.sorted()
        context.report.deleted = context.deletes.sorted()
    }

    /// A full build replaces everything in the output folder but its dot files: before it
    /// does, checks that nothing else is there than what this site makes (`--output
    /// ~/Documents` must not delete someone's documents), unless this site was built into
    /// this very folder before (its index records the folder, or, when a killed build took
    /// the index, its state remains), or `--force`.
    func checkOutputHoldsOnlyTheSite(_ context: BuildContext) throws(Diagnostic) {
        guard !options.replacesOtherFiles, !wasBuiltHere(context),
              let folder = FileSystem.OpenFolder(path: outputWriter(context).output) else { return }
        /// The name in the output folder that a file at the output-relative `path` is under.
        func topLevelName(_ path: String) -> String { path.firstIndex(of: "/").map { String(path[..<$0]) } ?? path }
        let made = Set(context.madePaths.map(topLevelName))
        var others = folder.entries.map(\.name).filter { !$0.hasPrefix(".") && !made.contains($0) }.sorted()
        guard !others.isEmpty else { return }
        // What the site's last build wrote, as it wrote it, is the site's though the folder
        // changed since (a build killed after staging inside it, a dot file added): a static
        // folder removed from the site then goes with the rest. Not a file of the same name
        // in a folder made anew at the same path, nor one edited by hand.
        if case .success(let previous) = BuildState.load(from: statePath), previous.outputDirectory == options.recordedOutput {
            let previouslyMade = Set((Array(previous.pages.keys) + Array(previous.files.keys)).map(topLevelName))
            others.removeAll { previouslyMade.contains($0) && Self.isAsWritten($0, by: previous, in: outputWriter(context).output) }
            guard !others.isEmpty else { return }
        }
        var named = others.prefix(3).map { "'\(Diagnostic.excerpt($0))'" }.joined(separator: ", ")
        if others.count > 3 { named += " and \(others.count - 3) more" }
        let them = others.count == 1 ? "it" : "them"
        throw Diagnostic.error("the output folder holds \(named), which this site does not make; a full build would delete \(them)",
                               at: SourceLocation(path: options.outputDirectory),
                               hint: "build into an empty or new folder, move \(them) out (what the site should publish goes in "
                                   + "static/), or pass --force to delete \(them)")
    }

    /// The files under the output folder `output` (output-relative paths) that a full build
    /// replaces: all but its top-level dot files, which it carries over (and the staging
    /// folder, when inside). A link is one file, not followed.
    static func oldOutputFiles(in output: String) -> [String] {
        FileSystem.filePaths(under: output, skipsTopLevel: { $0.hasPrefix(".") })
    }

    /// Whether every file at or under the top-level entry `name` of the output folder `output`
    /// is a page or file that `previous` records, with the bytes it records.
    static func isAsWritten(_ name: String, by previous: BuildState, in output: String) -> Bool {
        var paths: [String] = []
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: SitePaths.join(output, name), isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue {
            var plain = true
            FileSystem.walk(SitePaths.join(output, name)) { entry in
                guard !entry.isLink, plain else {
                    plain = false
                    return false
                }
                switch entry.kind {
                case .directory: return true
                case .file: paths.append(name + "/" + entry.relative)
                case .brokenLink, .directoryLoop, .undecodableName, .special: plain = false
                }
                return false
            }
            guard plain else { return false }
        } else {
            paths = [name]
        }
        return !paths.isEmpty && paths.allSatisfy { path in
            guard let data = FileManager.default.contents(atPath: SitePaths.join(output, path)) else { return false }
            let bytes = [UInt8](data)
            if let page = previous.pages[path] {
                var hash = ContentHash()
                hash.combine(bytes: bytes)
                return page.bytes == hash
            }
            return previous.files[path]?.bytes == Self.contentHash(of: bytes)
        }
    }

    /// Whether this site's last build left the output folder as it is now: the same folder,
    /// and nothing added to or removed from it since (its inode and status-change time are
    /// those the index recorded; an inode alone is reused at once by a folder made anew).
    func wasBuiltHere(_ context: BuildContext) -> Bool {
        guard let index = context.previousIndex ?? BuildIndex.load(from: indexPath) else {
            // A build killed while writing took the index, and left its state.
            return FileManager.default.fileExists(atPath: statePath)
        }
        var info = stat()
        guard stat(options.outputDirectory, &info) == 0 else { return false }
        return index.outputFolders.first { $0.path == "." } == InputFolder(path: ".", info)
    }

    func saveBuildState(_ context: inout BuildContext) throws(Diagnostic) {
        // A site whose .marsgen/ cannot be written: only watch and serve keep a state, in memory.
        guard !context.keepsNoState || options.memory != nil else { return }
        do {
            // A no-op incremental build leaves the state as it is, and the index too, but for
            // the stats it learnt (a touched file).
            if context.isUpToDate || (context.isIncremental && !context.stateChanged) {
                if context.keepsNoState {
                    if let refreshed = context.refreshedIndex { options.memory?.keepOnly(nil, index: refreshed) }
                    return
                }
                try context.refreshedIndex?.save(to: indexPath)
                // One that loaded the state anyway (see `BuildOptions.preparesNextBuild`): the
                // memory keeps it, with the source records this build took from it (the same,
                // as nothing changed), unless it holds the state already.
                if let memory = options.memory, var previous = context.previous,
                   let index = context.refreshedIndex ?? context.previousIndex {
                    previous.sources = context.state.sources
                    memory.preload { [previous] in previous }
                    memory.rememberIndex(index, file: FileStat(path: indexPath))
                }
                return
            }
            context.state.token = "\(context.state.scanStartedAt)-\(getpid())"
            try? FileManager.default.removeItem(atPath: indexPath)
            var index = BuildIndex(outputDirectory: options.recordedOutput, configurationHash: context.state.configurationHash,
                                   scanStartedAt: context.state.scanStartedAt, stateToken: context.state.token, stateSize: 0,
                                   inputs: [:])
            index.includesDrafts = options.includesDrafts
            index.journalEntries = context.report.journalEntries
            index.messages = context.report.messages
            index.weatherReports = context.report.weatherReports
            index.pages = context.state.pages.count
            index.warnings = context.log.entries[context.contentLogStart...].filter { $0.severity == .warning }
            // Only a listing that every file of is recorded: a file with an error left out of
            // the index would otherwise be left out of the next build's listing.
            if let folders = context.inputFolders, context.listedInputCount == context.state.sources.count { index.folders = folders }
            // After the last page is in place: what the next build compares the output with.
            index.outputFolders = OutputFolders.stamp(of: options.outputDirectory)
            if context.keepsNoState, let memory = options.memory {
                let sources = context.state.sources.sorted { $0.key < $1.key }
                index.inputs = IndexInputs(sortedPaths: sources.map(\.key), inputs: sources.map { BuildIndex.Input($0.value) })
                memory.keepOnly(context.state, index: index)
                return
            }
            if let memory = options.memory {
                // watch and serve: the pages are in place and the state is in memory; the
                // disk copy is written in the background, still under this build's lock.
                let held = UncheckedBox((lock: context.lock, previous: context.previous, builder: self, index: index,
                                         sharedObjects: context.sharedObjects, added: context.addedKeys))
                memory.remember(context.state) { state in
                    var state = state
                    do {
                        let builder = held.value.builder
                        let index = try builder.write(&state, index: held.value.index, reusing: held.value.previous,
                                                      sharedObjects: held.value.sharedObjects, added: held.value.added)
                        memory.rememberIndex(index, file: FileStat(path: builder.indexPath))
                        builder.saveRenderedRows(memory.rows)
                        memory.keepContent(Self.keptContent(of: state, includesDrafts: builder.options.includesDrafts))
                    } catch {
                        try? FileManager.default.removeItem(atPath: held.value.builder.indexPath)
                        memory.recordSaveProblem(error.localizedDescription)
                    }
                    withExtendedLifetime(held.value.lock) {}
                    return state
                }
                return
            }
            let saved = try write(&context.state, index: index, reusing: context.previous, sharedObjects: context.sharedObjects,
                                  added: context.addedKeys, lines: context.previousIndex?.lineSource)
            context.heldUntilEnd.append(saved)
            saveRenderedRows(context.renderedRows)
            // Only a cache, as the rows: a build that cannot save it renders them again next time.
            if let (key, sections) = context.renderedSections { try? RenderedSections.save(sections, key: key, to: sectionsPath) }
        } catch {
            // The site itself is complete; the next build will be a full one.
            try? FileManager.default.removeItem(atPath: indexPath)
            context.log.warn("cannot save the build state: \(error.localizedDescription)", at: SourceLocation(path: statePath),
                             hint: "the next build will be a full build")
        }
    }

    /// Saves the rows `cache` rendered since it was loaded or last saved, if any. Only a
    /// cache: a build that cannot save it renders those rows again next time.
    func saveRenderedRows(_ cache: RowCache?) {
        guard let rows = cache?.takeChanges() else { return }
        try? RenderedRows.save(rows, to: rowsPath)
    }

    /// Writes `state`, then the index that names it: the state first, so an index on disk
    /// always names a complete state.
    ///
    /// - Parameter lines: The input lines of the index the build read, to copy those that stay the same.
    /// - Returns: The index as saved.
    @discardableResult
    func write(_ state: inout BuildState, index: BuildIndex, reusing previous: BuildState?,
               sharedObjects: SharedEnds = .none, added: BuildState.AddedKeys = BuildState.AddedKeys(),
               lines: BuildIndex.LineSource? = nil) throws -> BuildIndex {
        var index = index
        // The index's inputs and lines are made from the sources as the state saves them
        // (sorted), while the other half of the state is encoded; the index is written after
        // the state.
        let (encoded, (inputs, inputLines)) = state.encodedForSaving(reusing: previous, sharedObjects: sharedObjects,
                                                                     added: added) { paths, records in
            let inputs = records.map(BuildIndex.Input.init)
            return (IndexInputs(sortedPaths: paths, inputs: inputs), BuildIndex.inputLines(paths: paths, records: inputs, reusing: lines) { $0 })
        }
        // Encoding copied texts restored from the previous state into new chunks: a damaged
        // one would be saved with a check made afresh, and trusted from then on.
        if DamagedTexts.take(in: chunkDirectory) { throw DamagedStateText() }
        index.inputs = inputs
        index.stateSize = try state.save(encoded, to: statePath)
        try? FileManager.default.removeItem(atPath: legacyStatePath)
        try index.save(to: indexPath, inputLines: inputLines, reusing: lines)
        return index
    }
}


/// A save that copied a text of the previous state whose bytes no longer match their check.
struct DamagedStateText: LocalizedError {
    var errorDescription: String? { "a text in the build state was damaged (its bytes no longer match their check)" }
}
