import Diagnostics
import Foundation
import Site
import Testing

/// The guarantee behind incremental builds: after any sequence of edits, an incremental
/// build leaves `public/` byte-identical to a clean build of the same input, and writes only
/// files whose bytes changed; so does the full build a marsgen.yml change makes (every 25th).
/// Every seventh build turns `--drafts` on or off.
///
/// Most builds keep the state in memory and are told which paths changed (as `marsgen watch`
/// and `serve` do), some read it from disk and list every input (as `marsgen build` does).
///
/// `MARSGEN_EQUIVALENCE_EDITS` sets the number of edits (default 300) and `MARSGEN_SEED`
/// the seed (default 2038); a failure prints both so it can be replayed.
@Suite(.serialized) struct IncrementalEquivalenceTests {
    /// With `outputIsAMountPoint` (root only), `public/` is a tmpfs mount, as a Docker volume
    /// is: every build stages inside it (see `OutputWriter`), over a fifth as many edits.
    @Test("incremental builds equal clean builds after every random edit", arguments: [false, true])
    func equivalence(outputIsAMountPoint: Bool) throws {
        if outputIsAMountPoint, !SiteFixture.canMount { return }
        let environment = ProcessInfo.processInfo.environment
        let allEdits = environment["MARSGEN_EQUIVALENCE_EDITS"].flatMap(Int.init) ?? 300
        let edits = outputIsAMountPoint ? max(1, allEdits / 5) : allEdits
        let seed = environment["MARSGEN_SEED"].flatMap(UInt64.init) ?? 2038
        let folders = try SiteFixture.ComparedFolders("equivalence", mountingOutput: outputIsAMountPoint)
        defer { folders.remove() }
        let (root, output, cleanOutput) = (folders.root, folders.output, folders.cleanOutput)
        var site = try GeneratedSite(root: root, seed: seed)
        var incremental = BuildOptions(sourceDirectory: root.path)
        // As `marsgen serve` builds: the state kept in memory between builds. Every seventh
        // build goes without it, as a `marsgen build` run meanwhile would, so the next
        // remembered build must notice that the state on disk is no longer its own.
        // The remembered builds are told which paths changed, as a watcher tells them, and
        // look only at those (the builds after a build without memory list everything).
        // After a build without memory, a new session starts as watch starts: a first build
        // that finds nothing changed but prepares the next (`preparesNextBuild`).
        var memory = BuildMemory()
        var remembering = incremental
        remembering.memory = memory
        var clean = BuildOptions(sourceDirectory: root.path, outputDirectory: cleanOutput.path, isClean: true)
        // `--drafts` is turned on or off by the builds without memory, every seventh (on for
        // seven builds, then off for seven): incremental builds too, in which the drafts'
        // objects enter or leave the object list. The session started after one keeps its
        // setting, as `marsgen serve --drafts` would.
        var draftToggles = 0

        let first = try SiteBuilder(options: incremental).build()
        #expect(first.isFullBuild)
        if outputIsAMountPoint { #expect(try SiteFixture.shell("mountpoint -q '\(output.path)'") == 0) }
        memory.startTrustingChanges()
        _ = site.changes.take()
        var incrementalBuilds = 0
        var configurationEdits = 0
        // How many parts the sitemap had after each edit (see `GeneratedSite`): a number
        // that changes means parts were added and deleted by incremental builds.
        var sitemapParts: Set<Int> = []
        var history: [String] = []
        for step in 1...edits {
            var edit = try site.randomEdit()
            // Now and then a setting in marsgen.yml changes too (a URL prefix left unchecked,
            // which no page shows; every 50th, tag and crew feeds turned on or off, so that the edits
            // between are made with them one time in two; every 75th, the theme's words given or
            // taken back): a full build, which must write
            // only the files whose bytes the edit changed. Every 5th step a comment is added,
            // which is no reason for one.
            if step % 5 == 0 {
                var lines = try String(contentsOf: root.appendingPathComponent("marsgen.yml"), encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if step % 75 == 0 {
                    // The theme's words, given or taken back: every page's cells and frame change.
                    if lines.contains("words:") {
                        lines.removeAll { $0 == "words:" || $0.hasPrefix("  older: ") || $0.hasPrefix("  feed: ") || $0.hasPrefix("  sol_label: ")
                            || $0.hasPrefix("  entries: ") }
                    } else {
                        // A pager's label (planned), the navigation's and the cells' (written into
                        // the built-in templates), a sol row's count (counted).
                        lines += ["words:", "  older: Ältere", "  feed: Verlauf", "  sol_label: Sol", "  entries: {one: \"{count} Eintrag\", other: \"{count} Einträge\"}"]
                    }
                } else if step % 50 == 0 {
                    if lines.contains("tag_feeds: true") {
                        lines.removeAll { $0 == "tag_feeds: true" || $0 == "crew_feeds: true" }
                    } else {
                        lines += ["tag_feeds: true", "crew_feeds: true"]
                    }
                } else if step % 25 == 0 {
                    lines.removeAll { $0.hasPrefix("unchecked_links:") }
                    lines.append("unchecked_links: [/edit-\(step)/]")
                }
                try site.write(lines.joined(separator: "\n") + "\n# edit \(step)\n", to: "marsgen.yml")
                if step % 25 == 0 {
                    configurationEdits += 1
                    edit += ", and a setting changed in marsgen.yml"
                } else {
                    edit += ", and a comment added to marsgen.yml"
                }
            }
            history.append(edit)
            let before = try SiteFixture.snapshot(output)
            memory.noteChanges(site.changes.take())
            if step % 7 == 0 {
                let drafts = step % 14 == 0
                if drafts != incremental.includesDrafts {
                    draftToggles += 1
                    edit += drafts ? ", built with --drafts" : ", built without --drafts"
                    history[history.count - 1] = edit
                }
                incremental.includesDrafts = drafts
                remembering.includesDrafts = drafts
                clean.includesDrafts = drafts
            }
            let report = try SiteBuilder(options: step % 7 == 0 ? incremental : remembering).build()
            if !report.isFullBuild { incrementalBuilds += 1 }
            #expect(report.isFullBuild == (step % 25 == 0), "\(step): \(report.notice ?? "incremental")")
            let cleanReport = try SiteBuilder(options: clean).build()
            let after = try SiteFixture.snapshot(output)
            let expected = try SiteFixture.snapshot(cleanOutput)
            sitemapParts.insert(expected.keys.count { $0.hasPrefix("sitemap-") })
            let replay = "seed \(seed), edit \(step) (\(edit)); last edits: \(history.suffix(5).joined(separator: "; "))"

            let (missing, extra, different, same) = SiteFixture.differences(after, from: expected)
            let needless = report.written.filter { before[$0] != nil && before[$0] == after[$0] }
            #expect(same,
                    "\(replay): missing \(missing), extra \(extra), different \(different)")
            #expect(needless.isEmpty, "\(replay): rewrote unchanged files \(needless)")
            #expect(report.deleted.allSatisfy { before[$0] != nil }, "\(replay): deleted files that did not exist")
            // And it says what a clean build says of the site: a warning (a link to a draft,
            // a link or image that leads nowhere) holds until its cause is gone, and no longer.
            let warnings = Self.described(report.warnings), cleanWarnings = Self.described(cleanReport.warnings)
            #expect(warnings == cleanWarnings, "\(replay): warned \(warnings.subtracting(cleanWarnings)) instead of \(cleanWarnings.subtracting(warnings))")
            // Links between entries' files are written as the pages they lead to (were they
            // left as written, both builds would agree on a broken site).
            let fileLinks = try expected.filter { try String(decoding: $0.value, as: UTF8.self).contains(Regex("href=\"[^\"]*\\.md[#\"]")) }
            #expect(fileLinks.isEmpty, "\(replay): links to Markdown files in \(fileLinks.keys.sorted())")
            if !(same && needless.isEmpty && warnings == cleanWarnings) { return }
            if step % 7 == 0 {
                memory = BuildMemory()
                remembering.memory = memory
                var starting = remembering
                starting.preparesNextBuild = true
                let start = try SiteBuilder(options: starting).build()
                #expect(start.written.isEmpty && start.deleted.isEmpty, "\(replay): a new session's first build wrote \(start.written)")
                memory.startTrustingChanges()
            }
        }
        // Only a marsgen.yml change forces a full build.
        #expect(incrementalBuilds == edits - configurationEdits)
        #expect(draftToggles == max(0, edits / 7 - 1))
        if edits >= 100 { #expect(sitemapParts.count > 1 && !sitemapParts.contains(0), "sitemap parts: \(sitemapParts.sorted())") }
    }

    /// Each warning as a person reads it: place, message and hint.
    static func described(_ warnings: [Diagnostic]) -> Set<String> {
        Set(warnings.map { "\($0.location?.description ?? "-"): \($0.message) (\($0.hint ?? ""))" })
    }
}
