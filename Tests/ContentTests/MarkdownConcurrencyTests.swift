import Dispatch
import GFM
import Testing

/// cmark-gfm keeps the extensions' special characters (`~`, `|`, `:`, `w`) in one global
/// table that every parse used to switch on and off; parsing on many threads then lost
/// strikethrough, tables and autolinks at random, or crashed in the table extension.
@Suite struct MarkdownConcurrencyTests {
    static let sample = """
        Dust on ~~every~~ most panels; see www.example.org and https://nasa.gov/mars.

        | Load | kW |
        | --- | ---: |
        | Thermal | 3.1 |
        | ~~ISRU~~ | 9.5 |

        - [x] brush the panels ~~twice~~
        """

    /// No `~`: parsed without the strikethrough lock, beside parses that take it.
    static let plain = """
        Links: www.example.org, https://nasa.gov/mars and <b>raw</b>.

        | Sol | Note |
        | --- | --- |
        | 12 | see www.jpl.nasa.gov |
        """

    @Test("parsing on every core gives the same HTML as parsing alone")
    func parallelParsesAgree() {
        let expected = [Self.sample, Self.plain].map { MarkdownDocument(parsing: $0).html() }
        #expect(expected[0].contains("<del>every</del>"))
        #expect(expected[0].contains("<table>"))
        #expect(expected[1].contains("href=\"http://www.jpl.nasa.gov\""))
        let rounds = 4_000
        let results = UnsafeMutableBufferPointer<Bool>.allocate(capacity: rounds)
        results.initialize(repeating: false)
        defer { results.deallocate() }
        let shared = Results(buffer: results)
        DispatchQueue.concurrentPerform(iterations: rounds) { index in
            let text = index % 2 == 0 ? Self.sample : Self.plain
            shared.buffer[index] = MarkdownDocument(parsing: text).html() == expected[index % 2]
        }
        #expect(results.filter { !$0 }.count == 0)
    }
}

private struct Results: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Bool>
}
