import Diagnostics
import Foundation
@testable import Site
import Testing

@Suite("Running work on every core")
struct ParallelTests {
    @Test("parallelMap keeps the items' order and throws the first error by item order")
    func parallelMapOrder() throws {
        let items = Array(0..<5_000)
        #expect(try parallelMap(items) { $0 * 2 } == items.map { $0 * 2 })
        #expect(throws: Diagnostic.self) {
            _ = try parallelMap(items) { item throws(Diagnostic) -> Int in
                if item == 4_000 || item == 1_234 { throw Diagnostic.error("item \(item)") }
                return item
            }
        }
        do {
            _ = try parallelMap(items) { item throws(Diagnostic) -> Int in
                if item % 1_000 == 999 { throw Diagnostic.error("item \(item)") }
                return item
            }
        } catch {
            #expect(error.message == "item 999")
        }
    }

    @Test("two jobs at once each give their own result, whatever their lengths")
    func jobs() {
        for _ in 0..<50 {
            let (a, b) = inParallel({ (0..<20_000).reduce(0, +) }, { "b" })
            #expect(a == 199_990_000 && b == "b")
            let (x, y) = inParallel({ [1, 2] }, { (0..<30_000).map { $0 % 7 }.count })
            #expect(x == [1, 2] && y == 30_000)
            // Results that own memory (a class instance) arrive whole.
            let (list, text) = inParallel({ (0..<1_000).map { [$0] } }, { String(repeating: "é", count: 5_000) })
            #expect(list.count == 1_000 && list[999] == [999] && text.count == 5_000)
        }
    }

    @Test("work started in the background gives its result to every wait, before or after it ends")
    func backgroundWork() {
        for round in 0..<50 {
            let work = BackgroundWork { (0..<(round * 1_000)).reduce(0, +) }
            // Waiting once it is done, and again: the same result each time.
            let expected = (0..<(round * 1_000)).reduce(0, +)
            #expect(work.value() == expected)
            #expect(work.value() == expected)
            // Two threads waiting at once, while it runs.
            let slow = BackgroundWork { () -> [Int] in
                Thread.sleep(forTimeInterval: 0.001)
                return [round]
            }
            let (first, second) = inParallel({ slow.value() }, { slow.value() })
            #expect(first == [round] && second == [round])
        }
    }
}
