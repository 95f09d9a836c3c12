import Content
import Diagnostics
import Testing

/// An archetype read apart from the command: which of its lines a new entry gets.
@Suite struct EntryArchetypeTests {
    func archetype(_ text: String) throws(Diagnostic) -> Archetype {
        try Archetype(parsing: SourceFile(path: "archetypes/entry.md", text: text), form: .entry)
    }

    @Test("author, tags and draft are taken out as defaults; every other key keeps its lines, comments and nesting, with the line each is on")
    func lines() throws {
        let read = try archetype("---\n# Daily report\ntags: [report, eva]\n# about the sol\nextra:\n  eva: true\n  suits: [a, b]\nauthor: okoro\ndescription: Daily # short\ndraft: false\n---\n\n## Sol {{sol}}\n")
        #expect(read.tags == ["report", "eva"])
        #expect(read.author?.id == "okoro")
        #expect(read.author?.location == SourceLocation(path: "archetypes/entry.md", line: 8, column: 9))
        #expect(read.isDraft == false)
        // The comment above the first key stays though its key goes; the one after `tags`
        // goes with it.
        #expect(read.otherFrontMatter.map(\.text) == ["# Daily report", "extra:", "  eva: true", "  suits: [a, b]", "description: Daily # short"])
        #expect(read.otherFrontMatter.map(\.line) == [2, 5, 6, 7, 9])
        #expect(read.body == "\n## Sol {{sol}}\n")
        #expect(read.bodyFirstLine == 12)
    }

    @Test("no front matter: the whole file is the text; Windows line ends are not copied")
    func bare() throws {
        let text = try archetype("## Sol {{sol}}\n")
        #expect(text.otherFrontMatter.isEmpty && text.tags.isEmpty && text.author == nil && text.isDraft == nil)
        #expect(text.body == "## Sol {{sol}}\n" && text.bodyFirstLine == 1)
        let windows = try archetype("---\r\nextra:\r\n  a: 1\r\n---\r\nText\r\n")
        #expect(windows.otherFrontMatter.map(\.text) == ["extra:", "  a: 1"])
    }

    @Test("a page's archetype: draft, nav, template and description are defaults, an entry's author and tags other keys; title, slug and aliases its own")
    func page() throws {
        let text = "---\nnav: true\ntemplate: roster\ndescription: The rules\ndraft: false\nauthor: okoro\ntags: [a]\nweight: 5\n---\n## {{title}}\n"
        let read = try Archetype(parsing: SourceFile(path: "archetypes/page.md", text: text), form: .page)
        #expect(read.isInNavigation == true && read.isDraft == false && read.description == "The rules")
        #expect(read.template?.name == "roster" && read.template?.location == SourceLocation(path: "archetypes/page.md", line: 3, column: 11))
        #expect(read.author == nil && read.tags.isEmpty)
        #expect(read.otherFrontMatter.map(\.text) == ["author: okoro", "tags: [a]", "weight: 5"])
        // And an entry's archetype copies a page's keys as written.
        let entry = try archetype(text)
        #expect(entry.isInNavigation == nil && entry.template == nil && entry.description == nil && entry.author?.id == "okoro")
        #expect(entry.otherFrontMatter.map(\.text) == ["nav: true", "template: roster", "description: The rules", "weight: 5"])
        for key in ["title", "slug", "aliases"] {
            let error = #expect(throws: Diagnostic.self) {
                try Archetype(parsing: SourceFile(path: "archetypes/page.md", text: "---\n\(key): x\n---\n"), form: .page)
            }
            #expect(error?.message == "'\(key)' is each page's own: an archetype may not set it")
        }
    }

    @Test("each of an entry's own keys is refused at its line", arguments: ["title", "sol", "time", "date", "slug", "aliases"])
    func ownKeys(key: String) throws {
        let error = #expect(throws: Diagnostic.self) { try archetype("---\nextra:\n  a: 1\n\(key): x\n---\n") }
        #expect(error?.location == SourceLocation(path: "archetypes/entry.md", line: 4, column: 1))
        #expect(error?.message == "'\(key)' is each entry's own: an archetype may not set it")
    }
}
