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

    @Test("two or three jobs at once each give their own result, whatever their lengths")
    func jobs() {
        for _ in 0..<50 {
            let (a, b) = inParallel({ (0..<20_000).reduce(0, +) }, { "b" })
            #expect(a == 199_990_000 && b == "b")
            let (x, y, z) = inParallel({ [1, 2] }, { (0..<30_000).map { $0 % 7 }.count }, { Optional("z") })
            #expect(x == [1, 2] && y == 30_000 && z == "z")
        }
    }
}
