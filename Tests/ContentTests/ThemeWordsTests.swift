import Diagnostics
@testable import SiteConfig
import Testing

/// The theme's words (`words:` in marsgen.yml) and the plural rules that pick a counted
/// word's form, as Hugo's i18n files and Zola's translations give them.
@Suite struct ThemeWordsTests {
    @Test("a whole number's plural category follows CLDR's rules for the site's language", arguments: [
        ("en", [0: "other", 1: "one", 2: "other", 11: "other", 21: "other"]),
        ("en-GB", [1: "one", 101: "other"]),
        ("ja", [0: "other", 1: "other", 2: "other"]),
        ("zh-Hans", [1: "other"]),
        ("fr", [0: "one", 1: "one", 2: "other", 1_000_000: "many", 2_000_000: "many", 1_000_001: "other"]),
        ("pt", [0: "one", 1: "one", 2: "other"]),
        ("pt-BR", [0: "one", 1: "one"]),
        ("pt-PT", [0: "other", 1: "one", 2: "other"]),
        ("es", [0: "other", 1: "one", 2: "other", 1_000_000: "many"]),
        ("ru", [1: "one", 2: "few", 4: "few", 5: "many", 11: "many", 12: "many", 21: "one", 22: "few", 25: "many", 111: "many", 112: "many", 0: "many"]),
        ("uk", [1: "one", 3: "few", 14: "many", 101: "one"]),
        ("pl", [1: "one", 2: "few", 5: "many", 12: "many", 21: "many", 22: "few", 0: "many"]),
        ("cs", [1: "one", 2: "few", 4: "few", 5: "other", 22: "other"]),
        ("hr", [1: "one", 21: "one", 11: "other", 2: "few", 12: "other", 5: "other"]),
        ("sl", [1: "one", 101: "one", 2: "two", 3: "few", 4: "few", 5: "other", 102: "two"]),
        ("lt", [1: "one", 21: "one", 11: "other", 2: "few", 19: "other", 10: "other"]),
        ("lv", [0: "zero", 10: "zero", 11: "zero", 1: "one", 21: "one", 2: "other"]),
        ("ro", [1: "one", 0: "few", 2: "few", 19: "few", 20: "other", 101: "few"]),
        ("ar", [0: "zero", 1: "one", 2: "two", 3: "few", 10: "few", 11: "many", 99: "many", 100: "other", 103: "few"]),
        ("he", [1: "one", 2: "two", 3: "other", 20: "other"]),
        ("ga", [1: "one", 2: "two", 3: "few", 7: "many", 11: "other"]),
        ("cy", [0: "zero", 1: "one", 2: "two", 3: "few", 6: "many", 4: "other"]),
        ("is", [1: "one", 21: "one", 11: "other", 2: "other"]),
        ("fil", [1: "one", 4: "other", 5: "one", 14: "other"]),
        ("xx", [1: "one", 2: "other"]),
    ])
    func pluralCategories(language: String, expected: [Int: String]) {
        for (count, category) in expected {
            #expect(PluralCategory.of(count, language: language).rawValue == category, "\(language) \(count)")
        }
    }

    @Test("without words: the English ones, counted words singular for one")
    func english() {
        let words = ThemeWords()
        #expect(words[.older] == "Older")
        #expect(words.counted(.messages, 1) == "1 message")
        #expect(words.counted(.messages, 0) == "0 messages")
        #expect(words.counted(.journalEntries, 1) == "1 journal entry")
        #expect(words.counted(.readingTime, 1) == "1 min read")
        #expect(words.phrase(.solRange, ["first": "3", "last": "9"]) == "Sols 3–9")
        // Templates get every word but the counted ones, placeholders as written.
        #expect(words.templateValues["continue_reading"] == "Continue reading")
        #expect(words.templateValues["sol_title"] == "Sol {sol}")
        #expect(words.templateValues["messages"] == nil)
    }

    @Test("words given replace the English ones; a counted word takes its language's form, or 'other' when it gives none")
    func given() throws {
        var log = DiagnosticLog()
        let config = try SiteConfiguration.parse(ContentFixtures.configText + """

            language: pl
            words:
              older: Starsze
              sol_title: "Sol nr {sol}"
              messages:
                one: "{count} wiadomość"
                few: "{count} wiadomości"
                other: "{count} wiadomości (inne)"
              reading_time: "{count} min czytania"
              entries: "{count} wpisów"
            """, log: &log)
        #expect(log.warnings.isEmpty)
        let words = config.words
        #expect(words[.older] == "Starsze")
        #expect(words[.newer] == "Newer")
        #expect(words.phrase(.solTitle, ["sol": "12"]) == "Sol nr 12")
        #expect(words.counted(.messages, 1) == "1 wiadomość")
        #expect(words.counted(.messages, 3) == "3 wiadomości")
        // Polish's `many` is not given: the `other` form.
        #expect(words.counted(.messages, 5) == "5 wiadomości (inne)")
        #expect(words.counted(.readingTime, 1) == "1 min czytania")
        #expect(words.counted(.entries, 1) == "1 wpisów")
        // Not given: English, singular for one whatever the language.
        #expect(words.counted(.journalEntries, 1) == "1 journal entry")
        #expect(words.counted(.journalEntries, 5) == "5 journal entries")
    }

