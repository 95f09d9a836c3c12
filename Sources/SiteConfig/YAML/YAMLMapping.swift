import Diagnostics
import Yams

/// A YAML mapping read with the position of every key and value, so that each problem
/// can be reported at its line and column in the user's file.
///
/// Used for `marsgen.yml`, `content/crew.yml` and every front matter block.
public struct YAMLMapping {
    /// The site-relative path of the file the YAML came from.
    public let path: String
    /// How many lines of the file come before the YAML text (the `---` line of front matter).
    public let lineOffset: Int
    /// The keys in file order with their nodes.
    let entries: [(key: String, keyNode: Node, value: Node)]
    /// Where the mapping itself starts.
    let start: SourceLocation

    /// Parses `text` as a YAML mapping.
    ///
    /// - Parameters:
    ///   - text: The YAML text.
    ///   - path: The site-relative path, for diagnostics.
    ///   - lineOffset: Lines of the file before `text`.
    /// - Returns: The mapping; empty when `text` holds no YAML at all.
    /// - Throws: A ``Diagnostic`` at the line and column of a syntax error, or when the top level
    ///   is not a mapping.
    /// - Parameter shape: The hint for a top level that is not a mapping (a list, a value):
    ///   how this file's mapping is written.
    public static func parse(_ text: String, path: String, lineOffset: Int = 0,
                             shape: String = "write one 'key: value' per line") throws(Diagnostic) -> YAMLMapping {
        let node: Node?
        do {
            // Every value is read as its text and checked by marsgen (`fields.int`, dates), so
            // no tag need be resolved: the default resolver matches each plain scalar against
            // regular expressions (compiled once a process, 1 ms) for types never asked for.
            node = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw diagnostic(for: error, path: path, lineOffset: lineOffset, text: text)
        } catch {
            throw Diagnostic.error("cannot read YAML: \(error)", at: SourceLocation(path: path, line: lineOffset + 1, column: 1),
                                   hint: "check the indentation and quoting")
        }
        guard let node else {
            return YAMLMapping(path: path, lineOffset: lineOffset, entries: [],
                               start: SourceLocation(path: path, line: lineOffset + 1, column: 1))
        }
        return try mapping(from: node, path: path, lineOffset: lineOffset, context: "the document", shape: shape)
    }

