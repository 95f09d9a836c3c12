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
    let basePath: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let rawPath = request.uri.path
        if rawPath.hasPrefix(SiteServer.reservedPrefix) { return try await next(request, context) }
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        guard let decoded = rawPath.removingPercentEncoding, Self.isSafe(decoded),
              Self.isSafe(decoded.removingPercentEncoding ?? decoded)
        else { throw HTTPError(.notFound) }

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
        guard basePath != "/" else { return try await next(request, context) }
        var head = request.head
        head.path = Self.encoded(local) + (request.uri.query.map { "?\($0)" } ?? "")
        return try await next(Request(head: head, body: request.body), context)
    }

    private func redirect(to path: String, query: String?) -> Response {
        Response(status: .movedPermanently, headers: [.location: path + (query.map { "?\($0)" } ?? "")])
    }

    /// No parent-folder step, Windows separator or NUL byte.
    static func isSafe(_ path: String) -> Bool {
        !path.contains("..") && !path.contains("\\") && !path.contains("\0")
    }

    private static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }
}
