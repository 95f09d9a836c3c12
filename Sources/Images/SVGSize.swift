/// The size an SVG file gives itself on its root `<svg>` element: its `width` and `height`
/// in pixels or an absolute unit (`210mm`, as Inkscape writes), or one of them and the
/// ratio of its `viewBox`. Without either, or in `%` or `em`, a browser sizes the image by
/// the page (as 300×150 by default), not by itself: nil.
enum SVGSize {
    /// How far into the file the root element is looked for: after an XML declaration, a
    /// doctype and comments, it is near the start.
    static let searchLimit = 64 * 1024

    static func size(of bytes: ImageBytes) -> ImageSize? {
        guard let attributes = rootAttributes(bytes) else { return nil }
        let box = attributes["viewBox"].flatMap(viewBoxSize)
        let (width, height) = (attributes["width"].flatMap(pixels), attributes["height"].flatMap(pixels))
        switch (width, height, box) {
        case let (width?, height?, _):
            return rounded(width, height)
        case let (width?, nil, box?):
            return rounded(width, width * box.height / box.width)
        case let (nil, height?, box?):
            return rounded(height * box.width / box.height, height)
        default:
            return nil
        }
    }

    private static func rounded(_ width: Double, _ height: Double) -> ImageSize? {
        guard width.isFinite, height.isFinite, width >= 0.5, height >= 0.5, width < 1e7, height < 1e7 else { return nil }
        return ImageSize(width: Int(width.rounded()), height: Int(height.rounded()))
    }

    /// The attributes of the file's first element, when it is `svg` (or `…:svg`), by name.
    static func rootAttributes(_ bytes: ImageBytes) -> [String: String]? {
        let end = min(bytes.count, searchLimit)
        var offset = 0
        // A UTF-8 byte order mark.
        if bytes.matches([0xEF, 0xBB, 0xBF], at: 0) { offset = 3 }
        func skip(past terminator: [UInt8]) -> Bool {
            while offset < end {
                if bytes.matches(terminator, at: offset) { offset += terminator.count; return true }
                offset += 1
            }
            return false
        }
        while offset < end {
            let byte = bytes[offset]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1; continue }
            guard byte == UInt8(ascii: "<") else { return nil }
            if bytes.matches(Array("<?".utf8), at: offset) {
                guard skip(past: Array("?>".utf8)) else { return nil }
            } else if bytes.matches(Array("<!--".utf8), at: offset) {
                guard skip(past: Array("-->".utf8)) else { return nil }
            } else if bytes.matches(Array("<!".utf8), at: offset) {
                // A doctype, whose internal subset in brackets may hold `>`.
                var depth = 0
                while offset < end {
                    let byte = bytes[offset]
                    offset += 1
                    if byte == UInt8(ascii: "[") { depth += 1 }
                    if byte == UInt8(ascii: "]") { depth -= 1 }
                    if byte == UInt8(ascii: ">"), depth <= 0 { break }
                }
            } else {
                return element(at: offset + 1, in: bytes, end: end)
            }
        }
        return nil
    }

    /// The attributes of the start tag whose name begins at `start`, if it is `svg`.
    private static func element(at start: Int, in bytes: ImageBytes, end: Int) -> [String: String]? {
        var offset = start
        func isNameByte(_ byte: UInt8) -> Bool {
            !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "="))
        }
        func name() -> String {
            let first = offset
            while offset < end, isNameByte(bytes[offset]) { offset += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes.buffer[first..<offset]), as: UTF8.self)
        }
        func skipSpace() {
            while offset < end, bytes[offset] == 0x20 || bytes[offset] == 0x09 || bytes[offset] == 0x0A || bytes[offset] == 0x0D {
                offset += 1
            }
        }
        let tag = name()
        guard tag == "svg" || tag.hasSuffix(":svg") else { return nil }
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard offset < end else { return nil }
            if bytes[offset] == UInt8(ascii: ">") || bytes[offset] == UInt8(ascii: "/") { return attributes }
            let attribute = name()
            guard !attribute.isEmpty else { return nil }
            skipSpace()
            guard offset < end, bytes[offset] == UInt8(ascii: "=") else { continue }
            offset += 1
            skipSpace()
            guard offset < end, bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[offset]
            offset += 1
            let first = offset
            while offset < end, bytes[offset] != quote { offset += 1 }
            guard offset < end else { return nil }
            // The first of an attribute given twice, as an XML parser would refuse; no matter.
            if attributes[attribute] == nil {
                attributes[attribute] = String(decoding: UnsafeBufferPointer(rebasing: bytes.buffer[first..<offset]), as: UTF8.self)
            }
            offset += 1
        }
    }

    /// CSS pixels per unit, for the absolute units a length may have.
    private static let pixelsPerUnit: [String: Double] = [
        "": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6, "pt": 96.0 / 72, "pc": 16,
    ]

    /// A length in pixels: a number and an absolute unit or none; nil for `%`, `em`, `auto`…
    static func pixels(_ value: String) -> Double? {
        let trimmed = value.trimmingSpaces()
        let unitStart = trimmed.firstIndex { !($0.isASCII && ($0.isNumber || "+-.eE".contains($0))) } ?? trimmed.endIndex
        // An exponent's `e` is the number's only when digits follow (`1e3`, not `1em`).
        var numberEnd = unitStart
        if let e = trimmed[..<unitStart].lastIndex(where: { $0 == "e" || $0 == "E" }), trimmed.index(after: e) == unitStart {
            numberEnd = e
        }
        guard let number = Double(trimmed[..<numberEnd]), number >= 0,
              let scale = pixelsPerUnit[trimmed[numberEnd...].lowercased()] else { return nil }
        return number * scale
    }

    /// A `viewBox`'s width and height: its third and fourth numbers, when positive.
    static func viewBoxSize(_ value: String) -> (width: Double, height: Double)? {
        let numbers = value.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }.compactMap { Double($0) }
        guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else { return nil }
        return (numbers[2], numbers[3])
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" || character == "\n" || character == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
