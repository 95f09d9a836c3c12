import Diagnostics
import MarsgenTesting
import Foundation
@testable import Site
import Testing

@Suite("Build index: text form")
struct BuildIndexTests {
    /// An index with numbers at their limits, paths that need escaping and a warning.
    static func sampleIndex() -> BuildIndex {
        var index = BuildIndex(outputDirectory: "/site/pub\\lic\nnext", configurationHash: "abc", scanStartedAt: -7,
                               stateToken: "t-1", stateSize: 5_000_000, inputs: [:])
        (index.journalEntries, index.messages, index.weatherReports, index.pages) = (1, 2, 3, 4)
        index.includesDrafts = true
        index.warnings = [Diagnostic.warning("odd", at: SourceLocation(path: "content/a.md", line: 2, column: 3), hint: "fix it")]
        let numbers: [Int64] = [0, 1, 9, 10, 99, 100, 1_234_567_890, -1, -10, .max, .min]
        for (position, number) in numbers.enumerated() {
            // The status-change time at every distance from the modification time, wrapping too.
            index.inputs["content/journal/\(position).md"] = BuildIndex.Input(size: number, modified: numbers[numbers.count - 1 - position],
                                                                            changed: numbers[(position + 3) % numbers.count], hash: "h\(position)")
        }
        index.inputs["content/back\\slash.md"] = BuildIndex.Input(size: 5, modified: 6, changed: 6, hash: "x")
        index.inputs["content/new\nline\r.md"] = BuildIndex.Input(size: 7, modified: 8, changed: 8, hash: "y")
        index.inputs["content/é 🚀.md"] = BuildIndex.Input(size: 9, modified: 10, changed: 10, hash: "z")
        // Each escaped character followed by a combining mark, which makes one Character of the two.
        index.inputs["content/mark\n\u{301}\\\u{301}\r\u{301}.md"] = BuildIndex.Input(size: 11, modified: 12, changed: 12, hash: "w")
        index.folders = [InputFolder(path: "content/journal", changed: .min, inode: 0),
                         InputFolder(path: "content/journal/a b\\c\nd", changed: .max, inode: .max),
                         InputFolder(path: "content/journal/é", changed: -1, inode: 12)]
        index.outputFolders = [InputFolder(path: ".", changed: 5, inode: 6), InputFolder(path: "a b\\c", changed: .min, inode: .max),
                               InputFolder(path: "journal", changed: 7, inode: 8)]
        return index
    }

    @Test("an index written and read again is the same index")
    func roundTrip() throws {
        let index = Self.sampleIndex()
        let text = String(decoding: index.bytes(inputLines: index.inputLines), as: UTF8.self)
        #expect(BuildIndex(text: text) == index)
        #expect(text.contains("input 1234567890 "))
        #expect(text.contains("input -9223372036854775808 0 9 h10 "))
        #expect(text.contains("input 0 -9223372036854775808 -9223372036854775798 h0 "))
        #expect(text.contains("folder -9223372036854775808 0 content/journal\n"))
        #expect(text.contains("folder 9223372036854775807 -1 content/journal/a b"))
        #expect(text.contains("output-folder 5 6 .\noutput-folder -9223372036854775808 -1 a b"))
        #expect(BuildIndex(text: text)?.folders == index.folders)
        // Folders out of order are not used (the listing binary-searches them): the index is
        // read without them.
        var unordered = index
        unordered.folders.reverse()
        let read = BuildIndex(text: String(decoding: unordered.bytes(inputLines: unordered.inputLines), as: UTF8.self))
        #expect(read?.folders == [])
        #expect(read?.inputs == index.inputs)
    }

    @Test("the inputs are kept and written sorted by path, whatever order they were added in")
    func inputOrder() throws {
        let index = Self.sampleIndex()
        let sorted = index.inputs.keys
        #expect(sorted == sorted.sorted() && sorted.count == 15)
        var reversed = IndexInputs()
        for (path, input) in index.inputs.reversed() { reversed[path] = input }
        #expect(reversed == index.inputs)
        let lines = String(decoding: index.inputLines, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == sorted.count)
        #expect(lines.first?.hasSuffix(BuildIndex.escape(sorted[0])) == true)
        // Set to nil, an input goes; set again, it comes back in its place.
        var inputs = index.inputs
        let path = sorted[5]
        let input = try #require(inputs[path])
        inputs[path] = nil
        #expect(inputs.count == 14 && inputs[path] == nil && inputs.keys == sorted.filter { $0 != path })
        inputs[path] = input
        #expect(inputs == index.inputs)
        // An index whose input lines are out of order is damaged: a full build follows.
        let text = String(decoding: index.uncheckedBytes(inputLines: index.inputLines), as: UTF8.self)
        let swapped = text.replacingOccurrences(of: "input 5 6 0 x content/back\\\\slash.md\n", with: "")
            + "input 5 6 0 x content/back\\\\slash.md\n"
        #expect(BuildIndex(uncheckedText: text) == index)
        #expect(swapped != text && BuildIndex(uncheckedText: swapped) == nil)
    }

