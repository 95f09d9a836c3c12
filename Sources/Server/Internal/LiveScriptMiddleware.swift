import Hummingbird
import NIOCore

/// Adds the live-update script to every HTML page as it is served; the files in the output
/// folder never contain it.
///
/// HTML is always sent whole: a Range request for a page is answered with the full page
/// (which HTTP allows), since byte offsets into the file would not match the bytes sent.
struct LiveScriptMiddleware<Context: RequestContext>: RouterMiddleware {
    let tag: String

    init(basePath: String) {
        tag = "<script src=\"\(SiteServer.reservedPrefix)live.js\" data-marsgen-live data-home=\"\(basePath)\" defer></script>"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !request.uri.path.hasPrefix(SiteServer.reservedPrefix) else { return try await next(request, context) }
        var response = try await next(request, context)
        guard Self.isHTML(response) else { return response }
        if response.status == .partialContent {
            var head = request.head
            head.headerFields[.range] = nil
            head.headerFields[.ifRange] = nil
            response = try await next(Request(head: head, body: request.body), context)
        }
        guard response.status == .ok else { return response }
        if request.method == .head {
            // Measure what a GET would send.
            var head = request.head
            head.method = .get
            let full = try await injected(into: try await next(Request(head: head, body: request.body), context))
            var headers = response.headers
            headers[.contentLength] = full.headers[.contentLength]
            return Response(status: .ok, headers: headers)
        }
        return try await injected(into: response)
    }

    func injected(into response: Response) async throws -> Response {
        var response = response
        let html = try await Self.collect(response.body)
        let page = inject(into: html)
        response.headers[.contentLength] = String(page.readableBytes)
        response.headers[.cacheControl] = "no-cache"
        response.body = ResponseBody(byteBuffer: page)
        return response
    }

    /// The page with the script tag before `</head>` (or `</body>`, or at the end).
    func inject(into html: ByteBuffer) -> ByteBuffer {
        let bytes = html.readableBytesView
        let position = Self.lastIndex(of: Array("</head>".utf8), in: bytes)
            ?? Self.lastIndex(of: Array("</body>".utf8), in: bytes)
            ?? bytes.endIndex
        var result = ByteBuffer()
        result.reserveCapacity(html.readableBytes + tag.utf8.count)
        result.writeBytes(bytes[bytes.startIndex..<position])
        result.writeString(tag)
        result.writeBytes(bytes[position...])
        return result
    }

    static func isHTML(_ response: Response) -> Bool {
        response.headers[.contentType]?.hasPrefix("text/html") ?? false
    }

    static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let sink = Sink()
        try await body.write(CollectingWriter(sink: sink))
        return sink.buffer
    }

    private static func lastIndex(of needle: [UInt8], in bytes: ByteBufferView) -> Int? {
        bytes.withContiguousStorageIfAvailable { haystack -> Int? in
            guard haystack.count >= needle.count, let first = needle.first else { return nil }
            var index = haystack.count - needle.count
            while index >= 0 {
                if haystack[index] == first, needle.indices.allSatisfy({ haystack[index + $0] == needle[$0] }) {
                    return bytes.startIndex + index
                }
                index -= 1
            }
            return nil
        } ?? nil
    }
}

/// Where a collected response body lands.
final class Sink: @unchecked Sendable {
    var buffer = ByteBuffer()
}

struct CollectingWriter: ResponseBodyWriter {
    let sink: Sink

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        sink.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
