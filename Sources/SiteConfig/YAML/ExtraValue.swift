import Diagnostics
import Yams

/// A value of your own under `extra:` (in `marsgen.yml`, or an entry's front matter), which
/// marsgen does not read but hands to templates as it is, as Zola's `extra` and Hugo's
/// `.Params`: a text (numbers and dates too, as written), `true` or `false`, a list, or a
/// mapping of keys to values.
///
///     extra:
///       mood: tense
///       outside: false
///       suits: [orange, white]
///       eva: { minutes: 95, lead: vega }
public indirect enum ExtraValue: Hashable, Sendable, Codable {
    case text(String)
    case flag(Bool)
    case list([ExtraValue])
    case mapping([String: ExtraValue])

    /// Feeds the value into `combine`, keys sorted and each kind marked, so that equal
    /// values give equal sequences and different ones different sequences.
    public func digest(into combine: (String) -> Void) {
        switch self {
        case .text(let text):
            combine("t")
            combine(text)
        case .flag(let flag):
            combine(flag ? "T" : "F")
        case .list(let items):
            combine("l\(items.count)")
            for item in items { item.digest(into: combine) }
        case .mapping(let fields):
            combine("m\(fields.count)")
            for key in fields.keys.sorted() {
                combine(key)
                fields[key]?.digest(into: combine)
            }
        }
    }
}

extension YAMLMapping {
    /// The mapping under `key` (`extra`), read as ``ExtraValue``s; empty when absent or null.
    ///
    /// - Throws: A ``Diagnostic`` when it is not a mapping, or holds a key that is not text.
    public func extra(_ key: String) throws(Diagnostic) -> [String: ExtraValue] {
        guard let node = entries.first(where: { $0.key == key })?.value else { return [:] }
        if case .scalar(let scalar) = node, scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) { return [:] }
        guard case .mapping(let mapping) = node else {
            throw Diagnostic.error("'\(key)' must be a mapping of your own keys to values", at: location(of: key),
                                   hint: "write each on a line of its own under '\(key):', indented, like '  mood: tense'")
        }
        return try fields(of: mapping)
    }

    private func fields(of mapping: Node.Mapping) throws(Diagnostic) -> [String: ExtraValue] {
        var fields: [String: ExtraValue] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.string, keyNode.scalar != nil else {
                throw Diagnostic.error("a key under 'extra' must be a word, not a list or a mapping",
                                       at: Self.location(of: keyNode, path: path, lineOffset: lineOffset), hint: "write it like 'mood: tense'")
            }
            fields[key] = try extraValue(of: value)
        }
        return fields
    }

    private func extraValue(of node: Node) throws(Diagnostic) -> ExtraValue {
        switch node {
        case .scalar(let scalar):
            // Unquoted true and false are flags, for a template's {{#…}} to test; anything
            // else is its text ("false" in quotes too).
            if scalar.style == .plain {
                switch scalar.string {
                case "true", "True", "TRUE": return .flag(true)
                case "false", "False", "FALSE": return .flag(false)
                case "", "~", "null", "Null", "NULL": return .text("")
                default: break
                }
            }
            return .text(scalar.string)
        case .sequence(let sequence):
            var items: [ExtraValue] = []
            for item in sequence { items.append(try extraValue(of: item)) }
            return .list(items)
        case .mapping(let mapping):
            return .mapping(try fields(of: mapping))
        case .alias:
            throw Diagnostic.error("'extra' may not use YAML anchors or aliases",
                                   at: Self.location(of: node, path: path, lineOffset: lineOffset), hint: "write the value out where it is used")
        }
    }
}