    @Test("French, German, Spanish and Italian sites get marsgen's words in their language, region or not; words: changes any of them; other languages get English",
          arguments: [
              ("fr", "Plus anciens", "1 message", "0 message", "2 messages", "1000000 de messages"),
              ("fr-CA", "Plus anciens", "1 message", "0 message", "2 messages", "1000000 de messages"),
              ("de", "Älter", "1 Nachricht", "0 Nachrichten", "2 Nachrichten", "1000000 Nachrichten"),
              ("es-MX", "Más antiguas", "1 mensaje", "0 mensajes", "2 mensajes", "1000000 de mensajes"),
              ("it", "Meno recenti", "1 messaggio", "0 messaggi", "2 messaggi", "1000000 di messaggi"),
              ("pl", "Older", "1 message", "0 messages", "2 messages", "1000000 messages"),
          ] as [(String, String, String, String, String, String)])
    func builtInTranslations(language: String, older: String, one: String, zero: String, two: String, million: String) throws {
        let words = ThemeWords(language: language)
        #expect(words[.older] == older)
        #expect([1, 0, 2, 1_000_000].map { words.counted(.messages, $0) } == [one, zero, two, million])
        var log = DiagnosticLog()
        let config = try SiteConfiguration.parse(ContentFixtures.configText + "\nlanguage: \(language)\nwords:\n  older: Before\n", log: &log)
        #expect(config.words[.older] == "Before")
        #expect(config.words[.newer] == ThemeWords(language: language)[.newer])
    }

    @Test("each translation gives every word, with the English word's placeholders, and each counted word a form for every category its language counts in")
    func translationsComplete() {
        for language in ["fr", "de", "es", "it"] {
            let words = ThemeWords(language: language)
            for key in ThemeWords.Key.allCases {
                #expect(ThemeWords.builtIn(for: language)[key] != nil, "\(language) has no \(key.rawValue)")
                let categories = key.isCounted ? PluralCategory.allCases : [.other]
                for category in categories {
                    let text = key.isCounted ? words.form(key, category) : words[key]
                    #expect(Set(ThemeWords.placeholders(in: text)) == Set(key.placeholders), "\(language) \(key.rawValue) \(category)")
                }
                // Every number takes a form the translation gives, not a fallback.
                if key.isCounted, case .forms(let forms)? = ThemeWords.builtIn(for: language)[key] {
                    for count in [0, 1, 2, 3, 5, 11, 21, 101, 1_000_000, 2_000_000] {
                        #expect(forms[PluralCategory.of(count, language: language)] != nil, "\(language) \(key.rawValue) \(count)")
                    }
                }
            }
        }
    }

    @Test("a brace that names no placeholder stays as written")
    func braces() throws {
        var log = DiagnosticLog()
        let config = try SiteConfiguration.parse(ContentFixtures.configText + "\nwords:\n  sol_title: \"{ Sol } {sol} {}\"\n", log: &log)
        #expect(config.words.phrase(.solTitle, ["sol": "4"]) == "{ Sol } 4 {}")
    }

    @Test("an unknown word or plural category is a warning with the likely one; Zola's 'translations' is named 'words'")
    func warnings() throws {
        var log = DiagnosticLog()
        _ = try SiteConfiguration.parse(ContentFixtures.configText + """

            translations:
              older: Plus anciens
            words:
              oldr: Plus anciens
              messages:
                one: "{count} message"
                othr: "{count} messages"
                other: "{count} messages"
            """, log: &log)
        let notes = log.warnings.map { "\($0.location?.line ?? 0): \($0.message) | \($0.hint ?? "")" }
        #expect(notes == [
            "8: unknown key 'translations' in marsgen.yml is ignored | marsgen calls it 'words'",
            "11: unknown key 'oldr' in 'words' is ignored | did you mean 'older'?",
            "14: unknown key 'othr' in 'messages' is ignored | did you mean 'other'?",
        ])
    }

    @Test("a placeholder the word does not have, forms without 'other', or forms for a word that is not counted are errors at it", arguments: [
        ("words:\n  sol_title: \"Sol {sols}\"", 9, 14, "'sol_title' holds the placeholder {sols}, which it does not have", "did you mean {sol}? its placeholders: {sol}"),
        ("words:\n  older: \"Older {count}\"", 9, 10, "'older' holds the placeholder {count}, which it does not have", "'older' has no placeholders"),
        ("words:\n  messages:\n    one: \"{count} message\"\n    other: \"{n} messages\"", 11, 12,
         "'messages' holds the placeholder {n}, which it does not have", "its placeholders: {count}"),
        ("words:\n  messages:\n    one: \"{count} message\"", 10, 5, "'messages' has no 'other' form", nil),
        ("words:\n  older:\n    one: Older", 10, 5, "'older' must be one text, not a mapping", nil),
        ("words: [older]", 8, 8, "expected a mapping of keys to values for 'words', not a list", nil),
    ] as [(String, Int, Int, String, String?)])
    func errors(yaml: String, line: Int, column: Int, message: String, hint: String?) {
        var log = DiagnosticLog()
        let diagnostic = expectDiagnostic { _ = try SiteConfiguration.parse(ContentFixtures.configText + "\n" + yaml + "\n", log: &log) }
        #expect(diagnostic?.message.hasPrefix(message) == true, "\(diagnostic?.message ?? "")")
        #expect(diagnostic?.location?.line == line && diagnostic?.location?.column == column,
                "\(diagnostic?.location.map { "\($0.line):\($0.column)" } ?? "")")
        if let hint { #expect(diagnostic?.hint == hint) }
    }
}
