import ArgumentParser
import Diagnostics
import Foundation
import Server
import Site
import Watch

/// `marsgen watch` and `marsgen serve` share this: build once, then rebuild after every
/// burst of saves, one build at a time, printing one line per rebuild.
///
/// Builds run on the watcher's thread, so saves made during a build wait in the kernel's
/// queue and come out as the next burst: two builds never overlap.
final class LiveSite: @unchecked Sendable {
    let options: BuildOptions
    /// How the site's paths begin when printed (see ``Console/shownFolder(_:)``).
    let shownFolder: String?
    let quiet: Bool
    let verbose: Bool
    /// Called after every build, good or failed, once its files are in place.
    var onBuild: (@Sendable (Result<BuildReport, Diagnostic>) -> Void)?
    private var watcher: SiteWatcher?

    init(options: BuildOptions, source: String, quiet: Bool, verbose: Bool = false) {
        var options = options
        // Every rebuild starts from the state the previous one left in memory.
        options.memory = BuildMemory()
        self.options = options
        shownFolder = Console.shownFolder(source)
        self.quiet = quiet
        self.verbose = verbose
    }

    /// Builds the site; a failure is printed, not thrown: the last good site stays.
    @discardableResult
    func buildOnce(after changes: ChangeSet?) -> Result<BuildReport, Diagnostic> {
        if let changes {
            // The build looks again only at what changed (or at everything, when events were dropped).
            if changes.isOverflow { options.memory?.noteUnknownChanges() } else { options.memory?.noteChanges(changes.paths) }
        }
        let result: Result<BuildReport, Diagnostic>
        var warnings: [Diagnostic] = []
        var options = self.options
        // The first build also plans what it need not write, so that the first rebuild after a
        // save finds the content, templates and plans in memory.
        options.preparesNextBuild = changes == nil
        do {
            result = .success(try SiteBuilder(options: options).build(warningsBeforeFailure: &warnings))
        } catch {
            result = .failure(error)
        }
        report(result, after: changes, warningsBeforeFailure: warnings)
        onBuild?(result)
        // A build that found nothing changed did not read the state: the first edit need not wait for it.
        if case .success = result { SiteBuilder(options: options).preloadState() }
        return result
    }

    /// The first build. One that failed over the output folder itself (a file, a folder
    /// inside `content/`, one holding files the site does not make, one that cannot be
    /// written) ends the command with status 1: no save can fix that, only other arguments.
    func buildFirst() throws -> Result<BuildReport, Diagnostic> {
        let result = buildOnce(after: nil)
        if case .failure(let error) = result, error.location?.path == options.outputDirectory { throw ExitCode.failure }
        return result
    }

    /// Starts watching the site's inputs.
    func watch(mode: WatchMode) throws(Diagnostic) {
        let target = WatchTarget(root: options.sourceDirectory, directories: SiteInputs.directories, files: SiteInputs.files,
                                 ignores: { SiteInputs.ignores(name: $0) })
        let watcher = SiteWatcher(target: target, mode: mode)
        try watcher.start { [weak self] event in
            switch event {
            case .notice(let notice):
                // The watcher changed how it watches (say, to polling): a change may have slipped through.
                self?.options.memory?.noteUnknownChanges()
                Console.error("note: \(notice)")
            case .changed(let changes):
                self?.buildOnce(after: changes)
            }
        }
        self.watcher = watcher
        // Every change from here on is reported: builds that list the inputs from now on can trust the reports.
        options.memory?.startTrustingChanges()
        // The first build's listing was made before watching began: make one now, off the first edit's path.
        SiteBuilder(options: options).preloadListing()
        if !quiet, let method = watcher.method {
            Console.out("Watching \(SiteInputs.directories.map { $0 + "/" }.joined(separator: ", ")) and \(SiteInputs.files.joined(separator: ", ")) (\(method)); Ctrl-C to stop")
        }
    }

    /// Starts watching, and stops (exit status 0) on Ctrl-C or SIGTERM once the build under
    /// way has finished. A watcher that cannot start is printed and exits with status 1.
    func watchUntilStopped(mode: WatchMode) throws(ExitCode) {
        do {
            try watch(mode: mode)
        } catch {
            Console.report(error)
            throw ExitCode.failure
        }
        StopSignals.install { [self] in stop() }
    }

    /// Stops watching, after the build under way (if any) has finished.
    func stop() {
        watcher?.stop()
        watcher = nil
        // The last build's state is saved in the background: let it reach the disk.
        options.memory?.waitForSave()
        // Then give its index the folder records that watched builds leave out, so that the
        // next `marsgen build` need not read every folder.
        SiteBuilder(options: options).recordInputFolders()
    }

    private func report(_ result: Result<BuildReport, Diagnostic>, after changes: ChangeSet?, warningsBeforeFailure: [Diagnostic]) {
        let time = Self.clockTime()
        let cause = changes.map { "\($0.summary) changed → " } ?? ""
        switch result {
        case .success(let report):
            if let notice = report.notice, changes == nil { Console.out("note: \(notice)") }
            if !quiet {
                if verbose { Console.printSteps(of: report) }
                if changes == nil {
                    Console.out(report.summary)
                } else {
                    Console.out("\(time) \(cause)\(report.changeSummary)")
                }
            }
            // After the line they belong to, as a failed build's error is: in a log of many
            // rebuilds, warnings before it read as the previous rebuild's.
            for warning in report.warnings { Console.report(warning, shownAfter: shownFolder) }
        case .failure(let diagnostic):
            Console.error("\(time) \(cause)build failed; the last good site stays in place")
            for warning in warningsBeforeFailure { Console.report(warning, shownAfter: shownFolder) }
            Console.report(diagnostic, shownAfter: shownFolder)
        }
    }

    private static func clockTime() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

extension SiteUpdate {
    /// What open pages should learn of a build.
    init(_ result: Result<BuildReport, Diagnostic>) {
        switch result {
        case .success(let report):
            self.init(writtenFiles: report.written, deletedFiles: report.deleted, basePath: report.basePath)
        case .failure(let diagnostic):
            self.init(failure: Failure(location: diagnostic.location?.description, message: diagnostic.message, hint: diagnostic.hint))
        }
    }
}

/// Ctrl-C and `kill`: stop after the build under way, then exit with status 0.
enum StopSignals {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func install(_ stop: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stop()
                // _exit: the server's threads are still running, and exit's clean-up
                // handlers would race them; everything marsgen printed is already written.
                fflush(nil)
                _exit(0)
            }
            source.resume()
            sources.append(source)
        }
    }
}
