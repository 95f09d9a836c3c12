import Diagnostics
import Foundation

/// URL segments for entries and crew: lowercase ASCII letters, digits, `-`, `_` and `.`.
public enum Slug {
    /// The most bytes a slug may have: it is a folder name in the output, and file systems
    /// allow 255 bytes a name.
    public static let maximumLength = 255

    /// Whether `text` can be used as it is in a URL path segment.
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isSlugCharacter, first != ".", !text.contains("..") else { return false }
        return text.unicodeScalars.allSatisfy(\.isSlugCharacter)
    }

    /// The slug of the journal entry in the file at `path` when its front matter names none:
    /// derived from the file's name without `.md`; for an `index.md` in a folder of its own
    /// (`journal/dust-storm/index.md`, as Hugo's page bundles are kept), from the folder's.
    public static func derive(fromFileAt path: String) -> String {
        let parts = path.split(separator: "/")
        var name = parts.last.map(String.init) ?? path
        if name == "index.md", parts.count >= 2, parts[parts.count - 2] != "journal" {
            name = String(parts[parts.count - 2])
        }
        return derive(from: name.hasSuffix(".md") ? String(name.dropLast(3)) : name)
    }

    /// Derives a slug from a file name or a tag: lowercased, written in Latin letters without
    /// their accents (`Café` → `cafe`, `Марс` → `mars`, `火星` → `huo-xing`), runs of other
    /// characters become `-`; `fallback` when nothing is left (`!!!`).
    public static func derive(from text: String, orElse fallback: String = "entry") -> String {
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
        // A long file name (or a short one in a script whose Latin spelling is long) is cut
        // to fit a folder name, at a character: the slug is ASCII.
        if slug.utf8.count > maximumLength {
            slug = String(slug.prefix(maximumLength))
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug.isEmpty ? fallback : slug
    }

    /// The slug of an entry's tag, which names its page (`Dust storm` → `dust-storm`): tags
    /// that give one slug share the page.
    public static func ofTag(_ tag: String) -> String {
        derive(from: tag, orElse: "tag")
    }

    /// An error for `text`, used as a slug or an id, when it is longer than a folder name
    /// may be; `what` names it (`"slug"`, `"crew id"`).
    public static func lengthProblem(_ text: String, what: String, at location: SourceLocation) -> Diagnostic? {
        guard text.utf8.count > maximumLength else { return nil }
        return Diagnostic.error("\(what) '\(Diagnostic.excerpt(text))' is \(text.utf8.count) bytes long; it names a folder in the "
                                + "output, which may be at most \(maximumLength)",
                                at: location, hint: "shorten it")
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
