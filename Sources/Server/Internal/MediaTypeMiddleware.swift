import Foundation
import Hummingbird

/// Sends the files named in ``types`` with the media type given there instead of the one
/// their extension gives (an Atom feed is `.xml`, but not any XML).
///
/// A name is a file name, whatever the folder: `feed.xml` is the site's feed and each
/// tag's (`/tags/eva/feed.xml`).
struct MediaTypeMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Media types by file name (`feed.xml`).
    let types: [String: String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        // Decoded only when encoded: this runs on every request.
        let raw = request.uri.path
        let path = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding ?? raw : raw
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        if let type = types[name], response.headers[.contentType] != nil {
            response.headers[.contentType] = type
        }
        return response
    }
}
