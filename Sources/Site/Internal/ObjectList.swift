import Content

/// A build state's object list, in feed order, with each object's stamp (see
/// ``FeedObject/stamp``) at hand.
///
/// A state made by a build holds the fingerprints. A state loaded from disk holds only the
/// stamps and the chunks the list was read from: the next build finds what changed by
/// comparing stamps, and reads the identifiers of the few objects in between, not those of
/// the tens of thousands that stayed (see `SiteBuilder.diffObjects`).
struct ObjectList: Sendable {
    private let fingerprints: [ObjectFingerprint]?
    private let chunks: ChunkedList<ContentHash>?
    private let knownStamps: [UInt64]?

    /// A list of `fingerprints`, whose stamps are `stamps` (computed when asked for, if not given).
    init(_ fingerprints: [ObjectFingerprint], stamps: [UInt64]? = nil) {
        (self.fingerprints, knownStamps, chunks) = (fingerprints, stamps, nil)
    }

    /// The list `chunks` hold, whose stamps are `stamps`.
    init(_ chunks: ChunkedList<ContentHash>, stamps: [UInt64]) {
        (self.chunks, knownStamps, fingerprints) = (chunks, stamps, nil)
    }

    /// Each object's stamp, in order.
    var stamps: [UInt64] { knownStamps ?? fingerprints?.map(\.stamp) ?? [] }

    /// How many objects it holds.
    var count: Int { fingerprints?.count ?? knownStamps?.count ?? 0 }

    /// The fingerprints of the objects at `range`.
    func fingerprints(in range: Range<Int>) -> [ObjectFingerprint] {
        if let fingerprints { return range == fingerprints.indices ? fingerprints : Array(fingerprints[range]) }
        guard let chunks else { return [] }
        let (keys, items) = chunks.keysAndItems(in: range)
        return zip(keys, items).map { ObjectFingerprint(diffIdentifier: $0, contentHash: $1) }
    }

    /// Every object's identifier and content hash, in order.
    var keysAndItems: (keys: [String], items: [ContentHash]) {
        if let fingerprints { return (fingerprints.map(\.diffIdentifier), fingerprints.map(\.contentHash)) }
        guard let chunks else { return ([], []) }
        return chunks.keysAndItems(in: 0..<chunks.itemCount)
    }
}
