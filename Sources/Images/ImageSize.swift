/// The size in CSS pixels a browser shows an image file at by itself, read from the first
/// bytes of the file: what an `<img>`'s `width` and `height` say, so that the browser keeps
/// the image's place in the page before the image arrives (a page read while images load
/// does not jump).
///
/// Known for PNG, GIF, JPEG (turned as its EXIF orientation says, as browsers show it),
/// WebP, and SVG with a width and a height in pixels (or one of them and a `viewBox`).
/// Nil for anything else: AVIF, an SVG sized in `%` or `em`, or a file too short or damaged
/// to say; an `<img>` then goes without.
///
///     ImageSize(ofFileNamed: "img/crater.png", bytes: bytes)   // ImageSize(width: 1200, height: 630)
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in CSS pixels.
    public var width: Int
    /// Height in CSS pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        (self.width, self.height) = (width, height)
    }

    /// The size `bytes`, the file named `name`, gives its image; nil when it gives none.
    /// The format is told from the bytes, not the name, but for SVG, which is text: read
    /// from a file named `.svg`.
    public init?(ofFileNamed name: String, bytes: [UInt8]) {
        let size = bytes.withUnsafeBufferPointer { buffer -> ImageSize? in
            let bytes = ImageBytes(buffer)
            if let size = Self.png(bytes) ?? Self.gif(bytes) ?? Self.jpeg(bytes) ?? Self.webP(bytes) { return size }
            guard name.lowercased().hasSuffix(".svg") else { return nil }
            return SVGSize.size(of: bytes)
        }
        // A browser shows an image of no width or height as nothing: no size to keep.
        guard let size, size.width > 0, size.height > 0 else { return nil }
        self = size
    }

    /// Whether a file named `name` may be an image whose size ``init(ofFileNamed:bytes:)``
    /// reads: by its extension, for a build to look at only those of a site's static files.
    public static func mayRead(fileNamed name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return false }
        return readableExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    static let readableExtensions: Set<String> = ["png", "apng", "gif", "jpg", "jpeg", "jpe", "jfif", "pjpeg", "pjp", "webp", "svg"]

    public var description: String { "\(width)×\(height)" }

    // MARK: Raster formats

    /// PNG: the IHDR chunk, first after the signature.
    static func png(_ bytes: ImageBytes) -> ImageSize? {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), bytes.matches([0x49, 0x48, 0x44, 0x52], at: 12),
              let width = bytes.bigEndian32(at: 16), let height = bytes.bigEndian32(at: 20) else { return nil }
        return ImageSize(width: width, height: height)
    }

    /// GIF: the logical screen's size after the signature.
    static func gif(_ bytes: ImageBytes) -> ImageSize? {
        guard bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)),
              let width = bytes.littleEndian16(at: 6), let height = bytes.littleEndian16(at: 8) else { return nil }
        return ImageSize(width: width, height: height)
    }

    /// JPEG: the first start-of-frame segment's size, its width and height traded when an
    /// EXIF orientation before it turns the image a quarter (5 to 8), as browsers show it.
    static func jpeg(_ bytes: ImageBytes) -> ImageSize? {
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var offset = 2
        var quarterTurned = false
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            // Fill bytes before a marker, and markers without a length.
            if marker == 0xFF { offset += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            guard let length = bytes.bigEndian16(at: offset + 2), length >= 2 else { return nil }
            let body = offset + 4
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard let height = bytes.bigEndian16(at: body + 1), let width = bytes.bigEndian16(at: body + 3) else { return nil }
                return quarterTurned ? ImageSize(width: height, height: width) : ImageSize(width: width, height: height)
            case 0xE1:
                if let orientation = EXIFOrientation.value(in: bytes, from: body, length: length - 2) {
                    quarterTurned = (5...8).contains(orientation)
                }
            case 0xD9, 0xDA:
                // The end of the image, or its scan: no frame header came before.
                return nil
            default:
                break
            }
            offset = body + length - 2
        }
        return nil
    }

    /// WebP: the canvas of an extended file (VP8X), or the frame of a simple lossy (VP8) or
    /// lossless (VP8L) one.
    static func webP(_ bytes: ImageBytes) -> ImageSize? {
        guard bytes.starts(with: Array("RIFF".utf8)), bytes.matches(Array("WEBP".utf8), at: 8) else { return nil }
        if bytes.matches(Array("VP8X".utf8), at: 12) {
            guard let width = bytes.littleEndian24(at: 24), let height = bytes.littleEndian24(at: 27) else { return nil }
            return ImageSize(width: width + 1, height: height + 1)
        }
        if bytes.matches(Array("VP8L".utf8), at: 12) {
            // A signature byte, then 14 bits of width − 1 and 14 of height − 1.
            guard bytes.count >= 25, bytes[20] == 0x2F else { return nil }
            let bits = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
            return ImageSize(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
        }
        if bytes.matches(Array("VP8 ".utf8), at: 12) {
            // After the frame tag, a start code, then 14 bits each (two bits of scale above).
            guard bytes.matches([0x9D, 0x01, 0x2A], at: 23),
                  let width = bytes.littleEndian16(at: 26), let height = bytes.littleEndian16(at: 28) else { return nil }
            return ImageSize(width: width & 0x3FFF, height: height & 0x3FFF)
        }
        return nil
    }
}

