import Diagnostics
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// Serves a built site from its output folder, as a good static host would, and (when given
/// a ``LiveUpdates`` channel) keeps every open page up to date.
///
/// GET and HEAD, `index.html` for folders (and a redirect that adds the trailing slash),
/// the site's `404.html` with status 404, MIME types, ETag and Last-Modified with 304s, and
/// Range requests come from Hummingbird's `FileMiddleware`. On top of it: nothing outside
/// the folder is ever served (parent steps, encoded or not, backslashes, NUL bytes and
/// symbolic links pointing out all get 404), and HTML pages are served with the live-update
/// script added (kept in memory until the file changes), never written to disk.
///
///     let live = LiveUpdates()
///     let server = SiteServer(configuration: .init(root: "/site/public", port: 0, live: live))
///     try await server.run { port in print("http://127.0.0.1:\(port)/") }
public struct SiteServer: Sendable {
    /// Where and what to serve.
    public struct Configuration: Sendable {
        /// The folder to serve (the build's output).
        public var root: String
        /// The address to listen on; loopback unless another is asked for.
        public var host: String
        /// The port; 0 picks a free one.
        public var port: Int
        /// Where the site lives under the server's root (`/`, or `/log/` when `base_url`
        /// has a path).
        public var basePath: String
        /// The channel that tells open pages about rebuilds; nil serves the files as they are.
        public var live: LiveUpdates?
        /// Media types by file name, in any folder, for files whose extension says too
        /// little: `["feed.xml": "application/atom+xml; charset=utf-8"]`.
        public var mediaTypes: [String: String]

        /// Creates a configuration.
        public init(root: String, host: String = "127.0.0.1", port: Int = 8080, basePath: String = "/", live: LiveUpdates? = nil,
                    mediaTypes: [String: String] = [:]) {
            self.root = root
            self.host = host
            self.port = port
            self.basePath = SiteLocation.normalized(basePath)
            self.live = live
            self.mediaTypes = mediaTypes
        }
    }

    /// Paths under this prefix belong to the server, never to the site.
    public static let reservedPrefix = "/_marsgen/"

    /// How often open pages get a keep-alive comment, so dropped connections are noticed.
    static let heartbeatInterval: Duration = .seconds(15)

    /// Where and what to serve.
    public let configuration: Configuration
    /// Where the site lives now: ``Configuration/basePath`` until ``moveSite(to:)``.
    let location: SiteLocation

    /// Creates a server.
    public init(configuration: Configuration) {
        self.configuration = configuration
        location = SiteLocation(configuration.basePath)
    }

    /// Serves the site under `basePath` from now on (a rebuild after `base_url` changed in
    /// `marsgen.yml` moved it): requests, redirects and the live script follow at once.
    ///
    /// - Returns: Whether the site moved (`basePath` is not where it already was).
    @discardableResult
    public func moveSite(to basePath: String) -> Bool {
        location.move(to: SiteLocation.normalized(basePath))
    }

