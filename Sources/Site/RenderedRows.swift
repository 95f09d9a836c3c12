import Rendering
import Foundation

/// The rows of long lists (the sol index) as the last `marsgen build` rendered them, in
/// `.marsgen/` beside the build state, so the next build renders only the rows that changed
/// (one new message changes one of 3,333 rows; rendering them all took a quarter of the
/// rebuild).
///
/// Only a cache: each row is kept by a hash of everything it is made from (see
/// ``Rendering/RowCache``), so a file from any earlier build can only miss, never give a
/// wrong row; a file from another marsgen version (whose rendering may differ), a missing
/// or a damaged one reads as empty. The file holds a hash of what it says of its lists and,
/// among that, a hash of each list's HTML, all checked on load: a row's HTML changed on disk
/// would otherwise be taken as it is.
enum RenderedRows {
    /// Bumped whenever the format changes.
    static let formatVersion = 4
    private static let magic = Array("marsgen-rows\n".utf8)

    /// The file for `output` under the site root.
    static func path(siteRoot: String, output: String) -> String {
        SitePaths.join(siteRoot, ".marsgen/build-\(BuildState.outputKey(output, siteRoot: siteRoot)).rows")
    }

    /// Each list's rows, or nothing when the file is missing or damaged.
    ///
    /// The file holds, after its header, what each list is (its name, its rows' keys and
    /// the length of each row's HTML, and a check of that HTML), then each list's HTML as the
    /// page inserts it (see ``Rendering/RowCache/RenderedList``): the HTML is read as one
    /// block of bytes, not a string per row, and the last list's (the sol index's, in a file
    /// of one list) stays in the bytes read, moved to their start.
    static func load(from path: String) -> [String: RowCache.RenderedList] {
        guard var bytes = try? FileSystem.read(path) else { return [:] }
        typealias Described = (name: String, keys: [UInt64], ends: [Int], check: UInt64)
        let parsed: (lists: [Described], htmlStart: Int)? = bytes.withUnsafeBytes { buffer in
            var reader = StateReader(buffer)
            do throws(StateReader.Damaged) {
                try reader.expect(magic)
                guard try reader.readInt() == formatVersion else { return nil }
                let describedLength = try reader.readCount()
                let check = try reader.readFixedUInt64()
                let start = reader.position
                let described = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + describedLength)])
                guard StateWriter.checkHash(described) == check else { return nil }
                var lists = StateReader(described)
                // Rows are keyed by what they are made from, not by how marsgen renders it.
                guard try lists.readString() == BuildState.marsgenVersion else { return nil }
                var result: [Described] = []
                for _ in 0..<(try lists.readCount()) {
                    let name = try lists.readString()
                    let count = try lists.readCount()
                    var keys: [UInt64] = []
                    keys.reserveCapacity(count)
                    for _ in 0..<count { keys.append(try lists.readFixedUInt64()) }
                    var ends: [Int] = []
                    ends.reserveCapacity(count)
                    var end = -1
                    for _ in 0..<count {
                        // A length, of bytes after these lines: no more than the file holds.
                        let length = try lists.readUInt64()
                        guard length < UInt64(buffer.count) else { return nil }
                        end += 1 + Int(length)
                        ends.append(end)
                    }
                    result.append((name, keys, ends, try lists.readFixedUInt64()))
                }
                guard lists.isAtEnd else { return nil }
                // Then each list's HTML, to the end of the file, each as its check says.
                var htmlStart = start + describedLength
                for list in result {
                    let length = max(list.ends.last ?? 0, 0)
                    guard length <= buffer.count - htmlStart,
                          StateWriter.checkHash(UnsafeRawBufferPointer(rebasing: buffer[htmlStart..<(htmlStart + length)])) == list.check
                    else { return nil }
                    htmlStart += length
                }
                guard htmlStart == buffer.count else { return nil }
                return (result, start + describedLength)
            } catch {
                return nil
            }
        }
        guard let parsed else { return [:] }
        var lists: [String: RowCache.RenderedList] = [:]
        var start = parsed.htmlStart
        for (position, list) in parsed.lists.enumerated() {
            let length = max(list.ends.last ?? 0, 0)
            let html: [UInt8]
            if position == parsed.lists.count - 1 {
                // Moved within the bytes read rather than copied to fresh memory.
                bytes.removeFirst(start)
                html = bytes
            } else {
                html = Array(bytes[start..<(start + length)])
            }
            start += length
            guard let rows = RowCache.RenderedList(keys: list.keys, html: html, ends: list.ends) else { return [:] }
            lists[list.name] = rows
        }
        return lists
    }

    /// Writes `lists` atomically, in name order (the same rows give the same bytes); each
    /// list's HTML is written from where it is, not copied.
    static func save(_ lists: [String: RowCache.RenderedList], to path: String) throws {
        let sorted = lists.sorted { $0.key < $1.key }
        var described = StateWriter(capacity: sorted.reduce(1 << 10) { $0 + $1.value.count * 10 })
        described.write(BuildState.marsgenVersion)
        described.write(count: sorted.count)
        for (name, rows) in sorted {
            described.write(name)
            described.write(count: rows.count)
            for key in rows.keys { described.write(fixed: key) }
            for index in 0..<rows.count { described.write(count: rows.range(of: index).count) }
            described.write(fixed: rows.html.withUnsafeBytes { StateWriter.checkHash($0) })
        }
        var header = StateWriter(capacity: 64)
        header.write(raw: magic)
        header.write(formatVersion)
        header.write(count: described.bytes.count)
        header.write(fixed: described.bytes.withUnsafeBytes { StateWriter.checkHash($0) })
        try FileSystem.createDirectories(SitePaths.parent(path), levels: 1)
        try FileSystem.writeAtomically([header.bytes, described.bytes] + sorted.map(\.value.html), to: path)
    }
}
