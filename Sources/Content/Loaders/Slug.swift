/// URL segments for entries and crew: lowercase ASCII letters, digits, `-`, `_` and `.`.
public enum Slug {
    /// Whether `text` can be used as it is in a URL path segment.
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isSlugCharacter, first != ".", !text.contains("..") else { return false }
        return text.unicodeScalars.allSatisfy(\.isSlugCharacter)
    }

    /// Derives a slug from a file name: lowercased, runs of other characters become `-`.
    public static func derive(from text: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
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
}

extension Unicode.Scalar {
    fileprivate var isSlugCharacter: Bool {
        ("a"..."z").contains(self) || ("0"..."9").contains(self) || self == "-" || self == "_" || self == "."
    }
}
