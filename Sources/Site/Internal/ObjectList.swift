import Content
import Feed

/// A build state's object list, in feed order, with each object's stamp (see
/// ``FeedObject/stamp``) at hand.
///
/// Its identifiers and content hashes are read only where asked for: a state made by a
/// build reads them from the objects (``FeedFingerprints``), one loaded from disk from the
/// chunks it was read from. The next build finds what changed by comparing stamps and reads
/// the identifiers of the few objects in between, and a save those of the chunks it does
/// not keep, not those of the tens of thousands that stayed (see `SiteBuilder.diffObjects`).
struct ObjectList: Sendable {
    private enum Storage: Sendable {
        case listed(Fingerprints)
        case chunks(ChunkedList<ContentHash>)
    }

    private let storage: Storage
    private let knownStamps: [UInt64]?

    /// A list of `fingerprints`, whose stamps are computed when asked for.
    init(_ fingerprints: [ObjectFingerprint]) {
        (storage, knownStamps) = (.listed(.array(fingerprints)), nil)
    }

    /// The list of a planner's objects, whose stamps are `stamps`.
    init(_ feed: FeedFingerprints, stamps: [UInt64]) {
        (storage, knownStamps) = (.listed(.feed(feed)), stamps)
    }

    /// The list `chunks` hold, whose stamps are `stamps`.
    init(_ chunks: ChunkedList<ContentHash>, stamps: [UInt64]) {
        (storage, knownStamps) = (.chunks(chunks), stamps)
    }

    /// Each object's stamp, in order.
    var stamps: [UInt64] {
        if let knownStamps { return knownStamps }
        return fingerprints(in: 0..<count).map(\.stamp)
    }

    /// How many objects it holds.
    var count: Int {
        switch storage {
        case .listed(let fingerprints): fingerprints.count
        case .chunks(let chunks): chunks.itemCount
        }
    }

    /// The fingerprints of the objects at `range`.
    func fingerprints(in range: Range<Int>) -> [ObjectFingerprint] {
        switch storage {
        case .listed(.array(let fingerprints)) where range == fingerprints.indices: return fingerprints
        case .listed(let fingerprints): return Array(fingerprints[range])
        case .chunks(let chunks):
            let (keys, items) = chunks.keysAndItems(in: range)
            return zip(keys, items).map { ObjectFingerprint(diffIdentifier: $0, contentHash: $1) }
        }
    }

    /// Every object's fingerprint, in order, each read when asked for (a loaded list reads
    /// them all first: only a state saved again as it was loaded does that).
    var lazyFingerprints: Fingerprints {
        switch storage {
        case .listed(let fingerprints): fingerprints
        case .chunks: .array(fingerprints(in: 0..<count))
        }
    }

    /// Fingerprints in a list, or read from a planner's objects when asked for.
    enum Fingerprints: RandomAccessCollection, Sendable {
        case array([ObjectFingerprint])
        case feed(FeedFingerprints)

        var startIndex: Int { 0 }
        var endIndex: Int {
            switch self {
            case .array(let fingerprints): fingerprints.count
            case .feed(let feed): feed.count
            }
        }

        subscript(position: Int) -> ObjectFingerprint {
            switch self {
            case .array(let fingerprints): fingerprints[position]
            case .feed(let feed): feed[position]
            }
        }
    }
}
