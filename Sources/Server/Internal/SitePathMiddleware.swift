import Foundation
import Hummingbird

/// Guards the way into the served folder, before any file is looked up:
///
/// - only GET and HEAD (anything else is 405);
/// - `..`, backslashes and NUL bytes, percent-encoded once or twice, are 404: there is no
///   such page, and no hint that something else exists;
/// - the site's base path (`/log/`) is removed, and `/` redirects to it;
/// - a folder asked for without its trailing slash redirects to it with the slash
///   (`/sol/12` → `/sol/12/`), so the page's relative links resolve as they will online.
struct SitePathMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: ContainedFileSystem
    let location: SiteLocation

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let basePath = location.path
        let rawPath = request.uri.path
        if rawPath.hasPrefix(SiteServer.reservedPrefix) { return try await next(request, context) }
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        let decoded: String
        if rawPath.utf8.contains(UInt8(ascii: "%")) {
            guard let once = rawPath.removingPercentEncoding, Self.isSafe(once), Self.isSafe(once.removingPercentEncoding ?? once)
            else { throw HTTPError(.notFound) }
            decoded = once
        } else {
            guard Self.isSafe(rawPath) else { throw HTTPError(.notFound) }
            decoded = rawPath
        }

        var local = decoded
        if basePath != "/" {
            let bare = String(basePath.dropLast())
            if decoded == "/" || decoded == bare { return redirect(to: basePath, query: request.uri.query) }
            guard decoded.hasPrefix(basePath) else { throw HTTPError(.notFound) }
            local = "/" + decoded.dropFirst(basePath.count)
        }
        if !local.hasSuffix("/"), files.isFolder(local) {
            return redirect(to: rawPath + "/", query: request.uri.query)
        }
        var head = request.head
        if basePath != "/" {
            head.path = Self.encoded(local) + (request.uri.query.map { "?\($0)" } ?? "")
        }
        if request.headers[.range] != nil, files.transformsPages, local.hasSuffix("/") || ContainedFileSystem.isPage(local) {
            // A page gets the live script as it is sent: it is always sent whole (which HTTP
            // allows), so the script is never cut.
            head.headerFields[.range] = nil
            head.headerFields[.ifRange] = nil
        } else if let range = request.headers[.range] {
            switch ByteRange(header: range, size: files.servedSize(local)) {
            case .whole: head.headerFields[.range] = nil
            case .from(let start): head.headerFields[.range] = "bytes=\(start)-"
            case .span(let start, let end): head.headerFields[.range] = "bytes=\(start)-\(end)"
            case .unsatisfiable(let size):
                return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)", .contentLength: "0"])
            }
        }
        guard head != request.head else { return try await next(request, context) }
        return try await next(Request(head: head, body: request.body), context)
    }

    private func redirect(to path: String, query: String?) -> Response {
        Response(status: .movedPermanently, headers: [.location: path + (query.map { "?\($0)" } ?? "")])
    }

    /// No parent-folder step, Windows separator or NUL byte.
    static func isSafe(_ path: String) -> Bool {
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "\\") || byte == 0 || (byte == UInt8(ascii: ".") && previous == byte) { return false }
            previous = byte
        }
        return true
    }

    static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }
}

/// A `Range` header made plain for `FileMiddleware`, which reads `bytes=-N` as the first N
/// bytes (HTTP means the last N) and answers a start past the end with a broken range.
enum ByteRange: Equatable {
    /// Serve the whole file: no usable single range (several ranges, or a malformed one).
    case whole
    case from(Int)
    case span(Int, Int)
    /// 416, with the file's size.
    case unsatisfiable(size: Int)

    init(header: String, size: Int?) {
        guard let size, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .whole
            return
        }
        let first = Int(parts[0]), last = Int(parts[1])
        switch (parts[0].isEmpty, parts[1].isEmpty) {
        case (true, false):
            guard let suffix = last else { self = .whole; return }
            self = suffix == 0 || size == 0 ? .unsatisfiable(size: size) : .from(max(0, size - suffix))
        case (false, true):
            guard let start = first else { self = .whole; return }
            self = start >= size ? .unsatisfiable(size: size) : .from(start)
        case (false, false):
            guard let start = first, let end = last, start <= end else { self = .whole; return }
            self = start >= size ? .unsatisfiable(size: size) : .span(start, min(end, size - 1))
        case (true, true):
            self = .whole
        }
    }
}
