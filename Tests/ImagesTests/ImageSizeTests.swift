import Foundation
import Images
import Testing

/// Image files made byte by byte, as their formats lay them out.
enum ImageFile {
    static func bigEndian(_ value: Int, bytes count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    static func littleEndian(_ value: Int, bytes count: Int) -> [UInt8] {
        (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, bytes: 4) + Array("IHDR".utf8)
            + bigEndian(width, bytes: 4) + bigEndian(height, bytes: 4) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    }

    static func gif(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + littleEndian(width, bytes: 2) + littleEndian(height, bytes: 2) + [0, 0, 0, 0x3B]
    }

    /// A JPEG's segments up to its frame header: a JFIF header, an EXIF block with
    /// `orientation` (none when nil) in the byte order given, a comment, then the frame.
    static func jpeg(width: Int, height: Int, orientation: Int? = nil, littleEndianEXIF: Bool = false, frameMarker: UInt8 = 0xC0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        let jfif = Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xE0] + bigEndian(jfif.count + 2, bytes: 2) + jfif
        if let orientation {
            let order: [UInt8] = littleEndianEXIF ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
            let word = { (value: Int, count: Int) in littleEndianEXIF ? littleEndian(value, bytes: count) : bigEndian(value, bytes: count) }
            // Two entries: a resolution unit first, so that the orientation is not the first looked at.
            var tiff = order + word(8, 4) + word(2, 2)
            tiff += word(0x0128, 2) + word(3, 2) + word(1, 4) + word(2, 2) + [0, 0]
            tiff += word(0x0112, 2) + word(3, 2) + word(1, 4) + word(orientation, 2) + [0, 0]
            tiff += word(0, 4)
            let exif = Array("Exif".utf8) + [0, 0] + tiff
            bytes += [0xFF, 0xE1] + bigEndian(exif.count + 2, bytes: 2) + exif
        }
        let comment = Array("made by a test".utf8)
        bytes += [0xFF, 0xFE] + bigEndian(comment.count + 2, bytes: 2) + comment
        let frame: [UInt8] = [8] + bigEndian(height, bytes: 2) + bigEndian(width, bytes: 2) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, frameMarker] + bigEndian(frame.count + 2, bytes: 2) + frame
        return bytes + [0xFF, 0xD9]
    }

    static func webP(chunk: String, payload: [UInt8]) -> [UInt8] {
        let body = Array("WEBP".utf8) + Array(chunk.utf8) + littleEndian(payload.count, bytes: 4) + payload
        return Array("RIFF".utf8) + littleEndian(body.count, bytes: 4) + body
    }

    static func webPExtended(width: Int, height: Int) -> [UInt8] {
        webP(chunk: "VP8X", payload: [0x10, 0, 0, 0] + littleEndian(width - 1, bytes: 3) + littleEndian(height - 1, bytes: 3))
    }

    static func webPLossless(width: Int, height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        return webP(chunk: "VP8L", payload: [0x2F] + littleEndian(bits, bytes: 4) + [0, 0, 0])
    }

    static func webPLossy(width: Int, height: Int) -> [UInt8] {
        webP(chunk: "VP8 ", payload: [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A] + littleEndian(width, bytes: 2) + littleEndian(height, bytes: 2) + [0, 0])
    }
}

@Suite("Image sizes")
struct ImageSizeTests {
    func size(_ name: String, _ bytes: [UInt8]) -> ImageSize? {
        ImageSize(ofFileNamed: name, bytes: bytes)
    }

    func size(svg: String, named name: String = "a.svg") -> ImageSize? {
        ImageSize(ofFileNamed: name, bytes: Array(svg.utf8))
    }

    @Test("PNG, GIF and WebP give their sizes, whatever the file is named")
    func rasterFormats() {
        #expect(size("a.png", ImageFile.png(width: 1200, height: 630)) == ImageSize(width: 1200, height: 630))
        #expect(size("a.gif", ImageFile.gif(width: 320, height: 200)) == ImageSize(width: 320, height: 200))
        #expect(size("a.webp", ImageFile.webPExtended(width: 4000, height: 3000)) == ImageSize(width: 4000, height: 3000))
        #expect(size("a.webp", ImageFile.webPLossless(width: 16383, height: 1)) == ImageSize(width: 16383, height: 1))
        #expect(size("a.webp", ImageFile.webPLossy(width: 800, height: 450)) == ImageSize(width: 800, height: 450))
        // Told from the bytes: a PNG named .jpg is still a PNG.
        #expect(size("photo.jpg", ImageFile.png(width: 10, height: 20)) == ImageSize(width: 10, height: 20))
    }

