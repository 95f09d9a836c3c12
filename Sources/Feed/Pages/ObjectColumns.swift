import Content
import Dispatch

/// What the planner needs of each object, read in one pass into one array per field.
///
/// A site's objects are tens of thousands of separate allocations, so reading one is a cache
/// miss; the planner's later passes go over these arrays instead. This pass is the one every
/// rebuild makes over every object, so it is split across the cores.
struct ObjectColumns: Sendable {
    var instants: [Int64] = []
    var stamps: [UInt64] = []
    var sols: [Int] = []
    var kinds: [Kind] = []
    /// Each object's authors, as positions among the crew's members.
    var authors = ObjectAuthors()

    /// An object's kind, in one byte: the planner compares and copies tens of thousands of
    /// kinds, and ``ObjectKind`` holds a string (a comparison of strings each, and arrays
    /// whose every element must be released). In the order of the kinds' names, which
    /// begin the objects' identifiers (see ``PagePlanner/feedOrder(instants:kinds:library:)``).
    enum Kind: UInt8, Sendable {
        case journal, message, weather
    }

    init() {}

    /// Reads every object of `library`, in ``ContentLibrary/allObjects`` order; an author
    /// who is not in the crew is left out of ``authors``.
    init(_ library: ContentLibrary) {
        let (entries, messages, reports) = (library.journalEntries, library.messages, library.weatherReports)
        let count = entries.count + messages.count + reports.count
        // Each kind's own array: no existential per object, and no retain of each.
        let parts = Self.read(entries, kind: .journal, crew: library.crew) + Self.read(messages, kind: .message, crew: library.crew)
            + Self.read(reports, kind: .weather, crew: library.crew)
        reserveCapacity(count)
        for part in parts {
            instants.append(contentsOf: part.instants)
            stamps.append(contentsOf: part.stamps)
            sols.append(contentsOf: part.sols)
            kinds.append(contentsOf: part.kinds)
            authors.append(contentsOf: part.authors)
        }
    }

    /// Reads `library`, taking from `previous` what it read of the objects both libraries
    /// hold: only the objects in between are read.
    ///
    /// An object is the same when it is the same instance (objects are immutable, and
    /// `previous` keeps its own alive, so no new one can take its address). A rebuild under
    /// a watcher keeps the instances of every file it did not read again, so after one edit
    /// each kind's array differs from the previous one in one run at most.
    init(_ library: ContentLibrary, reusing previous: consuming ReadObjects) {
        // Authors are kept as positions among the crew's members.
        guard previous.library.crew == library.crew else {
            self.init(library)
            return
        }
        let old = previous.library
        let runs = (entries: ChangedRun(old.journalEntries, library.journalEntries),
                    messages: ChangedRun(old.messages, library.messages),
                    reports: ChangedRun(old.weatherReports, library.weatherReports))
        // Past a few thousand objects, a full read on every core is as fast.
        guard runs.entries.newCount + runs.messages.newCount + runs.reports.newCount < 4096 else {
            self.init(library)
            return
        }
        // `previous` lets go of its columns (keeping the old objects alive for the comparison
        // above), so these arrays have one owner and the splices below happen in place.
        self = previous.columns
        previous = ReadObjects(library: old, columns: ObjectColumns())
        // From the last kind back, so the positions of the earlier ones still hold.
        let messagesStart = old.journalEntries.count
        let reportsStart = messagesStart + old.messages.count
        replace(runs.reports, from: reportsStart, with: library.weatherReports, kind: .weather, crew: library.crew)
        replace(runs.messages, from: messagesStart, with: library.messages, kind: .message, crew: library.crew)
        replace(runs.entries, from: 0, with: library.journalEntries, kind: .journal, crew: library.crew)
    }

    /// Puts what `objects[run.newRange]` hold where this holds the old run (its positions
    /// counted from `start`).
    private mutating func replace<Object: FeedObject>(_ run: ChangedRun, from start: Int, with objects: [Object], kind: Kind,
                                                      crew: Crew) {
        guard !run.isEmpty else { return }
        var fresh = ObjectColumns()
        fresh.reserveCapacity(run.newCount)
        var memberIDs = MemberLookup(crew)
        for object in objects[run.newRange] {
            fresh.append(object, kind: kind, memberIDs: &memberIDs)
        }
        let range = (start + run.oldRange.lowerBound)..<(start + run.oldRange.upperBound)
        instants.replaceSubrange(range, with: fresh.instants)
        stamps.replaceSubrange(range, with: fresh.stamps)
        sols.replaceSubrange(range, with: fresh.sols)
        kinds.replaceSubrange(range, with: fresh.kinds)
        authors.replaceSubrange(range, with: fresh.authors)
    }

    /// Appends what the planner needs of `object`, of kind `kind`.
    private mutating func append(_ object: some FeedObject, kind: Kind, memberIDs: inout MemberLookup) {
        instants.append(object.instant.unixMillis)
        stamps.append(object.stamp)
        sols.append(object.sol)
        kinds.append(kind)
        authors.append(object.authorIDs, memberIDs: &memberIDs)
    }

