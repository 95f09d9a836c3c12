import Hummingbird
import NIOCore

/// Answers every miss with the site's own `404.html` and status 404, as a host would.
struct NotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: ContainedFileSystem

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            guard response.status == .notFound else { return response }
            return notFound(for: request)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            return notFound(for: request)
        }
    }

    private func notFound(for request: Request) -> Response {
        var headers: HTTPFields = [.cacheControl: "no-store"]
        let body: ByteBuffer
        // The page as any other is served (with the live script, in serve mode).
        if let page = files.servedBytes("/404.html") {
            headers[.contentType] = "text/html; charset=utf-8"
            body = page
        } else {
            headers[.contentType] = "text/plain; charset=utf-8"
            body = ByteBuffer(string: "Not found\n")
        }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .notFound, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: body))
    }
}
