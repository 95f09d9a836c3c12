import ArgumentParser
import Diagnostics
import Foundation
import Site
import SiteConfig

/// `marsgen init DIR`: writes a starter site and builds it.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new site with a config, a crew, one entry, one message log and one weather report, then build it."
    )

    @Argument(help: ArgumentHelp("The folder to create (must be empty or absent; default: the current folder).", valueName: "dir"))
    var directory: String = "."

    @Flag(name: .long, help: "Write into a folder that is not empty (existing files are kept).")
    var force = false

    @Option(name: .long, help: ArgumentHelp("The site's language (default: en; the theme speaks en, fr, de, es and it).",
                                            valueName: "tag"))
    var language = "en"

    func validate() throws {
        guard SiteConfiguration.isLanguageTag(language) else {
            throw ValidationError("--language must be a language tag like 'en', 'fr' or 'pt-BR', not '\(language)'")
        }
    }

    func run() throws {
        let files = FileManager.default
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: root, isDirectory: &isDirectory), !isDirectory.boolValue {
            Console.report(.error("a file is already there, not a folder", at: SourceLocation(path: directory),
                                  hint: "choose a new folder for the site"))
            throw ExitCode.failure
        }
        if let existing = try? files.contentsOfDirectory(atPath: root), !existing.filter({ !$0.hasPrefix(".") }).isEmpty, !force {
            Console.report(.error("the folder is not empty", at: SourceLocation(path: directory),
                                  hint: "choose a new folder, or pass --force to add the starter files"))
            throw ExitCode.failure
        }
        do {
            for file in StarterSite.files(language: language) {
                let path = (root as NSString).appendingPathComponent(file.path)
                if files.fileExists(atPath: path) { continue }
                try files.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: path))
            }
        } catch {
            // Foundation's sentences ("The operation could not be completed.") say less than the system's.
            let codes: [CocoaError.Code: Int32] = [.fileNoSuchFile: ENOENT, .fileWriteNoPermission: EACCES,
                                                    .fileWriteFileExists: EEXIST, .fileWriteVolumeReadOnly: EROFS,
                                                    .fileWriteOutOfSpace: ENOSPC]
            let reason = (error as? CocoaError).flatMap { codes[$0.code] }.map { String(cString: strerror($0)) } ?? error.localizedDescription
            Console.report(.error("cannot create the site: \(reason)", at: SourceLocation(path: directory),
                                  hint: "check that the folder above it exists and you may write in it"))
            throw ExitCode.failure
        }
        let shown = Console.shownFolder(directory)
        Console.out("Created a site in \(shown == nil ? "the current folder" : directory)")
        do {
            let report = try SiteBuilder(options: BuildOptions(sourceDirectory: root)).build()
            for warning in report.warnings { Console.report(warning, shownAfter: shown) }
            Console.out(report.summary)
        } catch {
            Console.report(error, shownAfter: shown)
            throw ExitCode.failure
        }
        Console.out(Self.nextSteps(shownFolder: shown))
    }

    /// What to run next, from where marsgen ran: `--source` only when the site is another
    /// folder, quoted when the shell would split or expand its name.
    static func nextSteps(shownFolder folder: String?) -> String {
        guard let folder else {
            return "Next: edit content/ and run 'marsgen build', or 'marsgen serve' to see each save in the browser."
        }
        var name = folder
        while name.count > 1, name.hasSuffix("/") { name.removeLast() }
        let plain = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._/-+,:@%".contains($0)) }
        let source = plain ? name : "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "$", with: "\\$").replacingOccurrences(of: "`", with: "\\`") + "\""
        return "Next: edit \(name == "/" ? "" : name)/content/ and run 'marsgen build --source \(source)', "
            + "or 'marsgen serve --source \(source)' to see each save in the browser."
    }
}
