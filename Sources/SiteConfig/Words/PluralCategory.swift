/// The form a counted phrase takes for a number in a language (Unicode CLDR's plural
/// categories): English has `one` and `other` ("1 message", "2 messages"), Polish `one`,
/// `few` and `many` ("1 wiadomość", "2 wiadomości", "5 wiadomości"), Japanese only `other`.
public enum PluralCategory: String, CaseIterable, Hashable, Sendable, Codable {
    case zero, one, two, few, many, other

    /// The category of the whole number `count` in `language` (a BCP 47 tag), by CLDR's
    /// cardinal rules for integers. A language missing from the table counts as English
    /// does: `one` for 1, `other` for the rest.
    ///
    /// Only whole numbers are counted here (entries, messages, minutes), so the rules'
    /// clauses for fractions are left out.
    public static func of(_ count: Int, language: String) -> PluralCategory {
        let subtags = language.lowercased().split(separator: "-")
        let primary = subtags.first.map(String.init) ?? ""
        let n = count.magnitude
        let lastDigit = n % 10, lastTwo = n % 100
        switch rule(for: primary, region: subtags.dropFirst().first.map(String.init)) {
        case .none:
            return .other
        case .one:
            return n == 1 ? .one : .other
        case .zeroOrOne:
            return n <= 1 ? .one : .other
        case .zeroOrOneMillions:
            if n <= 1 { return .one }
            return n % 1_000_000 == 0 ? .many : .other
        case .oneMillions:
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        case .eastSlavic:
            if lastDigit == 1, lastTwo != 11 { return .one }
            if (2...4).contains(lastDigit), !(12...14).contains(lastTwo) { return .few }
            return .many
        case .polish:
            if n == 1 { return .one }
            if (2...4).contains(lastDigit), !(12...14).contains(lastTwo) { return .few }
            return .many
        case .westSlavic:
            if n == 1 { return .one }
            return (2...4).contains(n) ? .few : .other
        case .southSlavic:
            if lastDigit == 1, lastTwo != 11 { return .one }
            if (2...4).contains(lastDigit), !(12...14).contains(lastTwo) { return .few }
            return .other
        case .slovenian:
            switch lastTwo {
            case 1: return .one
            case 2: return .two
            case 3, 4: return .few
            default: return .other
            }
        case .lithuanian:
            if (11...19).contains(lastTwo) { return .other }
            if lastDigit == 1 { return .one }
            return lastDigit >= 2 ? .few : .other
        case .latvian:
            if lastDigit == 0 || (11...19).contains(lastTwo) { return .zero }
            return lastDigit == 1 ? .one : .other
        case .romanian:
            if n == 1 { return .one }
            if n == 0 || (1...19).contains(lastTwo) { return .few }
            return .other
        case .icelandic:
            return lastDigit == 1 && lastTwo != 11 ? .one : .other
        case .arabic:
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                if (3...10).contains(lastTwo) { return .few }
                return (11...99).contains(lastTwo) ? .many : .other
            }
        case .hebrew:
            switch n {
            case 1: return .one
            case 2: return .two
            default: return .other
            }
        case .irish:
            switch n {
            case 1: return .one
            case 2: return .two
            case 3...6: return .few
            case 7...10: return .many
            default: return .other
            }
        case .scottishGaelic:
            switch n {
            case 1, 11: return .one
            case 2, 12: return .two
            case 3...10, 13...19: return .few
            default: return .other
            }
        case .welsh:
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            case 3: return .few
            case 6: return .many
            default: return .other
            }
        case .maltese:
            if n == 1 { return .one }
            if n == 2 { return .two }
            if n == 0 || (3...10).contains(lastTwo) { return .few }
            return (11...19).contains(lastTwo) ? .many : .other
        case .filipino:
            return n <= 3 || ![4, 6, 9].contains(lastDigit) ? .one : .other
        }
    }

    /// The shapes of CLDR's integer rules, each shared by the languages `rule(for:region:)` lists.
    private enum Rule {
        case none, one, zeroOrOne, zeroOrOneMillions, oneMillions, eastSlavic, polish, westSlavic, southSlavic, slovenian,
             lithuanian, latvian, romanian, icelandic, arabic, hebrew, irish, scottishGaelic, welsh, maltese, filipino
    }

    private static func rule(for language: String, region: String?) -> Rule {
        switch language {
        case "bo", "dz", "id", "ig", "ii", "in", "ja", "jbo", "jv", "jw", "kde", "kea", "km", "ko", "lkt", "lo", "ms", "my",
             "nqo", "osa", "sah", "ses", "sg", "su", "th", "to", "tpi", "vi", "wo", "yo", "yue", "zh":
            return .none
        case "am", "as", "bn", "doi", "fa", "ff", "gu", "hi", "hy", "kab", "kn", "pcm", "si", "zu":
            return .zeroOrOne
        case "fr":
            return .zeroOrOneMillions
        // European Portuguese counts 0 as `other`, Brazilian as `one`.
        case "pt":
            return region == "pt" ? .oneMillions : .zeroOrOneMillions
        case "ca", "es", "it", "vec":
            return .oneMillions
        case "ru", "uk", "be":
            return .eastSlavic
        case "pl":
            return .polish
        case "cs", "sk":
            return .westSlavic
        case "bs", "hr", "sh", "sr":
            return .southSlavic
        case "sl":
            return .slovenian
        case "lt":
            return .lithuanian
        case "lv", "prg":
            return .latvian
        case "ro", "mo":
            return .romanian
        case "is", "mk":
            return .icelandic
        case "ar", "ars":
            return .arabic
        case "he", "iw":
            return .hebrew
        case "ga":
            return .irish
        case "gd":
            return .scottishGaelic
        case "cy":
            return .welsh
        case "mt":
            return .maltese
        case "fil", "tl":
            return .filipino
        default:
            return .one
        }
    }
}
