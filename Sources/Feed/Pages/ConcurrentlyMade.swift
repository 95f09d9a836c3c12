import Dispatch

/// `make(0)`, `make(1)`, … `make(count - 1)`, made on every core, in index order whatever
/// finishes first: what the planner splits its work with (groups of pages, the search
/// index's documents).
func concurrentlyMade<Value>(_ count: Int, _ make: (Int) -> Value) -> [Value] {
    let made = UnsafeMutableBufferPointer<Value?>.allocate(capacity: count)
    made.initialize(repeating: nil)
    defer {
        made.deinitialize()
        made.deallocate()
    }
    withoutActuallyEscaping(make) { make in
        // Each index is written by one iteration alone.
        nonisolated(unsafe) let slots = made
        nonisolated(unsafe) let make = make
        DispatchQueue.concurrentPerform(iterations: count) { index in slots[index] = make(index) }
    }
    return made.compactMap { $0 }
}
