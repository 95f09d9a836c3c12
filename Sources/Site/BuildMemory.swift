import Dispatch
import Foundation

/// The last build's state, kept in memory by a process that builds one site again and again
/// (`marsgen watch` and `marsgen serve`), so a rebuild need not read it back from disk.
///
/// It is only a shortcut: a build uses it when the index on disk names the very state it
/// holds (by token), so a build made meanwhile by another marsgen process is never missed.
///
/// The state is still saved to disk after every build, but off the build's path: the
/// build hands it over and returns as soon as its pages are in place, and the next build
/// waits until that save is done (see ``waitForSave()``). Until then no index exists on
/// disk, so a process killed meanwhile leaves a full build for next time, never a wrong one.
public final class BuildMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var remembered: BuildState?
    private var saveProblem: String?
    private let saves = DispatchQueue(label: "marsgen.build-state-save")

    /// Creates an empty memory; the first build reads the state from disk.
    public init() {}

    /// The state remembered, when it is the one named by `token`.
    func state(token: String) -> BuildState? {
        lock.withLock { remembered?.token == token ? remembered : nil }
    }

    /// Remembers `state` and runs `save` (which writes it and returns it as written, with
    /// the chunks the next save can reuse) in the background.
    func remember(_ state: BuildState, savingWith save: @escaping @Sendable (BuildState) -> BuildState) {
        lock.withLock { remembered = state }
        saves.async { [self] in
            let saved = save(state)
            lock.withLock { if remembered?.token == saved.token { remembered = saved } }
        }
    }

    /// Records why a save in the background failed, for the next build to report.
    func recordSaveProblem(_ problem: String) {
        lock.withLock {
            saveProblem = problem
            remembered = nil
        }
    }

    /// Why the last save in the background failed, once.
    func takeSaveProblem() -> String? {
        lock.withLock {
            defer { saveProblem = nil }
            return saveProblem
        }
    }

    /// Returns once the last state handed over is on disk (or could not be saved).
    public func waitForSave() {
        saves.sync {}
    }
}