    static func mapping(from node: Node, path: String, lineOffset: Int, context: String,
                        shape: String = "write one 'key: value' per line") throws(Diagnostic) -> YAMLMapping {
        let start = location(of: node, path: path, lineOffset: lineOffset)
        guard case .mapping(let mapping) = node else {
            let found = if case .sequence = node { ", not a list of '- ' items" } else { "" }
            throw Diagnostic.error("expected a mapping of keys to values for \(context)\(found)", at: start, hint: shape)
        }
        var entries: [(String, Node, Node)] = []
        var seen: Set<String> = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else {
                throw Diagnostic.error("a key must be plain text", at: location(of: keyNode, path: path, lineOffset: lineOffset),
                                       hint: "write each key as a word before its colon, like 'title: …'")
            }
            guard seen.insert(key).inserted else {
                throw Diagnostic.error("duplicate key '\(key)'", at: location(of: keyNode, path: path, lineOffset: lineOffset),
                                       hint: "remove one of the two '\(key)' lines")
            }
            entries.append((key, keyNode, value))
        }
        return YAMLMapping(path: path, lineOffset: lineOffset, entries: entries, start: start)
    }

    static func location(of node: Node, path: String, lineOffset: Int) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(path: path, line: lineOffset + 1, column: 1) }
        return SourceLocation(path: path, line: mark.line + lineOffset, column: mark.column)
    }

    /// The line and column of the second `key:` written at `column` from line `start` on,
    /// plain or quoted; nil when the key is written some other way (a flow mapping).
    static func secondAppearance(of key: String, in text: String, mappingAt start: Int, column: Int) -> (Int, Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var seen = 0
        for (index, line) in lines.enumerated() where index + 1 >= start {
            let indentation = line.prefix { $0 == " " }.count
            guard indentation == column - 1 else { continue }
            let rest = line.dropFirst(indentation)
            let written = [key, "\"\(key)\"", "'\(key)'"].contains { rest.hasPrefix($0 + ":") || rest.hasPrefix($0 + " :") }
            guard written else { continue }
            seen += 1
            if seen == 2 { return (index + 1, column) }
        }
        return nil
    }

    static func diagnostic(for error: YamlError, path: String, lineOffset: Int, text: String) -> Diagnostic {
        let hasTab = text.contains("\t")
        let tabHint = hasTab ? "YAML does not allow tabs for indentation; use spaces" : nil
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let lineText = text.split(separator: "\n", omittingEmptySubsequences: false)
            // libyaml reports an unclosed construct at the end of input; keep the location inside the YAML.
            var line = mark.line, column = mark.column
            let lastLine = max(1, lineText.count - (lineText.last?.isEmpty == true ? 1 : 0))
            if line > lastLine {
                line = lastLine
                column = (lineText.count >= lastLine ? lineText[lastLine - 1].count : 0) + 1
            }
            let offending = line - 1 < lineText.count && line >= 1 ? String(lineText[line - 1]) : ""
            let hint = offending.contains("\t") ? tabHint : "check the indentation and quoting near this line"
            var message = "invalid YAML: \(problem)"
            if let context, context.mark.line + lineOffset != line + lineOffset || context.mark.column != column {
                message += " (\(context.text) that starts at line \(context.mark.line + lineOffset), column \(context.mark.column))"
            }
            return .error(message, at: SourceLocation(path: path, line: line + lineOffset, column: column), hint: hint)
        case .reader(let problem, _, _, _):
            return .error("invalid YAML: \(problem)", at: SourceLocation(path: path, line: lineOffset + 1, column: 1))
        case .duplicatedKeysInMapping(let duplicates, let context):
            // libyaml names the mapping; the key's second appearance is what to fix.
            let (line, column) = secondAppearance(of: duplicates.first ?? "", in: text, mappingAt: context.mark.line,
                                                  column: context.mark.column) ?? (context.mark.line, context.mark.column)
            return .error("duplicate key '\(duplicates.joined(separator: "', '"))'",
                          at: SourceLocation(path: path, line: line + lineOffset, column: column),
                          hint: "a key may appear once in a mapping: remove one, or merge their values")
        default:
            return .error("invalid YAML: \(error)", at: SourceLocation(path: path, line: lineOffset + 1, column: 1),
                          hint: "check the indentation and quoting")
        }
    }

    // MARK: - API

    /// The keys, in file order.
    public var keys: [String] { entries.map(\.key) }

    /// Whether `key` is present.
    public func contains(_ key: String) -> Bool { entries.contains { $0.key == key } }

    private func node(_ key: String) -> Node? { entries.first { $0.key == key }?.value }

    /// Whether the value of `key` is a mapping (not empty, not a single value, not a list).
    public func holdsMapping(_ key: String) -> Bool {
        guard case .mapping = node(key) else { return false }
        return true
    }

    /// Where the value of `key` is, or where the mapping starts when the key is absent.
    public func location(of key: String) -> SourceLocation {
        guard let node = node(key) else { return start }
        return Self.location(of: node, path: path, lineOffset: lineOffset)
    }

    /// Where the key `key` itself is written.
    public func keyLocation(of key: String) -> SourceLocation {
        guard let entry = entries.first(where: { $0.key == key }) else { return start }
        return Self.location(of: entry.keyNode, path: path, lineOffset: lineOffset)
    }

    /// Where the mapping starts.
    public var startLocation: SourceLocation { start }

    /// The text of a scalar value; `nil` when absent or `null`.
    ///
    /// - Throws: A ``Diagnostic`` when the value is a list or mapping.
    public func string(_ key: String) throws(Diagnostic) -> String? {
        guard let node = node(key) else { return nil }
        if case .scalar(let scalar) = node {
            if scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) { return nil }
            return scalar.string
        }
        throw Diagnostic.error("'\(key)' must be a single value", at: location(of: key),
                               hint: "write it on the key's line, '\(key): value', not as a list or a mapping under it")
    }

    /// A required string value.
    ///
    /// - Throws: A ``Diagnostic`` naming the missing key, with `hint`.
    public func requiredString(_ key: String, hint: String) throws(Diagnostic) -> String {
        guard let value = try string(key), !value.isEmpty else {
            throw missingKey(key, hint: hint)
        }
        return value
    }

    /// The error for required key `key` missing: with `hint`, unless the mapping has a key
    /// likely written for it (`authors`, `Author`, `auther` for `author`), which the hint
    /// then names. That key's own warning goes unseen when the file fails.
    public func missingKey(_ key: String, hint: String) -> Diagnostic {
        let near = entries.first { $0.key != key && $0.key.isCloseMatch(for: key) }
        return Diagnostic.error("missing required key '\(key)'", at: start, hint: near.map { entry in
            "line \(Self.location(of: entry.keyNode, path: path, lineOffset: lineOffset).line) has '\(entry.key)': did you mean '\(key)'?"
        } ?? hint)
    }

    /// An integer value.
    public func int(_ key: String) throws(Diagnostic) -> Int? {
        guard let text = try string(key) else { return nil }
        let trimmed = text.trimmingSpaces
        guard let value = Int(trimmed) else {
            // Digits, but more than 64 bits hold: say so, not that it is no whole number.
            let digits = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : trimmed
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                let isNegative = trimmed.first == "-"
                throw Diagnostic.error("'\(key)' of \(Diagnostic.excerpt(trimmed)) is too \(isNegative ? "small" : "large") a number",
                                       at: location(of: key),
                                       hint: "a whole number here is \(isNegative ? "at least \(Int.min)" : "at most \(Int.max)")")
            }
            throw Diagnostic.error("'\(key)' must be a whole number, not '\(Diagnostic.excerpt(text))'", at: location(of: key),
                                   hint: "write it in digits, like '\(key): 20'")
        }
        return value
    }

    /// A decimal number value.
    public func double(_ key: String) throws(Diagnostic) -> Double? {
        guard let text = try string(key) else { return nil }
        guard let value = Double(text.trimmingSpaces), value.isFinite else {
            throw Diagnostic.error("'\(key)' must be a number, not '\(text)'", at: location(of: key),
                                   hint: "write it in digits, with a '.' for a fraction, like '\(key): -52.5'")
        }
        return value
    }

    /// A boolean value (`true`/`false`, `yes`/`no`).
    public func bool(_ key: String) throws(Diagnostic) -> Bool? {
        guard let text = try string(key) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw Diagnostic.error("'\(key)' must be true or false, not '\(text)'", at: location(of: key),
                                        hint: "write '\(key): true' or '\(key): false'")
        }
    }

    /// A list of strings; a single scalar counts as a list of one.
    public func strings(_ key: String) throws(Diagnostic) -> [String] {
        guard let node = node(key) else { return [] }
        switch node {
        case .scalar:
            return try string(key).map { [$0] } ?? []
        case .sequence(let sequence):
            var values: [String] = []
            for item in sequence {
                guard let text = item.string else {
                    throw Diagnostic.error("'\(key)' must be a list of words",
                                           at: Self.location(of: item, path: path, lineOffset: lineOffset),
                                           hint: "write it like '\(key): [dust, rover]', each item a word, not a list or a mapping")
                }
                values.append(text)
            }
            return values
        default:
            throw Diagnostic.error("'\(key)' must be a list", at: location(of: key), hint: "write it like '\(key): [dust, rover]'")
        }
    }

    /// A list of mappings (`nav:`, each item `- title: …`); empty when absent.
    ///
    /// - Parameter hint: How the items are written, for the hint.
    public func mappings(_ key: String, hint: String) throws(Diagnostic) -> [YAMLMapping] {
        guard let node = node(key) else { return [] }
        guard case .sequence(let sequence) = node else {
            throw Diagnostic.error("'\(key)' must be a list of '- ' items", at: location(of: key), hint: hint)
        }
        var items: [YAMLMapping] = []
        for item in sequence {
            items.append(try Self.mapping(from: item, path: path, lineOffset: lineOffset, context: "an item of '\(key)'", shape: hint))
        }
        return items
    }

    /// A nested mapping; `nil` when absent.
    public func mapping(_ key: String) throws(Diagnostic) -> YAMLMapping? {
        guard let node = node(key) else { return nil }
        return try Self.mapping(from: node, path: path, lineOffset: lineOffset, context: "'\(key)'")
    }

    /// Records a warning for each key not in `known`, with the known key it likely
    /// misspells, or the one it names under another generator's name (`otherNames`, by
    /// lowercased key: `paginate` → `page_size`).
    public func warnAboutUnknownKeys(_ known: Set<String>, into log: inout DiagnosticLog, context: String,
                                     otherNames: [String: String] = [:]) {
        for entry in entries where !known.contains(entry.key) {
            let suggestion = entry.key.closestMatch(among: known)
            let renamed = otherNames[entry.key.lowercased()].map { "marsgen calls it '\($0)'" }
            log.warn("unknown key '\(entry.key)' in \(context) is ignored",
                     at: Self.location(of: entry.keyNode, path: path, lineOffset: lineOffset),
                     hint: suggestion.map { "did you mean '\($0)'?" } ?? renamed ?? "known keys: \(known.sorted().joined(separator: ", "))")
        }
    }
}

