import Diagnostics
import Foundation

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
}
