import Foundation
import Testing
@testable import Watch

/// A temporary site folder with a watcher on it, and what the watcher reported.
final class WatchFixture: @unchecked Sendable {
    let root: String
    let watcher: SiteWatcher
    private let lock = NSLock()
    private var events: [WatchEvent] = []

    /// - Parameter links: Symbolic links made before watching starts: each path's link text.
    init(mode: WatchMode = .automatic, simulatedWatchLimit: Int? = nil, files: [String: String] = [:],
         links: [String: String] = [:]) throws {
        root = NSTemporaryDirectory() + "marsgen-watch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/content/journal", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/templates", withIntermediateDirectories: true)
        for (path, text) in files { try Self.write(text, to: root + "/" + path) }
        for (path, destination) in links { try Self.link(root + "/" + path, to: destination) }
        let target = WatchTarget(root: root, directories: ["content", "templates", "static"], files: ["marsgen.yml"],
                                 ignores: { name in
                                     name.hasPrefix(".") || name.hasPrefix("#") || name.hasSuffix("~") || name.hasSuffix(".swp")
                                         || name == "4913" || name.hasSuffix("___jb_tmp___")
                                 })
        watcher = SiteWatcher(target: target, mode: mode, quietPeriod: .milliseconds(50), simulatedWatchLimit: simulatedWatchLimit)
        try watcher.start { [weak self] event in
            guard let self else { return }
            self.lock.withLock { self.events.append(event) }
        }
    }

    deinit {
        watcher.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    var changeSets: [ChangeSet] {
        lock.withLock {
            events.compactMap { if case .changed(let set) = $0 { set } else { nil } }
        }
    }

    var notices: [String] {
        lock.withLock {
            events.compactMap { if case .notice(let text) = $0 { text } else { nil } }
        }
    }

    /// Every path reported so far.
    var reported: Set<String> { Set(changeSets.flatMap(\.paths)) }

    func forget() { lock.withLock { events.removeAll { if case .changed = $0 { true } else { false } } } }

    /// Waits until `condition` holds, up to `timeout` (generous: it only bounds a failure, and
    /// `make test` runs other suites that keep both cores busy); returns whether it did.
    func wait(upTo timeout: Duration = .seconds(30), until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Waits for the watcher to stay quiet for `period`, then returns all change sets.
    func settle(_ period: Duration = .milliseconds(400)) async -> [ChangeSet] {
        var count = -1
        while count != changeSets.count {
            count = changeSets.count
            try? await Task.sleep(for: period)
        }
        return changeSets
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    func write(_ text: String, to relative: String) throws { try Self.write(text, to: path(relative)) }

    /// Makes a symbolic link at the root-relative `relative` whose text is `destination`.
    func link(_ relative: String, to destination: String) throws { try Self.link(path(relative), to: destination) }

    static func link(_ path: String, to destination: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
