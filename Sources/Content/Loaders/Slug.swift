import Foundation

/// URL segments for entries and crew: lowercase ASCII letters, digits, `-`, `_` and `.`.
public enum Slug {
    /// Whether `text` can be used as it is in a URL path segment.
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isSlugCharacter, first != ".", !text.contains("..") else { return false }
        return text.unicodeScalars.allSatisfy(\.isSlugCharacter)
    }

    /// Derives a slug from a file name: lowercased, written in Latin letters without their
    /// accents (`Café` → `cafe`, `Марс` → `mars`, `火星` → `huo-xing`), runs of other
    /// characters become `-`.
    public static func derive(from text: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in latin(text).lowercased().unicodeScalars {
            if scalar.isSlugCharacter && scalar != "." {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "entry" : slug
    }

    /// `text` in Latin letters without accents; ASCII text as it is. Left to Unicode's
    /// transliteration (ICU's `Any-Latin`, then `Latin-ASCII`), which is the same for the
    /// same text on every run.
    static func latin(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        let latin = text.applyingTransform(.toLatin, reverse: false) ?? text
        return latin.applyingTransform(StringTransform("Latin-ASCII"), reverse: false) ?? latin
    }
}

extension Unicode.Scalar {
    fileprivate var isSlugCharacter: Bool {
        ("a"..."z").contains(self) || ("0"..."9").contains(self) || self == "-" || self == "_" || self == "."
    }
}
