import Foundation
import Hummingbird

/// Sends the files named in ``types`` with the media type given there instead of the one
/// their extension gives (an Atom feed is `.xml`, but not any XML).
///
/// It sits after ``SitePathMiddleware``, so it sees paths relative to the served folder,
/// whatever the site's base path.
struct MediaTypeMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Media types by request path (`/feed.xml`).
    let types: [String: String]

    init(types: [String: String]) {
        self.types = Dictionary(types.map { ("/" + ($0.key.hasPrefix("/") ? String($0.key.dropFirst()) : $0.key), $0.value) },
                                uniquingKeysWith: { first, _ in first })
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        // Decoded only when encoded: this runs on every request.
        let raw = request.uri.path
        let path = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding ?? raw : raw
        if let type = types[path], response.headers[.contentType] != nil {
            response.headers[.contentType] = type
        }
        return response
    }
}
