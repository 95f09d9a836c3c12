/// The inputs a ``BuildIndex`` records: each input file's stat and hash, by path, in path order.
///
/// Every build reads the index, and one that lists the inputs lists them in path order too:
/// it walks both lists side by side (see ``Walk``) instead of building a table of tens of
/// thousands of paths on every read. Any other lookup is a binary search.
struct IndexInputs: Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The paths, in increasing order.
    private(set) var paths: [String] = []
    /// The input at each of ``paths``.
    private(set) var inputs: [BuildIndex.Input] = []

    init() {}

    init(dictionaryLiteral elements: (String, BuildIndex.Input)...) {
        for (path, input) in elements { self[path] = input }
    }

    /// `paths`, in increasing order (a state's sources as a save writes them), with their `inputs`.
    init(sortedPaths paths: [String], inputs: [BuildIndex.Input]) {
        assert(paths.count == inputs.count && zip(paths, paths.dropFirst()).allSatisfy { $0 < $1 })
        (self.paths, self.inputs) = (paths, inputs)
    }

    /// How many inputs there are.
    var count: Int { paths.count }

    /// The paths, in order.
    var keys: [String] { paths }

    /// The input at `path`, found by binary search; set to nil, it is removed.
    subscript(path: String) -> BuildIndex.Input? {
        get { paths.sortedIndex(of: path).map { inputs[$0] } }
        set {
            let position = paths.sortedInsertionIndex(of: path)
            let exists = position < paths.count && paths[position] == path
            switch (exists, newValue) {
            case (true, let input?): inputs[position] = input
            case (true, nil):
                paths.remove(at: position)
                inputs.remove(at: position)
            case (false, let input?):
                paths.insert(path, at: position)
                inputs.insert(input, at: position)
            case (false, nil): break
            }
        }
    }

    /// Appends `input` at `path`, which must sort after every path held (an index being read).
    /// - Returns: false, and nothing added, when it does not.
    mutating func append(_ input: BuildIndex.Input, at path: String) -> Bool {
        guard paths.last.map({ $0 < path }) ?? true else { return false }
        paths.append(path)
        inputs.append(input)
        return true
    }

    /// Appends every input of `other`, whose first path must sort after every path held.
    /// - Returns: false, and nothing added, when it does not.
    mutating func append(contentsOf other: IndexInputs) -> Bool {
        if let last = paths.last, let next = other.paths.first, !(last < next) { return false }
        paths += other.paths
        inputs += other.inputs
        return true
    }

    mutating func reserveCapacity(_ count: Int) {
        paths.reserveCapacity(count)
        inputs.reserveCapacity(count)
    }

    func makeIterator() -> some IteratorProtocol<(key: String, value: BuildIndex.Input)> {
        zip(paths, inputs).lazy.map { (key: $0, value: $1) }.makeIterator()
    }

    /// Lookups in increasing path order, each going on from where the last one stopped: a
    /// comparison or two per path for a caller that walks a sorted listing.
    struct Walk {
        let inputs: IndexInputs
        private var paths: SortedWalk<String>

        init(_ inputs: IndexInputs) {
            self.inputs = inputs
            paths = SortedWalk(inputs.paths)
        }

        /// The input at `path`. A path not after those passed is found by binary search.
        mutating func input(at path: String) -> BuildIndex.Input? {
            paths.index(of: path).map { inputs.inputs[$0] }
        }
    }
}
