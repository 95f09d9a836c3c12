import Content
import Diagnostics
import Foundation
import GFM
import Images
import SiteConfig

// The first steps: the paths, the configuration, the index of the last build, what changed
// since, and the state that build left.

extension SiteBuilder {
    func checkPaths(_ context: inout BuildContext) throws(Diagnostic) {
        let source = options.sourceDirectory
        let output = options.outputDirectory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Diagnostic.error("the site directory does not exist", at: SourceLocation(path: source),
                                   hint: "pass --source with the folder holding marsgen.yml")
        }
        // As written and as the paths resolve: an output that is (or goes through) a symbolic
        // link (`public` → `static`, or → the site folder itself) must not lead into the site's
        // own files either, where a full build (with --force, whatever is there) replaces them.
        let (resolvedSource, resolvedOutput) = (SitePaths.resolvingLinks(source), SitePaths.resolvingLinks(output))
        let throughLink = " (its path leads there through a symbolic link)"
        if SitePaths.isWithin(source, output) || SitePaths.isWithin(resolvedSource, resolvedOutput) {
            let linked = SitePaths.isWithin(source, output) ? "" : throughLink
            throw Diagnostic.error("the output directory would contain the site itself\(linked)", at: SourceLocation(path: output),
                                   hint: "write the site to a folder of its own, such as public/")
        }
        for protected in ["content", "templates", "static", ".marsgen"] {
            let folder = SitePaths.join(source, protected)
            let resolvedFolder = SitePaths.resolvingLinks(folder)
            let isInside = SitePaths.isWithin(output, folder)
            if isInside || SitePaths.isWithin(resolvedOutput, resolvedFolder) {
                throw Diagnostic.error("the output directory is inside \(protected)/\(isInside ? "" : throughLink)",
                                       at: SourceLocation(path: output),
                                       hint: "the build replaces its output folder; choose one outside \(protected)/, such as public/")
            }
            // A folder of the site that is a link into the output (`content` → `public/notes`).
            if SitePaths.isWithin(resolvedFolder, resolvedOutput) {
                throw Diagnostic.error("the output directory would contain \(protected)/\(throughLink)", at: SourceLocation(path: output),
                                       hint: "the build replaces its output folder; keep the site's \(protected)/ outside it")
            }
        }
        let writer = OutputWriter(output: output)
        try writer.validate()
        context.outputWriter = writer
        // Under the site lock: what a killed build left behind can go now.
        writer.removeAbandonedStaging()
        BuildState.removeAbandonedTemporaries(siteRoot: source)
        context.hadOlderState = BuildState.removeOtherStates(siteRoot: source, keeping: output)
    }

    /// What to do with a site folder that has no `marsgen.yml`: rename the file it likely
    /// is (`marsgen.yaml`), or, beside another generator's configuration (a site moved from
    /// Hugo or Zola), write marsgen's; otherwise start a site or point at one.
    func missingConfigurationHint() -> String {
        let others = [("marsgen.yaml", ""), ("Marsgen.yml", ""), ("marsgen.yml.txt", ""),
                      ("hugo.toml", "Hugo's"), ("hugo.yaml", "Hugo's"), ("hugo.json", "Hugo's"), ("config.toml", "Hugo's or Zola's"),
                      ("config.yaml", "Hugo's"), ("zola.toml", "Zola's")]
        for (name, whose) in others where reader.exists(name) {
            if whose.isEmpty { return "rename \(name) to \(SiteConfiguration.fileName)" }
            return "\(name) here is \(whose) configuration; marsgen reads its own, \(SiteConfiguration.fileName) "
                + "(title, base_url, mission: see README, Site configuration), or run 'marsgen init' in an empty folder for an example"
        }
        return "run 'marsgen init' to start a site here, or pass --source with the site's folder"
    }

    func loadConfiguration(_ context: inout BuildContext) throws(Diagnostic) {
        guard var config = try Self.readConfiguration(with: reader, log: &context.log) else {
            throw Diagnostic.error("no \(SiteConfiguration.fileName) in \(options.sourceDirectory)", hint: missingConfigurationHint())
        }
        if let url = options.baseURL { config.publish(at: url) }
        context.report.basePath = config.basePath
        // The settings as parsed, not the file's text: a comment, blank lines or the keys'
        // order change no page, so they are no reason for a full build.
        var hash = ContentHash()
        hash.combine(bytes: config.settingsDigest)
        // Every page without a picture of its own shows the site's, with its size: a new
        // size is a full build too, told apart by what follows the settings' hash.
        config.imageSize = NotASetting(siteImageSize(config))
        context.state.configurationHash = hash.description + (config.imageSize.value.map { " \($0.width)x\($0.height)" } ?? "")
            + (options.baseURL == nil ? "" : Self.baseURLMark)
        context.config = config
    }

    /// The size of the picture `image:` names, when it is a static or theme file of the
    /// site that gives one (see ``ImageSize``); nil otherwise.
    func siteImageSize(_ config: SiteConfiguration) -> ImageSize? {
        guard !config.image.isEmpty, LeadImage.url(written: config.image, basePath: config.basePath).utf8.first == UInt8(ascii: "/"),
              let link = MarkdownSiteLink(config.image, basePath: config.basePath, line: 1, column: 1, isImage: true),
              link.origin != .outsideBasePath, ImageSize.mayRead(fileNamed: link.path) else { return nil }
        let path = "static/" + link.path
        if reader.exists(path) {
            // Read by every build: its first bytes, where the formats give the size, unless
            // a JPEG's metadata comes first and runs longer. A file that cannot be read is
            // one the copy of static files reports.
            let first = 256 * 1024
            guard let bytes = try? reader.bytes(path, limit: first) else { return nil }
            if let size = ImageSize(ofFileNamed: link.path, bytes: bytes) { return size }
            guard bytes.count == first, let whole = try? reader.bytes(path) else { return nil }
            return ImageSize(ofFileNamed: link.path, bytes: whole)
        }
        return Self.themeImageSizes[link.path]
    }

    /// The configuration of the site in `directory`, read and checked as a build reads it
    /// (its warnings aside), for commands that need it without building: nil when the site
    /// has no `marsgen.yml`.
    public static func configuration(ofSiteIn directory: String) throws(Diagnostic) -> SiteConfiguration? {
        var log = DiagnosticLog()
        return try readConfiguration(with: SiteReader(root: directory), log: &log)
    }

    /// The site's `marsgen.yml`, parsed; nil when there is none.
    static func readConfiguration(with reader: SiteReader, log: inout DiagnosticLog) throws(Diagnostic) -> SiteConfiguration? {
        guard reader.exists(SiteConfiguration.fileName) else { return nil }
        let file = try reader.sourceFile(SiteConfiguration.fileName)
        return try SiteConfiguration.parse(file.text, path: file.path, log: &log)
    }

    /// Ends the configuration hash of a build for `--base-url`, for the notice of the full
    /// build that its address, given or no longer given, brings.
    static let baseURLMark = " --base-url"

    static let otherVersionNotice = "the last build was made by another version of marsgen; doing a full build"

    /// Whether the folder `output` holds anything but dot files: a site built before (whose
    /// state is gone), not a first build's empty or new folder.
    static func holdsPages(_ output: String) -> Bool {
        FileSystem.OpenFolder(path: output)?.entries.contains { !$0.name.hasPrefix(".") } ?? false
    }

    func loadBuildIndex(_ context: inout BuildContext) throws(Diagnostic) {
        guard !context.ignoresState else { return }
        guard !options.isClean else {
            context.report.notice = "--clean: full build"
            return
        }
        // A state this build cannot replace would describe the output as it was before this
        // build: the next build, trusting it, could leave pages as this one wrote them.
        // watch and serve keep theirs in memory instead, from the second build on.
        let index: BuildIndex
        if context.keepsNoState {
            guard let kept = options.memory?.indexKeptOnly() else {
                // .marsgen/ there but not writable: another user's (root's, after sudo).
                let isOthers = FileManager.default.fileExists(atPath: SitePaths.join(options.sourceDirectory, ".marsgen"))
                let why = isOthers ? "cannot write .marsgen/ (another user's? sudo chown it back)" : "the site folder is read-only"
                let state = options.memory != nil ? "the build state is kept in memory only"
                    : isOthers ? "no build state is kept" : "no build state is kept in .marsgen/"
                context.report.notice = "\(why), so \(state): full build"
                return
            }
            index = kept
        } else {
            guard !context.hadOlderState else {
                context.report.notice = Self.otherVersionNotice
                return
            }
            guard FileManager.default.fileExists(atPath: indexPath) || FileManager.default.fileExists(atPath: statePath) else {
                if FileManager.default.fileExists(atPath: legacyStatePath) {
                    context.report.notice = BuildState.StateProblem.otherFormat(2).notice
                } else if Self.holdsPages(options.outputDirectory) {
                    context.report.notice = "no build state for this output folder in .marsgen/; doing a full build"
                }
                return
            }
            // watch and serve: the index this process saved, unless another process saved one since.
            guard let saved = options.memory?.index(current: FileStat(path: indexPath)) ?? BuildIndex.load(from: indexPath),
                  FileStat(path: statePath)?.size == saved.stateSize else {
                if FileManager.default.fileExists(atPath: legacyStatePath) {
                    context.report.notice = BuildState.StateProblem.otherFormat(2).notice
                } else if !FileManager.default.fileExists(atPath: indexPath) {
                    // A build removes the index before it touches the output and saves it last.
                    context.report.notice = BuildState.StateProblem.unfinished.notice
                } else if BuildIndex.isOtherFormat(at: indexPath) {
                    context.report.notice = Self.otherVersionNotice
                } else {
                    context.report.notice = BuildState.StateProblem.unreadable.notice
                }
                return
            }
            // A state on disk of another format (marsgen upgraded) or with a damaged header
            // cannot serve the next edit: the build is a full one now, with its notice, not at
            // that edit. (watch and serve use the state they remember, when they do.)
            if options.memory?.state(token: saved.stateToken) == nil {
                let format = BuildState.format(ofStateAt: statePath)
                guard format == BuildState.formatVersion else {
                    context.report.notice = format.map { BuildState.StateProblem.otherFormat($0) }?.notice
                        ?? BuildState.StateProblem.unreadable.notice
                    return
                }
            }
            index = saved
        }
        var isDirectory: ObjCBool = false
        if index.marsgenVersion != BuildState.marsgenVersion {
            context.report.notice = Self.otherVersionNotice
        } else if index.configurationHash != context.state.configurationHash {
            let settings = { (hash: String) in hash.prefix { $0 != " " } }
            context.report.notice = if [index.configurationHash, context.state.configurationHash].contains(where: { $0.hasSuffix(Self.baseURLMark) }) {
                "the address the site is built for (--base-url) or the settings in \(SiteConfiguration.fileName) changed; doing a full build"
            } else if settings(index.configurationHash) == settings(context.state.configurationHash) {
                "the picture \(SiteConfiguration.fileName)'s image: names changed size; doing a full build"
            } else {
                "the settings in \(SiteConfiguration.fileName) changed; doing a full build"
            }
        } else if index.outputDirectory != options.recordedOutput
                    || !FileManager.default.fileExists(atPath: options.outputDirectory, isDirectory: &isDirectory)
                    || !isDirectory.boolValue {
            context.report.notice = "the output directory is missing; doing a full build"
        } else if case let stamp = OutputFolders.stamp(of: options.outputDirectory), index.outputFolders != stamp {
            // Pages the records say are in place may not be: only a full build knows. Another
            // folder itself (a copy of the site, one made anew) is told apart from one changed.
            context.report.notice = index.outputFolders.first?.inode != stamp.first?.inode
                ? "the output directory is not the one the last build wrote (a copy, or made anew?); doing a full build"
                : "the output directory changed since the last build (pages removed or moved by hand?); doing a full build"
        } else {
            context.previousIndex = index
            if index.includesDrafts != options.includesDrafts {
                context.draftsToggled = true
                context.report.notice = options.includesDrafts ? "drafts are included now (--drafts)" : "drafts are left out now (no --drafts)"
            }
        }
    }

    /// Compares every input file with the index: when none changed, the build is done;
    /// otherwise "Load build state" loads the state the index names, for an incremental build.
    ///
    /// Under a watcher (see ``BuildMemory``) only the paths it reported are looked at again;
    /// otherwise every input is listed and stat'ed. Either way, the inputs that differ from
    /// the index become ``BuildContext/changedInputs`` once the state is loaded: only those
    /// are read again.
    func checkForChanges(_ context: inout BuildContext) throws(Diagnostic) {
        // Every build, a build that changes nothing too: these are not the content's warnings
        // the index keeps, and a file put there changes no input.
        warnAboutUnreadContent(&context)
        guard var index = context.previousIndex else {
            // A full build lists its inputs here too, so that its index records the folders.
            let listed = try reader.inputFiles()
            context.inputFolders = listed.folders
            useListing(Self.listing(listed, stateToken: "", listedAt: context.state.scanStartedAt), context: &context)
            return
        }
        var listing: InputListing
        var changed: Bool
        /// Whether a watcher's report said which paths to look at.
        var watched = false
        /// The paths that differ from the index, or may (see `compare`), and whether a file
        /// was hashed again because its stat was unsure.
        let differing: Set<String>
        let rehashed: Bool
        if let taken = options.memory?.takeListing(stateToken: index.stateToken),
           let updated = updatedListing(taken.listing, changes: taken.changed) {
            listing = updated.listing
            let unsure = updated.touched.map { [stats = listing.stats] path in (path: path, stat: stats[path]) }
            changed = updated.addedOrRemoved
            watched = true
            // What the index recorded of the folders may be older than the watcher's
            // changes; the next build that lists the folders records them again, or
            // `recordInputFolders()` when the watcher stops.
            index.folders = []
            (differing, rehashed) = try compare(unsure, with: &index, changed: &changed)
        } else {
            // The listing stats each file as it lists it; it reads again only the folders
            // whose entries changed since the index recorded them.
            let listed = try reader.inputFiles(recordedIn: index)
            context.inputFolders = listed.folders
            index.folders = listed.folders ?? []
            changed = listed.files.count != index.inputs.count
            // The listing's table of stats by path (13,400 paths hashed at 10,000 entries)
            // and the comparison with the index need only the listed files: one on each core.
            let (made, compared) = inParallel({ [stateToken = index.stateToken, listedAt = context.state.scanStartedAt] in
                Self.listing(listed, stateToken: stateToken, listedAt: listedAt)
            }, { () -> Result<(Set<String>, Bool), Diagnostic> in
                do throws(Diagnostic) {
                    return .success(try compare(listed.files.lazy.map { ($0.path, Optional($0.stat)) }, with: &index, changed: &changed))
                } catch {
                    return .failure(error)
                }
            })
            listing = made
            (differing, rehashed) = try compared.get()
        }
        listing.listedAt = context.state.scanStartedAt
        if context.draftsToggled {
            // No file need have changed, but the object list has (the drafts'), and the
            // index and state must say which setting they were made with.
            changed = true
            context.stateChanged = true
        }
        if !changed, rehashed {
            // Every file that was unsure has just been hashed, after this build started: from
            // now on only files modified close to this start are unsure.
            index.scanStartedAt = context.state.scanStartedAt
        }
        context.listing = listing
        // Only stats changed (a touched file): the index learns them, so the next build need
        // not hash those files again (see `saveBuildState`).
        if !changed, index != context.previousIndex { context.refreshedIndex = index }
        if changed || (options.preparesNextBuild && options.memory != nil) {
            useListing(listing, context: &context)
        } else {
            context.isUpToDate = true
            context.report.isFullBuild = false
            context.report.journalEntries = index.journalEntries
            context.report.messages = index.messages
            context.report.weatherReports = index.weatherReports
            context.report.pagesUnchanged = index.pages
            // The site's files are as the last build read them: so are its warnings.
            for warning in index.warnings { context.log.record(warning) }
            return
        }
        context.stateToLoad = (index, differing.sorted(), watched)
    }

    /// Warns about each file or folder in `content/` that no build reads: `content/posts/`
    /// or `content/about.md`, as a site moved from Hugo or Zola has them, would otherwise
    /// make no page without a word. One listing of `content/`'s own names.
    func warnAboutUnreadContent(_ context: inout BuildContext) {
        let prefix = "content/"
        let read = ContentKind.allCases.map { String($0.folder.dropFirst(prefix.count)) }
            + [String(CrewLoader.path.dropFirst(prefix.count)), String(StandalonePageLoader.folder.dropFirst(prefix.count))]
        let folder = SitePaths.join(options.sourceDirectory, "content")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        // A README explains the folder to those who edit it; no one means a page by it.
        for name in names.sorted() where !SiteInputs.ignores(name: name) && !read.contains(name) && !name.uppercased().hasPrefix("README") {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: SitePaths.join(folder, name), isDirectory: &isDirectory)
            let what = isDirectory.boolValue ? "folder" : "file"
            let near = name.closestMatch(among: read)
            let places = "journal entries go in content/journal/ (in folders of any depth), message logs in content/messages/, "
                + "weather reports in content/weather/, pages of their own (an about page) in content/pages/, "
                + "files to copy as they are in static/"
            // `content/about.md`, as Hugo and Zola keep a page of its own.
            let page = !isDirectory.boolValue && name.hasSuffix(".md")
                ? "a page of its own goes in content/pages/ (content/pages/\(name) is at /\(name.dropLast(3))/); journal entries in content/journal/"
                : nil
            context.log.warn("'\(name)' is not a \(what) marsgen reads in content/: nothing on the site comes from \(isDirectory.boolValue ? "its files" : "it")",
                             at: SourceLocation(path: prefix + name),
                             hint: near.map { "did you mean content/\($0)\(isDirectory.boolValue ? "/" : "")?" } ?? page ?? places)
        }
    }

    /// Compares `files` (in path order) with the index's inputs. A file whose stat matches is
    /// as the index says; one that is new, gone or whose stat differs may differ. Until one
    /// is known to differ, a file whose stat alone changed (a touch, a copy with the same
    /// bytes) is hashed: the same bytes only refresh its stat in `index`. Once one differs
    /// (`changed`), the others whose stat differs are not hashed here: reading them decides.
    ///
    /// - Returns: The paths that differ, or may, and whether a file was hashed again.
    private func compare(_ files: some Sequence<(path: String, stat: FileStat?)>, with index: inout BuildIndex,
                         changed: inout Bool) throws(Diagnostic) -> (differing: Set<String>, rehashed: Bool) {
        var rehashed = false
        var differing: Set<String> = []
        // Both in path order: each lookup goes on from the last.
        var recorded = IndexInputs.Walk(index.inputs)
        for (path, stat) in files {
            guard let old = recorded.input(at: path), let stat else {
                differing.insert(path)
                changed = true
                continue
            }
            if stat.isUnchanged(from: old, recordedBy: index.scanStartedAt) {
                continue
            }
            if changed {
                differing.insert(path)
                continue
            }
            guard try sourceRecord(path, bytes: try reader.bytes(path), stat: stat).hash == old.hash else {
                differing.insert(path)
                changed = true
                continue
            }
            index.inputs[path] = BuildIndex.Input(stat, hash: old.hash)
            rehashed = true
        }
        return (differing, rehashed)
    }

    /// Loads the state the index names, when "Check for changes" found inputs that changed
    /// (or the build prepares the next one): from memory under `watch` and `serve`, else from
    /// disk, decoding its chunks. A step of its own, so that `--verbose` shows what loading
    /// the state costs apart from listing the inputs. Without a usable state, the build is a
    /// full one.
    func loadBuildState(_ context: inout BuildContext) throws(Diagnostic) {
        guard let (index, differing, watched) = context.stateToLoad, let listing = context.listing else { return }
        context.stateToLoad = nil
        /// A copy of the remembered state's source records, this build's own (see ``SpareTables``).
        var spareSources: RecordTable<BuildState.SourceRecord>?
        if let remembered = options.memory?.state(token: index.stateToken) {
            context.previous = remembered
            context.report.isFullBuild = false
            if watched, let spare = options.memory?.takeSpareTables(token: remembered.token) {
                (context.sparePages, spareSources) = (spare.pages, spare.sources)
            }
        }
        if context.previous == nil {
            switch Self.loadState(at: statePath, namedBy: index) {
            case .failure(let problem):
                context.report.notice = problem.notice ?? BuildState.StateProblem.unreadable.notice
            case .success(let state):
                context.previous = state
                context.report.isFullBuild = false
            }
        }
        guard context.previous != nil else {
            // Each source gets a record: growing the table one insert at a time would rehash it repeatedly.
            context.state.sources.reserveCapacity(listing.paths.count)
            return
        }
        // Every input that can have changed (all of them listed, or those a watcher reported)
        // was compared with the index, which names this very state: only those that differ
        // can differ from what the previous build read. The others keep their records as
        // they are, without a lookup each.
        context.changedInputs = differing
        // The records move rather than being copied: the state's table is then this build's
        // alone, and replacing a record does not copy the others first.
        context.previousSourceCount = context.previous?.sources.count ?? 0
        context.state.sources = spareSources ?? context.previous?.sources ?? [:]
        context.previous?.sources = [:]
        // Files can only have gone when the counts differ or a file came.
        if context.previousSourceCount != listing.stats.count || differing.contains(where: { context.state.sources[$0] == nil }) {
            context.goneInputs = context.state.sources.keys.filter { listing.stats[$0] == nil }.sorted()
            for path in context.goneInputs { context.state.sources[path] = nil }
            if context.goneInputs.contains(where: { $0.hasPrefix("content/") }) { context.contentFileChanged = true }
        }
    }

    /// `listed` as a listing to keep.
    static func listing(_ listed: ListedInputs, stateToken: String, listedAt: Int64) -> InputListing {
        var stats: [String: FileStat] = [:]
        stats.reserveCapacity(listed.files.count)
        for file in listed.files { stats[file.path] = file.stat }
        return InputListing(stateToken: stateToken, listedAt: listedAt, paths: listed.files.map(\.path), stats: stats,
                            hasLinks: listed.hasLinks)
    }

    /// Hands `listing` on to the steps that read the sources next: they need not list or
    /// stat them again.
    func useListing(_ listing: InputListing, context: inout BuildContext) {
        context.inputStats = listing.stats
        context.listedInputCount = listing.paths.count
        // The paths are sorted, so each folder's files are one run of them.
        for (directory, _) in SiteReader.inputFolders {
            context.inputListing[directory] = Array(listing.paths[listing.paths.sortedRun(under: directory)])
        }
    }

    /// `listing` brought up to date with the paths a watcher reported: each is looked at
    /// again (`lstat`), the files added or gone are added or removed. Nil when one of them
    /// needs a full listing: a folder came or went, or a link appeared.
    func updatedListing(_ listing: InputListing, changes: Set<String>)
        -> (listing: InputListing, touched: [String], addedOrRemoved: Bool)? {
        var listing = listing
        var touched: [String] = []
        var addedOrRemoved = false
        for path in changes.sorted() {
            let kind = SiteReader.inputKind(of: path)
            switch kind {
            case .none: continue
            case .folderOfInputs: return nil
            case .file, .underInputFolder: break
            }
            var info = stat()
            guard lstat(SitePaths.join(options.sourceDirectory, path), &info) == 0 else {
                if listing.stats.removeValue(forKey: path) != nil {
                    let index = listing.paths.sortedInsertionIndex(of: path)
                    if index < listing.paths.count, listing.paths[index] == path { listing.paths.remove(at: index) }
                    addedOrRemoved = true
                } else {
                    // A folder that held inputs went: list everything again.
                    let folder = path + "/"
                    let index = listing.paths.sortedInsertionIndex(of: folder)
                    if index < listing.paths.count, listing.paths[index].hasPrefix(folder) { return nil }
                }
                continue
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            guard kind == .file else { continue }
            if listing.stats.updateValue(FileStat(info), forKey: path) == nil {
                listing.paths.insert(path, at: listing.paths.sortedInsertionIndex(of: path))
                addedOrRemoved = true
            }
            touched.append(path)
        }
        return (listing, touched, addedOrRemoved)
    }
}
