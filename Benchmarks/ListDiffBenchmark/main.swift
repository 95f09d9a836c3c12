// Times listDiff on 100,000 objects with string identifiers beside Swift's own
// CollectionDifference (Myers) on the same input. Prints figures; asserts nothing.
import Foundation
import ListDiff
import MarsgenTesting

struct Object: Diffable, Hashable {
    let id: String
    let revision: Int
    var diffIdentifier: String { id }
}


func makeLists(count: Int, changes: Int) -> (old: [Object], new: [Object]) {
    var random = SeededRandom(seed: 2038)
    let old = (0..<count).map { Object(id: "journal:content/journal/entry-\($0).md", revision: 0) }
    var new = old
    for _ in 0..<changes {
        switch random.next() % 4 {
        case 0: new.remove(at: Int(random.next() % UInt64(new.count)))
        case 1: new.insert(Object(id: "message:new-\(random.next())", revision: 0), at: Int(random.next() % UInt64(new.count)))
        case 2:
            let index = Int(random.next() % UInt64(new.count))
            new[index] = Object(id: new[index].id, revision: 1)
        default:
            let object = new.remove(at: Int(random.next() % UInt64(new.count)))
            new.insert(object, at: Int(random.next() % UInt64(new.count)))
        }
    }
    return (old, new)
}

func median(runs: Int, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        body()
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    return samples.sorted()[runs / 2]
}

func format(_ milliseconds: Double) -> String {
    let tenths = Int((milliseconds * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) ms"
}

// `ListDiffBenchmark --profile` runs only listDiff on 100,000 objects, for a profiler.
if CommandLine.arguments.contains("--profile") {
    let (old, new) = makeLists(count: 100_000, changes: 1_000)
    var sink = 0
    for _ in 0..<5 { sink &+= listDiff(old: old, new: new).moves.count }
    print(sink)
    exit(0)
}

print("| objects | changes | listDiff (median of 11) | CollectionDifference (median of 5) |")
print("| ---: | ---: | ---: | ---: |")
for (count, changes) in [(10_000, 100), (100_000, 1_000), (100_000, 10_000)] {
    let (old, new) = makeLists(count: count, changes: changes)
    var sink = 0
    let ours = median(runs: 11) { sink &+= listDiff(old: old, new: new).moves.count }
    let theirs = median(runs: 5) { sink &+= new.difference(from: old).count }
    print("| \(count) | \(changes) | \(format(ours)) | \(format(theirs)) |\(sink == -1 ? " " : "")")
}
