import Foundation

/// The last build's state, kept in memory by a process that builds one site again and again
/// (`marsgen watch` and `marsgen serve`), so a rebuild need not read it back from disk.
///
/// It is only a shortcut: a build uses it when the index on disk names the very state it
/// holds (by token), so a build made meanwhile by another marsgen process is never missed.
/// The state is still saved to disk after every build.
public final class BuildMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var remembered: BuildState?

    /// Creates an empty memory; the first build reads the state from disk.
    public init() {}

    /// The state remembered, when it is the one named by `token`.
    func state(token: String) -> BuildState? {
        lock.withLock { remembered?.token == token ? remembered : nil }
    }

    /// Remembers the state a build has just saved.
    func remember(_ state: BuildState) {
        lock.withLock { remembered = state }
    }
}
