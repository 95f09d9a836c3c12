// marsgen's fuzzer. Two ways to run it:
//
// - With libFuzzer (make fuzz, make fuzz-test): built with -sanitize=fuzzer,address and
//   -DMARSGEN_LIBFUZZER, it hands its arguments to libFuzzer's driver (corpus folder,
//   -max_total_time=…); libFuzzer mutates with coverage feedback and stops at the first
//   crash, leaving the input as crash-… for replay.
// - Without (any toolchain): a seeded random-input harness that runs every corpus file and
//   then mutations of them for the given time: MarsgenFuzz CORPUS [-max_total_time=S] [-seed=N].
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MarsgenTesting

#if MARSGEN_LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// libFuzzer's entry point (its driver also looks it up by name).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
#else
let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String) -> Int? {
    arguments.first { $0.hasPrefix("-\(name)=") }.flatMap { Int($0.dropFirst(name.count + 2)) }
}
let seconds = option("max_total_time") ?? 30
let seed = UInt64(option("seed") ?? 452)
var corpus: [[UInt8]] = []
for folder in arguments where !folder.hasPrefix("-") {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names.sorted() {
        if let data = FileManager.default.contents(atPath: folder + "/" + name) { corpus.append([UInt8](data)) }
    }
}
if corpus.isEmpty { corpus = [Array("---\nsol: 1\n---\n## 10:00 vega\nHi\n".utf8)] }
for input in corpus { FuzzTarget.run(input) }

// Mutations of the kinds that break parsers: bytes flipped, inserted, deleted, runs
// duplicated, pieces of other inputs spliced in, and the tokens the readers look for.
let tokens = ["---", "\n", "## ", "Sol ", ":", "-", "T", "Z", "+05:30", "\"", "'", "[", "{", "\t", "24:39", "\u{FEFF}", "\r\n",
              "9999", "-0", ".5", "é", "\u{0}"].map { Array($0.utf8) }
var random = SeededRandom(seed: seed)
let deadline = ContinuousClock.now + .seconds(seconds)
var runs = 0
while ContinuousClock.now < deadline {
    var input = corpus[random.next(corpus.count)]
    for _ in 0..<(1 + random.next(8)) {
        let position = input.isEmpty ? 0 : random.next(input.count + 1)
        switch random.next(6) {
        case 0 where !input.isEmpty: input[min(position, input.count - 1)] ^= UInt8(1 << random.next(8))
        case 1: input.insert(UInt8(random.next(256)), at: position)
        case 2 where !input.isEmpty: input.removeSubrange(position..<min(input.count, position + 1 + random.next(16)))
        case 3: input.insert(contentsOf: tokens[random.next(tokens.count)], at: position)
        case 4:
            let other = corpus[random.next(corpus.count)]
            let start = other.isEmpty ? 0 : random.next(other.count)
            input.insert(contentsOf: other[start..<min(other.count, start + random.next(64))], at: position)
        default:
            let start = input.isEmpty ? 0 : random.next(input.count)
            input.insert(contentsOf: input[start..<min(input.count, start + random.next(32))], at: position)
        }
    }
    FuzzTarget.run(input)
    runs += 1
}
print("MarsgenFuzz: \(corpus.count) corpus inputs and \(runs) mutations in \(seconds) s (seed \(seed)), no crash")
#endif
