import Content
import Foundation

/// The texts of one chunk file of a loaded state (objects' bodies and identifiers), which
/// are checked as they are read rather than when the state is (see ``StoredText``): keeps
/// the mapped file alive, and reports a text found damaged for the state's chunk folder.
final class ChunkTexts: StoredTextKeeper, @unchecked Sendable {
    let file: FileSystem.MappedFile
    /// The folder of the state's chunk files (see ``BuildState/chunkDirectory(forState:)``).
    let folder: String

    init(_ file: FileSystem.MappedFile, folder: String) {
        (self.file, self.folder) = (file, folder)
    }

    func damagedTextFound() {
        DamagedTexts.report(in: folder)
    }
}

/// The chunk folders of states in which a text was read damaged, until a build of the
/// site asks (see ``take(in:)``). Kept by folder, not by state: under `watch`, objects
/// restored by one build's load live on through later builds, whose states are others.
enum DamagedTexts {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: Set<String> = []

    static func report(in folder: String) {
        lock.withLock { _ = folders.insert(folder) }
    }

    /// Whether a text of a state whose chunks are in `folder` was read damaged since the
    /// last time this was asked.
    static func take(in folder: String) -> Bool {
        lock.withLock { folders.remove(folder) != nil }
    }
}
