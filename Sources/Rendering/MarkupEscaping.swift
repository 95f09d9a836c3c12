import GFM
import Mustache

/// How `{{name}}` escapes a value in every template: `<`, `>`, `&`, `"` and `'` become
/// entities, byte by byte, and a code point that no page or feed can carry (see
/// ``ForbiddenCodePoints``; one that a YAML escape such as `"\a"` or `"\uFFFF"` made), or a
/// form feed, becomes U+FFFD: an Atom feed holding one is not XML.
///
/// swift-mustache's own escaping compares whole characters, so a quote followed by a
/// combining mark (`"\u{301}`, one character) was left as it was, and a title or
/// description holding one could end an attribute (`content="…"`) and add another. It also
/// built the result a character at a time, which made an Atom feed of 50 entries take 3 ms
/// to escape. Here, a value with nothing to change is returned as it is, without a copy.
struct MarkupEscaping: MustacheContentType {
    /// The name templates select it by (see ``TemplateLibrary``, which selects it for all).
    static let name = "MARSGEN_HTML"

    /// Registers the escaping with swift-mustache, once per process, before any template
    /// that selects it is parsed.
    static let registered: Void = MustacheContentTypes.register(MarkupEscaping(), named: name)

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    /// `text` with `<`, `>`, `&`, `"` and `'` as entities, and forbidden code points and form
    /// feeds as U+FFFD.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            let bytes = UnsafeRawBufferPointer(bytes)
            guard needsChange(bytes) else { return nil }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count + bytes.count / 8 + 8)
            append(bytes, escapedTo: &escaped)
            return String(decoding: escaped, as: UTF8.self)
        } ?? text
    }

    /// Appends `bytes` (UTF-8) to `output`, escaped as ``escape(_:)`` escapes.
    static func append(_ bytes: UnsafeRawBufferPointer, escapedTo output: inout [UInt8]) {
        guard needsChange(bytes) else {
            output.append(contentsOf: bytes)
            return
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
            // HTML's whitespace, but XML has no form feed.
            case 0x0C: output.append(contentsOf: ForbiddenCodePoints.replacementCharacter)
            default:
                let length = ForbiddenCodePoints.mayStart(byte) ? ForbiddenCodePoints.length(at: index, in: bytes) : 0
                if length > 0 {
                    output.append(contentsOf: ForbiddenCodePoints.replacementCharacter)
                    index += length
                    continue
                }
                output.append(byte)
            }
            index += 1
        }
    }

    /// Whether `bytes` hold anything ``append(_:escapedTo:)`` changes.
    private static func needsChange(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x0C: return true
            case let byte where ForbiddenCodePoints.mayStart(byte):
                if ForbiddenCodePoints.length(at: index, in: bytes) > 0 { return true }
            default: continue
            }
        }
        return false
    }
}
