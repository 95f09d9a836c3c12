#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An object's body rendered to HTML (see ``StoredText``).
public typealias HTMLBody = StoredText

/// What keeps the bytes of texts restored without decoding (see
/// ``StoredText/init(utf8:check:keptBy:)``), and hears of any whose bytes no longer match
/// the check they were saved with.
public protocol StoredTextKeeper: AnyObject, Sendable {
    /// Called, from any thread, each time a text it keeps is read and its bytes do not
    /// match their check.
    func damagedTextFound()
}

/// Text an object holds: a string, or UTF-8 bytes held elsewhere that become a string only
/// when read.
///
/// A rebuild restores tens of thousands of objects from the build state and shows a few;
/// making every body a string first was a tenth of such a rebuild, and most of its memory,
/// and making every identifier one was most of what remained of decoding them. Text
/// restored without decoding points into the state's mapped bytes and keeps their owner
/// alive. Those bytes were not checked when the state was read (that would read them all),
/// so each read checks them: damaged ones are reported to their keeper, for the build to
/// start again without the state instead of showing them.
public struct StoredText: @unchecked Sendable {
    private enum Storage {
        case text(String)
        /// UTF-8 bytes, valid while `keeper` (a ``StoredTextKeeper``) lives, and their check.
        /// The keeper is held as any object, cast only to report damage: an existential
        /// would make every object's two texts eight bytes longer each.
        case bytes(UnsafeRawBufferPointer, check: UInt32, keeper: AnyObject)
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
    ///   - check: ``check(of:)`` of the bytes as they were saved; each read compares.
    ///   - keeper: Keeps `bytes` valid and unchanged for as long as it lives (the text keeps
    ///     it alive), and hears of a read whose bytes do not match `check`.
    public init(utf8 bytes: UnsafeRawBufferPointer, check: UInt32, keptBy keeper: some StoredTextKeeper) {
        storage = .bytes(bytes, check: check, keeper: keeper)
    }

    /// A 32-bit check of a text's UTF-8 bytes, saved beside them, to tell bytes damaged
    /// since from the bytes saved.
    public static func check(of utf8: UnsafeRawBufferPointer) -> UInt32 {
        var hash = ContentHash()
        hash.combine(buffer: utf8)
        return UInt32(truncatingIfNeeded: hash.value ^ (hash.value >> 32))
    }

    /// The text, as a string (made now, each time, from bytes held elsewhere).
    public var text: String {
        switch storage {
        case .text(let text): return text
        case .bytes(let bytes, let check, let keeper):
            return withExtendedLifetime(keeper) {
                Self.verify(bytes, check: check, keeper: keeper)
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// Whether the text is empty: known from its length alone, so bytes held elsewhere are
    /// not read (nor checked).
    public var isEmpty: Bool {
        switch storage {
        case .text(let text): text.isEmpty
        case .bytes(let bytes, _, _): bytes.isEmpty
        }
    }

    /// Calls `body` with the text's UTF-8 bytes, without making a string of bytes held elsewhere.
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .bytes(let bytes, let check, let keeper):
            return try withExtendedLifetime(keeper) {
                Self.verify(bytes, check: check, keeper: keeper)
                return try body(bytes)
            }
        }
    }

    private static func verify(_ bytes: UnsafeRawBufferPointer, check: UInt32, keeper: AnyObject) {
        guard Self.check(of: bytes) != check else { return }
        (keeper as? any StoredTextKeeper)?.damagedTextFound()
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
