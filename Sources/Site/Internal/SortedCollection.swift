// Binary search in sorted collections: the input listing, the index's recorded folders and
// paths, and the chunks of the build state's lists are all kept sorted.

extension Collection where Index == Int {
    /// In a collection sorted by `key`, the index of the first element whose key is not
    /// below `value` (binary search).
    func sortedInsertionIndex<Key: Comparable>(of value: Key, key: (Element) -> Key) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if key(self[middle]) < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// In a collection of paths sorted by `key`, the positions of those under the folder
    /// `folder` (and of `folder` itself, when `including`): one run, found by binary search.
    func sortedRun(under folder: String, including: Bool = false, key: (Element) -> String) -> Range<Int> {
        let prefix = folder + "/"
        let start = sortedInsertionIndex(of: including ? folder : prefix, key: key)
        var end = start
        while end < endIndex, key(self[end]).hasPrefix(prefix) || (including && key(self[end]) == folder) { end += 1 }
        return start..<end
    }
}

/// Lookups in increasing order in a sorted array, each going on from where the last one
/// stopped: a comparison or two per lookup for a caller that walks another sorted list beside
/// it. A value not after the last one looked up is found by binary search.
struct SortedWalk<Element: Comparable> {
    let elements: [Element]
    private var position = 0

    init(_ elements: [Element]) {
        self.elements = elements
    }

    /// The position of `value` in ``elements``; nil when it is not there.
    mutating func index(of value: Element) -> Int? {
        if let next = indexIfNext(value) { return next }
        if position > 0, value <= elements[position - 1] {
            position = elements.sortedInsertionIndex(of: value)
        }
        while position < elements.count, elements[position] < value { position += 1 }
        return position < elements.count && elements[position] == value ? position : nil
    }

    /// The position of `value` when it is the element the walk reached, nil otherwise (then
    /// nothing moved): walking the same paths in the same order, the one asked for is most
    /// often that one, found with one comparison instead of three (13,400 source paths
    /// walked by the loaders of each incremental build).
    mutating func indexIfNext(_ value: Element) -> Int? {
        guard position < elements.count, elements[position] == value else { return nil }
        position += 1
        return position - 1
    }
}

extension Collection where Index == Int, Element: Comparable {
    /// In a sorted collection, the index of the first element not below `value`.
    func sortedInsertionIndex(of value: Element) -> Int { sortedInsertionIndex(of: value) { $0 } }

    /// In a sorted collection, the index of `value`; nil when it is not there.
    func sortedIndex(of value: Element) -> Int? {
        let position = sortedInsertionIndex(of: value)
        return position < endIndex && self[position] == value ? position : nil
    }
}

extension Collection where Index == Int, Element == String {
    /// In a sorted collection of paths, the positions of those under the folder `folder`.
    func sortedRun(under folder: String) -> Range<Int> { sortedRun(under: folder) { $0 } }
}
