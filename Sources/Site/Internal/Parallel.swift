import Diagnostics
import Foundation

/// Runs `body` over `items` on every core and returns the results in the items' order, so
/// output never depends on scheduling. The first error (by item order) is rethrown.
///
/// Builds are CPU-bound and embarrassingly parallel per file and per page; this is the
/// only place that knows about threads.
func parallelMap<Item, Result>(_ items: [Item], _ body: (Item) throws(Diagnostic) -> Result) throws(Diagnostic) -> [Result] {
    let count = items.count
    guard count > 1, ProcessInfo.processInfo.activeProcessorCount > 1 else {
        var results: [Result] = []
        results.reserveCapacity(count)
        for item in items { results.append(try body(item)) }
        return results
    }
    // Chunks small enough to balance uneven work, large enough to keep overhead low.
    let chunkCount = min(count, ProcessInfo.processInfo.activeProcessorCount * 8)
    let slots = UnsafeMutableBufferPointer<Swift.Result<Result, Diagnostic>?>.allocate(capacity: count)
    slots.initialize(repeating: nil)
    defer {
        slots.deinitialize()
        slots.deallocate()
    }
    withoutActuallyEscaping(body) { body in
        let shared = UncheckedBox((items: items, body: body, slots: slots))
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let (items, body, slots) = shared.value
            let start = chunk * count / chunkCount
            let end = (chunk + 1) * count / chunkCount
            for index in start..<end {
                do throws(Diagnostic) {
                    slots[index] = .success(try body(items[index]))
                } catch {
                    slots[index] = .failure(error)
                    return
                }
            }
        }
    }
    var results: [Result] = []
    results.reserveCapacity(count)
    for slot in slots {
        switch slot {
        case .success(let value): results.append(value)
        case .failure(let error): throw error
        case nil: throw Diagnostic.error("internal: a parallel task did not finish")
        }
    }
    return results
}

/// Runs `first` and `second` at the same time, on two cores when there are two, and
/// returns both results.
func inParallel<First, Second>(_ first: () -> First, _ second: () -> Second) -> (First, Second) {
    guard ProcessInfo.processInfo.activeProcessorCount > 1 else { return (first(), second()) }
    // One slot per result, each initialized by one thread only: concurrentPerform returns
    // once every iteration has run, so both are then initialized.
    let firstSlot = UnsafeMutablePointer<First>.allocate(capacity: 1)
    let secondSlot = UnsafeMutablePointer<Second>.allocate(capacity: 1)
    defer {
        firstSlot.deallocate()
        secondSlot.deallocate()
    }
    withoutActuallyEscaping(first) { first in
        withoutActuallyEscaping(second) { second in
            let shared = UncheckedBox((first, second, firstSlot, secondSlot))
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let (first, second, firstSlot, secondSlot) = shared.value
                if index == 0 { firstSlot.initialize(to: first()) } else { secondSlot.initialize(to: second()) }
            }
        }
    }
    return (firstSlot.move(), secondSlot.move())
}

/// Hands values across threads where the code guarantees each slot is touched by one thread.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `second` on a thread of its own while `first` runs on this one, and returns both
/// results: for two lanes of work where the first needs, midway, a value the second makes
/// early. `second` hands it over with `hand`, exactly once, and `first` waits for it with
/// `handed`, at most once.
///
/// A thread rather than a second `concurrentPerform` iteration: those may run one after the
/// other on one thread, and the first would then wait for the second for ever.
func inTwoLanes<Handed, First, Second>(_ first: (_ handed: () -> Handed) -> First,
                                       _ second: (_ hand: (Handed) -> Void) -> Second) -> (First, Second) {
    let handedSlot = UnsafeMutablePointer<Handed>.allocate(capacity: 1)
    let secondSlot = UnsafeMutablePointer<Second>.allocate(capacity: 1)
    defer {
        handedSlot.deallocate()
        secondSlot.deallocate()
    }
    let (isHanded, isDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    return withoutActuallyEscaping(second) { second in
        // The thread holds the work through this box, which lets go of it before saying it
        // is done: `second` must not outlive this call, and the thread itself may.
        let lane = LaneWork {
            secondSlot.initialize(to: second { value in
                handedSlot.initialize(to: value)
                isHanded.signal()
            })
        }
        Thread {
            lane.run()
            isDone.signal()
        }.start()
        let firstResult = first {
            isHanded.wait()
            return handedSlot.move()
        }
        isDone.wait()
        return (firstResult, secondSlot.move())
    }
}

/// Work for a thread to run once, then let go of.
private final class LaneWork: @unchecked Sendable {
    private var work: (() -> Void)?

    init(_ work: @escaping () -> Void) {
        self.work = work
    }

    func run() {
        work?()
        work = nil
    }
}

/// Work started now on another thread, whose result a later step waits for: for work that
/// does not depend on what runs between (the templates, while the content loads on a core
/// that is otherwise often alone).
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Value?
    /// Left once `result` is set; waiting on it returns at once from then on, for every waiter.
    private let done = DispatchGroup()

    /// Starts `work` on another thread.
    init(_ work: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global().async {
            let value = work()
            self.lock.withLock { self.result = value }
            self.done.leave()
        }
    }

    /// The result, once the work is done (waiting for it until then).
    func value() -> Value {
        while true {
            if let result = lock.withLock({ result }) { return result }
            done.wait()
        }
    }
}
