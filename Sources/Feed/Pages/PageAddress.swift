import Content

/// Where a page is, kept in parts: its URL is the site's base path followed by `head`,
/// `name` and `tail` (`journal/` + a slug + `/`), and its output path is the same without
/// the base path, with `index.html` after a final `/` (the rule ``SiteLinks/outputPath(for:)``
/// applies to any URL).
///
/// The planner names every page of the site on every build, 19,600 at 10,000 entries, and
/// a rebuild writes a handful of them: the URL and output path strings are made only when
/// asked for, and the hash of the output path (``place``) is taken from the parts as they
/// are, without making the string.
public struct PageAddress: Sendable {
    let basePath: String
    let head: String
    let name: String
    let tail: String

    /// The page at `basePath` + `head` + `name` + `tail`.
    init(basePath: String, _ head: String, _ name: String = "", _ tail: String = "") {
        self.basePath = basePath
        self.head = head
        self.name = name
        self.tail = tail
    }

    /// The URL path (`/journal/dust-storm/`).
    public var url: String {
        var url = ""
        url.reserveCapacity(basePath.utf8.count + head.utf8.count + name.utf8.count + tail.utf8.count)
        url += basePath
        url += head
        url += name
        url += tail
        return url
    }

    /// The file the page is written to, relative to the output (`journal/dust-storm/index.html`).
    public var outputPath: String {
        var path = ""
        path.reserveCapacity(head.utf8.count + name.utf8.count + tail.utf8.count + Self.indexFile.utf8.count)
        path += head
        path += name
        path += tail
        if isFolder { path += Self.indexFile }
        return path
    }

    /// The hash of ``outputPath``: what `ContentHash.combine(_:)` of it gives.
    var place: UInt64 {
        let suffix = isFolder ? Self.indexFile : ""
        let count = head.utf8.count + name.utf8.count + tail.utf8.count + suffix.utf8.count
        // The bytes side by side on the stack, hashed as the string's would be.
        return withUnsafeTemporaryAllocation(byteCount: max(count, 1), alignment: 8) { buffer in
            var offset = 0
            func append(_ part: String) {
                var part = part
                part.withUTF8 { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + bytes.count)]).copyMemory(from: UnsafeRawBufferPointer(bytes))
                    offset += bytes.count
                }
            }
            append(head)
            append(name)
            append(tail)
            append(suffix)
            var hash = ContentHash()
            hash.combine(buffer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            return hash.value
        }
    }

    /// Whether the URL names a folder (the front page's is the base path alone), whose page
    /// is its `index.html`.
    private var isFolder: Bool {
        let last = tail.utf8.last ?? name.utf8.last ?? head.utf8.last
        return last == nil || last == UInt8(ascii: "/")
    }

    /// The file a folder's page is written to.
    private static let indexFile = "index.html"
}
