/// The kind of a feed object. An open set: a new kind is a new static constant, a new
/// object type and a new section controller, with no switch to edit.
public struct ObjectKind: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kind's name, used in identifiers, CSS classes and template names.
    public let rawValue: String

    /// Creates a kind.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A journal entry.
    public static let journal = ObjectKind(rawValue: "journal")
    /// A message from a message log.
    public static let message = ObjectKind(rawValue: "message")
    /// A weather report.
    public static let weather = ObjectKind(rawValue: "weather")

    public var description: String { rawValue }

    public static func < (lhs: ObjectKind, rhs: ObjectKind) -> Bool { lhs.rawValue < rhs.rawValue }
}
