/// How the diff decides that two objects with the same identifier are still the same.
public enum ListDiffOption: Sendable {
    /// The same instance, or `isContentEqual(to:)` answers `true` (the default).
    case equality
    /// Only the same class instance; any other instance counts as updated. Value types
    /// have no identity, so in this mode every matched value pair is an update.
    case identity
}

/// An object that moved: its index in the old list and in the new one.
public struct ListMove: Hashable, Sendable, CustomStringConvertible {
    /// The index in the old list.
    public let from: Int
    /// The index in the new list.
    public let to: Int

    /// Creates a move.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    public var description: String { "\(from)→\(to)" }
}
