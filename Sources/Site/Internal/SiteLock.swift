#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Diagnostics
import Foundation

/// One build at a time per site: an exclusive `flock` on `.marsgen/lock`, which holds the
/// owner's pid so a waiting build can say whom it waits for.
///
/// The kernel drops the lock when its owner exits, however it exits (SIGKILL included), so
/// a killed build never leaves a stale lock behind.
final class SiteLock {
    private let descriptor: Int32

    /// Takes the lock of the site at `siteRoot`, waiting for the build that holds it.
    ///
    /// - Parameter waiting: Called once, with the holder's pid when known, if the lock is busy.
    static func acquire(siteRoot: String, waiting: (Int32?) -> Void) throws(Diagnostic) -> SiteLock {
        let directory = SitePaths.join(siteRoot, ".marsgen")
        let path = SitePaths.join(directory, "lock")
        do {
            try FileSystem.createDirectories(directory)
        } catch {
            throw Diagnostic.error("cannot create the build state folder: \(error)", at: SourceLocation(path: directory),
                                   hint: "check that the site folder is writable")
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Diagnostic.error("cannot open the build lock: \(String(cString: strerror(errno)))",
                                   at: SourceLocation(path: path), hint: "check that the site folder is writable")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            waiting(holder(descriptor))
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    throw Diagnostic.error("cannot take the build lock: \(String(cString: strerror(errno)))",
                                           at: SourceLocation(path: path))
                }
            }
        }
        // The pid is information for the next build that waits, not the lock itself.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return SiteLock(descriptor: descriptor)
    }

    /// Whether the build state folder of the site at `siteRoot` cannot be written: a site
    /// mounted read-only into a container, or checked out by another user. Such a site is
    /// still built, in full each time, without a lock or a state.
    static func isReadOnly(siteRoot: String) -> Bool {
        let directory = SitePaths.join(siteRoot, ".marsgen")
        var info = stat()
        let target = stat(directory, &info) == 0 ? directory : siteRoot
        return access(target, W_OK | X_OK) != 0 && (errno == EACCES || errno == EROFS || errno == EPERM)
    }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }

    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
