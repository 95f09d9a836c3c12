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

    /// `--verbose`: each build step with its duration.
    static func printSteps(of report: BuildReport) {
        for (index, step) in report.steps.enumerated() {
            out("[\(index + 1)/\(report.steps.count)] \(step.name) (\(formatMilliseconds(step.duration)) ms)")
        }
    }
}
