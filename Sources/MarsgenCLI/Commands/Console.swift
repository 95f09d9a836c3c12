import Diagnostics
import Foundation
import Site

/// Where commands print: results to standard output, diagnostics to standard error.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func report(_ diagnostic: Diagnostic) {
        error(diagnostic.description)
    }

    /// Prints a diagnostic of a build of a site: a path in the site, which the build gives
    /// from the site's folder, is shown after `folder` (see ``shownFolder(_:)``), from where
    /// marsgen runs (`ex1/content/journal/dust.md:3:9` after `--source ex1`), so that a
    /// terminal or an editor that runs marsgen opens it. Absolute paths stay as they are.
    static func report(_ diagnostic: Diagnostic, shownAfter folder: String?) {
        var diagnostic = diagnostic
        if let folder, let path = diagnostic.location?.path, !path.hasPrefix("/") {
            diagnostic.location?.path = folder + path
        }
        report(diagnostic)
    }

    /// How a path in the site folder `source` (`--source` as written) begins when shown:
    /// `nil` for the current folder. Found once per command: it resolves symbolic links.
    static func shownFolder(_ source: String) -> String? {
        let expanded = (source as NSString).expandingTildeInPath
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        guard !expanded.isEmpty, resolved(expanded) != resolved(FileManager.default.currentDirectoryPath) else { return nil }
        return expanded.hasSuffix("/") ? expanded : expanded + "/"
    }

    /// `--verbose`: each build step with its duration.
    static func printSteps(of report: BuildReport) {
        for (index, step) in report.steps.enumerated() {
            out("[\(index + 1)/\(report.steps.count)] \(step.name) (\(formatMilliseconds(step.duration)) ms)")
        }
    }
}
