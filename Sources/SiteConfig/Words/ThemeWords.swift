import Diagnostics

/// The words the built-in theme shows readers (`Older`, `Continue reading`, `3 messages`):
/// in the site's `language` when marsgen has words for it (see ``translations``), else in
/// English, and any of them as `marsgen.yml`'s `words:` gives it, as Hugo's `i18n/` files
/// and Zola's `translations` do:
///
///     language: fr
///     words:
///       older: Plus anciens
///       continue_reading: Lire la suite
///       messages: {one: "{count} message", other: "{count} messages"}
///
/// A word is plain text (pages escape it). Some hold placeholders in braces (`Sol {sol}`),
/// filled in where the word is used; a counted word (``Key/isCounted``) gives a form for
/// each plural category its language has (see ``PluralCategory``), or one text for all.
public struct ThemeWords: Hashable, Sendable, Encodable {
    /// A word's text as `words:` gives it: one text, or one for each plural category.
    public enum Given: Hashable, Sendable, Encodable {
        case text(String)
        case forms([PluralCategory: String])

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .forms(let forms): try container.encode(Dictionary(uniqueKeysWithValues: forms.map { ($0.key.rawValue, $0.value) }))
            }
        }
    }

    /// The language whose plural rules pick a counted word's form.
    public let language: String
    /// The words `words:` gives, by key.
    public let given: [Key: Given]
    /// marsgen's words in `language`, for the words `words:` does not give; empty when it
    /// has none in that language, whose words are then English. Kept, not looked up again:
    /// every page asks for words, and the lookup parses the language tag.
    let builtIn: [Key: Given]

    /// The built-in words in `language` (English when marsgen has none in it), counted as
    /// `language` counts, but those `given`.
    public init(language: String = "en", given: [Key: Given] = [:]) {
        self.language = language
        self.given = given
        builtIn = Self.builtIn(for: language)
    }

    /// The word `key` in the site's language, when `words:` or marsgen gives it there; nil
    /// for an English word.
    private func translated(_ key: Key) -> Given? { given[key] ?? builtIn[key] }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: given.map { ($0.key.rawValue, $0.value) }))
    }

    /// The word `key`, its placeholders as they are.
    public subscript(key: Key) -> String {
        switch translated(key) {
        case .text(let text): text
        case .forms(let forms): forms[.other] ?? key.defaultText
        case nil: key.defaultText
        }
    }

    /// The word `key` with its placeholders filled in from `values` (`["sol": "12"]` makes
    /// `Sol {sol}` `Sol 12`).
    public func phrase(_ key: Key, _ values: [String: String]) -> String {
        Self.filling(self[key], with: values)
    }

    /// The counted word `key` in the form `count` takes in the site's language, `{count}`
    /// filled in (`3 messages`). A form the words do not give is the `other` one.
    public func counted(_ key: Key, _ count: Int) -> String {
        // The built-in English words count as English does, whatever the site's language.
        let form = translated(key) == nil ? (count == 1 ? key.defaultOne : key.defaultText)
            : self.form(key, PluralCategory.of(count, language: language))
        return Self.filling(form, with: ["count": String(count)])
    }

    /// The form of the counted word `key` for numbers of `category`, `{count}` as it is: for
    /// a script that counts in the reader's browser.
    public func form(_ key: Key, _ category: PluralCategory) -> String {
        switch translated(key) {
        case .text(let text): text
        case .forms(let forms): forms[category] ?? forms[.other] ?? key.defaultText
        case nil: category == .one ? key.defaultOne : key.defaultText
        }
    }

    /// Every word that is not counted, by key, placeholders and all: what templates get as
    /// `words` (`{{words.older}}`).
    public var templateValues: [String: String] {
        var values: [String: String] = [:]
        for key in Key.allCases where !key.isCounted { values[key.rawValue] = self[key] }
        return values
    }

    /// `text` with each `{name}` that `values` names replaced; other braces stay as written.
    static func filling(_ text: String, with values: [String: String]) -> String {
        guard text.contains("{") else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }

    /// The placeholders `text` names: each `{name}` of letters and `_`.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { $0.isLetter || $0 == "_" }
            if !name.isEmpty, rest.dropFirst(name.count).first == "}" { names.append(String(name)) }
        }
        return names
    }
}
