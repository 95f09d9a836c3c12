import Foundation
import Testing

/// Paths and helpers shared by the end-to-end tests.
enum SiteFixture {
    /// The repository root, which is itself the demo site.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory(_ label: String = "site") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Copies the demo site's sources (not its output) into a temporary directory.
    static func copyOfDemoSite() throws -> URL {
        let destination = try temporaryDirectory("demo")
        for item in ["marsgen.yml", "content", "templates", "static"] {
            let source = repositoryRoot.appendingPathComponent(item)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(at: source, to: destination.appendingPathComponent(item))
        }
        return destination
    }

    /// Every regular file under `directory`, by relative path, with its bytes.
    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return result }
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            result[relative] = FileManager.default.contents(atPath: path)
        }
        return result
    }

    /// How the snapshot `actual` differs from `expected`: paths missing, extra, or with other bytes.
    static func differences(_ actual: [String: Data], from expected: [String: Data])
        -> (missing: [String], extra: [String], different: [String], isEmpty: Bool) {
        let missing = Set(expected.keys).subtracting(actual.keys).sorted()
        let extra = Set(actual.keys).subtracting(expected.keys).sorted()
        let different = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }.sorted()
        return (missing, extra, different, missing.isEmpty && extra.isEmpty && different.isEmpty)
    }

    static func write(_ text: String, to relative: String, in root: URL) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The `marsgen` executable built beside the test bundle.
    static var executable: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("marsgen"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("marsgen"),
            repositoryRoot.appendingPathComponent(".build/debug/marsgen"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts the `marsgen` executable with its output discarded, and returns at once.
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        let binary: URL = try #require(executable, "the marsgen executable was not built")
        process.executableURL = binary
        process.arguments = arguments
        if let directory = folder(of: arguments) { process.currentDirectoryURL = directory }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Whether this process may mount a file system (root, outside a container that forbids it).
    static let canMount: Bool = {
        guard getuid() == 0, let probe = try? temporaryDirectory("mount-probe") else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? mountTemporaryFileSystem(at: probe)) != nil else { return false }
        return (try? shell("umount '\(probe.path)'")) == 0
    }()

    /// Mounts an empty tmpfs at `folder` (made when missing), as a Docker volume is mounted
    /// over a site's output; ``unmount(_:)`` takes it away.
    static func mountTemporaryFileSystem(at folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard try shell("mount -t tmpfs marsgen-test '\(folder.path)' 2>/dev/null") == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    static func unmount(_ folder: URL) {
        _ = try? shell("umount '\(folder.path)'")
    }

    /// The folders of a site that is built again and again and compared with clean builds:
    /// the site's, its output (a tmpfs mount when asked for) and the clean builds' output.
    struct ComparedFolders {
        let root: URL
        let output: URL
        let cleanOutput: URL
        let isOutputMounted: Bool

        init(_ label: String, mountingOutput: Bool) throws {
            root = try SiteFixture.temporaryDirectory(label)
            cleanOutput = try SiteFixture.temporaryDirectory("\(label)-clean")
            output = root.appendingPathComponent("public")
            isOutputMounted = mountingOutput
            if mountingOutput { try SiteFixture.mountTemporaryFileSystem(at: output) }
        }

        /// Unmounts the output and removes every folder.
        func remove() {
            if isOutputMounted { SiteFixture.unmount(output) }
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: cleanOutput)
        }
    }

    /// Runs `command` with `/bin/sh -c` and returns its exit status.
    @discardableResult
    static func shell(_ command: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `marsgen` as the unprivileged user 'nobody' (root reads any file whatever its
    /// mode, so permission cases need another user). The site is opened up to 'nobody' first;
    /// files the case made unreadable stay so, as they are owned by root.
    static func runAsNobody(_ arguments: [String], site: URL) throws -> (status: Int32, out: String, err: String) {
        let binary = try #require(executable, "the marsgen executable was not built")
        // Everything but the files made unreadable on purpose (mode 000) becomes writable by all.
        try shell("find '\(site.path)' ! -perm 000 -exec chmod a+rwX {} +")
        try openParents(of: site)
        return try run(asNobody + [binary.path] + arguments, executable: "/usr/bin/setpriv")
    }

    /// `setpriv`'s arguments to run what follows as the user 'nobody', without root's groups.
    static let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Makes every folder above `url` passable by all, so another user can reach it.
    static func openParents(of url: URL) throws {
        var folder = url.deletingLastPathComponent()
        while folder.path != "/" {
            try shell("chmod a+x '\(folder.path)'")
            folder.deleteLastPathComponent()
        }
    }

    /// The folder a run of marsgen with `arguments` starts in when the test names none: the
    /// site's (`--source`), as a user building a site runs it, so that diagnostics show paths
    /// from the site's folder (`content/…`; run from elsewhere, they begin with `--source`'s
    /// value, which `BuildGuaranteeTests` checks).
    static func folder(of arguments: [String]) -> URL? {
        guard let option = arguments.firstIndex(of: "--source"), option + 1 < arguments.count else { return nil }
        var isDirectory: ObjCBool = false
        let path = arguments[option + 1]
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? URL(fileURLWithPath: path) : nil
    }

    /// Runs the `marsgen` executable and returns its exit status, standard output and standard error.
    /// A run still going after 120 s is stopped (SIGTERM, status 15): a build that hangs on
    /// bad input fails its test instead of the whole test run.
    static func run(_ arguments: [String], in directory: URL? = nil, executable path: String? = nil,
                    input: Data? = nil, inputFile: URL? = nil) throws -> (status: Int32, out: String, err: String) {
        let binary = try path.map { URL(fileURLWithPath: $0) } ?? #require(executable, "the marsgen executable was not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory = directory ?? folder(of: arguments) { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // Given, `input` is the process's standard input, which then ends.
        let stdin = input.map { _ in Pipe() }
        if let stdin { process.standardInput = stdin }
        // Or what is at `inputFile` (a folder, for a standard input that cannot be read).
        if let inputFile { process.standardInput = try FileHandle(forReadingFrom: inputFile) }
        try process.run()
        if let stdin, let input {
            try stdin.fileHandleForWriting.write(contentsOf: input)
            try stdin.fileHandleForWriting.close()
        }
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

extension String {
    /// Every value of `attribute="…"` in this HTML.
    func attributeValues(_ attribute: String) -> [String] {
        var values: [String] = []
        var rest = self[...]
        let marker = " \(attribute)=\""
        while let start = rest.range(of: marker) {
            let valueStart = start.upperBound
            guard let end = rest[valueStart...].firstIndex(of: "\"") else { break }
            values.append(String(rest[valueStart..<end]))
            rest = rest[end...]
        }
        return values
    }

    func occurrences(of needle: String) -> Int {
        components(separatedBy: needle).count - 1
    }
}
