import Feed
import Mustache

/// A template context in the forms swift-mustache reads with the fewest dynamic casts.
///
/// swift-mustache looks every value up through `as?` casts to its protocols, and each cast
/// of a plain `String` or `[String: Any]` misses several of them before the value is
/// rendered (a lambda? an optional? `CustomStringConvertible`?). Each cast is a lookup in
/// the Swift runtime's conformance table, behind one shared counter that the rendering
/// threads contend for: a fifth of a full build's processor time. Strings wrapped as
/// ``Text`` and dictionaries as ``Object`` answer the first cast they meet.
///
/// They render exactly as the values they wrap: the same text, the same escaping, the
/// same sections, the same transforms (`{{uppercased(title)}}`, `{{count(items)}}`).
enum MustacheValues {
    /// `context` with its strings and dictionaries wrapped, at any depth. Arrays of strings
    /// stay as they are, so `{{sorted(tags)}}` still sorts them.
    static func wrapping(_ context: TemplateContext) -> Object {
        Object(values: context.mapValues(wrapping), plain: context)
    }

    static func wrapping(_ value: Any) -> Any {
        switch value {
        case let text as String:
            return Text(text: text)
        case let object as TemplateContext:
            return wrapping(object)
        case let objects as [TemplateContext]:
            return objects.map(wrapping)
        default:
            return value
        }
    }

    /// A string, rendered as itself.
    struct Text: MustacheCustomRenderable, MustacheParent, MustacheTransformable, CustomStringConvertible,
                 CustomDebugStringConvertible {
        var text: String
        var renderText: String { text }
        var isNull: Bool { false }
        /// A string has no named parts (as swift-mustache finds none in one).
        func child(named name: String) -> Any? { nil }
        func transform(_ name: String) -> Any? { text.transform(name) }
        // Where a template prints a value holding strings (`{{.}}` on a key and value).
        var description: String { text }
        var debugDescription: String { String(reflecting: text) }
    }

    /// A dictionary of values, looked up by name.
    struct Object: MustacheParent, MustacheTransformable, CustomStringConvertible, CustomDebugStringConvertible {
        /// The values, wrapped.
        var values: [String: Any]
        /// The dictionary as given: printed as a value (`{{site}}`), it reads as it did.
        var plain: TemplateContext
        /// The site's words, wrapped, in a template's outermost context (see
        /// ``TemplateLibrary/words``): kept beside ``values`` rather than added to them, which
        /// grew and rehashed the dictionary of every context rendered.
        var words: Any?
        func child(named name: String) -> Any? { values[name] ?? (name == "words" ? words : nil) }
        func transform(_ name: String) -> Any? { values.transform(name) }
        var description: String { String(describing: plain) }
        var debugDescription: String { String(reflecting: plain) }
    }
}
