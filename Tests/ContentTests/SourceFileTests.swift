import Content
import Diagnostics
import GFM
import Testing

@Suite struct SourceFileTests {
    @Test("a UTF-8 byte order mark is dropped")
    func byteOrderMark() throws {
        let file = try SourceFile(path: "a.md", bytes: [0xEF, 0xBB, 0xBF] + Array("---\ntitle: x\n---\n".utf8))
        #expect(file.text.hasPrefix("---"))
    }

    @Test("CRLF and CR line endings become LF")
    func lineEndings() throws {
        let file = try SourceFile(path: "a.md", bytes: Array("a\r\nb\rc\n".utf8))
        #expect(file.text == "a\nb\nc\n")
        // A carriage return followed by a combining mark is a line ending too.
        #expect(try SourceFile(path: "a.md", bytes: Array("---\rtitle: x\r---\r\u{301}body".utf8)).text == "---\ntitle: x\n---\n\u{301}body")
        #expect(SourceFile(path: "a.md", text: "a\r\u{301}").text == "a\n\u{301}")
    }

    @Test("invalid UTF-8 is reported at its line and column")
    func invalidUTF8() {
        let bytes = Array("line one\nab".utf8) + [0xC3, 0x28] + Array(" rest\n".utf8)
        let error = expectDiagnostic { _ = try SourceFile(path: "content/journal/x.md", bytes: bytes) }
        #expect(error?.headline == "content/journal/x.md:2:3: error: the file is not valid UTF-8")
        #expect(error?.hint != nil)
    }

    @Test("a control character that no page or feed can carry is an error at its line and column")
    func controlCharacters() throws {
        let bell = expectDiagnostic { _ = try SourceFile(path: "content/journal/x.md", bytes: Array("---\ntitle: x\n---\nA \u{7}bell\n".utf8)) }
        #expect(bell?.headline == "content/journal/x.md:4:3: error: the file holds a control character (U+0007), which web pages and feeds cannot carry")
        #expect(bell?.hint?.contains("^G") == true)
        let c1 = expectDiagnostic { _ = try SourceFile(path: "x.md", bytes: Array("It\u{92}s\n".utf8)) }
        #expect(c1?.headline == "x.md:1:3: error: the file holds a control character (U+0092), which web pages and feeds cannot carry")
        #expect(c1?.hint?.contains("Windows-1252") == true)
        #expect(expectDiagnostic { _ = try SourceFile(path: "x.md", bytes: Array("a\u{7F}".utf8)) }?.hint?.contains("^?") == true)
        // Tabs, form feeds, and the characters after U+009F (a no-break space, é) are text.
        let text = "\tTab,\u{C}form feed, \u{A0}no-break, é, °\n"
        #expect(try SourceFile(path: "x.md", bytes: Array(text.utf8)).text == text)
    }

    @Test("a noncharacter is an error at its line and column, with a hint for a reversed byte-order mark")
    func noncharacters() throws {
        let reversed = expectDiagnostic { _ = try SourceFile(path: "a.md", bytes: [0xEF, 0xBF, 0xBE] + Array("---\n".utf8)) }
        #expect(reversed?.headline == "a.md:1:1: error: the file holds the noncharacter U+FFFE, which web pages and feeds cannot carry")
        #expect(reversed?.hint?.contains("byte-order mark") == true)
        let last = expectDiagnostic { _ = try SourceFile(path: "a.md", bytes: Array("ok\né ".utf8) + [0xF4, 0x8F, 0xBF, 0xBF]) }
        #expect(last?.headline == "a.md:2:3: error: the file holds the noncharacter U+10FFFF, which web pages and feeds cannot carry")
        #expect(expectDiagnostic { _ = try SourceFile(path: "a.md", bytes: [0xEF, 0xB7, 0x90]) }?.message.contains("U+FDD0") == true)
        // A byte-order mark in the right order is dropped; elsewhere it is a zero-width no-break space.
        #expect(try SourceFile(path: "a.md", bytes: [0xEF, 0xBB, 0xBF] + Array("a\u{FEFF}b\u{FFFD}".utf8)).text == "a\u{FEFF}b\u{FFFD}")
    }