/// The orientation an EXIF block (a JPEG's APP1 segment) gives its image: tag 0x0112 of
/// its first image directory, 1 to 8.
enum EXIFOrientation {
    static func value(in bytes: ImageBytes, from start: Int, length: Int) -> Int? {
        let end = min(bytes.count, start + length)
        guard bytes.matches(Array("Exif".utf8) + [0, 0], at: start) else { return nil }
        let tiff = start + 6
        let littleEndian: Bool
        if bytes.matches([0x49, 0x49, 0x2A, 0x00], at: tiff) {
            littleEndian = true
        } else if bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: tiff) {
            littleEndian = false
        } else {
            return nil
        }
        func read16(_ offset: Int) -> Int? {
            guard offset + 2 <= end else { return nil }
            return littleEndian ? bytes.littleEndian16(at: offset) : bytes.bigEndian16(at: offset)
        }
        func read32(_ offset: Int) -> Int? {
            guard offset + 4 <= end else { return nil }
            return littleEndian ? bytes.littleEndian32(at: offset) : bytes.bigEndian32(at: offset)
        }
        guard let directoryOffset = read32(tiff + 4), let count = read16(tiff + directoryOffset) else { return nil }
        for index in 0..<count {
            let entry = tiff + directoryOffset + 2 + 12 * index
            guard let tag = read16(entry) else { return nil }
            if tag == 0x0112 {
                guard let value = read16(entry + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }
}

/// A file's bytes, read with bounds checked: a damaged file gives no size, never a crash.
struct ImageBytes {
    let buffer: UnsafeBufferPointer<UInt8>

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    var count: Int { buffer.count }

    subscript(_ offset: Int) -> UInt8 { buffer[offset] }

    func starts(with prefix: [UInt8]) -> Bool {
        matches(prefix, at: 0)
    }

    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + expected.count <= buffer.count else { return false }
        for (index, byte) in expected.enumerated() where buffer[offset + index] != byte { return false }
        return true
    }

    func bigEndian16(at offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= buffer.count else { return nil }
        return Int(buffer[offset]) << 8 | Int(buffer[offset + 1])
    }

    func littleEndian16(at offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= buffer.count else { return nil }
        return Int(buffer[offset]) | Int(buffer[offset + 1]) << 8
    }

    func littleEndian24(at offset: Int) -> Int? {
        guard offset >= 0, offset + 3 <= buffer.count else { return nil }
        return Int(buffer[offset]) | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2]) << 16
    }

    func bigEndian32(at offset: Int) -> Int? {
        guard offset >= 0, offset + 4 <= buffer.count else { return nil }
        return Int(buffer[offset]) << 24 | Int(buffer[offset + 1]) << 16 | Int(buffer[offset + 2]) << 8 | Int(buffer[offset + 3])
    }

    func littleEndian32(at offset: Int) -> Int? {
        guard offset >= 0, offset + 4 <= buffer.count else { return nil }
        return Int(buffer[offset]) | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2]) << 16 | Int(buffer[offset + 3]) << 24
    }
}