extension String {
    /// The string without the spaces at its ends (a quoted YAML value keeps them).
    public var trimmingSpaces: Substring {
        var slice = Substring(self)
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return slice
    }

    /// The first of `candidates`, in sorted order, that this is a likely typo of (see
    /// ``isCloseMatch(for:)``): the name a hint suggests.
    public func closestMatch(among candidates: some Sequence<String>) -> String? {
        candidates.sorted().first { $0.isCloseMatch(for: self) }
    }

    /// A cheap typo check: one letter added, dropped or changed, two neighbours swapped,
    /// or `_` written as `-`.
    public func isCloseMatch(for other: String) -> Bool {
        let a = Array(lowercased().replacingUnderscores), b = Array(other.lowercased().replacingUnderscores)
        if a == b { return true }
        if a.count == b.count {
            let differences = a.indices.filter { a[$0] != b[$0] }
            if differences.count == 2, differences[1] == differences[0] + 1,
               a[differences[0]] == b[differences[1]], a[differences[1]] == b[differences[0]] { return true }
        }
        guard abs(a.count - b.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if a.count > b.count { i += 1 } else if b.count > a.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (a.count - i) + (b.count - j) <= 1
    }

    private var replacingUnderscores: String { String(map { $0 == "-" ? "_" : $0 }) }
}
