import Diagnostics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a site's folders and reports each burst of saves once, after a short quiet period.
///
/// On Linux it uses inotify with one watch per folder, added as folders appear; editors'
/// atomic saves (write a temporary file, rename it over the original), deletions, renamed
/// folders and bursts such as a `git checkout` all arrive as one ``ChangeSet``. Where inotify
/// is missing, or the kernel's watch limit is reached, it scans the folders instead and says
/// why in a ``WatchEvent/notice(_:)``.
///
///     let watcher = SiteWatcher(target: target)
///     try watcher.start { event in
///         if case .changed(let changes) = event { rebuild(changes) }
///     }
///     // …
///     watcher.stop()
public final class SiteWatcher: @unchecked Sendable {
    /// How changes are being noticed.
    public enum Method: Sendable, Equatable, CustomStringConvertible {
        /// Linux's inotify.
        case inotify
        /// Scanning the folders every `interval`.
        case polling(interval: Duration)

        public var description: String {
            switch self {
            case .inotify: "inotify"
            case .polling(let interval): "polling every \(millisecondsRoundedUp(interval)) ms"
            }
        }
    }

    /// The polling interval used when polling was not asked for but is needed.
    public static let fallbackPollingInterval: Duration = .milliseconds(300)

    /// What is watched.
    public let target: WatchTarget
    /// How long nothing must change before a burst is reported.
    public let quietPeriod: Duration
    private let mode: WatchMode
    /// Test seam: pretend the kernel refuses watches after this many.
    let simulatedWatchLimit: Int?

    private let lock = NSLock()
    private var _method: Method?
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var finished: DispatchSemaphore?

    /// Creates a watcher; nothing is watched until ``start(_:)``.
    public convenience init(target: WatchTarget, mode: WatchMode = .automatic, quietPeriod: Duration = .milliseconds(50)) {
        self.init(target: target, mode: mode, quietPeriod: quietPeriod, simulatedWatchLimit: nil)
    }

    init(target: WatchTarget, mode: WatchMode, quietPeriod: Duration, simulatedWatchLimit: Int?) {
        self.target = target
        self.mode = mode
        self.quietPeriod = quietPeriod
        self.simulatedWatchLimit = simulatedWatchLimit
    }

    /// How changes are noticed, once started.
    public var method: Method? {
        lock.withLock { _method }
    }

    /// Starts watching. Every change made after this returns is reported.
    ///
    /// - Parameter handler: Called on the watcher's own thread, one call at a time: a
    ///   ``WatchEvent/notice(_:)`` when the watcher had to change how it watches, and a
    ///   ``WatchEvent/changed(_:)`` per burst of changes.
    /// - Throws: A ``Diagnostic`` when the root folder cannot be read.
    public func start(_ handler: @escaping @Sendable (WatchEvent) -> Void) throws(Diagnostic) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Diagnostic.error("cannot watch a folder that does not exist", at: SourceLocation(path: target.root))
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw Diagnostic.error("cannot start watching: \(String(cString: strerror(errno)))", at: SourceLocation(path: target.root))
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)

        let source: any ChangeSource
        var notices: [String] = []
        switch mode {
        case .polling(let interval):
            source = PollingScan(target: target, interval: interval)
        case .automatic:
            #if os(Linux)
            switch InotifyWatch.open(target: target, watchLimit: simulatedWatchLimit) {
            case .success(let watch):
                source = watch
            case .failure(let reason):
                notices.append(reason.notice(pollingEvery: Self.fallbackPollingInterval))
                source = PollingScan(target: target, interval: Self.fallbackPollingInterval)
            }
            #else
            source = PollingScan(target: target, interval: Self.fallbackPollingInterval)
            #endif
        }

        let done = DispatchSemaphore(value: 0)
        lock.withLock {
            wake = (fds[0], fds[1])
            _method = source.method
            finished = done
        }
        for notice in notices { handler(.notice(notice)) }

        let quiet = quietPeriod
        let wakeFD = fds[0]
        // The source is handed to the watcher's thread and used there alone.
        let box = SourceBox(source)
        let thread = Thread { [weak self] in
            Self.run(source: &box.source, wakeFD: wakeFD, quietPeriod: quiet, handler: handler) { method in
                self?.lock.withLock { self?._method = method }
            }
            done.signal()
        }
        thread.name = "marsgen watcher"
        thread.start()
    }

    /// Stops watching and waits until the watcher's thread has ended; no handler call is
    /// made after this returns.
    public func stop() {
        let (pipe, done) = lock.withLock { () -> ((read: Int32, write: Int32), DispatchSemaphore?) in
            defer { wake = (-1, -1); finished = nil }
            return (wake, finished)
        }
        guard pipe.write >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(pipe.write, &byte, 1)
        done?.wait()
        close(pipe.read)
        close(pipe.write)
    }

    deinit { stop() }

    /// The watcher's loop: wait for the kernel, a scan or a wake-up, gather, hand on.
    private static func run(source: inout any ChangeSource, wakeFD: Int32, quietPeriod: Duration,
                            handler: @Sendable (WatchEvent) -> Void, methodChanged: (Method) -> Void) {
        let clock = ContinuousClock()
        var coalescer = ChangeCoalescer(quietPeriod: quietPeriod)
        while true {
            let now = clock.now
            var timeout = coalescer.timeUntilDue(at: now)
            if let next = source.timeUntilNextScan(at: now) { timeout = min(timeout ?? next, next) }
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            if let fd = source.descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let result = poll(&fds, nfds_t(fds.count), timeout.map(millisecondsRoundedUp) ?? -1)
            if result < 0, errno != EINTR { return }
            if fds[0].revents != 0 { return }
            let readable = fds.count > 1 && fds[1].revents != 0
            if let fallback = source.collect(into: &coalescer, readable: readable, at: clock.now) {
                handler(.notice(fallback.notice(pollingEvery: fallbackPollingInterval)))
                source = PollingScan(target: source.target, interval: fallbackPollingInterval)
                methodChanged(source.method)
                coalescer.addOverflow(at: clock.now)
            }
            if let changes = coalescer.takeIfDue(at: clock.now) { handler(.changed(changes)) }
        }
    }
}

/// What a ``SiteWatcher`` reports.
public enum WatchEvent: Sendable, Equatable {
    /// Files changed.
    case changed(ChangeSet)
    /// The watcher changed how it watches (the kernel's watch limit was reached), and why.
    case notice(String)
}

private final class SourceBox: @unchecked Sendable {
    var source: any ChangeSource
    init(_ source: any ChangeSource) { self.source = source }
}

func millisecondsRoundedUp(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: max(0, milliseconds))
}
