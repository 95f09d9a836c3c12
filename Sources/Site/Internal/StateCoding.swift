import Content
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The binary form of the build state: unsigned LEB128 integers (signed ones zigzag-mapped
/// first), hashes and doubles as eight little-endian bytes, strings as a length then UTF-8
/// bytes.
///
/// The state of a large site holds tens of thousands of parsed objects and is read by every
/// build that has something to do; `JSONDecoder` spent a second on it at 60,000 objects.
/// This form reads in a few tens of milliseconds and has no field names to look up.
struct StateWriter {
    private(set) var bytes: [UInt8] = []
    /// The bytes of the texts written with ``write(text:)-(UnsafeRawBufferPointer)``, when
    /// this writer keeps them apart (see ``init(capacity:separatingTexts:)``).
    private(set) var texts: [UInt8] = []
    private let separatesTexts: Bool
    /// The values met so far that repeat from record to record (see ``RepeatedFields``).
    var repeated = RepeatedFields()

    /// A writer; one `separatingTexts` keeps long texts (objects' bodies and identifiers)
    /// after everything else, for ``separatedBytes``.
    init(capacity: Int = 1 << 16, separatingTexts: Bool = false) {
        bytes.reserveCapacity(capacity)
        separatesTexts = separatingTexts
    }

    /// What a writer that separates texts wrote, as one run of bytes: the length of the
    /// rest and its hash (eight bytes each), the rest, then the texts. A reader of the rest
    /// that decodes each record need not touch the texts, most of the bytes, which stay on
    /// disk until a page shows them (see ``StateReader/init(separated:owner:)``); the hash
    /// lets it tell damaged records from the records written.
    var separatedBytes: [UInt8] {
        var whole = StateWriter(capacity: 16 + bytes.count + texts.count)
        whole.write(fixed: UInt64(bytes.count))
        whole.write(fixed: bytes.withUnsafeBytes { Self.checkHash($0) })
        whole.bytes += bytes
        whole.bytes += texts
        return whole.bytes
    }

    /// The hash that tells damaged bytes from those written: of a chunk's records (see
    /// ``separatedBytes``), of the state file, the rows file and the index, each of which
    /// ends with it.
    ///
    /// Every build checks about 3 MB this way, so the bytes go through four lanes, eight
    /// bytes each per step: one lane's steps wait on each other (a multiplication each), four
    /// lanes' do not, which makes it four times as fast as ``ContentHash``'s one lane. Each
    /// lane and the fold take ``ContentHash``'s step, a bijection of the lane for a given
    /// word, so one word changed always changes the hash.
    static func checkHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var lanes = checkSeeds
        let end = stepBlocks(&lanes, over: bytes, from: 0)
        return finishCheck(lanes, rest: UnsafeRawBufferPointer(rebasing: bytes[end...]), count: bytes.count)
    }

    /// ``checkHash(_:)`` of the bytes of `pieces` one after another, without first copying
    /// them into one buffer (a megabyte of fresh memory for the index of a large site).
    static func checkHash<Piece: ContiguousBytes>(pieces: [Piece]) -> UInt64 {
        var lanes = checkSeeds
        /// The bytes of a block that a piece ended in the middle of.
        var carried: [UInt8] = []
        carried.reserveCapacity(32)
        var count = 0
        for piece in pieces {
            piece.withUnsafeBytes { piece in
                count += piece.count
                var offset = 0
                if !carried.isEmpty {
                    offset = min(32 - carried.count, piece.count)
                    carried.append(contentsOf: piece[..<offset])
                    guard carried.count == 32 else { return }
                    _ = carried.withUnsafeBytes { stepBlocks(&lanes, over: $0, from: 0) }
                    carried.removeAll(keepingCapacity: true)
                }
                offset = stepBlocks(&lanes, over: piece, from: offset)
                carried.append(contentsOf: piece[offset...])
            }
        }
        return carried.withUnsafeBytes { finishCheck(lanes, rest: $0, count: count) }
    }

    private typealias CheckLanes = (UInt64, UInt64, UInt64, UInt64)
    private static let checkSeeds: CheckLanes = (0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344,
                                                 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89)

    /// Steps the lanes over each whole block of 32 bytes of `bytes` from `offset`; returns
    /// where the blocks end.
    @inline(__always)
    private static func stepBlocks(_ lanes: inout CheckLanes, over bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
        @inline(__always) func word(at offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var offset = offset
        while offset + 32 <= bytes.count {
            lanes.0 = ContentHash.step(lanes.0, word(at: offset))
            lanes.1 = ContentHash.step(lanes.1, word(at: offset + 8))
            lanes.2 = ContentHash.step(lanes.2, word(at: offset + 16))
            lanes.3 = ContentHash.step(lanes.3, word(at: offset + 24))
            offset += 32
        }
        return offset
    }

    /// The lanes folded into one, then `rest` (what is left after the last whole block) and
    /// the count of bytes hashed.
    @inline(__always)
    private static func finishCheck(_ lanes: CheckLanes, rest: UnsafeRawBufferPointer, count: Int) -> UInt64 {
        var hash = ContentHash.step(ContentHash.step(ContentHash.step(lanes.0, lanes.1), lanes.2), lanes.3)
        var offset = 0
        while offset + 8 <= rest.count {
            hash = ContentHash.step(hash, UInt64(littleEndian: rest.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        hash = ContentHash.step(hash, ContentHash.tailWord(of: rest, from: offset))
        return ContentHash.step(hash, UInt64(count))
    }

    /// A text that a reader may leave as bytes (see ``StateReader/readText()``): its length
    /// here, its bytes here too or, when this writer separates texts, its check here (see
    /// ``StoredText/check(of:)``: the records are hashed, the texts are not) and its bytes
    /// with the texts.
    mutating func write(text utf8: UnsafeRawBufferPointer) {
        write(count: utf8.count)
        guard separatesTexts else { return bytes.append(contentsOf: utf8) }
        write(fixed32: StoredText.check(of: utf8))
        texts.append(contentsOf: utf8)
    }

    /// ``write(text:)-(UnsafeRawBufferPointer)`` for a string: laid out as ``write(_:)-(String)``
    /// lays it out, or with its bytes among the texts when this writer separates them
    /// (without the copy `withUTF8` would make of each string).
    mutating func write(text: String) {
        guard separatesTexts else { return write(text) }
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in write(text: UnsafeRawBufferPointer(utf8)) }
        if written == nil { Array(text.utf8).withUnsafeBytes { utf8 in write(text: utf8) } }
    }

    /// Four bytes, little-endian: a text's check.
    mutating func write(fixed32 value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func write(_ value: Int64) {
        write(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Eight bytes, little-endian: for hashes, whose bits are random and would take ten
    /// bytes, one at a time, as a variable-length integer.
    mutating func write(fixed value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Int) {
        write(Int64(value))
    }

    /// A count or length, read back by `readCount`.
    mutating func write(count: Int) {
        write(UInt64(count))
    }

    mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func write(_ value: Double) {
        write(fixed: value.bitPattern)
    }

    mutating func write(_ text: String) {
        // Borrowed, not copied: `withUTF8` would need a mutable copy (a retain) per string.
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            write(count: utf8.count)
            bytes.append(contentsOf: utf8)
        }
        if written == nil {
            write(count: text.utf8.count)
            bytes.append(contentsOf: text.utf8)
        }
    }

    mutating func write(_ text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    mutating func write(_ texts: [String]) {
        write(count: texts.count)
        for text in texts { write(text) }
    }

    mutating func write(raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }
}

/// Reads what ``StateWriter`` wrote, checking every length against the bytes left: a
/// truncated or damaged file throws ``Damaged`` instead of reading past its end.
struct StateReader {
    struct Damaged: Error {}

    private let bytes: UnsafeRawBufferPointer
    private(set) var position = 0
    /// The texts a writer kept apart (see ``StateWriter/separatedBytes``), read in the order
    /// written; nil when they are among the other bytes.
    private let texts: UnsafeRawBufferPointer?
    private var textPosition = 0
    /// What keeps the texts valid, when something does beyond the reader's use: then long
    /// text (an object's body and identifier) is handed on as bytes, not decoded (see `readStoredText`).
    let bytesOwner: (any StoredTextKeeper)?

    /// A reader of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.texts = nil
        self.bytesOwner = nil
    }

    /// A reader of what ``StateWriter/separatedBytes`` wrote, once the records' hash is
    /// checked: records changed on disk (a flipped bit, an edit by hand) read as damaged,
    /// never as other records. The texts are not hashed (only a page that shows one reads
    /// it): each has a check among the records, for whoever reads it to compare (see
    /// ``StoredText``). `owner` keeps the bytes valid and unchanged for as long as it lives.
    init(separated bytes: UnsafeRawBufferPointer, owner: (any StoredTextKeeper)? = nil) throws(Damaged) {
        var header = StateReader(bytes)
        let (count, hash) = (try header.readFixedUInt64(), try header.readFixedUInt64())
        guard count <= UInt64(bytes.count - 16) else { throw Damaged() }
        let textsStart = 16 + Int(count)
        let records = UnsafeRawBufferPointer(rebasing: bytes[16..<textsStart])
        guard StateWriter.checkHash(records) == hash else { throw Damaged() }
        self.bytes = records
        self.texts = UnsafeRawBufferPointer(rebasing: bytes[textsStart...])
        self.bytesOwner = owner
    }

    /// Whether every byte was read, the texts kept apart included.
    var isAtEnd: Bool { position == bytes.count && textPosition == (texts?.count ?? 0) }

    mutating func readUInt64() throws(Damaged) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 64 else { throw Damaged() }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// What ``StateWriter/write(fixed:)`` wrote.
    mutating func readFixedUInt64() throws(Damaged) -> UInt64 {
        guard bytes.count - position >= 8 else { throw Damaged() }
        let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return UInt64(littleEndian: value)
    }

    mutating func readInt64() throws(Damaged) -> Int64 {
        let raw = try readUInt64()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func readInt() throws(Damaged) -> Int {
        Int(truncatingIfNeeded: try readInt64())
    }

    /// A count of things that follow, each at least one byte long.
    mutating func readCount() throws(Damaged) -> Int {
        let count = try readUInt64()
        guard count <= UInt64(bytes.count - position) else { throw Damaged() }
        return Int(count)
    }

    mutating func readBool() throws(Damaged) -> Bool {
        guard position < bytes.count, bytes[position] <= 1 else { throw Damaged() }
        position += 1
        return bytes[position - 1] == 1
    }

    mutating func readDouble() throws(Damaged) -> Double {
        Double(bitPattern: try readFixedUInt64())
    }

    mutating func readString() throws(Damaged) -> String {
        string(at: try readStringBytes())
    }

    /// Where the next string's bytes are, moving past them.
    private mutating func readStringBytes() throws(Damaged) -> Range<Int> {
        let count = try readCount()
        position += count
        return (position - count)..<position
    }

    /// The next string's bytes, undecoded, moving past them.
    mutating func readUTF8() throws(Damaged) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[try readStringBytes()])
    }

    /// What ``StateWriter/write(text:)-(UnsafeRawBufferPointer)`` wrote, undecoded: from the
    /// texts kept apart when this reader has them, else as ``readUTF8()``.
    mutating func readText() throws(Damaged) -> UnsafeRawBufferPointer {
        try readCheckedText().utf8
    }

    /// ``readText()``, with the text's check when it is among the texts kept apart (not
    /// compared here: see ``StoredText``).
    mutating func readCheckedText() throws(Damaged) -> (utf8: UnsafeRawBufferPointer, check: UInt32?) {
        guard let texts else { return (try readUTF8(), nil) }
        let count = try readUInt64()
        let check = try readFixedUInt32()
        guard count <= UInt64(texts.count - textPosition) else { throw Damaged() }
        textPosition += Int(count)
        return (UnsafeRawBufferPointer(rebasing: texts[(textPosition - Int(count))..<textPosition]), check)
    }

    /// What ``StateWriter/write(fixed32:)`` wrote.
    mutating func readFixedUInt32() throws(Damaged) -> UInt32 {
        guard bytes.count - position >= 4 else { throw Damaged() }
        let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)
        position += 4
        return UInt32(littleEndian: value)
    }

    private func string(at range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    mutating func readOptionalString() throws(Damaged) -> String? {
        try readBool() ? try readString() : nil
    }

    mutating func readStrings() throws(Damaged) -> [String] {
        let count = try readCount()
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count { texts.append(try readString()) }
        return texts
    }

    /// Moves past a string.
    mutating func skipString() throws(Damaged) {
        _ = try readStringBytes()
    }

    /// Moves past `count` bytes.
    mutating func skip(_ count: Int) throws(Damaged) {
        guard count <= bytes.count - position else { throw Damaged() }
        position += count
    }

    /// The next bytes, which must equal `expected`.
    mutating func expect(_ expected: some Collection<UInt8>) throws(Damaged) {
        guard bytes.count - position >= expected.count,
              bytes[position..<(position + expected.count)].elementsEqual(expected) else { throw Damaged() }
        position += expected.count
    }
}
