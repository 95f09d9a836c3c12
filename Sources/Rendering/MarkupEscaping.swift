import Mustache

/// How `{{name}}` escapes a value in every template: `<`, `>`, `&`, `"` and `'` become
/// entities, byte by byte, and a control character that no page or feed can carry (one that
/// a YAML escape such as `"\a"` made) becomes U+FFFD: an Atom feed holding one is not XML.
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

    /// `text` with `<`, `>`, `&`, `"` and `'` as entities, and controls as U+FFFD.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard needsChange(bytes) else { return nil }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count + bytes.count / 8 + 8)
            append(bytes, escapedTo: &escaped)
            return String(decoding: escaped, as: UTF8.self)
        } ?? text
    }

    /// Appends `bytes` (UTF-8) to `output`, escaped as ``escape(_:)`` escapes.
    static func append<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes, escapedTo output: inout [UInt8]) {
        guard needsChange(bytes) else {
            output.append(contentsOf: bytes)
            return
        }
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            switch byte {
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
            case 0x09, 0x0A, 0x0D: output.append(byte)
            case 0..<0x20, 0x7F: output.append(contentsOf: replacement)
            // C1 controls are `C2 80`–`C2 9F` (`C2` also starts U+00A0–U+00BF).
            case 0xC2 where index != bytes.endIndex && bytes[index] < 0xA0:
                index = bytes.index(after: index)
                output.append(contentsOf: replacement)
            default: output.append(byte)
            }
        }
    }

    /// U+FFFD, the replacement character, in UTF-8.
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Whether `bytes` hold anything ``append(_:escapedTo:)`` changes.
    private static func needsChange(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { byte in
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
            case 0x09, 0x0A, 0x0D: false
            // Every control below 0x20, DEL, and `C2`, which may start a C1 control.
            case 0..<0x20, 0x7F, 0xC2: true
            default: false
            }
        }
    }
}
