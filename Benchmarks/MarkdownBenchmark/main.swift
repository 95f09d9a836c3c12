// marsgen's Markdown stage on its own, for the side-by-side benchmark:
//   MarkdownBenchmark SITE BODIES_OUT
// Reads every journal entry under SITE/content/journal, splits off the front matter, and
// writes the bodies, concatenated, to BODIES_OUT (the input for the cmark-gfm CLI). Then
// it parses and renders each body with marsgen's GFM module on one thread, as the CLI does,
// and prints the best of five runs in milliseconds.
import Content
import Foundation
import GFM

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: MarkdownBenchmark SITE BODIES_OUT\n".utf8))
    exit(64)
}
let journal = URL(fileURLWithPath: arguments[1]).appendingPathComponent("content/journal")
var paths: [String] = []
if let walker = FileManager.default.enumerator(atPath: journal.path) {
    while let relative = walker.nextObject() as? String {
        if relative.hasSuffix(".md") { paths.append(journal.appendingPathComponent(relative).path) }
    }
}
var bodies: [String] = []
for path in paths.sorted() {
    guard let data = FileManager.default.contents(atPath: path),
          let file = try? SourceFile(path: path, bytes: [UInt8](data)),
          let matter = try? FrontMatter(splitting: file) else { continue }
    bodies.append(matter.body)
}
try Data(bodies.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: arguments[2]))

let clock = ContinuousClock()
var best = Duration.seconds(1_000)
var bytes = 0
for _ in 0..<5 {
    bytes = 0
    let elapsed = clock.measure {
        for body in bodies {
            let options = MarkdownOptions(footnotePrefix: "e1-", headingIDPrefix: "e1:")
            bytes += MarkdownDocument(parsing: body, options: options).html().utf8.count
        }
    }
    best = min(best, elapsed)
}
let (seconds, attoseconds) = best.components
print(String(format: "%.1f", Double(seconds) * 1000 + Double(attoseconds) / 1e15), bodies.count, bytes)
