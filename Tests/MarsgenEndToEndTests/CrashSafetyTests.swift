import Foundation
import MarsgenTesting
import Site
import Testing

/// A build killed at any moment (SIGKILL: no cleanup runs) never costs a correct site: the
/// next build, incremental or full as the surviving state decides, equals a clean build.
///
/// `MARSGEN_KILL_TRIALS` sets the number of trials (default 50) and `MARSGEN_SEED` the seed.
@Suite(.serialized) struct CrashSafetyTests {
    /// With `outputIsAMountPoint` (root only), `public/` is a tmpfs mount, whose builds stage
    /// inside it and replace its entries one by one: a fifth as many trials.
    @Test("after a build killed at a random moment, the next build equals a clean build", arguments: [false, true])
    func killedBuilds(outputIsAMountPoint: Bool) throws {
        if outputIsAMountPoint, !SiteFixture.canMount { return }
        let environment = ProcessInfo.processInfo.environment
        let allTrials = environment["MARSGEN_KILL_TRIALS"].flatMap(Int.init) ?? 50
        let trials = outputIsAMountPoint ? max(2, allTrials / 5) : allTrials
        let seed = environment["MARSGEN_SEED"].flatMap(UInt64.init) ?? 452
        let folders = try SiteFixture.ComparedFolders("kill", mountingOutput: outputIsAMountPoint)
        defer { folders.remove() }
        let (root, output, cleanOutput) = (folders.root, folders.output, folders.cleanOutput)
        var site = try GeneratedSite(root: root, seed: seed)
        // Big enough that a build takes a while, so the kills land in every step.
        for _ in 0..<250 { _ = try site.addEntry() }
        var random = SeededRandom(seed: seed)

        // How long uninterrupted full and incremental builds take here: kills are spread over
        // them. Odd trials kill a full build (--clean), even ones an incremental build. The
        // fastest of three: one slow measurement (a busy machine, a cold cache) would spread
        // the kills past the end of most builds.
        var fullSpan = Int.max, incrementalSpan = Int.max
        for _ in 0..<3 {
            fullSpan = min(fullSpan, try Self.microseconds { try Self.build(root, clean: true) })
            _ = try site.randomEdit()
            incrementalSpan = min(incrementalSpan, try Self.microseconds { try Self.build(root, clean: false) })
        }

        var killedMidway = 0
        for trial in 1...trials {
            var edits: [String] = []
            for _ in 0..<(1 + random.next(3)) { edits.append(try site.randomEdit()) }
            let clean = trial % 2 == 1
            let span = clean ? fullSpan : incrementalSpan
            let delay = UInt32(random.next(span + span / 5))
            let process = try SiteFixture.start(["build", "--source", root.path, "--quiet"] + (clean ? ["--clean"] : []))
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                killedMidway += 1
            } else if clean {
                // It finished first: builds got faster than when the spans were measured (the
                // other suites, running beside this one, finished). Aim this kind's kills earlier.
                fullSpan = fullSpan * 4 / 5
            } else {
                incrementalSpan = incrementalSpan * 4 / 5
            }

            let replay = "seed \(seed), trial \(trial) (\(clean ? "full" : "incremental")), killed after \(delay) µs, edits: \(edits.joined(separator: "; "))"
            let rebuild = try SiteFixture.run(["build", "--source", root.path, "--quiet"])
            #expect(rebuild.status == 0, "\(replay): \(rebuild.err)")
            _ = try SiteBuilder(options: BuildOptions(sourceDirectory: root.path, outputDirectory: cleanOutput.path, isClean: true)).build()
            let after = try SiteFixture.snapshot(output), expected = try SiteFixture.snapshot(cleanOutput)
            let (missing, extra, different, same) = SiteFixture.differences(after, from: expected)
            #expect(same,
                    "\(replay): missing \(missing), extra \(extra), different \(different)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path)
                .filter { $0.hasPrefix(".public.staging-") || $0.hasPrefix(".public.old-") }
                + FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".marsgen-") }
            let stateFiles = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(".marsgen").path)
            var strays = stateFiles.filter { name in
                name != "lock" && !(name.hasPrefix("build-") && [".state", ".index", ".rows", ".sections", ".chunks"].contains { name.hasSuffix($0) })
            }
            // The chunk files left are exactly those the state names (none of a killed save's).
            for folder in stateFiles where folder.hasSuffix(".chunks") {
                let path = root.appendingPathComponent(".marsgen").appendingPathComponent(folder).path
                strays += try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasSuffix(".chunk") }
            }
            #expect(leftovers.isEmpty && strays.isEmpty, "\(replay): left behind \(leftovers + strays)")
            if !same { return }
        }
        // Most kills must land while a build is running, or the test proves little.
        #expect(killedMidway >= trials / 2, "only \(killedMidway) of \(trials) builds were killed before they finished")
    }

    static func build(_ root: URL, clean: Bool) throws {
        let result = try SiteFixture.run(["build", "--source", root.path, "--quiet"] + (clean ? ["--clean"] : []))
        #expect(result.status == 0, "\(result.err)")
    }

    /// How long `body` takes, in microseconds (at least 5 ms).
    static func microseconds(_ body: () throws -> Void) throws -> Int {
        let elapsed = try ContinuousClock().measure(body)
        return max(Int(elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000), 5_000)
    }
}
