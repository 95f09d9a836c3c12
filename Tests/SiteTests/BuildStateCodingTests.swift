import Content
import Diagnostics
import Foundation
import GFM
import Images
import MarsTime
import MarsgenTesting
import Rendering
@testable import Site
import Testing

@Suite("Build state: binary form")
struct BuildStateCodingTests {
    /// A state with every kind of record, odd strings, negative numbers and enough sources to
    /// fill several chunks.
    static func sampleState(seed: UInt64, sources count: Int) -> BuildState {
        var random = SeededRandom(seed: seed)
        let crew = CrewMember(id: "lewis", name: "Melissa Lewis", role: "Commander")
        func text() -> String {
            let pieces = ["", "a", "Sol 452", "é\u{0}\n\\", "🚀 liftoff", String(repeating: "x", count: 300), "<p>dust</p>"]
            return pieces[random.next(pieces.count)] + String(random.next(1000))
        }
        var state = BuildState(formatVersion: BuildState.formatVersion, marsgenVersion: "9.9.9", token: "t-1",
                               outputDirectory: "/site/public", configurationHash: "abc", scanStartedAt: -5,
                               sources: [:], templates: ["layout": "0123456789abcdef", "cell-message": ""], objects: [],
                               pages: [:], files: ["theme/marsgen.css": BuildState.FileRecord(bytes: "ff")])
        var objects: [ObjectFingerprint] = []
        for index in 0..<count {
            let path = "content/journal/\(index)-\(text()).md"
            let (size, modified) = (Int64(random.next(10_000)), Int64(bitPattern: random.next()))
            // The status-change time most often the modification time, else at any distance, wrapping too.
            let changed = index % 4 == 0 ? modified : modified &+ Int64(bitPattern: UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            var record = BuildState.SourceRecord(size: size, modified: modified, changed: changed, hash: text())
            switch index % 3 {
            case 0:
                record.journalEntries = [JournalEntry(sourcePath: path, explicitTitle: index % 2 == 0 ? nil : text(), slug: text(),
                                                      author: crew, instant: Instant(unixMillis: Int64(random.next(1 << 40)) - (1 << 39)),
                                                      sol: random.next(900) - 3, lmst: MarsClockTime(secondsOfSol: Double(random.next(86_400)) + 0.25),
                                                      tags: [text(), text()], isDraft: index % 4 == 0, bodyHTML: text(), description: text(),
                                                      image: index % 3 == 0 ? "" : text(), imageAlt: index % 3 == 1 ? text() : "",
                                                      imageSize: index % 3 == 2 ? ImageSize(width: 1 + index, height: 630) : nil,
                                                      teaser: index % 5 == 0 ? text() : "", tableOfContents: index % 7 == 0 ? text() : "",
                                                      wordCount: random.next(100_000),
                                                      // Not from `random`: the records' other values stay those of its sequence.
                                                      extra: index % 4 == 3 ? ["mood": .text("tense \(index)"), "out": .flag(index % 8 == 3),
                                                                               "list": .list([.text("é\(index)"), .mapping(["k é": .list([])])])] : [:])]
            case 1:
                record.messages = (0..<random.next(4)).map { ordinal in
                    // Authors and channels enough to fill a chunk's tables of repeated values, and to replace in them.
                    let author = index % 5 == 0 ? crew : CrewMember(id: "m\(random.next(24))", name: text(), role: "Crew")
                    return Message(sourcePath: path, channel: text(), author: author, instant: Instant(unixMillis: Int64(ordinal)),
                            sol: ordinal, lmst: MarsClockTime(secondsOfSol: 12.5), bodyHTML: text(), line: ordinal * 3, ordinal: ordinal)
                }
            default:
                record.weatherReports = [WeatherReport(sourcePath: path, instant: Instant(unixMillis: 7), sol: index, lmst: MarsClockTime(secondsOfSol: 0),
                                                       temperature: -63.5, high: -0.0, low: -.infinity, sunrise: MarsClockTime(secondsOfSol: 21_600),
                                                       sunset: MarsClockTime(secondsOfSol: 64_800), condition: .dustStorm, notesHTML: text(),
                                                       extra: index % 2 == 0 ? ["tau": .text("0.\(index)"), "storm": .flag(true)] : [:])]
                var warning = Diagnostic.warning(text(), at: SourceLocation(path: path, line: 3, column: index), hint: index % 2 == 0 ? nil : text())
                warning.step = index % 5 == 0 ? "Load weather reports" : nil
                record.warnings = [warning, Diagnostic.warning("no location")]
            }
            if index % 3 == 0 {
                record.links = [ContentLinkUse(target: "content/journal/\(text()).md", resolution: index % 2 == 0 ? "/journal/\(text())/" : ""),
                                ContentLinkUse(target: text(), resolution: "draft /journal/x/")]
            }
            if index % 4 == 1 {
                var image = MarkdownSiteLink(path: "img/\(index) é.png", line: index, column: 7, isImage: true)
                image.imageSize = index % 8 == 1 ? ImageSize(width: index, height: 3 * index + 1) : nil
                record.siteLinks = [image, MarkdownSiteLink(path: ""),
                                    MarkdownSiteLink(path: "sol/\(index)/", origin: .hostRoot, fragment: "m-\(index)"), MarkdownSiteLink(path: "a.png", origin: .outsideBasePath),
                                    MarkdownSiteLink(path: "clips/\(index).mp4", line: 2, column: 9, element: "video src")]
            }
            // A static image's record.
            if index % 5 == 2 { record.imageSize = ImageSize(width: 1_200 + index, height: 630) }
            state.sources[path] = record
            for object in record.journalEntries as [any FeedObject] + record.messages + record.weatherReports {
                objects.append(object.fingerprint)
            }
            state.pages["page/\(index)/index.html"] = BuildState.PageRecord(bytes: ContentHash(value: random.next()),
                                                                            fingerprint: ContentHash(value: random.next()),
                                                                            inputs: ContentHash(value: random.next()))
        }
        state.objects = objects
        return state
    }

    static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-state-\(UUID().uuidString).state").path
    }

