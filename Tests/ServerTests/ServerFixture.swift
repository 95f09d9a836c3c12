import Foundation
import Server

/// A served folder in a temporary directory, with a secret beside it that must never be
/// served, and a running ``SiteServer`` on a free loopback port.
final class ServerFixture: @unchecked Sendable {
    let directory: String
    let root: String
    let port: Int
    let live: LiveUpdates?
    let server: SiteServer
    private let task: Task<Void, any Error>

    static let secret = "TOP-SECRET-OUTSIDE-PUBLIC"

    static let pages: [String: String] = [
        "index.html": "<!DOCTYPE html><html><head><title>Front</title></head><body><main>front page</main></body></html>",
        "404.html": "<!DOCTYPE html><html><head><title>Lost</title></head><body>our own 404 page</body></html>",
        "sol/452/index.html": "<!DOCTYPE html><html><head><title>Sol 452</title></head><body>sol 452</body></html>",
        "theme/marsgen.css": "body { color: #f4efe9; background: #0b0f14; }\n",
        "feed.xml": "<?xml version=\"1.0\" encoding=\"utf-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"></feed>",
        "tags/eva/feed.xml": "<?xml version=\"1.0\" encoding=\"utf-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"></feed>",
        "sitemap.xml": "<?xml version=\"1.0\" encoding=\"utf-8\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"></urlset>",
        "theme/favicon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        "data/sample.json": "{\"sol\": 452}",
        "space name/page.html": "<!DOCTYPE html><html><head></head><body>spaced</body></html>",
    ]

    /// The media types `marsgen serve` gives (see `SiteBuilder.mediaTypes`).
    static let atomType = "application/atom+xml; charset=utf-8"

    static func start(basePath: String = "/", live: LiveUpdates? = LiveUpdates(),
                      mediaTypes: [String: String] = ["feed.xml": atomType]) async throws -> ServerFixture {
        let directory = NSTemporaryDirectory() + "marsgen-serve-\(UUID().uuidString)"
        let root = directory + "/public"
        let files = FileManager.default
        for (path, text) in pages {
            let full = root + "/" + path
            try files.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        try Data(Array(0..<256).map { UInt8($0) }).write(to: URL(fileURLWithPath: root + "/theme/bytes.png"))
        try Data(secret.utf8).write(to: URL(fileURLWithPath: directory + "/secret.txt"))
        // Symbolic links: one out of the folder (never served), one within it (served).
        try files.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: "../secret.txt")
        try files.createSymbolicLink(atPath: root + "/outside", withDestinationPath: directory)
        try files.createSymbolicLink(atPath: root + "/alias.css", withDestinationPath: "theme/marsgen.css")

        let server = SiteServer(configuration: .init(root: root, port: 0, basePath: basePath, live: live, mediaTypes: mediaTypes))
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task { try await server.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw RawHTTPError.io("server did not start") }
        return ServerFixture(directory: directory, root: root, port: port, live: live, server: server, task: task)
    }

    private init(directory: String, root: String, port: Int, live: LiveUpdates?, server: SiteServer, task: Task<Void, any Error>) {
        self.directory = directory
        self.root = root
        self.port = port
        self.live = live
        self.server = server
        self.task = task
    }

    deinit {
        task.cancel()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the server and waits until it no longer listens.
    func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    var http: RawHTTP { RawHTTP(port: port) }

    func file(_ path: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: root + "/" + path) ?? Data())
    }
}