    @Test("the forbidden code points, and their neighbours that are text", arguments: [
        (0x0, true), (0x1B, true), (0x7F, true), (0x80, true), (0x9F, true), (0xFDD0, true), (0xFDEF, true), (0xFFFE, true),
        (0xFFFF, true), (0x1FFFE, true), (0xEFFFF, true), (0x10FFFF, true),
        (0x9, false), (0xA, false), (0xD, false), (0xC, false), (0xA0, false), (0xFDCF, false), (0xFDF0, false), (0xFFFD, false),
        (0xFEFF, false), (0x1FFFD, false), (0x10FFFD, false), (0x1F600, false),
    ] as [(UInt32, Bool)])
    func forbiddenCodePoints(value: UInt32, isForbidden: Bool) throws {
        // Swift's string literals refuse some noncharacters, hence the scalars.
        var text = "a" + String(Character(try #require(Unicode.Scalar(value)))) + "b"
        let found = text.withUTF8 { ForbiddenCodePoints.firstOffset(in: UnsafeRawBufferPointer($0)) }
        #expect(found == (isForbidden ? 1 : nil))
        let replaced = text.withUTF8 { ForbiddenCodePoints.replaced(in: UnsafeRawBufferPointer($0)) }
        #expect(replaced.map { String(decoding: $0, as: UTF8.self) } == (isForbidden ? "a\u{FFFD}b" : nil))
    }

    @Test("a numeric character reference to a forbidden code point renders as U+FFFD")
    func characterReferences() {
        #expect(MarkdownDocument(parsing: "a &#1; b &#x85; c &#xFDD0; d &#xFFFF; e &#x1FFFF; f &#12; g &#xE9;\n").html()
            == "<p>a \u{FFFD} b \u{FFFD} c \u{FFFD} d \u{FFFD} e \u{FFFD} f \u{C} g é</p>\n")
    }

    @Test("a binary file is refused")
    func binary() {
        let error = expectDiagnostic { _ = try SourceFile(path: "x.md", bytes: [0x89, 0x50, 0x4E, 0x47, 0x00, 0x01]) }
        #expect(error?.message.contains("binary") == true)
    }
}

@Suite struct FrontMatterTests {
    @Test("front matter and body are split, with the body's first line")
    func split() throws {
        let matter = try FrontMatter(splitting: SourceFile(path: "a.md", text: "---\ntitle: Hi\nsol: 3\n---\nBody\n"))
        #expect(try matter.fields.string("title") == "Hi")
        #expect(try matter.fields.int("sol") == 3)
        #expect(matter.body == "Body\n")
        #expect(matter.bodyFirstLine == 5)
        #expect(matter.fields.location(of: "sol").line == 3)
        #expect(matter.fields.location(of: "sol").column == 6)
    }

    @Test("front matter that is never closed is an error at line 1")
    func unclosed() {
        let error = expectDiagnostic { _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: "---\ntitle: Hi\nBody\n")) }
        #expect(error?.headline == "a.md:1:1: error: front matter is never closed")
    }

    @Test("an empty file and a file without front matter are errors")
    func missing() {
        #expect(expectDiagnostic { _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: "")) }?.message == "the file is empty")
        #expect(expectDiagnostic { _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: "# Hi\n")) }?.message
                == "missing front matter")
    }

    @Test("TOML front matter, as Hugo and Zola write it, is named as such, with its first field in YAML")
    func tomlFrontMatter() {
        let toml = "+++\n# a comment\ntitle = \"Day three\"\nsol = 3\n+++\nWalked.\n"
        let error = expectDiagnostic { _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: toml)) }
        #expect(error?.headline == "a.md:1:1: error: the front matter is TOML ('+++' lines, as Hugo and Zola write it); marsgen reads YAML")
        #expect(error?.hint == "put the fields between two '---' lines, each written 'key: value' (title: \"Day three\")")
        // None to show: the hint alone.
        let bare = expectDiagnostic { _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: "+++ \n+++\nText\n")) }
        #expect(bare?.hint == "put the fields between two '---' lines, each written 'key: value'")
        func hint(_ text: String) -> String? {
            expectDiagnostic { _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: text)) }?.hint
        }
        #expect(hint("+++\n[extra]\nkey with space = 1\nsol=3\n+++\n")?.hasSuffix("'key: value' (sol: 3)") == true)
        #expect(hint("+++\n+++\ntitle = \"After\"\n") == "put the fields between two '---' lines, each written 'key: value'")
    }

    @Test("malformed YAML is reported at its line in the file, not in the block")
    func malformedYAML() {
        let error = expectDiagnostic {
            _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: "---\ntitle: ok\nauthor: [vega\n---\nBody\n"))
        }
        #expect(error?.location?.path == "a.md")
        #expect((error?.location?.line ?? 0) >= 3)
        #expect(error?.message.hasPrefix("invalid YAML") == true)
    }

    @Test("tabs in YAML get a hint about indentation")
    func tabs() {
        let error = expectDiagnostic {
            _ = try FrontMatter(splitting: SourceFile(path: "a.md", text: "---\nmission:\n\tname: x\n---\n"))
        }
        #expect(error?.location?.line == 3)
        #expect(error?.hint?.contains("tabs") == true)
    }

    @Test("a file of only front matter has an empty body")
    func onlyFrontMatter() throws {
        let matter = try FrontMatter(splitting: SourceFile(path: "a.md", text: "---\ntitle: x\n---"))
        #expect(matter.body.isEmpty)
    }
}
