import Diagnostics
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
        index.warnings = [Diagnostic.warning("odd", at: SourceLocation(path: "content/a.md", line: 2, column: 3), hint: "fix it")]
        let numbers: [Int64] = [0, 1, 9, 10, 99, 100, 1_234_567_890, -1, -10, .max, .min]
        for (position, number) in numbers.enumerated() {
            index.inputs["content/journal/\(position).md"] = BuildIndex.Input(size: number, modified: numbers[numbers.count - 1 - position],
                                                                            hash: "h\(position)")
        }
        index.inputs["content/back\\slash.md"] = BuildIndex.Input(size: 5, modified: 6, hash: "x")
        index.inputs["content/new\nline\r.md"] = BuildIndex.Input(size: 7, modified: 8, hash: "y")
        index.inputs["content/é 🚀.md"] = BuildIndex.Input(size: 9, modified: 10, hash: "z")
        index.folders = [InputFolder(path: "content/journal", changed: .min, inode: 0),
                         InputFolder(path: "content/journal/a b\\c\nd", changed: .max, inode: .max),
                         InputFolder(path: "content/journal/é", changed: -1, inode: 12)]
        return index
    }

    @Test("an index written and read again is the same index")
    func roundTrip() throws {
        let index = Self.sampleIndex()
        let text = String(decoding: index.bytes(inputLines: index.inputLines), as: UTF8.self)
        #expect(BuildIndex(text: text) == index)
        #expect(text.contains("input 1234567890 "))
        #expect(text.contains("input -9223372036854775808 0 h10 "))
        #expect(text.contains("input 0 -9223372036854775808 h0 "))
        #expect(text.contains("folder -9223372036854775808 0 content/journal\n"))
        #expect(BuildIndex(text: text)?.folders == index.folders)
        // Folders out of order are not used (the listing binary-searches them): the index is
        // read without them.
        var unordered = index
        unordered.folders.reverse()
        let read = BuildIndex(text: String(decoding: unordered.bytes(inputLines: unordered.inputLines), as: UTF8.self))
        #expect(read?.folders == [])
        #expect(read?.inputs == index.inputs)
    }

    @Test("the input lines are sorted by path, whatever order a caller offers")
    func inputOrder() throws {
        let index = Self.sampleIndex()
        let sorted = index.inputs.keys.sorted()
        let expected = index.inputLines
        #expect(index.inputLines(sortedPaths: sorted) == expected)
        // Offers that do not hold exactly the inputs' paths are not taken.
        #expect(index.inputLines(sortedPaths: Array(sorted.dropLast())) == expected)
        #expect(index.inputLines(sortedPaths: Array(sorted.dropLast()) + ["content/other.md"]) == expected)
        let lines = String(decoding: expected, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == sorted.count)
        #expect(lines.first?.hasSuffix(BuildIndex.escape(sorted[0])) == true)
    }

    @Test("an input line with a number out of range makes the index unreadable, not a crash")
    func numberOutOfRange() throws {
        let index = Self.sampleIndex()
        let text = String(decoding: index.bytes(inputLines: index.inputLines), as: UTF8.self)
        for (from, to) in [("input -9223372036854775808 ", "input -9223372036854775809 "),
                           ("input 9223372036854775807 ", "input 9223372036854775808 "),
                           ("input 1234567890 ", "input 123456789012345678901234567890 "),
                           ("input 1234567890 ", "input 12x4 ")] {
            #expect(text.contains(from))
            #expect(BuildIndex(text: text.replacingOccurrences(of: from, with: to)) == nil, "\(to)")
        }
    }

    @Test("an index cut short, or with a line of another kind among the inputs, is unreadable")
    func damaged() throws {
        let index = Self.sampleIndex()
        let text = String(decoding: index.bytes(inputLines: index.inputLines), as: UTF8.self)
        #expect(BuildIndex(text: text) != nil)
        #expect(BuildIndex(text: String(text.dropLast())) == nil)
        #expect(BuildIndex(text: text + "input 1 2") == nil)
        #expect(BuildIndex(text: text.replacingOccurrences(of: "input 5 6 x", with: "inpt 5 6 x")) == nil)
        #expect(BuildIndex(text: text.replacingOccurrences(of: "made 1 2 3 4\n", with: "")) == nil)
        #expect(BuildIndex(text: "") == nil)
        // Cut anywhere, it is unreadable, or (cut after a whole line) the same index with fewer
        // warnings and inputs: the files missing count as changed, and are read again.
        let bytes = Array(text.utf8)
        for length in 0..<bytes.count {
            guard let cut = BuildIndex(text: String(decoding: bytes[..<length], as: UTF8.self)) else { continue }
            #expect(bytes[length - 1] == UInt8(ascii: "\n") && cut.inputs.count < index.inputs.count, "\(length)")
            // A listing cannot trust what a cut index recorded of the folders: it has none.
            #expect(cut.folders.isEmpty && cut.inputOrder.isEmpty, "\(length)")
            var same = cut
            same.inputs = index.inputs
            same.warnings = index.warnings
            same.folders = index.folders
            #expect(same == index && cut.inputs.allSatisfy { index.inputs[$0.key] == $0.value }, "\(length)")
        }
    }
}
