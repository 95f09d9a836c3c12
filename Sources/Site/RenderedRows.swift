import Foundation

/// The rows of long lists (the sol index) as the last `marsgen build` rendered them, in
/// `.marsgen/` beside the build state, so the next build renders only the rows that changed
/// (one new message changes one of 3,333 rows; rendering them all took a quarter of the
/// rebuild).
///
/// Only a cache: each row is kept by a hash of everything it is made from (see
/// ``Rendering/RowCache``), so a file from any earlier build can only miss, never give a
/// wrong row; a file from another marsgen version (whose rendering may differ), a missing
/// or a damaged one reads as empty. The file holds a hash of all it holds after its format,
/// checked on load: a row's HTML changed on disk would otherwise be taken as it is.
enum RenderedRows {
    /// Bumped whenever the format changes.
    static let formatVersion = 3
    private static let magic = Array("marsgen-rows\n".utf8)

    /// The file for `output` under the site root.
    static func path(siteRoot: String, output: String) -> String {
        SitePaths.join(siteRoot, ".marsgen/build-\(BuildState.outputKey(output)).rows")
    }

    /// Each list's rows' HTML by key, or nothing when the file is missing or damaged.
    static func load(from path: String) -> [String: [UInt64: String]] {
        guard let bytes = try? FileSystem.read(path) else { return [:] }
        return bytes.withUnsafeBytes { buffer in
            var header = StateReader(buffer)
            do throws(StateReader.Damaged) {
                try header.expect(magic)
                guard try header.readInt() == formatVersion else { return [:] }
                let hash = try header.readFixedUInt64()
                let rest = UnsafeRawBufferPointer(rebasing: buffer[header.position...])
                guard StateWriter.checkHash(rest) == hash else { return [:] }
                var reader = StateReader(rest)
                // Rows are keyed by what they are made from, not by how marsgen renders it.
                guard try reader.readString() == BuildState.marsgenVersion else { return [:] }
                var lists: [String: [UInt64: String]] = [:]
                for _ in 0..<(try reader.readCount()) {
                    let name = try reader.readString()
                    let count = try reader.readCount()
                    var rows: [UInt64: String] = [:]
                    rows.reserveCapacity(count)
                    for _ in 0..<count { rows[try reader.readFixedUInt64()] = try reader.readString() }
                    lists[name] = rows
                }
                return reader.isAtEnd ? lists : [:]
            } catch {
                return [:]
            }
        }
    }

    /// Writes `lists` atomically, in key order (the same rows give the same bytes).
    static func save(_ lists: [String: [UInt64: String]], to path: String) throws {
        var writer = StateWriter(capacity: 1 << 20)
        writer.write(BuildState.marsgenVersion)
        writer.write(count: lists.count)
        for (name, rows) in lists.sorted(by: { $0.key < $1.key }) {
            writer.write(name)
            writer.write(count: rows.count)
            for (key, html) in rows.sorted(by: { $0.key < $1.key }) {
                writer.write(fixed: key)
                writer.write(html)
            }
        }
        var file = StateWriter(capacity: writer.bytes.count + 32)
        file.write(raw: magic)
        file.write(formatVersion)
        file.write(fixed: writer.bytes.withUnsafeBytes { StateWriter.checkHash($0) })
        try FileSystem.createDirectories(SitePaths.parent(path), levels: 1)
        try FileSystem.writeAtomically([file.bytes, writer.bytes], to: path)
    }
}
