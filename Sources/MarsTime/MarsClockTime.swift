/// A time of day on a Mars clock (MTC or LMST): 24 Mars hours of 60 minutes of 60 seconds.
///
/// A Mars "second" here is 1/86,400 of a sol, as in Mars24; clocks on Mars run
/// about 2.7 % slower than Earth clocks.
public struct MarsClockTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since local midnight, in `0..<86_400`.
    public var secondsOfSol: Double

    /// Local noon: the time of content dated by its sol alone, and the middle of a sol that
    /// `marsgen sol --sol N` prints.
    public static let noon = MarsClockTime(secondsOfSol: 12 * 3600)

    /// Creates a clock time from seconds since midnight; wraps values outside one sol.
    public init(secondsOfSol: Double) {
        let wrapped = secondsOfSol.truncatingRemainder(dividingBy: 86_400)
        self.secondsOfSol = wrapped < 0 ? wrapped + 86_400 : wrapped
    }

    /// Creates a clock time from hours, minutes and seconds.
    ///
    /// - Returns: `nil` when a field is out of range.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.secondsOfSol = Double(hour * 3600 + minute * 60 + second)
    }

    /// Parses `HH:MM` or `HH:MM:SS`.
    ///
    /// - Returns: `nil` when the text is not a valid 24-hour clock time.
    public init?(parsing text: String) {
        var scanner = DigitScanner(text)
        guard let hour = scanner.number(digits: 2), scanner.consume(":"),
              let minute = scanner.number(digits: 2)
        else { return nil }
        var second = 0
        if scanner.consume(":") {
            guard let s = scanner.number(digits: 2) else { return nil }
            second = s
        }
        guard scanner.isAtEnd else { return nil }
        self.init(hour: hour, minute: minute, second: second)
    }

    /// `text` with its one-digit hours, minutes or seconds written with two (`7:30` →
    /// `07:30`), when that is what it likely means: digits and colons only, and a valid
    /// time once padded. `nil` otherwise, and for a text that is already valid.
    public static func padded(_ text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.contains(where: { $0.count == 1 }) else { return nil }
        return twoDigitTime(parts)
    }

    /// Two or three parts of one or two ASCII digits each, written `HH:MM[:SS]` with two
    /// digits a part, when that is a valid time; nil otherwise.
    private static func twoDigitTime(_ parts: [Substring]) -> String? {
        guard (2...3).contains(parts.count),
              parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        let written = parts.map { $0.count == 1 ? "0\($0)" : String($0) }.joined(separator: ":")
        return MarsClockTime(parsing: written) != nil ? written : nil
    }

    /// `text` read as a time on the 12-hour clock (`7:30 pm`, `7pm`, `12:05 a.m.`), written
    /// on the 24-hour clock marsgen reads (`19:30`, `19:00`, `00:05`); `nil` when it is not one.
    public static func twentyFourHour(_ text: String) -> String? {
        var clock = text.lowercased().filter { $0 != " " && $0 != "." }
        let isAfternoon: Bool
        if clock.hasSuffix("am") { isAfternoon = false } else if clock.hasSuffix("pm") { isAfternoon = true } else { return nil }
        clock.removeLast(2)
        var parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 1 { parts.append("00") }
        guard (1...2).contains(parts[0].count), parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
              let hour = Int(parts[0]), (1...12).contains(hour) else { return nil }
        parts[0] = Substring(String(hour % 12 + (isAfternoon ? 12 : 0)))
        return twoDigitTime(parts)
    }

    /// Creates a clock time from fractional hours (`24 × frac(MSD)` and the like).
    public init(hours: Double) {
        self.init(secondsOfSol: hours * 3600)
    }

    /// Fractional hours since midnight.
    public var hours: Double { secondsOfSol / 3600 }

    /// Rounded to the nearest second as Mars24 shows it; kept within the sol (never `24:00:00`).
    private var wholeSeconds: Int { min(86_399, Int(secondsOfSol.rounded())) }

    /// `HH:MM:SS`, to the nearest second.
    public var description: String {
        clockText(fields: 3)
    }

    /// `HH:MM`: the nearest second's minute.
    public var hourMinute: String {
        clockText(fields: 2)
    }

    /// The time at the start of its minute (the minute ``hourMinute`` shows).
    public var wholeMinute: MarsClockTime {
        MarsClockTime(secondsOfSol: Double(wholeSeconds / 60 * 60))
    }

    /// `HH:MM` on a whole minute, else `HH:MM:SS`: a time as one writes it, the seconds
    /// only when there are some (to the nearest second).
    public var writtenText: String {
        wholeSeconds % 60 == 0 ? hourMinute : description
    }

    /// The first `fields` of hours, minutes and seconds, two digits each, joined by colons.
    /// Written digit by digit: a rebuild restores every journal entry, whose listing stamp
    /// holds its time as text, and interpolating padded numbers cost a sixth of restoring one.
    private func clockText(fields: Int) -> String {
        let s = wholeSeconds
        let values = (s / 3600, s / 60 % 60, s % 60)
        return String(unsafeUninitializedCapacity: fields * 3 - 1) { text in
            for field in 0..<fields {
                let value = field == 0 ? values.0 : field == 1 ? values.1 : values.2
                if field > 0 { text[field * 3 - 1] = UInt8(ascii: ":") }
                text[field * 3] = UInt8(ascii: "0") + UInt8(value / 10)
                text[field * 3 + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            }
            return fields * 3 - 1
        }
    }

    public static func < (lhs: MarsClockTime, rhs: MarsClockTime) -> Bool { lhs.secondsOfSol < rhs.secondsOfSol }
}
