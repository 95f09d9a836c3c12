import Content

/// A hash of everything a page's bytes are made from, except the templates' text: its
/// template and layout, every value its template sees, and the identity and content hash
/// of every object in its slots.
///
/// Rendering is a pure function of these inputs plus the templates, so two builds that
/// give a page the same fingerprint (and the same template sources) give it the same bytes,
/// and an incremental build can leave it alone without rendering it.
public enum PageFingerprint {
    /// The fingerprint of `page`.
    ///
    /// - Parameters:
    ///   - page: A planned page.
    ///   - contentHash: The content hash of an object by identifier.
    public static func of(_ page: Page, contentHash: (String) -> ContentHash?) -> ContentHash {
        var hash = ContentHash()
        hash.combine(page.template)
        hash.combine(page.layout ?? "\u{0}")
        hash.combine(page.outputPath)
        combine(page.context, into: &hash)
        for slot in page.slots.keys.sorted() {
            hash.combine("slot:" + slot)
            for item in page.slots[slot] ?? [] {
                hash.combine(item.objectID)
                hash.combine(contentHash(item.objectID)?.description ?? "?")
                combine(item.extra, into: &hash)
            }
        }
        return hash
    }

    /// Mixes a template value into `hash` in a canonical form: dictionary keys sorted,
    /// every value tagged with its type.
    static func combine(_ value: Any, into hash: inout ContentHash) {
        switch value {
        case let text as String:
            hash.combine("s" + text)
        case let flag as Bool:
            hash.combine(flag ? "b1" : "b0")
        case let number as Int:
            hash.combine("i\(number)")
        case let number as Double:
            hash.combine("d\(number)")
        case let dictionary as [String: Any]:
            hash.combine("{\(dictionary.count)")
            for key in dictionary.keys.sorted() {
                hash.combine(key)
                if let nested = dictionary[key] { combine(nested, into: &hash) }
            }
        case let list as [Any]:
            hash.combine("[\(list.count)")
            for element in list { combine(element, into: &hash) }
        case Optional<Any>.none:
            hash.combine("nil")
        default:
            // Any other type is a planner bug: make it visible rather than silently unhashed.
            hash.combine("?\(type(of: value)):\(value)")
        }
    }
}