    /// Removes a state file and its chunks.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: BuildState.chunkDirectory(forState: path))
    }

    /// A sample state saved to a new temporary file (remove it with ``remove(_:)``), and the
    /// state loaded back from it.
    static func savedSample(seed: UInt64, sources: Int) throws -> (path: String, state: BuildState, loaded: BuildState) {
        let path = temporaryFile()
        var state = sampleState(seed: seed, sources: sources)
        try state.save(to: path)
        return (path, state, try BuildState.load(from: path).get())
    }

    /// The names of the chunk files of the state at `path`.
    static func chunkFiles(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: BuildState.chunkDirectory(forState: path)).sorted()
    }

    @Test("the check hash changes with any bit of any byte, with the length, and with words swapped between its lanes")
    func checkHash() throws {
        var random = SeededRandom(seed: 19)
        func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { StateWriter.checkHash($0) } }
        var seen: Set<UInt64> = []
        for length in 0..<100 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let original = hash(bytes)
            #expect(seen.insert(original).inserted, "length \(length)")
            // Zeros of every length: the length counts, not only the bytes.
            if length > 0 { #expect(seen.insert(hash([UInt8](repeating: 0, count: length))).inserted, "zeros \(length)") }
            for position in bytes.indices {
                for bit in 0..<8 {
                    var damaged = bytes
                    damaged[position] ^= 1 << bit
                    #expect(hash(damaged) != original, "length \(length), byte \(position), bit \(bit)")
                }
            }
            // Two different words of one 32-byte step swapped (lanes 1 and 2).
            if length >= 32, bytes[0..<8] != bytes[8..<16] {
                var swapped = bytes
                swapped.replaceSubrange(0..<16, with: Array(bytes[8..<16] + bytes[0..<8]))
                #expect(hash(swapped) != original, "length \(length)")
            }
        }
    }

    @Test("a state saved and loaded again is the same state", arguments: [0, 1, 999, 1_000, 1_001, 3_500])
    func roundTrip(sources: Int) throws {
        var state = Self.sampleState(seed: UInt64(sources) + 1, sources: sources)
        let path = Self.temporaryFile()
        defer { Self.remove(path) }
        let size = try state.save(to: path)
        #expect(size == FileStat(path: path)?.size)
        let loaded = try BuildState.load(from: path).get()
        #expect(loaded == state)
        // Each object's stamp is read from the state, not computed: it must be the one its
        // identifier and content hash give.
        for record in loaded.sources.values {
            let objects: [any FeedObject] = record.journalEntries + record.messages + record.weatherReports
            for object in objects { #expect(object.stamp == object.fingerprint.stamp, "\(object.diffIdentifier)") }
        }
        // Each chunk is a file named by its bytes; the state file names them all.
        #expect(try Self.chunkFiles(path).count == loaded.chunks.count)
    }

    @Test("a save that copies unchanged chunks from the loaded file gives the state it was asked to save")
    func reusedChunks() throws {
        var (path, state, loaded) = try Self.savedSample(seed: 11, sources: 3_000)
        defer { Self.remove(path) }
        #expect(loaded.chunks.sources.count > 2)
        // One record edited, one removed, one added; the rest as loaded.
        let paths = state.sources.keys.sorted()
        state = loaded
        state.sources[paths[1_500]]?.hash = "edited"
        state.sources[paths[10]] = nil
        state.sources["content/journal/new.md"] = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "3")
        // Parsed again (as after a crew change): same file, new objects that say something else.
        let reparsed = try #require(paths[2_500...].first { state.sources[$0]?.journalEntries.isEmpty == false })
        let entry = try #require(state.sources[reparsed]?.journalEntries.first)
        state.sources[reparsed]?.journalEntries = [JournalEntry(sourcePath: entry.sourcePath, explicitTitle: "Parsed again", slug: entry.slug,
                                                                author: entry.author, instant: entry.instant, sol: entry.sol, lmst: entry.lmst,
                                                                tags: entry.tags, isDraft: entry.isDraft, bodyHTML: entry.bodyHTML)]
        state.token = "t-2"
        let chunksBefore = Set(try Self.chunkFiles(path))
        _ = try state.save(to: path, reusing: loaded)
        // Only the chunks that changed were written; the files of the ones that went are gone.
        let chunksAfter = Set(try Self.chunkFiles(path))
        #expect(chunksAfter.count == state.chunks.count)
        #expect(chunksAfter.intersection(chunksBefore).count >= chunksAfter.count - 4)
        #expect(!chunksAfter.subtracting(chunksBefore).isEmpty && !chunksBefore.subtracting(chunksAfter).isEmpty)
        let reloaded = try BuildState.load(from: path).get()
        #expect(reloaded == state)
        #expect(reloaded.sources[paths[1_500]]?.hash == "edited")
        #expect(reloaded.sources[reparsed]?.journalEntries.first?.title == "Parsed again")
        #expect(state.encoded(reusing: loaded) == state.encoded())
    }

    @Test("a loaded state's object list gives every object's stamp, and the objects of any range as they were saved")
    func objectListRanges() throws {
        let (path, state, loaded) = try Self.savedSample(seed: 15, sources: 3_500)
        defer { Self.remove(path) }
        let saved = state.objects
        #expect(loaded.chunks.objects.count > 2)
        #expect(loaded.objectList.count == saved.count)
        #expect(loaded.objectList.stamps == saved.map(\.stamp))
        var random = SeededRandom(seed: 15)
        // Ranges within one chunk, across chunks, empty, and the whole list.
        var ranges = [0..<0, 0..<1, (saved.count - 1)..<saved.count, 0..<saved.count]
        for _ in 0..<40 {
            let start = random.next(saved.count)
            ranges.append(start..<(start + random.next(min(3_000, saved.count - start) + 1)))
        }
        for range in ranges { #expect(loaded.objectList.fingerprints(in: range) == Array(saved[range]), "\(range)") }
        // A save of the loaded state, identifiers unread, keeps every chunk as it is.
        #expect(loaded.encoded(reusing: loaded) == state.encoded())
    }

    @Test("a save writes pages and sources in sorted order, whether or not their paths changed since the state was loaded")
    func savedOrder() throws {
        let (path, _, loaded) = try Self.savedSample(seed: 13, sources: 1_500)
        defer { Self.remove(path) }
        #expect(loaded.savedOrder.pages == loaded.pages.keys.sorted())
        #expect(loaded.savedOrder.sources == loaded.sources.keys.sorted())
        let pagePaths = loaded.savedOrder.pages
        let sourcePaths = loaded.savedOrder.sources
        let record = BuildState.PageRecord(bytes: ContentHash(value: 1), fingerprint: ContentHash(value: 2), inputs: ContentHash(value: 3))
        // The same paths, records changed: written in the loaded order.
        var same = loaded
        same.pages[pagePaths[700]] = record
        same.sources[sourcePaths[700]]?.hash = "edited"
        // Paths added in the middle and removed.
        var changed = same
        changed.pages[pagePaths[3]] = nil
        changed.pages["page/1000-added/index.html"] = record
        changed.sources[sourcePaths[3]] = nil
        changed.sources["content/journal/1000-added.md"] = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "3")
        // As many paths as before, one of them another.
        var renamed = same
        renamed.pages[pagePaths[900]] = nil
        renamed.pages["page/0-renamed/index.html"] = record
        renamed.sources[sourcePaths[900]] = nil
        renamed.sources["content/journal/0-renamed.md"] = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "3")
        for variant in [same, changed, renamed] {
            #expect(variant.encoded(reusing: loaded) == variant.encoded())
        }
        try renamed.save(to: path, reusing: loaded)
        #expect(try BuildState.load(from: path).get() == renamed)
        #expect(renamed.savedOrder.pages == renamed.pages.keys.sorted())
    }

    @Test("records are put in path order from the loaded order, whatever was added, removed or renamed, and whatever that order holds")
    func sortedFromKnownOrder() {
        var random = SeededRandom(seed: 2611)
        for _ in 0..<300 {
            let all = (0..<Int.random(in: 0...60, using: &random)).map { _ in "p/\(Int.random(in: 0..<90, using: &random))" }
            var map: [String: Int] = [:]
            for key in all where Bool.random(using: &random) { map[key] = Int.random(in: 0..<1_000, using: &random) }
            // The loaded order: some of the map's keys, some it no longer holds; now and
            // then out of order or repeated, as a damaged state's could be.
            var known = Array(Set(all.filter { _ in Int.random(in: 0..<4, using: &random) > 0 })).sorted()
            if known.count > 2, Int.random(in: 0..<10, using: &random) == 0 { known.swapAt(0, known.count - 1) }
            if !known.isEmpty, Int.random(in: 0..<10, using: &random) == 0 { known.insert(known[0], at: 0) }
            let (keys, values) = BuildState.sorted(RecordTable(map), known: known)
            #expect(keys == map.keys.sorted())
            #expect(values == keys.map { map[$0] ?? -1 })
        }
    }

    @Test("a loaded state's tables take every record they did not set from its chunks, in path order, as a lookup of each gives")
    func recordTablesTakeUnsetRecordsFromChunks() throws {
        let (path, _, loaded) = try Self.savedSample(seed: 23, sources: 1_400)
        defer { Self.remove(path) }
        /// What a save must write: every path sorted, with its record now.
        func lookedUp<Record>(_ table: RecordTable<Record>) -> (keys: [String], values: [Record]) {
            let keys = table.keys.sorted()
            return (keys, keys.compactMap { table[$0] })
        }
        var random = SeededRandom(seed: 23)
        let record = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "new")
        var keptChunks = 0
        for trial in 0..<60 {
            var edited = loaded
            let (pagePaths, sourcePaths) = (loaded.pages.keys.sorted(), loaded.sources.keys.sorted())
            // Paths removed, replaced, added (before the first, after the last, in between),
            // removed and set again, or set to what they held.
            for _ in 0..<(1 + random.next(12)) {
                let (page, source) = (pagePaths[random.next(pagePaths.count)], sourcePaths[random.next(sourcePaths.count)])
                switch random.next(6) {
                case 0:
                    edited.pages[page] = nil
                    edited.sources[source] = nil
                case 1:
                    edited.pages[page] = BuildState.PageRecord(bytes: ContentHash(value: random.next()), fingerprint: ContentHash(),
                                                               inputs: ContentHash())
                    edited.sources[source] = record
                case 2:
                    edited.pages[["", "page/5/index.html~", "zz/index.html"][random.next(3)] + String(trial)] = loaded.pages[page]
                    edited.sources.updateValue(record, forKey: source + "-added")
                case 3:
                    edited.pages[page] = nil
                    edited.pages[page] = loaded.pages[page]
                case 4:
                    edited.sources[source] = loaded.sources[source]
                default:
                    edited.sources["content/a-\(trial).md"] = record
                    edited.sources["content/a-\(trial).md"] = nil
                }
            }
            let pages = try #require(edited.pages.sortedRecords(takingUnchangedFrom: loaded.chunks.pages))
            let sources = try #require(edited.sources.sortedRecords(takingUnchangedFrom: loaded.chunks.sources))
            let (pagesLookedUp, sourcesLookedUp) = (lookedUp(edited.pages), lookedUp(edited.sources))
            #expect(pages.keys == pagesLookedUp.keys && pages.values == pagesLookedUp.values, "trial \(trial)")
            #expect(sources.keys == sourcesLookedUp.keys && sources.values == sourcesLookedUp.values, "trial \(trial)")
            // Each chunk said taken whole holds the keys and records from where it is said to start.
            func checkKept<Record: Equatable>(_ sorted: (keys: [String], values: [Record], kept: [Int: Int]),
                                              _ chunks: ChunkedList<Record>) {
                keptChunks += sorted.kept.count
                for (start, position) in sorted.kept {
                    let chunk = chunks.chunks[position]
                    let end = start + chunk.items.count
                    #expect(end <= sorted.keys.count && Array(sorted.keys[start..<end]) == chunk.keys
                            && Array(sorted.values[start..<end]) == chunk.items, "trial \(trial): chunk \(position) at \(start)")
                }
            }
            checkKept(pages, loaded.chunks.pages)
            checkKept(sources, loaded.chunks.sources)
        }
        #expect(keptChunks > 60)
        // A table made otherwise, or chunks that changed since, and the lookups it is.
        #expect(RecordTable(Dictionary(uniqueKeysWithValues: Array(loaded.pages))).sortedRecords(takingUnchangedFrom: loaded.chunks.pages) == nil)
        var edited = loaded
        edited.pages["page/new/index.html"] = loaded.pages["page/1/index.html"]
        try edited.save(to: path, reusing: loaded)
        #expect(edited.pages.sortedRecords(takingUnchangedFrom: loaded.chunks.pages) == nil)
        // Once saved, its chunks hold every record: the next save takes them all from there.
        let again = try #require(edited.pages.sortedRecords(takingUnchangedFrom: edited.chunks.pages))
        #expect(again.keys == lookedUp(edited.pages).keys && again.values == lookedUp(edited.pages).values)
        #expect(try BuildState.load(from: path).get() == edited)
    }

    @Test("a table made from a loaded state's chunks answers as a dictionary given the same changes would, and goes over its paths in order")
    func recordTableAnswersAsADictionary() throws {
        let (path, _, loaded) = try Self.savedSample(seed: 31, sources: 900)
        defer { Self.remove(path) }
        #expect(loaded.pages.origin != nil && loaded.pages.count > 100)
        var random = SeededRandom(seed: 31)
        let paths = loaded.pages.keys
        // Paths the chunks hold, and others: before the first, after the last, between two.
        let candidates = paths + ["", "a", "page/1/index.html~", "page/10", "zzz/index.html"] + paths.prefix(40).map { $0 + "x" }
        for trial in 0..<40 {
            var table = loaded.pages
            var model = Dictionary(uniqueKeysWithValues: Array(loaded.pages))
            for _ in 0..<(random.next(30)) {
                let key = candidates[random.next(candidates.count)]
                let record = BuildState.PageRecord(bytes: ContentHash(value: random.next()), fingerprint: ContentHash(), inputs: ContentHash())
                switch random.next(4) {
                case 0:
                    table[key] = nil
                    model[key] = nil
                case 1:
                    #expect(table.updateValue(record, forKey: key) == model.updateValue(record, forKey: key), "trial \(trial)")
                case 2:
                    table[key] = record
                    model[key] = record
                default:
                    table[key] = loaded.pages[key]
                    model[key] = loaded.pages[key]
                }
                #expect(table.count == model.count && table.isEmpty == model.isEmpty, "trial \(trial)")
            }
            for key in candidates { #expect(table[key] == model[key], "trial \(trial): \(key)") }
            // In increasing path order, each path once, with its record.
            let listed = Array(table)
            #expect(listed.map(\.key) == model.keys.sorted(), "trial \(trial)")
            #expect(listed.allSatisfy { model[$0.key] == $0.value } && table.values == listed.map(\.value))
            #expect(table == RecordTable(model) && RecordTable(model) == table)
        }
        // A state whose keys are not in increasing order is damaged: its chunks make no table.
        let sources = loaded.chunks.sources
        #expect(sources.count > 2 && sources.table() != nil)
        let (keys, items) = sources.keysAndItems(in: 0..<sources.itemCount)
        func chunked(_ order: [Int]) -> ChunkedList<BuildState.SourceRecord> {
            ChunkedList(averageItems: 8).encoding(keys: order.map { keys[$0] }, items: order.map { items[$0] }) { key, _, writer in
                writer.write(key)
            }.list
        }
        #expect(chunked(Array(keys.indices)).table() != nil)
        #expect(chunked(keys.indices.reversed()).table() == nil)
        #expect(chunked(Array(keys.indices.dropFirst(keys.count / 2)) + Array(keys.indices.prefix(keys.count / 2))).table() == nil)
        #expect(chunked(Array(keys.indices) + [0]).table() == nil)
    }

    @Test("a save makes .marsgen/ and the chunks' folder in a site's folder, but not a site folder that is gone")
    func saveMakesNoSiteFolder() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-site-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: site) }
        var state = Self.sampleState(seed: 41, sources: 20)
        let statePath = site + "/.marsgen/build-x.state"
        let index = BuildIndex(outputDirectory: site + "/public", configurationHash: "c", scanStartedAt: 1, stateToken: "t",
                               stateSize: 0, inputs: [:])
        // Deleted while `marsgen watch` was still saving: nothing brings it back.
        #expect(throws: (any Error).self) { try state.save(to: statePath) }
        #expect(throws: (any Error).self) { try index.save(to: BuildIndex.path(forState: statePath)) }
        #expect(throws: (any Error).self) { try RenderedRows.save(["rows": RowCache.RenderedList([(key: 1, html: "<tr></tr>")])], to: site + "/.marsgen/build-x.rows") }
        #expect(!FileManager.default.fileExists(atPath: site))
        // A site's folder without .marsgen/ yet: both are made.
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: false)
        try state.save(to: statePath)
        try index.save(to: BuildIndex.path(forState: statePath))
        #expect(try BuildState.load(from: statePath).get() == state)
        #expect(BuildIndex.load(from: BuildIndex.path(forState: statePath)) != nil)
    }

    @Test("bodies and identifiers restored from the state, left undecoded, read the same after the state and its files are gone")
    func bodiesOutliveState() throws {
        let path = Self.temporaryFile()
        var state = Self.sampleState(seed: 14, sources: 600)
        try state.save(to: path)
        /// The loaded state's objects by identifier, with nothing else of it kept.
        func restoredObjects() throws -> [String: any FeedObject] {
            let loaded = try BuildState.load(from: path).get()
            var objects: [String: any FeedObject] = [:]
            for record in loaded.sources.values {
                for object in record.journalEntries as [any FeedObject] + record.messages { objects[object.diffIdentifier] = object }
            }
            return objects
        }
        let restored = try restoredObjects()
        Self.remove(path)
        // Overwrite what the freed memory held, had anything been freed.
        let filler = [UInt8](repeating: 0x5A, count: 8 << 20)
        #expect(filler.count == 8 << 20)
        var compared = 0
        for record in state.sources.values {
            for entry in record.journalEntries {
                let twin = try #require(restored[entry.diffIdentifier] as? JournalEntry)
                #expect(twin.bodyHTML == entry.bodyHTML)
                #expect(twin.diffIdentifier == entry.diffIdentifier && twin.stamp == entry.stamp && twin.identifier == entry.identifier)
                #expect(twin == entry && twin.body == HTMLBody(entry.bodyHTML))
                compared += 1
            }
            for message in record.messages {
                let twin = try #require(restored[message.diffIdentifier] as? Message)
                #expect(twin.bodyHTML == message.bodyHTML)
                #expect(twin.diffIdentifier == message.diffIdentifier && twin.stamp == message.stamp && twin.identifier == message.identifier)
                #expect(twin == message)
                compared += 1
            }
        }
        #expect(compared > 300)
        // A body that differs in one byte is another body.
        let entry = try #require(restored.values.compactMap { $0 as? JournalEntry }.first { !$0.bodyHTML.isEmpty })
        #expect(entry.body != HTMLBody(entry.bodyHTML + " "))
        #expect(entry.body != HTMLBody(String(entry.bodyHTML.dropLast()) + "\u{1}"))
    }

    @Test("a chunk keeps the objects' bodies and identifiers after its records, so that decoding the records reads none of them")
    func textsAfterRecords() throws {
        let (path, state, loaded) = try Self.savedSample(seed: 15, sources: 900)
        defer { Self.remove(path) }
        // Every stored text: each entry's and message's identifier and body, each entry's
        // description, image, teaser and table of contents, and the object list's identifiers.
        var expected = state.objects.reduce(0) { $0 + $1.diffIdentifier.utf8.count }
        for record in state.sources.values {
            for entry in record.journalEntries {
                expected += entry.diffIdentifier.utf8.count + entry.bodyHTML.utf8.count + entry.description.text.utf8.count
                    + entry.image.text.utf8.count + entry.imageAlt.text.utf8.count + entry.teaser.text.utf8.count
                    + entry.tableOfContents.text.utf8.count
            }
            for message in record.messages { expected += message.diffIdentifier.utf8.count + message.bodyHTML.utf8.count }
        }
        var texts = 0
        for name in try Self.chunkFiles(path) {
            let chunk = [UInt8](try Data(contentsOf: URL(fileURLWithPath: BuildState.chunkDirectory(forState: path)).appendingPathComponent(name)))
            let recordsLength = chunk.prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
            try #require(16 + recordsLength <= chunk.count)
            texts += chunk.count - 16 - recordsLength
        }
        #expect(expected > 50_000)
        #expect(texts == expected)
        #expect(loaded == state)
    }

    @Test("restored messages of one sender in one log share one origin, and equal the messages saved")
    func sharedOrigins() throws {
        let vega = CrewMember(id: "vega", name: "Ines Vega", role: "Pilot")
        let okoro = CrewMember(id: "okoro", name: "Ade Okoro", role: "Engineer")
        var state = BuildState(formatVersion: BuildState.formatVersion, marsgenVersion: "9.9.9", token: "t", outputDirectory: "/o",
                               configurationHash: "c", scanStartedAt: 0, sources: [:], templates: [:], objects: [], pages: [:], files: [:])
        for log in 0..<40 {
            let path = "content/messages/log-\(log).md"
            var record = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "h\(log)")
            record.messages = (0..<30).map { index in
                Message(sourcePath: path, channel: log % 2 == 0 ? "hab" : "rover", author: index % 3 == 0 ? okoro : vega,
                        instant: Instant(unixMillis: Int64(index) * 60_000), sol: 1, lmst: MarsClockTime(secondsOfSol: 0),
                        bodyHTML: "<p>\(index)</p>", line: index * 2 + 5, ordinal: 0)
            }
            state.sources[path] = record
            state.objects += record.messages.map(\.fingerprint)
        }
        // A log of more senders than a chunk's table holds: they leave it and join it again
        // (with new numbers), and each message must still come back with its own sender.
        let crowdPath = "content/messages/crowd.md"
        var crowd = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "crowd")
        crowd.messages = (0..<60).map { index in
            Message(sourcePath: crowdPath, channel: index % 7 == 0 ? "hab" : "rover",
                    author: CrewMember(id: "m\(index % 20)", name: "Member \(index % 20)", role: "Crew"),
                    instant: Instant(unixMillis: Int64(index) * 60_000), sol: 2, lmst: MarsClockTime(secondsOfSol: 0),
                    bodyHTML: "<p>\(index)</p>", line: index * 2 + 5, ordinal: 0)
        }
        state.sources[crowdPath] = crowd
        state.objects += crowd.messages.map(\.fingerprint)
        let path = Self.temporaryFile()
        defer { Self.remove(path) }
        try state.save(to: path)
        let loaded = try BuildState.load(from: path).get()
        #expect(loaded == state)
        let crowdLoaded = loaded.sources[crowdPath]?.messages ?? []
        #expect(crowdLoaded.map(\.author) == crowd.messages.map(\.author))
        #expect(crowdLoaded.map(\.channel) == crowd.messages.map(\.channel))
        #expect(crowdLoaded.allSatisfy { $0.sourcePath == crowdPath })
        var origins = 0
        for (path, record) in loaded.sources where path != crowdPath {
            let bySender = Dictionary(grouping: record.messages, by: \.author.id)
            #expect(bySender.count == 2)
            for messages in bySender.values {
                #expect(messages.allSatisfy { $0.origin === messages[0].origin && $0.sourcePath == path })
                origins += 1
            }
            #expect(record.messages == state.sources[path]?.messages)
        }
        #expect(origins == 80)
    }

    @Test("a text of a chunk changed on disk is reported when read, for its state's folder, and only then; an unchanged one never is")
    func damagedTextsReportedWhenRead() throws {
        let vega = CrewMember(id: "vega", name: "Ines Vega", role: "Pilot")
        var state = BuildState(formatVersion: BuildState.formatVersion, marsgenVersion: "9.9.9", token: "t", outputDirectory: "/o",
                               configurationHash: "c", scanStartedAt: 0, sources: [:], templates: [:], objects: [], pages: [:], files: [:])
        let logPath = "content/messages/log.md"
        var record = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "h")
        record.messages = ["<p>Dust on the panels, intact.</p>", "<p>Dust on the panels, damaged.</p>"].enumerated().map { index, body in
            Message(sourcePath: logPath, channel: "hab", author: vega, instant: Instant(unixMillis: Int64(index) * 60_000), sol: 1,
                    lmst: MarsClockTime(secondsOfSol: 0), bodyHTML: body, line: index * 2 + 5, ordinal: 0)
        }
        state.sources[logPath] = record
        state.objects = record.messages.map(\.fingerprint)
        let path = Self.temporaryFile()
        defer { Self.remove(path) }
        try state.save(to: path)
        let folder = BuildState.chunkDirectory(forState: path)
        _ = DamagedTexts.take(in: folder)
        // One byte of a body, and one of an identifier in the object list's chunk.
        func damage(_ text: String, _ replacement: String) throws -> Int {
            var changed = 0
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
                var bytes = [UInt8](try Data(contentsOf: url))
                let needle = Array(text.utf8)
                guard let start = (0...(bytes.count - needle.count)).first(where: { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
                else { continue }
                bytes.replaceSubrange(start..<(start + needle.count), with: Array(replacement.utf8))
                try Data(bytes).write(to: url)
                changed += 1
            }
            return changed
        }
        #expect(try damage("damaged.</p>", "DAMAGED.</p>") == 1)
        #expect(try damage("@1970-01-01T00:01:00Z", "@1970-01-01T00:01:09Z") == 2)
        let loaded = try BuildState.load(from: path).get()
        let messages = loaded.sources[logPath]?.messages ?? []
        try #require(messages.count == 2)
        #expect(!DamagedTexts.take(in: folder))
        #expect(messages[0].bodyHTML == "<p>Dust on the panels, intact.</p>")
        #expect(messages[0].diffIdentifier == record.messages[0].diffIdentifier)
        #expect(!DamagedTexts.take(in: folder))
        // The damaged body reads as it is now, and is reported, each time it is read.
        #expect(messages[1].bodyHTML == "<p>Dust on the panels, DAMAGED.</p>")
        #expect(DamagedTexts.take(in: folder))
        #expect(!DamagedTexts.take(in: folder))
        messages[1].body.withUTF8 { _ in }
        #expect(DamagedTexts.take(in: folder))
        // The damaged identifier: in the source's chunk, and in the object list's, whose
        // identifiers are made strings all at once, on first use, and checked then.
        _ = messages[1].diffIdentifier
        #expect(DamagedTexts.take(in: folder))
        #expect(loaded.objectList.fingerprints(in: 0..<1).map(\.diffIdentifier) == [record.messages[0].diffIdentifier])
        #expect(DamagedTexts.take(in: folder))
        #expect(loaded.objectList.fingerprints(in: 1..<2).map(\.diffIdentifier) != [record.messages[1].diffIdentifier])
        #expect(!DamagedTexts.take(in: folder))
        #expect(!DamagedTexts.take(in: BuildState.chunkDirectory(forState: Self.temporaryFile())))
    }

    @Test("any byte of the state file changed after its format makes it unreadable, never another state")
    func stateFileHashed() throws {
        let (path, _, loaded) = try Self.savedSample(seed: 21, sources: 300)
        defer { Self.remove(path) }
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The magic and the format come first; a changed format reads as another format.
        let headerCount = Array("marsgen-state\n".utf8).count + 1
        for position in headerCount..<original.count {
            var changed = original
            changed[position] ^= position % 2 == 0 ? 0x01 : 0x40
            try Data(changed).write(to: URL(fileURLWithPath: path))
            guard case .failure(.unreadable) = BuildState.load(from: path) else {
                Issue.record("byte \(position) of \(original.count) changed, and the state still read")
                continue
            }
        }
        try Data(original).write(to: URL(fileURLWithPath: path))
        #expect(try BuildState.load(from: path).get() == loaded)
    }

    @Test("values that repeat are read back as written, however many a chunk meets; a position past its table is damage")
    func repeatedValues() throws {
        var writer = StateWriter()
        var random = SeededRandom(seed: 17)
        // Runs of one value, and values met again after many others (more than a table holds).
        var written: [String] = []
        for _ in 0..<3_000 {
            let value = random.next(4) == 0 ? "path-\(random.next(60))" : (written.last ?? "first")
            writer.write(repeated: value, in: \.channels) { value, writer in writer.write(value) }
            written.append(value)
        }
        #expect(writer.bytes.count < written.reduce(0) { $0 + $1.utf8.count } / 2)
        writer.bytes.withUnsafeBytes { bytes in
            var reader = StateReader(bytes)
            var fields = RepeatedFields()
            var read: [String] = []
            for _ in written {
                guard let value = try? reader.readRepeated(&fields.channels, { reader throws(StateReader.Damaged) in try reader.readString() })
                else { break }
                read.append(value)
            }
            #expect(read == written)
            #expect(reader.isAtEnd)
        }
        var damaged = StateWriter()
        damaged.write(count: 0)
        damaged.write("one")
        damaged.write(count: 2)
        damaged.bytes.withUnsafeBytes { bytes in
            var reader = StateReader(bytes)
            var fields = RepeatedFields()
            #expect((try? reader.readRepeated(&fields.channels) { reader throws(StateReader.Damaged) in try reader.readString() }) == "one")
            #expect(throws: StateReader.Damaged.self) {
                try reader.readRepeated(&fields.channels) { reader throws(StateReader.Damaged) in try reader.readString() }
            }
        }
    }

    @Test("texts written apart read back in order among the other values; a text past the end, one left unread, or a changed byte of the records is damage")
    func separatedTexts() throws {
        var writer = StateWriter(separatingTexts: true)
        var random = SeededRandom(seed: 16)
        var written: [(number: Int, text: String)] = []
        for index in 0..<500 {
            let entry = (number: random.next(1 << 20) - (1 << 19), text: String(repeating: "é", count: random.next(40)) + String(index))
            writer.write(entry.number)
            writer.write(text: entry.text)
            written.append(entry)
        }
        let bytes = writer.separatedBytes
        try bytes.withUnsafeBytes { bytes throws in
            var reader = try StateReader(separated: bytes)
            for entry in written {
                #expect(try reader.readInt() == entry.number)
                #expect(String(decoding: try reader.readText(), as: UTF8.self) == entry.text)
            }
            #expect(reader.isAtEnd)
        }
        // One text unread: not at the end. A length past the texts: damaged.
        let short = Array(bytes.dropLast())
        try short.withUnsafeBytes { bytes throws in
            var reader = try StateReader(separated: bytes)
            for _ in written.dropLast() {
                _ = try reader.readInt()
                _ = try reader.readText()
            }
            _ = try reader.readInt()
            #expect(throws: StateReader.Damaged.self) { try reader.readText() }
        }
        try (bytes + [0x41]).withUnsafeBytes { bytes throws in
            var reader = try StateReader(separated: bytes)
            for _ in written {
                _ = try reader.readInt()
                _ = try reader.readText()
            }
            #expect(!reader.isAtEnd)
        }
        // A length of the records past the end of the bytes.
        var longer = bytes
        longer[7] = 0x7F
        longer.withUnsafeBytes { bytes in
            _ = #expect(throws: StateReader.Damaged.self) { try StateReader(separated: bytes) }
        }
        // Any byte of the records (or of their hash) changed: damaged. A byte of the texts
        // is not checked here, but by whoever reads the text, against the check the records
        // hold for it (see `damagedTextsReportedWhenRead`).
        let recordsEnd = 16 + bytes.prefix(8).reversed().reduce(0) { $0 << 8 | Int($1) }
        for position in stride(from: 8, to: recordsEnd, by: 7) {
            var changed = bytes
            changed[position] ^= 0x20
            changed.withUnsafeBytes { bytes in
                _ = #expect(throws: StateReader.Damaged.self, "byte \(position)") { try StateReader(separated: bytes) }
            }
        }
        var changedText = bytes
        changedText[recordsEnd] ^= 0x01
        try changedText.withUnsafeBytes { bytes throws in
            _ = try StateReader(separated: bytes)
        }
    }

    @Test("a save that keeps a loaded chunk whose file has gone writes it again")
    func keptChunkFileGone() throws {
        var (path, state, loaded) = try Self.savedSample(seed: 12, sources: 2_000)
        defer { Self.remove(path) }
        #expect(loaded.chunks.sources.count > 2)
        // As when someone empties the folder while `marsgen watch` holds the loaded state.
        try FileManager.default.removeItem(atPath: BuildState.chunkDirectory(forState: path))
        state = loaded
        state.sources["content/journal/new.md"] = BuildState.SourceRecord(size: 1, modified: 2, changed: 3, hash: "3")
        try state.save(to: path, reusing: loaded)
        #expect(try BuildState.load(from: path).get() == state)
    }

    @Test("saving the same state twice gives the same bytes")
    func deterministic() throws {
        let state = Self.sampleState(seed: 7, sources: 1_200)
        #expect(state.encoded() == state.encoded())
        var copy = state
        copy.sources = RecordTable(Dictionary(uniqueKeysWithValues: state.sources.shuffled()))
        #expect(copy.encoded() == state.encoded())
    }

    @Test("every truncation of a state file or of a chunk, a missing chunk, and damaged bytes read as unreadable, never as a state")
    func truncated() throws {
        var state = Self.sampleState(seed: 3, sources: 600)
        let path = Self.temporaryFile()
        defer { Self.remove(path) }
        try state.save(to: path)
        let url = URL(fileURLWithPath: path)
        func expectUnreadable(_ what: String) {
            switch BuildState.load(from: path) {
            case .success: Issue.record("\(what): loaded")
            case .failure(let problem): #expect(problem == .unreadable, "\(what)")
            }
        }
        let head = try Data(contentsOf: url)
        for length in Set(stride(from: 0, to: head.count, by: max(1, head.count / 300)).map { $0 } + [head.count - 1]) {
            try head.prefix(length).write(to: url)
            expectUnreadable("state cut to \(length) of \(head.count) bytes")
        }
        try (head + [0]).write(to: url)
        expectUnreadable("state with a trailing byte")
        try head.write(to: url)
        let names = try Self.chunkFiles(path)
        #expect(names.count > 1)
        for name in names {
            let chunkURL = URL(fileURLWithPath: BuildState.chunkDirectory(forState: path)).appendingPathComponent(name)
            let chunk = try Data(contentsOf: chunkURL)
            for length in [0, 1, chunk.count / 2, chunk.count - 1] {
                try chunk.prefix(length).write(to: chunkURL)
                expectUnreadable("chunk \(name) cut to \(length) of \(chunk.count) bytes")
            }
            var damaged = chunk
            damaged[damaged.startIndex] ^= 0xFF
            try damaged.write(to: chunkURL)
            expectUnreadable("chunk \(name) with a damaged count")
            try FileManager.default.removeItem(at: chunkURL)
            expectUnreadable("chunk \(name) missing")
            try chunk.write(to: chunkURL)
        }
        #expect(try BuildState.load(from: path).get() == state)
    }

    @Test("a state of another format version says which")
    func otherVersion() throws {
        var bytes = Self.sampleState(seed: 4, sources: 2).encoded()
        let magic = Array("marsgen-state\n".utf8)
        bytes[magic.count] = 4  // version 2, zigzag-encoded
        let path = Self.temporaryFile()
        defer { Self.remove(path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: Never.self) {
            guard case .failure(.otherFormat(2)) = BuildState.load(from: path) else {
                Issue.record("expected format 2")
                return
            }
        }
    }
}
