import Mustache

/// How `{{name}}` escapes a value in every template: `<`, `>`, `&`, `"` and `'` become
/// entities, byte by byte.
///
/// swift-mustache's own escaping compares whole characters, so a quote followed by a
/// combining mark (`"\u{301}`, one character) was left as it was, and a title or
/// description holding one could end an attribute (`content="…"`) and add another. It also
/// built the result a character at a time, which made an Atom feed of 50 entries take 3 ms
/// to escape. Here, a value with nothing to escape is returned as it is, without a copy.
struct MarkupEscaping: MustacheContentType {
    /// The name templates select it by (see ``TemplateLibrary``, which selects it for all).
    static let name = "MARSGEN_HTML"

    /// Registers the escaping with swift-mustache, once per process, before any template
    /// that selects it is parsed.
    static let registered: Void = MustacheContentTypes.register(MarkupEscaping(), named: name)

    func escapeText(_ text: String) -> String {
        Self.escape(text)
    }

    /// `text` with `<`, `>`, `&`, `"` and `'` as entities.
    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.contains(where: needsEntity) else { return nil }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count + bytes.count / 8 + 8)
            append(bytes, escapedTo: &escaped)
            return String(decoding: escaped, as: UTF8.self)
        } ?? text
    }

    /// Appends `bytes` to `output`, with `<`, `>`, `&`, `"` and `'` as entities.
    static func append(_ bytes: some Collection<UInt8>, escapedTo output: inout [UInt8]) {
        guard bytes.contains(where: needsEntity) else {
            output.append(contentsOf: bytes)
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
            default: output.append(byte)
            }
        }
    }

    private static func needsEntity(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
