import Diagnostics

extension ThemeWords {
    /// Reads `words:` of `marsgen.yml`.
    ///
    /// - Parameters:
    ///   - yaml: The mapping under `words:`; nil when there is none.
    ///   - language: The site's language, whose plural rules pick counted words' forms.
    ///   - log: Receives a warning for each unknown word or plural category.
    /// - Throws: A ``Diagnostic`` for a word that is not text, a placeholder the word does
    ///   not have, or a counted word's forms without `other`.
    public static func parse(_ yaml: YAMLMapping?, language: String, log: inout DiagnosticLog) throws(Diagnostic) -> ThemeWords {
        guard let yaml else { return ThemeWords(language: language) }
        let known = Set(Key.allCases.map(\.rawValue))
        yaml.warnAboutUnknownKeys(known, into: &log, context: "'words'")
        var given: [Key: Given] = [:]
        for name in yaml.keys {
            guard let key = Key(rawValue: name) else { continue }
            if key.isCounted, yaml.holdsMapping(name), let forms = try yaml.mapping(name) {
                given[key] = .forms(try parseForms(forms, of: key, log: &log))
            } else if let text = try text(of: key, in: yaml) {
                given[key] = .text(text)
            }
        }
        return ThemeWords(language: language, given: given)
    }

    /// A counted word's forms, by plural category.
    private static func parseForms(_ yaml: YAMLMapping, of key: Key, log: inout DiagnosticLog) throws(Diagnostic) -> [PluralCategory: String] {
        yaml.warnAboutUnknownKeys(Set(PluralCategory.allCases.map(\.rawValue)), into: &log, context: "'\(key.rawValue)'")
        var forms: [PluralCategory: String] = [:]
        for category in PluralCategory.allCases {
            if let text = try text(named: category.rawValue, of: key, in: yaml) { forms[category] = text }
        }
        guard forms[.other] != nil else {
            throw Diagnostic.error("'\(key.rawValue)' has no 'other' form", at: yaml.startLocation,
                                   hint: "give the form most numbers take, like 'other: \"\(key.defaultText)\"'; "
                                       + "a category the language has but the word does not give takes it")
        }
        return forms
    }

    private static func text(of key: Key, in yaml: YAMLMapping) throws(Diagnostic) -> String? {
        if yaml.holdsMapping(key.rawValue) {
            throw Diagnostic.error("'\(key.rawValue)' must be one text, not a mapping", at: yaml.location(of: key.rawValue),
                                   hint: "only a counted word (\(Key.allCases.filter(\.isCounted).map { "'\($0.rawValue)'" }.joined(separator: ", "))) "
                                       + "has a form for each plural category; write '\(key.rawValue): \(key.defaultText)'")
        }
        return try text(named: key.rawValue, of: key, in: yaml)
    }

    /// The text of `name` in `yaml`, a word of `key` or one of its forms, with its
    /// placeholders checked against those `key` has.
    private static func text(named name: String, of key: Key, in yaml: YAMLMapping) throws(Diagnostic) -> String? {
        guard let text = try yaml.string(name) else { return nil }
        let allowed = key.placeholders
        if let unknown = placeholders(in: text).first(where: { !allowed.contains($0) }) {
            let near = unknown.closestMatch(among: allowed)
            let list = allowed.isEmpty ? "'\(key.rawValue)' has no placeholders" : "its placeholders: " + allowed.map { "{\($0)}" }.joined(separator: ", ")
            throw Diagnostic.error("'\(key.rawValue)' holds the placeholder {\(unknown)}, which it does not have", at: yaml.location(of: name),
                                   hint: near.map { "did you mean {\($0)}? " + list } ?? list)
        }
        return text
    }
}
