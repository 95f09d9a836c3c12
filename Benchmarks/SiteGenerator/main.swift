// Writes a deterministic, seeded site for benchmarks:
//   SiteGenerator DIR [--entries N] [--messages M] [--seed S] [--journal-only]
// N journal entries with realistic Markdown, M messages spread over logs of 100, one weather
// report per sol, a crew of five. The same arguments always give the same bytes.
// --journal-only writes entries alone, dated with `date:` (title, date, author), so that
// Hugo can build the same files for the side-by-side benchmark.
import Foundation
import MarsgenTesting


let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: SiteGenerator DIR [--entries N] [--messages M] [--seed S]\n".utf8))
    exit(64)
}
func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let value = Int(arguments[index + 1]) else {
        return fallback
    }
    return value
}
let root = URL(fileURLWithPath: arguments[1])
let entryCount = option("--entries", 1_000)
let journalOnly = arguments.contains("--journal-only")
let messageCount = journalOnly ? 0 : option("--messages", 0)
var random = SeededRandom(seed: UInt64(option("--seed", 2038)))
let crew = ["vega", "okoro", "lindqvist", "tanaka", "arden"]
let words = ["dust", "regolith", "panel", "oxygen", "hatch", "rover", "valley", "storm", "frost", "basalt", "greenhouse",
             "radish", "antenna", "sample", "drill", "crater", "ridge", "sunset", "battery", "airlock", "habitat", "spectra"]
// About three entries per sol, as a busy crew writes.
let solCount = max(1, entryCount / 3)

@MainActor func sentence() -> String {
    let text = (0..<(6 + random.next(10))).map { _ in words[random.next(words.count)] }.joined(separator: " ")
    return text.prefix(1).uppercased() + text.dropFirst() + "."
}
@MainActor func paragraph() -> String { (0..<(2 + random.next(4))).map { _ in sentence() }.joined(separator: " ") }
func pad(_ value: Int, _ width: Int = 2) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
func write(_ text: String, _ relative: String) {
    let url = root.appendingPathComponent(relative)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data(text.utf8).write(to: url)
}

write("""
    title: Benchmark Mission
    base_url: https://bench.example.org/
    page_size: 20
    mission:
      name: Benchmark
      landing: 2038-11-02T14:17:00Z
      longitude: -58.2
      first_sol: 1

    """, "marsgen.yml")
write(crew.map { "\($0):\n  name: \($0.prefix(1).uppercased() + $0.dropFirst()) Crew\n  role: Crew\n" }.joined(), "content/crew.yml")

for index in 0..<entryCount {
    let sol = 1 + index * solCount / max(1, entryCount)
    var body = "\(paragraph())\n\n"
    switch index % 4 {
    case 0: body += "- \(sentence())\n- \(sentence())\n- [x] \(sentence())\n\n"
    case 1: body += "| Item | Value |\n| --- | ---: |\n| \(words[random.next(words.count)]) | \(random.next(1000)) |\n| \(words[random.next(words.count)]) | \(random.next(1000)) |\n\n"
    case 2: body += "```\nstatus \(random.next(100))\nok\n```\n\n"
    default: body += "A note[^1] and *emphasis* and **strength**.\n\n[^1]: \(sentence())\n\n"
    }
    body += paragraph() + "\n"
    if journalOnly {
        // Three entries a sol, the way the sol-dated site spreads them, as Earth dates.
        let seconds = 2_172_327_420 + index * 29_591 + random.next(3_600)
        let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        write("""
            ---
            title: "Entry \(index): \(words[random.next(words.count)])"
            date: \(date)
            author: \(crew[random.next(crew.count)])
            ---
            \(body)
            """, "content/journal/\(pad(sol, 5))/entry-\(pad(index, 6)).md")
        continue
    }
    write("""
        ---
        title: "Entry \(index): \(words[random.next(words.count)])"
        author: \(crew[random.next(crew.count)])
        sol: \(sol)
        time: "\(pad(6 + random.next(14))):\(pad(random.next(60)))"
        tags: [\(words[random.next(words.count)])]
        ---
        \(body)
        """, "content/journal/\(pad(sol, 5))/entry-\(pad(index, 6)).md")
}

let perLog = 100
for log in 0..<((messageCount + perLog - 1) / perLog) {
    let sol = 1 + log * solCount / max(1, (messageCount + perLog - 1) / perLog)
    var text = "---\nchannel: log-\(log % 7)\nsol: \(sol)\n---\n"
    for message in 0..<min(perLog, messageCount - log * perLog) {
        let minute = message * 1440 / perLog
        text += "## \(pad(minute / 60)):\(pad(minute % 60)) \(crew[random.next(crew.count)])\n\(sentence())\n\n"
    }
    write(text, "content/messages/log-\(pad(log, 5)).md")
}

for sol in 1...solCount where !journalOnly {
    let temperature = -30 - random.next(50)
    write("""
        ---
        sol: \(sol)
        temperature: \(temperature)
        high: \(temperature + 25)
        low: \(temperature - 35)
        sunrise: "05:5\(random.next(10))"
        sunset: "17:5\(random.next(10))"
        condition: \(["clear", "cloudy", "dust storm", "windy", "snow", "fog"][random.next(6)])
        ---

        """, "content/weather/sol-\(pad(sol, 5)).md")
}
print("Generated \(entryCount) entries, \(messageCount) messages, \(solCount) sols in \(root.path)")
