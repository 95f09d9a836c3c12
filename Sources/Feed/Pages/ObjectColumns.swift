import Content
import Dispatch

/// What the planner needs of each object, read in one pass into one array per field.
///
/// A site's objects are tens of thousands of separate allocations, so reading one is a cache
/// miss; the planner's later passes go over these arrays instead. This pass is the one every
/// rebuild makes over every object, so it is split across the cores.
struct ObjectColumns {
    var instants: [Int64] = []
    var stamps: [UInt64] = []
    var sols: [Int] = []
    var kinds: [ObjectKind] = []
    var fingerprints: [ObjectFingerprint] = []
    /// Each object's authors, as positions among the crew's members.
    var authors = ObjectAuthors()

    init() {}

    /// Reads every object of `library`, in ``ContentLibrary/allObjects`` order; an author
    /// who is not in the crew is left out of ``authors``.
    init(_ library: ContentLibrary) {
        let (entries, messages, reports) = (library.journalEntries, library.messages, library.weatherReports)
        let count = entries.count + messages.count + reports.count
        var parts: [ObjectColumns] = []
        fingerprints = [ObjectFingerprint](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each kind's own array: no existential per object, and no retain of each.
            parts += Self.read(entries, crew: library.crew, fingerprints: buffer, from: 0)
            parts += Self.read(messages, crew: library.crew, fingerprints: buffer, from: entries.count)
            parts += Self.read(reports, crew: library.crew, fingerprints: buffer, from: entries.count + messages.count)
            initialized = count
        }
        reserveCapacity(count)
        for part in parts {
            instants.append(contentsOf: part.instants)
            stamps.append(contentsOf: part.stamps)
            sols.append(contentsOf: part.sols)
            kinds.append(contentsOf: part.kinds)
            authors.append(contentsOf: part.authors)
        }
    }

    /// Reads `objects` in chunks on every core, each chunk into columns of its own (returned
    /// in order) and into `fingerprints` from position `start`.
    private static func read<Object: FeedObject>(_ objects: [Object], crew: Crew,
                                                 fingerprints: UnsafeMutableBufferPointer<ObjectFingerprint>,
                                                 from start: Int) -> [ObjectColumns] {
        let count = objects.count
        // A few chunks per core keep both cores busy at little cost.
        let chunkCount = count < 4096 ? 1 : 8
        var parts = [ObjectColumns](repeating: ObjectColumns(), count: chunkCount)
        // Each chunk writes only its own slots of `fingerprints` and its own element of `parts`.
        nonisolated(unsafe) let fingerprintSlots = fingerprints
        parts.withUnsafeMutableBufferPointer { partSlots in
            nonisolated(unsafe) let partSlots = partSlots
            DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                let range = (chunk * count / chunkCount)..<((chunk + 1) * count / chunkCount)
                var part = ObjectColumns()
                part.reserveCapacity(range.count)
                var memberIDs = MemberLookup(crew)
                for index in range {
                    let object = objects[index]
                    part.instants.append(object.instant.unixMillis)
                    part.stamps.append(object.stamp)
                    part.sols.append(object.sol)
                    part.kinds.append(object.kind)
                    part.authors.append(object.authorIDs.lazy.compactMap { memberIDs.position(of: $0) })
                    (fingerprintSlots.baseAddress.unsafelyUnwrapped + start + index).initialize(to: object.fingerprint)
                }
                partSlots[chunk] = part
            }
        }
        return parts
    }

    private mutating func reserveCapacity(_ count: Int) {
        instants.reserveCapacity(count)
        stamps.reserveCapacity(count)
        sols.reserveCapacity(count)
        kinds.reserveCapacity(count)
        authors.reserveCapacity(count)
    }
}

/// Each of a list of objects' authors (positions among the crew's members), in one flat array.
struct ObjectAuthors {
    private var members: [Int32] = []
    /// Where each object's authors end in ``members``.
    private var ends: [Int] = []

    mutating func append(_ positions: some Sequence<Int>) {
        for position in positions { members.append(Int32(truncatingIfNeeded: position)) }
        ends.append(members.count)
    }

    /// Appends every list of `other`.
    mutating func append(contentsOf other: ObjectAuthors) {
        let offset = members.count
        members.append(contentsOf: other.members)
        ends.append(contentsOf: other.ends.lazy.map { $0 + offset })
    }

    mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
        ends.reserveCapacity(count)
    }

    /// The authors of the object at `position`.
    subscript(position: Int) -> ArraySlice<Int32> {
        members[(position == 0 ? 0 : ends[position - 1])..<ends[position]]
    }

    /// The same lists, the one at `order[i]` at `i`.
    func reordered(_ order: [Int]) -> ObjectAuthors {
        var result = ObjectAuthors()
        result.reserveCapacity(ends.count)
        for index in order {
            result.members.append(contentsOf: self[index])
            result.ends.append(result.members.count)
        }
        return result
    }
}

/// Finds crew members by id, one lookup for each run of objects by one author.
private struct MemberLookup {
    let crew: Crew
    var lastID = ""
    var lastPosition: Int?

    init(_ crew: Crew) {
        self.crew = crew
    }

    mutating func position(of id: String) -> Int? {
        if id != lastID {
            lastID = id
            lastPosition = crew.position(ofMemberID: id)
        }
        return lastPosition
    }
}
