/// A value the object-list diff can follow from one build to the next.
///
/// Two questions decide what changed, as in IGListKit's diffable objects:
/// - *Who are you?* ``diffIdentifier`` is stable across builds: the same journal entry
///   keeps its identifier when its text changes.
/// - *Are you still the same?* ``isContentEqual(to:)`` is asked only of two objects with
///   the same identifier; when it answers `false` the object is *updated*.
///
/// - Note: The default implementation of ``isContentEqual(to:)`` uses `==`.
public protocol Diffable {
    /// The identifier type; strings in marsgen.
    associatedtype DiffIdentifier: Hashable

    /// An identifier that never changes for the life of the object.
    var diffIdentifier: DiffIdentifier { get }

    /// Whether `other`, which has the same identifier, renders the same.
    func isContentEqual(to other: Self) -> Bool
}

extension Diffable where Self: Equatable {
    public func isContentEqual(to other: Self) -> Bool { self == other }
}
