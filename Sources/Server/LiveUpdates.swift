import Foundation

/// What one rebuild changed, as the open pages learn it: site paths (as in the address bar)
/// written and deleted, or the error that stopped the build.
public struct SiteUpdate: Sendable, Equatable, Codable {
    /// A build error, for the overlay in open pages.
    public struct Failure: Sendable, Equatable, Codable {
        /// `content/journal/sol-12.md:3:9`, when the error is in a file.
        public var location: String?
        /// What is wrong.
        public var message: String
        /// How to fix it.
        public var hint: String?

        /// Creates a failure.
        public init(location: String?, message: String, hint: String?) {
            self.location = location
            self.message = message
            self.hint = hint
        }
    }

    /// Site paths whose files were written (`/`, `/sol/12/`, `/theme/marsgen.css`), sorted.
    public var written: [String]
    /// Site paths whose files were deleted, sorted.
    public var deleted: [String]
    /// The error, when the build failed; the site on disk is then the last good one.
    public var failure: Failure?

    /// Creates an update from output-relative file paths (`sol/12/index.html`).
    ///
    /// - Parameter basePath: Where the site lives on the server (`/`, or `/log/`).
    public init(writtenFiles: [String], deletedFiles: [String], basePath: String = "/") {
        written = writtenFiles.map { Self.sitePath(ofFile: $0, basePath: basePath) }.sorted()
        deleted = deletedFiles.map { Self.sitePath(ofFile: $0, basePath: basePath) }.sorted()
        failure = nil
    }

    /// Creates the update of a failed build.
    public init(failure: Failure) {
        written = []
        deleted = []
        self.failure = failure
    }

    /// `sol/12/index.html` → `/sol/12/`; `feed.xml` → `/feed.xml`.
    public static func sitePath(ofFile file: String, basePath: String = "/") -> String {
        let base = basePath.hasSuffix("/") ? basePath : basePath + "/"
        if file == "index.html" { return base }
        if file.hasSuffix("/index.html") { return base + file.dropLast("index.html".count) }
        return base + file
    }
}

/// Hands each ``SiteUpdate`` to every open page, as Server-Sent Events.
///
/// A page that connects is first told the site's generation (which changes with every
/// build, and with every server start) and the current error, if any; so a page opened
/// while the site is broken shows the error, and a page that reconnects after a restart
/// knows it may be stale.
public final class LiveUpdates: @unchecked Sendable {
    private struct Hello: Codable {
        var generation: String
        var failure: SiteUpdate.Failure?
    }

    private struct Event: Codable {
        var generation: String
        var written: [String]
        var deleted: [String]
        var failure: SiteUpdate.Failure?
    }

    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]
    private var builds = 0
    private var failure: SiteUpdate.Failure?
    private let started = UInt64(Date().timeIntervalSince1970 * 1000)
    private var isClosed = false

    /// Creates a channel with no subscribers.
    public init() {}

    /// How many pages are listening.
    public var subscriberCount: Int {
        lock.withLock { subscribers.count }
    }

    /// Sends `update` to every open page. Call it only once the update's files are in place.
    public func publish(_ update: SiteUpdate) {
        let (text, targets) = lock.withLock { () -> (String, [AsyncStream<String>.Continuation]) in
            builds += 1
            failure = update.failure
            let event = Event(generation: generationLocked, written: update.written, deleted: update.deleted, failure: update.failure)
            return (Self.frame(name: "build", event), Array(subscribers.values))
        }
        for target in targets { target.yield(text) }
    }

    /// A comment line for every open page, so connections that went away are noticed.
    public func heartbeat() {
        let targets = lock.withLock { Array(subscribers.values) }
        for target in targets { target.yield(": keep-alive\n\n") }
    }

    /// The event stream of one page: a `hello`, then a `build` event per ``publish(_:)``.
    public func subscribe() -> AsyncStream<String> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let hello = lock.withLock { () -> String? in
            guard !isClosed else { return nil }
            subscribers[id] = continuation
            return "retry: 1000\n\n" + Self.frame(name: "hello", Hello(generation: generationLocked, failure: failure))
        }
        guard let hello else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: id) }
        }
        continuation.yield(hello)
        return stream
    }

    /// Ends every page's stream (the server is stopping); later subscribers get none.
    public func close() {
        let targets = lock.withLock { () -> [AsyncStream<String>.Continuation] in
            isClosed = true
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for target in targets { target.finish() }
    }

    private var generationLocked: String { "\(started)-\(builds)" }

    private static func frame(name: String, _ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "event: \(name)\ndata: \(json)\n\n"
    }
}
