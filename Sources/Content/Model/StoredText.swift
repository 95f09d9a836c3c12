#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An object's body rendered to HTML (see ``StoredText``).
public typealias HTMLBody = StoredText

/// Text an object holds: a string, or UTF-8 bytes held elsewhere that become a string only
/// when read.
///
/// A rebuild restores tens of thousands of objects from the build state and shows a few;
/// making every body a string first was a tenth of such a rebuild, and most of its memory,
/// and making every identifier one was most of what remained of decoding them. Text
/// restored without decoding points into the state's mapped bytes and keeps their owner
/// alive.
public struct StoredText: @unchecked Sendable {
    private enum Storage {
        case text(String)
        /// UTF-8 bytes, valid while `owner` lives.
        case bytes(UnsafeRawBufferPointer, owner: AnyObject)
    }

    private let storage: Storage

    /// Text that is already a string.
    public init(_ text: String) {
        storage = .text(text)
    }

    /// Text read from `bytes` when asked for.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 text (invalid sequences read as U+FFFD, as `String(decoding:as:)` does).
    ///   - owner: Keeps `bytes` valid and unchanged for as long as it lives; the text keeps
    ///     it alive.
    public init(utf8 bytes: UnsafeRawBufferPointer, keptBy owner: AnyObject) {
        storage = .bytes(bytes, owner: owner)
    }

    /// The text, as a string (made now, each time, from bytes held elsewhere).
    public var text: String {
        switch storage {
        case .text(let text): return text
        case .bytes(let bytes, let owner): return withExtendedLifetime(owner) { String(decoding: bytes, as: UTF8.self) }
        }
    }

    /// Calls `body` with the text's UTF-8 bytes, without making a string of bytes held elsewhere.
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .bytes(let bytes, let owner): return try withExtendedLifetime(owner) { try body(bytes) }
        }
    }
}

extension StoredText: Equatable {
    /// Equal when the text is: compared as bytes, so neither side is decoded.
    public static func == (lhs: StoredText, rhs: StoredText) -> Bool {
        if case .text(let left) = lhs.storage, case .text(let right) = rhs.storage { return left == right }
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                guard left.count == right.count else { return false }
                guard let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return true }
                return memcmp(leftStart, rightStart, left.count) == 0
            }
        }
    }
}