    /// Serves until the calling task is cancelled.
    ///
    /// - Parameter onReady: Called once with the port listened on (useful with port 0).
    /// - Throws: A ``Diagnostic`` when the address cannot be listened on (the port is in use,
    ///   the host is not this machine's).
    public func run(onReady: @escaping @Sendable (Int) async -> Void) async throws {
        // Hummingbird logs connection ends at shutdown as errors; marsgen reports its own.
        var logger = Logger(label: "marsgen.serve")
        logger.logLevel = .critical
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "marsgen"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let live = configuration.live
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.run() }
                if let live {
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: Self.heartbeatInterval)
                            live.heartbeat()
                        }
                    }
                }
                defer { live?.close() }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            throw listeningError(error) ?? error
        }
    }

    /// Listens on the configured address for a moment and lets it go: a port in use, or a
    /// host that is not this machine's, is then found before a first build that may take
    /// seconds, not after it. (Another program can still take the port in between; ``run``
    /// reports that the same way.)
    ///
    /// - Throws: The ``Diagnostic`` ``run`` would throw for the address.
    public func checkAddress() async throws {
        // As Hummingbird listens: reusing an address still in TIME_WAIT.
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
        do {
            let channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
            try await channel.close()
        } catch {
            throw listeningError(error) ?? error
        }
    }

    /// The diagnostic for an error listening on the configured address, if marsgen knows it.
    private func listeningError(_ error: any Error) -> Diagnostic? {
        if let error = error as? IOError { return diagnostic(for: error) }
        guard error is SocketAddressError.UnknownHost || error is SocketAddressError else { return nil }
        // The host is neither an address nor a name that resolves.
        return Diagnostic.error("cannot listen on \(configuration.host): no such address or host name",
                                hint: "pass --host 127.0.0.1 (this machine only), 0.0.0.0 (every network), or an address this machine has")
    }

    func makeRouter() -> Router<BasicRequestContext> {
        let base = location
        let script = configuration.live.map { _ in LiveScriptTag(location: base) }
        var pageTransform: (@Sendable (ByteBuffer) -> ByteBuffer)?
        if let script { pageTransform = { script.inject(into: $0) } }
        let files = ContainedFileSystem(root: configuration.root, pageTransform: pageTransform, transformKey: { base.placement })
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: NotFoundMiddleware(files: files))
        router.add(middleware: SitePathMiddleware(files: files, location: base))
        if !configuration.mediaTypes.isEmpty { router.add(middleware: MediaTypeMiddleware(types: configuration.mediaTypes)) }
        // Text types carry their charset: marsgen writes UTF-8 only.
        let utf8Types: [String: MediaType] = [
            "html": MediaType(type: .text, subType: "html", parameter: ("charset", "utf-8")),
            "css": MediaType(type: .text, subType: "css", parameter: ("charset", "utf-8")),
            "js": MediaType(type: .text, subType: "javascript", parameter: ("charset", "utf-8")),
            "xml": MediaType(type: .application, subType: "xml", parameter: ("charset", "utf-8")),
            "txt": MediaType(type: .text, subType: "plain", parameter: ("charset", "utf-8")),
        ]
        router.add(middleware: FileMiddleware(fileProvider: files, cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]),
                                              searchForIndexHtml: true)
            .withAdditionalMediaTypes(forFileExtensions: utf8Types))
        if let channel = configuration.live {
            router.get("\(Self.reservedPrefix)events") { _, _ -> Response in
                let stream = channel.subscribe()
                let headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"]
                return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                    for await text in stream {
                        try await writer.write(ByteBuffer(string: text))
                    }
                    try await writer.finish(nil)
                })
            }
            router.get("\(Self.reservedPrefix)live.js") { _, _ -> Response in
                let script = ByteBuffer(bytes: PackageResources.live_js)
                let headers: HTTPFields = [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache",
                                           .contentLength: String(script.readableBytes)]
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: script))
            }
        }
        return router
    }

    private func diagnostic(for error: IOError) -> Diagnostic {
        let address = "\(configuration.host):\(configuration.port)"
        switch error.errnoCode {
        case EADDRINUSE:
            return .error("port \(configuration.port) is already in use (\(address))",
                          hint: "stop whatever is using it, pass --port with another port, or --port 0 to pick a free one")
        case EACCES:
            return .error("not allowed to listen on port \(configuration.port)",
                          hint: "ports below 1024 need privileges; pass --port 8080, or --port 0 to pick a free one")
        case EADDRNOTAVAIL:
            return .error("cannot listen on \(configuration.host): not an address of this machine",
                          hint: "pass --host 127.0.0.1, or an address this machine has")
        default:
            return .error("cannot listen on \(address): \(error.description)",
                          hint: "pass --host 127.0.0.1, and --port 0 to pick a free port")
        }
    }
}

/// Where a served site lives under the server's root, read by every request and changed
/// when a rebuild moves the site.
final class SiteLocation: @unchecked Sendable {
    private let lock = NSLock()
    private var current: String
    private var movedAt: Date?

    init(_ path: String) {
        current = path
    }

    /// The base path, starting and ending with `/`.
    var path: String {
        lock.withLock { current }
    }

    /// The base path, and when the site last moved there (nil: not since the server started).
    var placement: (key: String, since: Date?) {
        lock.withLock { (current, movedAt) }
    }

    /// Moves the site to `path`; whether it was elsewhere.
    func move(to path: String) -> Bool {
        lock.withLock {
            guard current != path else { return false }
            current = path
            movedAt = Date()
            return true
        }
    }

    /// `path` with a leading and a trailing `/`.
    static func normalized(_ path: String) -> String {
        var base = path.hasPrefix("/") ? path : "/" + path
        if !base.hasSuffix("/") { base += "/" }
        return base
    }
}