    @Test("JPEG: the frame's size, turned a quarter for EXIF orientations 5 to 8, in either byte order")
    func jpeg() {
        #expect(size("a.jpg", ImageFile.jpeg(width: 4032, height: 3024)) == ImageSize(width: 4032, height: 3024))
        for orientation in 1...4 {
            #expect(size("a.jpg", ImageFile.jpeg(width: 4032, height: 3024, orientation: orientation)) == ImageSize(width: 4032, height: 3024))
        }
        for orientation in 5...8 {
            for little in [false, true] {
                #expect(size("a.jpg", ImageFile.jpeg(width: 4032, height: 3024, orientation: orientation, littleEndianEXIF: little))
                        == ImageSize(width: 3024, height: 4032))
            }
        }
        // Progressive (SOF2) and arithmetic-coded frames are frames too; a DHT segment is not.
        #expect(size("a.jpg", ImageFile.jpeg(width: 640, height: 480, frameMarker: 0xC2)) == ImageSize(width: 640, height: 480))
        #expect(size("a.jpg", ImageFile.jpeg(width: 640, height: 480, frameMarker: 0xC9)) == ImageSize(width: 640, height: 480))
        #expect(size("a.jpg", ImageFile.jpeg(width: 640, height: 480, frameMarker: 0xC4)) == nil)
    }

    @Test("the demo site's images")
    func demoImages() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let expected = ["kasei-horizon.png": ImageSize(width: 1200, height: 630), "kasei-station.jpg": ImageSize(width: 1200, height: 630),
                        "dust-devil.svg": ImageSize(width: 640, height: 260)]
        for (name, size) in expected {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("static/img/\(name)")))
            #expect(ImageSize(ofFileNamed: name, bytes: bytes) == size, "\(name)")
        }
    }

    @Test("SVG: width and height in pixels or absolute units, or one of them and the viewBox's ratio")
    func svg() {
        #expect(size(svg: #"<svg xmlns="http://www.w3.org/2000/svg" width="640" height="260"/>"#) == ImageSize(width: 640, height: 260))
        #expect(size(svg: #"<svg width="640px" height=' 260.4px ' viewBox="0 0 10 10"></svg>"#) == ImageSize(width: 640, height: 260))
        // Inkscape's A4 page: 210 × 297 mm at 96 pixels an inch.
        #expect(size(svg: #"<svg width="210mm" height="297mm" viewBox="0 0 210 297"/>"#) == ImageSize(width: 794, height: 1123))
        #expect(size(svg: #"<svg width="1in" height="72pt"/>"#) == ImageSize(width: 96, height: 96))
        #expect(size(svg: #"<svg width="1e2" height="5E1px"/>"#) == ImageSize(width: 100, height: 50))
        #expect(size(svg: #"<svg width="400" viewBox="0,0,200,100"/>"#) == ImageSize(width: 400, height: 200))
        #expect(size(svg: #"<svg height="50" viewBox="0 0 200 100"/>"#) == ImageSize(width: 100, height: 50))
        // Sized by the page, not by itself.
        #expect(size(svg: #"<svg viewBox="0 0 200 100"/>"#) == nil)
        #expect(size(svg: #"<svg width="100%" height="100%" viewBox="0 0 200 100"/>"#) == nil)
        #expect(size(svg: #"<svg width="10em" height="5em"/>"#) == nil)
        #expect(size(svg: #"<svg width="0" height="5"/>"#) == nil)
        #expect(size(svg: #"<svg width="400"/>"#) == nil)
    }

    @Test("SVG: the root element after a byte order mark, a declaration, a doctype with a subset and comments")
    func svgPrologue() {
        let prologue = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- made with <b>care</b> -->\n"
            + "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x\" [ <!ENTITY a \"<svg width='1' height='1'>\"> ]>\n"
        #expect(size(svg: prologue + #"<svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="30" height="20"/>"#) == ImageSize(width: 30, height: 20))
        #expect(size(svg: prologue + #"<html width="30" height="20"/>"#) == nil)
        // Only a file named .svg is read as SVG.
        #expect(size(svg: #"<svg width="30" height="20"/>"#, named: "a.txt") == nil)
        #expect(size(svg: #"<svg width="30" height="20"/>"#, named: "LOGO.SVG") == ImageSize(width: 30, height: 20))
    }

    @Test("a damaged or cut file gives its size or none, never a crash")
    func damaged() {
        let files: [(String, [UInt8])] = [
            ("a.png", ImageFile.png(width: 5, height: 6)), ("a.gif", ImageFile.gif(width: 5, height: 6)),
            ("a.jpg", ImageFile.jpeg(width: 5, height: 6, orientation: 6)), ("a.webp", ImageFile.webPExtended(width: 5, height: 6)),
            ("a.webp", ImageFile.webPLossless(width: 5, height: 6)), ("a.webp", ImageFile.webPLossy(width: 5, height: 6)),
            ("a.svg", Array(#"<!-- x --><svg width="5" height="6" viewBox="0 0 5 6"/>"#.utf8)),
        ]
        for (name, bytes) in files {
            let whole = ImageSize(ofFileNamed: name, bytes: bytes)
            #expect(whole != nil, "\(name)")
            for end in 0..<bytes.count {
                let cut = ImageSize(ofFileNamed: name, bytes: Array(bytes[..<end]))
                // A file cut after what gives its size still gives it; never another one.
                #expect(cut == nil || cut == whole, "\(name) cut at \(end)")
            }
        }
        // A JPEG's segment lengths pointing anywhere.
        var jpeg = ImageFile.jpeg(width: 5, height: 6)
        for index in 2..<jpeg.count {
            let saved = jpeg[index]
            for value: UInt8 in [0x00, 0x01, 0xFF] {
                jpeg[index] = value
                _ = ImageSize(ofFileNamed: "a.jpg", bytes: jpeg)
            }
            jpeg[index] = saved
        }
        #expect(ImageSize(ofFileNamed: "a.png", bytes: []) == nil)
        #expect(ImageSize(ofFileNamed: "a.png", bytes: ImageFile.png(width: 0, height: 6)) == nil)
    }

    @Test("which static files are read, by name")
    func readableNames() {
        for name in ["a.png", "img/b.JPG", "c.jpeg", "d.gif", "e.webp", "f.svg", "dir.v2/g.png"] {
            #expect(ImageSize.mayRead(fileNamed: name), "\(name)")
        }
        for name in ["a.txt", "img.png/readme", "noext", "b.avif", "c.svgz", "photo.png.bak"] {
            #expect(!ImageSize.mayRead(fileNamed: name), "\(name)")
        }
    }
}
