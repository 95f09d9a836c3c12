import Diagnostics
import GFM

/// The text of one file under a site, decoded and normalised.
///
/// Decoding is strict: invalid UTF-8, binary files, and control characters and noncharacters
/// that no page or feed can carry (see ``ForbiddenCodePoints``) are errors at the first bad byte.
/// A UTF-8 byte order mark is dropped and CRLF / CR line endings become LF, so every
/// loader sees the same text whatever editor wrote the file.
public struct SourceFile: Hashable, Sendable {
    /// The site-relative path (`content/journal/sol-12.md`).
    public let path: String
    /// The normalised text.
    public let text: String

    /// Decodes a file's bytes.
    ///
    /// - Parameters:
    ///   - path: The site-relative path, for diagnostics.
    ///   - bytes: The file's bytes.
    /// - Throws: A ``Diagnostic`` at the line and column of the first invalid byte.
    public init(path: String, bytes: [UInt8]) throws(Diagnostic) {
        self.path = path
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if let nul = body.firstIndex(of: 0) {
            throw Diagnostic.error("this looks like a binary file, not text", at: Self.location(of: nul, in: body, path: path),
                                   hint: "only UTF-8 text files belong in content/; move other files to static/")
        }
        guard let decoded = String(validating: body, as: UTF8.self) else {
            let bad = Self.firstInvalidUTF8Offset(body) ?? body.startIndex
            throw Diagnostic.error("the file is not valid UTF-8", at: Self.location(of: bad, in: body, path: path),
                                   hint: "save the file as UTF-8 in your editor")
        }
        if let offset = body.withUnsafeBytes({ ForbiddenCodePoints.firstOffset(in: $0) }) {
            let location = Self.location(of: body.startIndex + offset, in: body, path: path)
            throw body.withUnsafeBytes { Self.forbidden(at: offset, in: $0, location: location) }
        }
        // By bytes: with Foundation loaded, `contains("\r")` matches whole composed sequences
        // and passes over a carriage return followed by a combining mark. (The bytes the text
        // was decoded from, which are faster to look through than its UTF-8 view.)
        self.text = body.contains(UInt8(ascii: "\r")) ? Self.normalizingLineEndings(decoded) : decoded
    }

    /// Creates a source file from text that is already decoded (tests, generated content).
    public init(path: String, text: String) {
        self.path = path
        self.text = text.utf8.contains(UInt8(ascii: "\r")) ? Self.normalizingLineEndings(text) : text
    }

    /// A location in this file.
    public func location(line: Int, column: Int = 1) -> SourceLocation {
        SourceLocation(path: path, line: line, column: column)
    }

    static func normalizingLineEndings(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if scalar == "\r" {
                result.unicodeScalars.append("\n")
                if pending == "\n" { pending = scalars.next() }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The line and column (in characters) of byte `offset`.
    static func location(of offset: ArraySlice<UInt8>.Index, in bytes: ArraySlice<UInt8>, path: String) -> SourceLocation {
        var line = 1
        var lineStart = bytes.startIndex
        for index in bytes.startIndex..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Count characters, not bytes, up to the offending byte: continuation bytes don't start one.
        let column = bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1
        return SourceLocation(path: path, line: line, column: column)
    }

    /// The error for the forbidden code point (see ``ForbiddenCodePoints``) at `offset`, with
    /// a hint at how it most likely got there.
    static func forbidden(at offset: Int, in bytes: UnsafeRawBufferPointer, location: SourceLocation) -> Diagnostic {
        let name = ForbiddenCodePoints.name(at: offset, in: bytes)
        let lead = bytes[offset]
        if lead >= 0xEF {
            return Diagnostic.error("the file holds the noncharacter \(name), which web pages and feeds cannot carry", at: location,
                                    hint: name == "U+FFFE" ? "it is a byte-order mark saved in the wrong byte order; delete it"
                                        : "delete it: noncharacters are never text (a tool that wrote the file may have left it)")
        }
        let hint = lead == 0xC2 ? "the text may have been converted from Windows-1252 as if it were Latin-1; save the original as UTF-8 again"
            : "delete it (an editor may show it as ^\(Character(UnicodeScalar(lead ^ 0x40))))"
        return Diagnostic.error("the file holds a control character (\(name)), which web pages and feeds cannot carry",
                                at: location, hint: hint)
    }

    static func firstInvalidUTF8Offset(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= bytes.endIndex else { return index }
            for continuation in 1..<max(length, 1) where bytes[index + continuation] & 0xC0 != 0x80 { return index }
            // Overlong and surrogate forms.
            if length == 3 {
                let second = bytes[index + 1]
                if (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) { return index }
            } else if length == 4 {
                let second = bytes[index + 1]
                if (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F) { return index }
            }
            index += length
        }
        return nil
    }
}