    /// Reads `objects` in chunks on every core, each chunk into columns of its own (returned
    /// in order).
    private static func read<Object: FeedObject>(_ objects: [Object], kind: Kind, crew: Crew) -> [ObjectColumns] {
        let count = objects.count
        // A few chunks per core keep both cores busy at little cost.
        let chunkCount = count < 4096 ? 1 : 8
        var parts = [ObjectColumns](repeating: ObjectColumns(), count: chunkCount)
        // Each chunk writes only its own element of `parts`.
        parts.withUnsafeMutableBufferPointer { partSlots in
            nonisolated(unsafe) let partSlots = partSlots
            DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                let range = (chunk * count / chunkCount)..<((chunk + 1) * count / chunkCount)
                var part = ObjectColumns()
                part.reserveCapacity(range.count)
                var memberIDs = MemberLookup(crew)
                for index in range { part.append(objects[index], kind: kind, memberIDs: &memberIDs) }
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

/// A library and what a planner read of its objects (see ``PagePlanner/readObjects``): a
/// process that plans again and again (`marsgen watch`, `marsgen serve`) hands it to the
/// next planner, which then reads only the objects that changed.
public struct ReadObjects: Sendable {
    let library: ContentLibrary
    let columns: ObjectColumns
    /// The journal's pages and tags as the planner made them, once it has.
    let journal = JournalHandover()
}

/// Where two arrays of objects differ: the run between their common prefix and their
/// common suffix (by identity).
struct ChangedRun {
    var oldRange: Range<Int>
    var newRange: Range<Int>
    var oldCount: Int { oldRange.count }
    var newCount: Int { newRange.count }
    /// Whether the two arrays hold the same objects.
    var isEmpty: Bool { oldRange.isEmpty && newRange.isEmpty }

    init<Object: AnyObject>(_ old: [Object], _ new: [Object]) {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] === new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] === new[new.count - 1 - suffix] { suffix += 1 }
        oldRange = prefix..<(old.count - suffix)
        newRange = prefix..<(new.count - suffix)
    }

    /// Where the object at `index` of the new array is in the old one: nil when it is in the run.
    func oldIndex(of index: Int) -> Int? {
        if index < newRange.lowerBound { return index }
        if index >= newRange.upperBound { return index - newRange.upperBound + oldRange.upperBound }
        return nil
    }
}

/// Each of a list of objects' authors (positions among the crew's members), in one flat array.
struct ObjectAuthors: Sendable {
    private var members: [Int32] = []
    /// Where each object's authors end in ``members``.
    private var ends: [Int] = []

    /// Appends the authors with ids `ids`, leaving out those who are not in the crew.
    fileprivate mutating func append(_ ids: [String], memberIDs: inout MemberLookup) {
        for id in ids {
            if let position = memberIDs.position(of: id) { members.append(Int32(truncatingIfNeeded: position)) }
        }
        ends.append(members.count)
    }

    /// Replaces the lists at `positions` with those of `other`.
    mutating func replaceSubrange(_ positions: Range<Int>, with other: ObjectAuthors) {
        let start = positions.lowerBound == 0 ? 0 : ends[positions.lowerBound - 1]
        let end = positions.isEmpty ? start : ends[positions.upperBound - 1]
        members.replaceSubrange(start..<end, with: other.members)
        let shift = other.members.count - (end - start)
        if shift != 0 {
            for index in positions.upperBound..<ends.count { ends[index] += shift }
        }
        ends.replaceSubrange(positions, with: other.ends.lazy.map { $0 + start })
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

    /// Calls `body` with each author of the object at `position`. No slice is made: one
    /// would retain the list for each of tens of thousands of objects.
    func forEach(ofObjectAt position: Int, _ body: (Int32) -> Void) {
        for index in range(of: position) { body(members[index]) }
    }

    /// Where the authors of the object at `position` are in ``members``.
    private func range(of position: Int) -> Range<Int> {
        (position == 0 ? 0 : ends[position - 1])..<ends[position]
    }
}

/// Finds crew members by id, each id looked up in the crew once.
///
/// Messages of one log alternate between a few authors, so remembering only the last id
/// meant a hashed lookup for most objects; the ids met are compared in turn instead (a crew
/// is a handful, and ids are short strings, compared without hashing).
private struct MemberLookup {
    let crew: Crew
    var known: [(id: String, position: Int?)] = []

    init(_ crew: Crew) {
        self.crew = crew
    }

    mutating func position(of id: String) -> Int? {
        for entry in known where entry.id == id { return entry.position }
        let position = crew.position(ofMemberID: id)
        // A site that names hundreds of authors gets the lookup for the rest.
        if known.count < 16 { known.append((id, position)) }
        return position
    }
}
