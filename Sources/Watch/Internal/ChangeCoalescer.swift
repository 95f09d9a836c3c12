/// Gathers the changes of a burst (an editor's write-rename-delete, a `git checkout` of 500
/// files) and hands them on as one ``ChangeSet`` once nothing has changed for a quiet period.
///
/// A steady trickle of changes (a log appended to every few milliseconds) is not allowed to
/// hold the set back forever: after `longestWait` it is handed on anyway.
struct ChangeCoalescer {
    let quietPeriod: Duration
    let longestWait: Duration
    private var paths: Set<String> = []
    private var isOverflow = false
    private var firstChange: ContinuousClock.Instant?
    private var lastChange: ContinuousClock.Instant?

    init(quietPeriod: Duration, longestWait: Duration = .seconds(1)) {
        self.quietPeriod = quietPeriod
        self.longestWait = max(longestWait, quietPeriod)
    }

    var isEmpty: Bool { paths.isEmpty && !isOverflow }

    mutating func add(_ path: String, at now: ContinuousClock.Instant) {
        paths.insert(path)
        noteChange(at: now)
    }

    mutating func addOverflow(at now: ContinuousClock.Instant) {
        isOverflow = true
        noteChange(at: now)
    }

    private mutating func noteChange(at now: ContinuousClock.Instant) {
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    /// How long from `now` until the set is due, or nil when there is nothing to hand on.
    func timeUntilDue(at now: ContinuousClock.Instant) -> Duration? {
        guard !isEmpty, let firstChange, let lastChange else { return nil }
        let due = min(lastChange + quietPeriod, firstChange + longestWait)
        return max(.zero, due - now)
    }

    /// The gathered set when it is due, emptying the coalescer; nil otherwise.
    mutating func takeIfDue(at now: ContinuousClock.Instant) -> ChangeSet? {
        guard let wait = timeUntilDue(at: now), wait == .zero else { return nil }
        let set = ChangeSet(paths: paths.sorted(), isOverflow: isOverflow)
        paths = []
        isOverflow = false
        firstChange = nil
        lastChange = nil
        return set
    }
}
