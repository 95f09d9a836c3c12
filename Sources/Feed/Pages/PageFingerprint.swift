import Content

/// A hash of everything a page's bytes are made from, except the templates' text and the
/// values every page shares (``Page/shared``, made from the configuration, whose change
/// means a full build): its template and layout, every other value its template sees, and
/// the identity and content hash of every object in its slots.
///
/// Rendering is a pure function of these inputs plus the templates, so two builds that
/// give a page the same fingerprint (and the same template sources) give it the same bytes,
/// and an incremental build can leave it alone without rendering it.
public enum PageFingerprint {
    /// The fingerprint of `page`, a planned page.
    public static func of(_ page: Page) -> ContentHash {
        var hash = ContentHash()
        hash.combine(page.template)
        hash.combine(page.layout ?? "\u{0}")
        hash.combine(page.outputPath)
        if let contextHash = page.contextHash {
            hash.combine("context-hash")
            hash.combine(Int64(bitPattern: contextHash.value))
        } else {
            combine(dictionary: page.context, into: &hash)
            if !page.sitemapLocations.isEmpty {
                hash.combine("sitemap")
                for location in page.sitemapLocations { hash.combine(location) }
            }
        }
        for name in page.rows.keys.sorted() {
            guard let rows = page.rows[name] else { continue }
            hash.combine("rows:" + name)
            hash.combine(rows.template)
            hash.combine(Int64(rows.count))
            for row in rows.hashes { hash.combine(Int64(bitPattern: row)) }
        }
        for slot in page.slots.keys.sorted() {
            hash.combine("slot:" + slot)
            for item in page.slots[slot] ?? [] {
                hash.combine(item.objectID)
                hash.combine(item.isOwnPage ? 1 : 0)
                hash.combine(Int64(bitPattern: item.object.contentHash.value))
                combine(dictionary: item.extra, into: &hash)
            }
        }
        return hash
    }

    /// Mixes a template value into `hash` in a canonical form: every value tagged with its
    /// type, a dictionary as the sum of its entries' hashes (so key order does not matter and
    /// nothing needs sorting: tens of thousands of pages are fingerprinted on every build).
    static func combine(_ value: Any, into hash: inout ContentHash) {
        switch value {
        case let text as String:
            hash.combine(1)
            hash.combine(text)
        case let dictionary as [String: Any]:
            combine(dictionary: dictionary, into: &hash)
        case let list as [[String: Any]]:
            // Before `[Any]`: casting a list of dictionaries to `[Any]` copies it element by element.
            hash.combine(6)
            hash.combine(Int64(list.count))
            for element in list { combine(dictionary: element, into: &hash) }
        case let flag as Bool:
            hash.combine(flag ? 3 : 4)
        case let number as Int:
            hash.combine(5)
            hash.combine(Int64(number))
        case let list as [Any]:
            hash.combine(6)
            hash.combine(Int64(list.count))
            for element in list { combine(element, into: &hash) }
        case let number as Double:
            hash.combine(7)
            hash.combine(Int64(bitPattern: number.bitPattern))
        case Optional<Any>.none:
            hash.combine(8)
        default:
            // Any other type is a planner bug: make it visible rather than silently unhashed.
            hash.combine("?\(type(of: value)):\(value)")
        }
    }

    /// A hash of template values, in the canonical form the fingerprint uses.
    public static func of(_ values: TemplateContext) -> ContentHash {
        var hash = ContentHash()
        combine(dictionary: values, into: &hash)
        return hash
    }

    /// A dictionary as the sum of its entries' hashes, so key order does not matter.
    static func combine(dictionary: [String: Any], into hash: inout ContentHash) {
        var sum: UInt64 = 0
        for (key, nested) in dictionary {
            var entry = ContentHash()
            entry.combine(key)
            combine(nested, into: &entry)
            sum &+= entry.value
        }
        hash.combine(2)
        hash.combine(Int64(dictionary.count))
        hash.combine(Int64(bitPattern: sum))
    }
}
