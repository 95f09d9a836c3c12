import Foundation

/// One way of noticing changes: the kernel's notifications or a scan.
protocol ChangeSource {
    var target: WatchTarget { get }
    var method: SiteWatcher.Method { get }
    /// A descriptor that becomes readable when there is news, if the source has one.
    var descriptor: Int32? { get }
    /// How long until the source wants to scan again, if it scans.
    func timeUntilNextScan(at now: ContinuousClock.Instant) -> Duration?
    /// Adds what changed to `coalescer`. Returns a reason when the source can no longer
    /// watch and polling must take over.
    mutating func collect(into coalescer: inout ChangeCoalescer, readable: Bool, at now: ContinuousClock.Instant) -> FallbackReason?
}

/// Why the kernel's notifications cannot be used.
enum FallbackReason: Error, Equatable {
    /// `fs.inotify.max_user_watches` is reached.
    case watchLimit
    /// `fs.inotify.max_user_instances` is reached.
    case instanceLimit
    /// Anything else, with the system's words.
    case unavailable(String)

    func notice(pollingEvery interval: Duration) -> String {
        let every = "\(millisecondsRoundedUp(interval)) ms"
        switch self {
        case .watchLimit:
            let limit = Self.kernelSetting("max_user_watches").map { " (\($0))" } ?? ""
            return "the kernel's limit on inotify watches\(limit) is reached; watching by polling every \(every) instead\n"
                + "  hint: raise it with 'sudo sysctl fs.inotify.max_user_watches=524288' "
                + "(add 'fs.inotify.max_user_watches=524288' to /etc/sysctl.conf to keep it)"
        case .instanceLimit:
            let limit = Self.kernelSetting("max_user_instances").map { " (\($0))" } ?? ""
            return "the kernel's limit on inotify instances\(limit) is reached; watching by polling every \(every) instead\n"
                + "  hint: close other watchers, or raise it with 'sudo sysctl fs.inotify.max_user_instances=512'"
        case .unavailable(let reason):
            return "inotify is unavailable (\(reason)); watching by polling every \(every) instead"
        }
    }

    private static func kernelSetting(_ name: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/\(name)", encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
