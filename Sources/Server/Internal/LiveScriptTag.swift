import NIOCore

/// The `<script>` tag that connects a served page to live updates. Pages are served with it
/// (see ``ContainedFileSystem``); the files in the output folder never contain it.
struct LiveScriptTag: Sendable {
    let location: SiteLocation

    /// The tag for the site where it lives now.
    var tag: String {
        "<script src=\"\(SiteServer.reservedPrefix)live.js\" data-marsgen-live data-home=\"\(location.path)\" defer></script>"
    }

    /// The page with the script tag before `</head>` (or `</body>`, or at the end).
    func inject(into html: ByteBuffer) -> ByteBuffer {
        let bytes = html.readableBytesView
        let position = Self.lastIndex(of: Array("</head>".utf8), in: bytes)
            ?? Self.lastIndex(of: Array("</body>".utf8), in: bytes)
            ?? bytes.endIndex
        let tag = tag
        var result = ByteBuffer()
        result.reserveCapacity(html.readableBytes + tag.utf8.count)
        result.writeBytes(bytes[bytes.startIndex..<position])
        result.writeString(tag)
        result.writeBytes(bytes[position...])
        return result
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
