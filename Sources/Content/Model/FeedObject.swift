import ListDiff
import MarsTime

/// Anything that appears in the feed: a journal entry, a message, a weather report.
///
/// Every feed object is diffable: ``diffIdentifier`` says who it is across builds and
/// ``contentHash`` says whether it still renders the same.
///
/// Feed objects are immutable classes: a build passes tens of thousands of them around as
/// `any FeedObject`, which for a class is a reference, copied with one retain.
public protocol FeedObject: AnyObject, Sendable {
    /// The object's kind, which picks its section controller.
    var kind: ObjectKind { get }
    /// Stable across builds: derived from the kind and source path (and, for a message,
    /// its timestamp and author within its log).
    var diffIdentifier: String { get }
    /// A hash of everything that affects how the object renders.
    var contentHash: ContentHash { get }
    /// ``diffIdentifier`` and ``contentHash`` in one number (see ``stamp(identifier:contentHash:)``):
    /// equal stamps mean the same object, unchanged. Pages' inputs hashes are made of them.
    var stamp: UInt64 { get }
    /// When the object happened (UTC).
    var instant: Instant { get }
    /// The mission sol containing ``instant``.
    var sol: Int { get }
    /// The local mean solar time of ``instant`` at the mission's longitude.
    var lmst: MarsClockTime { get }
    /// The site-relative path of the file it came from.
    var sourcePath: String { get }
    /// The crew ids of the people who wrote it (empty for weather).
    var authorIDs: [String] { get }
    /// A short human title, for the Atom feed and page titles.
    var title: String { get }
}

extension FeedObject {
    /// The stamp of an object, as each kind computes and keeps it once, when it is made:
    /// a rebuild combines the stamps of tens of thousands of objects.
    public static func stamp(identifier: String, contentHash: ContentHash) -> UInt64 {
        ObjectFingerprint.stamp(identifier: StoredText(identifier), contentHash: contentHash)
    }

    public var stamp: UInt64 { Self.stamp(identifier: diffIdentifier, contentHash: contentHash) }

    /// What the object-list diff compares: identifier and content hash.
    public var fingerprint: ObjectFingerprint {
        ObjectFingerprint(diffIdentifier: diffIdentifier, contentHash: contentHash)
    }
}

/// An object as the object-list diff sees it: who it is and what it looks like.
public struct ObjectFingerprint: Diffable, Hashable, Sendable, Codable {
    /// The object's identifier.
    public var diffIdentifier: String
    /// The object's content hash.
    public var contentHash: ContentHash

    /// Creates a fingerprint.
    public init(diffIdentifier: String, contentHash: ContentHash) {
        self.diffIdentifier = diffIdentifier
        self.contentHash = contentHash
    }

    /// The stamp of the object it describes (see ``FeedObject/stamp``).
    public var stamp: UInt64 {
        Self.stamp(identifier: StoredText(diffIdentifier), contentHash: contentHash)
    }

    /// The stamp of an object whose identifier is the UTF-8 text `identifier`, for a reader
    /// that has the bytes and need not make a string of them.
    public static func stamp(identifierUTF8 identifier: UnsafeRawBufferPointer, contentHash: ContentHash) -> UInt64 {
        var hash = ContentHash()
        hash.combine(buffer: identifier)
        hash.combine(Int64(bitPattern: contentHash.value))
        return hash.value
    }

    /// The stamp of the object whose identifier is `identifier`.
    public static func stamp(identifier: StoredText, contentHash: ContentHash) -> UInt64 {
        identifier.withUTF8 { stamp(identifierUTF8: $0, contentHash: contentHash) }
    }
}

/// The feed order: newest first; ties broken by identifier so the order is total.
public func isNewerInFeed(_ a: any FeedObject, than b: any FeedObject) -> Bool {
    if a.instant != b.instant { return a.instant > b.instant }
    return a.diffIdentifier < b.diffIdentifier
}

/// Time order within a sol page: oldest first, ties by identifier.
public func isEarlierInTime(_ a: any FeedObject, than b: any FeedObject) -> Bool {
    if a.instant != b.instant { return a.instant < b.instant }
    return a.diffIdentifier < b.diffIdentifier
}