    @Test("lookups in path order, or out of it, find what a lookup by path finds")
    func walk() {
        var inputs = IndexInputs()
        for number in stride(from: 0, to: 200, by: 2) {
            inputs["content/journal/\(number + 1_000).md"] = BuildIndex.Input(size: Int64(number), modified: 0, changed: 0, hash: "h")
        }
        let asked = (990..<1_210).map { "content/journal/\($0).md" }
        var walk = IndexInputs.Walk(inputs)
        for path in asked { #expect(walk.input(at: path) == inputs[path], "\(path)") }
        // Out of order: each answer is still right.
        var backwards = IndexInputs.Walk(inputs)
        for path in asked.reversed() + asked.shuffled() { #expect(backwards.input(at: path) == inputs[path], "\(path)") }
        #expect(asked.filter { inputs[$0] != nil }.count == 100)
    }

    @Test("an input line with a number out of range makes the index unreadable, not a crash")
    func numberOutOfRange() throws {
        let index = Self.sampleIndex()
        let text = String(decoding: index.uncheckedBytes(inputLines: index.inputLines), as: UTF8.self)
        for (from, to) in [("input -9223372036854775808 ", "input -9223372036854775809 "),
                           ("input 9223372036854775807 ", "input 9223372036854775808 "),
                           ("input 1234567890 ", "input 123456789012345678901234567890 "),
                           ("input 1234567890 ", "input 12x4 ")] {
            #expect(text.contains(from))
            #expect(BuildIndex(uncheckedText: text.replacingOccurrences(of: from, with: to)) == nil, "\(to)")
        }
    }

    @Test("without its check, an index cut short, or with a line of another kind among the inputs, is unreadable")
    func damaged() throws {
        let index = Self.sampleIndex()
        let text = String(decoding: index.uncheckedBytes(inputLines: index.inputLines), as: UTF8.self)
        #expect(BuildIndex(uncheckedText: text) != nil)
        #expect(BuildIndex(uncheckedText: String(text.dropLast())) == nil)
        #expect(BuildIndex(uncheckedText: text + "input 1 2") == nil)
        #expect(BuildIndex(uncheckedText: text.replacingOccurrences(of: "input 5 6 0 x", with: "inpt 5 6 0 x")) == nil)
        #expect(BuildIndex(uncheckedText: text.replacingOccurrences(of: "made 1 2 3 4\n", with: "")) == nil)
        #expect(BuildIndex(uncheckedText: "") == nil)
        // Cut anywhere, it is unreadable, or (cut after a whole line) the same index with fewer
        // warnings and inputs: the files missing count as changed, and are read again.
        let bytes = Array(text.utf8)
        for length in 0..<bytes.count {
            guard let cut = BuildIndex(uncheckedText: String(decoding: bytes[..<length], as: UTF8.self)) else { continue }
            #expect(bytes[length - 1] == UInt8(ascii: "\n") && cut.inputs.count < index.inputs.count, "\(length)")
            // A listing cannot trust what a cut index recorded of the folders: it has none.
            #expect(cut.folders.isEmpty && cut.recordedListing == nil, "\(length)")
            var same = cut
            same.inputs = index.inputs
            same.warnings = index.warnings
            same.folders = index.folders
            #expect(same == index && cut.inputs.allSatisfy { index.inputs[$0.key] == $0.value }, "\(length)")
        }
    }

    @Test("an index ends with the check of the rest: any byte changed, or the file cut short, makes it unreadable")
    func checked() throws {
        let index = Self.sampleIndex()
        let bytes = index.bytes(inputLines: index.inputLines)
        let body = index.uncheckedBytes(inputLines: index.inputLines)
        #expect(bytes.starts(with: body) && bytes.count == body.count + "check ".count + 17)
        #expect(String(decoding: bytes[body.count...], as: UTF8.self).hasPrefix("check "))
        #expect(BuildIndex(text: String(decoding: bytes, as: UTF8.self)) == index)
        // Without the check, or cut anywhere: unreadable.
        #expect(BuildIndex(text: String(decoding: body, as: UTF8.self)) == nil)
        for length in 0..<bytes.count {
            #expect(BuildIndex(text: String(decoding: bytes[..<length], as: UTF8.self)) == nil, "\(length)")
        }
        // Each byte changed (to a byte that keeps the text UTF-8 where it was ASCII): unreadable,
        // the header's numbers (scan-started, made) and the check's digits too.
        for position in bytes.indices {
            var damaged = bytes
            damaged[position] = bytes[position] < 0x80 ? (bytes[position] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1"))
                : bytes[position] ^ 0x01
            #expect(BuildIndex(text: String(decoding: damaged, as: UTF8.self)) == nil, "\(position)")
        }
        // An index signed again after a change is read as it says: the check is of the bytes, not a rule of their own.
        let edited = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "made 1 2 3 4\n", with: "made 1 2 3 5\n")
        #expect(BuildIndex(text: String(decoding: BuildIndex.signed(Array(edited.utf8)), as: UTF8.self))?.pages == 5)
    }

    @Test("a large index, its input lines read in two halves, reads back whole; out of order or cut at the seam, it is damaged")
    func largeIndex() throws {
        var index = Self.sampleIndex()
        // Past 64 KB of input lines: read as two halves.
        for number in 0..<2_000 {
            index.inputs["content/messages/log-\(number + 10_000)-with-a-long-name.md"] =
                BuildIndex.Input(size: Int64(number), modified: Int64(number) * 1_000_003, changed: Int64(number) * 1_000_003, hash: "hash\(number)")
        }
        let lines = index.inputLines
        #expect(lines.count > 1 << 17)
        let text = String(decoding: index.uncheckedBytes(inputLines: lines), as: UTF8.self)
        let read = try #require(BuildIndex(uncheckedText: text))
        #expect(read == index && read.recordedListing != nil)
        // Every pair of neighbouring lines around the middle swapped, one line repeated, one
        // removed: the first two are damaged, the last is another index, still in order.
        var inputLines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let firstInput = try #require(inputLines.firstIndex { $0.hasPrefix("input ") })
        let middle = firstInput + (inputLines.count - firstInput) / 2
        for position in (middle - 40)..<(middle + 40) {
            var swapped = inputLines
            swapped.swapAt(position, position + 1)
            #expect(BuildIndex(uncheckedText: swapped.joined(separator: "\n") + "\n") == nil, "swapped at \(position)")
            var repeated = inputLines
            repeated.insert(inputLines[position], at: position)
            #expect(BuildIndex(uncheckedText: repeated.joined(separator: "\n") + "\n") == nil, "repeated at \(position)")
        }
        inputLines.remove(at: middle)
        let fewer = try #require(BuildIndex(uncheckedText: inputLines.joined(separator: "\n") + "\n"))
        #expect(fewer.inputs.count == index.inputs.count - 1 && fewer.recordedListing == nil)
        // Cut short around the middle or at the end: unreadable, or fewer inputs after a whole line.
        let bytes = Array(text.utf8)
        for length in Array((bytes.count / 2 - 300)..<(bytes.count / 2 + 300)) + Array((bytes.count - 200)..<bytes.count) {
            guard let cut = BuildIndex(uncheckedText: String(decoding: bytes[..<length], as: UTF8.self)) else { continue }
            #expect(bytes[length - 1] == UInt8(ascii: "\n") && cut.inputs.count < index.inputs.count, "\(length)")
            #expect(cut.inputs.allSatisfy { index.inputs[$0.key] == $0.value }, "\(length)")
        }
    }

    @Test("a save copies the input lines that stay the same from the index file it read, and makes the others; the bytes are those it would make")
    func inputLinesCopiedFromTheFileRead() throws {
        var index = Self.sampleIndex()
        for number in 0..<3_000 {
            index.inputs["content/journal/\(number + 10_000).md"] = BuildIndex.Input(size: Int64(number), modified: 7, changed: 7, hash: "h\(number)")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-index-\(UUID().uuidString).index").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Lines written by hand with a number as no build writes it, in each half of the
        // file (read apart): copied, they stay so.
        let byHand = [5, 2_500].map { number in
            (path: "content/journal/\(number + 10_000).md", written: "input \(number) 7 0 h\(number) content/journal/\(number + 10_000).md\n",
             byHand: "input 000\(number) 7 0 h\(number) content/journal/\(number + 10_000).md\n")
        }
        var handWritten = String(decoding: index.uncheckedBytes(inputLines: index.inputLines), as: UTF8.self)
        for line in byHand { handWritten = handWritten.replacingOccurrences(of: line.written, with: line.byHand) }
        try Data(BuildIndex.signed(Array(handWritten.utf8))).write(to: URL(fileURLWithPath: path))
        let read = try #require(BuildIndex.load(from: path))
        #expect(read == index)
        let source = try #require(read.lineSource)
        var random = SeededRandom(seed: 31)
        for trial in 0..<30 {
            var inputs = index.inputs
            let paths = inputs.keys
            for _ in 0..<random.next(20) {
                let path = paths[random.next(paths.count)]
                switch random.next(3) {
                case 0: inputs[path] = nil
                case 1: inputs[path] = BuildIndex.Input(size: 1, modified: 2, changed: 2, hash: "changed")
                default: inputs[path + "-\(trial)"] = BuildIndex.Input(size: 3, modified: 4, changed: 4, hash: "added")
                }
            }
            let made = BuildIndex.inputLines(paths: inputs.keys, records: inputs.inputs) { $0 }
            let copied = BuildIndex.inputLines(paths: inputs.keys, records: inputs.inputs, reusing: source) { $0 }
            var expected = String(decoding: made, as: UTF8.self)
            for line in byHand where inputs[line.path] == index.inputs[line.path] {
                expected = expected.replacingOccurrences(of: line.written, with: line.byHand)
            }
            #expect(String(decoding: copied, as: UTF8.self) == expected, "trial \(trial)")
            #expect(expected.contains("input 0005 ") || inputs["content/journal/10005.md"] != index.inputs["content/journal/10005.md"])
        }
    }

    @Test("a save writes the folders' lines of the index file it read when the folders are the same, else makes them; the index reads back as saved")
    func folderLinesCopiedFromTheFileRead() throws {
        let index = Self.sampleIndex()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-index-\(UUID().uuidString).index").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A folder's line written by hand with a number as no build writes it: copied, it stays so.
        let written = "folder -1 12 content/journal/é\n"
        #expect(String(decoding: index.uncheckedBytes(inputLines: index.inputLines), as: UTF8.self).contains(written))
        let handWritten = String(decoding: index.uncheckedBytes(inputLines: index.inputLines), as: UTF8.self)
            .replacingOccurrences(of: written, with: "folder -01 12 content/journal/é\n")
        try Data(BuildIndex.signed(Array(handWritten.utf8))).write(to: URL(fileURLWithPath: path))
        let read = try #require(BuildIndex.load(from: path))
        #expect(read == index)
        let source = try #require(read.lineSource)
        // The same folders: their lines as the file had them, the rest as made.
        var next = index
        next.stateToken = "t-2"
        try next.save(to: path, reusing: source)
        let saved = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(saved.contains("folder -01 12 content/journal/é\n") && saved.contains("state t-2 "))
        #expect(BuildIndex.load(from: path) == next)
        // Other folders: made afresh, and the index is exactly the one made without the file.
        let reread = try #require(BuildIndex.load(from: path))
        next.folders.removeLast()
        next.folders.append(InputFolder(path: "content/journal/z", changed: 3, inode: 4))
        try next.save(to: path, reusing: reread.lineSource)
        let made = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect([UInt8](made) == next.bytes(inputLines: next.inputLines))
        #expect(BuildIndex.load(from: path) == next)
    }

    @Test("the check of bytes in pieces is the check of the same bytes in one piece, wherever they are cut")
    func checkOfPieces() {
        var random = SeededRandom(seed: 77)
        for length in [0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 200, 1_000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next(256)) }
            let whole = bytes.withUnsafeBytes { StateWriter.checkHash($0) }
            for _ in 0..<20 {
                // Cuts anywhere, empty pieces included.
                var cuts = (0..<random.next(6)).map { _ in random.next(length + 1) }.sorted()
                cuts = [0] + cuts + [length]
                let pieced = bytes.withUnsafeBytes { buffer in
                    StateWriter.checkHash(pieces: zip(cuts, cuts.dropFirst()).map { UnsafeRawBufferPointer(rebasing: buffer[$0..<$1]) })
                }
                #expect(pieced == whole, "\(length) bytes cut at \(cuts)")
            }
        }
        // One byte changed anywhere changes it.
        let bytes = [UInt8](repeating: 7, count: 100)
        let check = bytes.withUnsafeBytes { StateWriter.checkHash(pieces: [UnsafeRawBufferPointer(rebasing: $0[..<40]), UnsafeRawBufferPointer(rebasing: $0[40...])]) }
        for position in bytes.indices {
            var changed = bytes
            changed[position] = 8
            #expect(changed.withUnsafeBytes { StateWriter.checkHash(pieces: [$0]) } != check)
        }
    }
}
