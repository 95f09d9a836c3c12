// MARK: - ISO 8601

extension Instant {
    /// Parses an ISO 8601 / RFC 3339 instant with an explicit zone.
    ///
    /// Accepts `2035-03-01T14:02:00Z`, `2035-03-01T14:02Z`, `2035-03-01 14:02:00+02:00`,
    /// and fractional seconds (`14:02:00.250Z`). A date without a zone is rejected: an
    /// instant that silently depends on the build machine's time zone is a bug.
    ///
    /// - Parameter text: The text to parse.
    /// - Returns: The instant, or `nil` when `text` is not a valid, zoned ISO 8601 instant.
    public init?(iso8601 text: String) {
        var scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4), scanner.consume("-"),
              let month = scanner.number(digits: 2), scanner.consume("-"),
              let day = scanner.number(digits: 2),
              scanner.consume("T") || scanner.consume("t") || scanner.consume(" "),
              let hour = scanner.number(digits: 2), scanner.consume(":"),
              let minute = scanner.number(digits: 2)
        else { return nil }
        var second = 0
        var millisecond = 0
        if scanner.consume(":") {
            guard let s = scanner.number(digits: 2) else { return nil }
            second = s
            if scanner.consume(".") || scanner.consume(",") {
                guard let fraction = scanner.fraction() else { return nil }
                millisecond = fraction
            }
        }
        var offsetMinutes = 0
        if scanner.consume("Z") || scanner.consume("z") {
            offsetMinutes = 0
        } else if let sign = scanner.sign() {
            guard let oh = scanner.number(digits: 2) else { return nil }
            _ = scanner.consume(":")
            guard let om = scanner.number(digits: 2), oh <= 23, om <= 59 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        } else {
            return nil
        }
        guard scanner.isAtEnd,
              let local = Instant(year: year, month: month, day: day, hour: hour, minute: minute,
                                  second: min(second, 59), millisecond: millisecond)
        else { return nil }
        // A leap second (:60) is folded onto :59.999 so the order of instants is kept.
        let leap: Int64 = second == 60 ? 999 : 0
        self.init(unixMillis: local.unixMillis + leap - Int64(offsetMinutes) * 60_000)
    }

    /// Why `text` is not an instant ``init(iso8601:)`` accepts, as precisely as can be said.
    public enum ISO8601Problem: Hashable, Sendable {
        /// The month is not 1 to 12.
        case noSuchMonth(Int)
        /// The day is not in the month, which has `days` days that year.
        case noSuchDay(year: Int, month: Int, days: Int)
        /// A date, or a date and time, with no `Z` or offset.
        case noZone
        /// Anything else.
        case malformed
    }

    /// Why `text` does not parse, or `nil` when it does.
    public static func problem(parsing text: String) -> ISO8601Problem? {
        guard Instant(iso8601: text) == nil else { return nil }
        var scanner = DigitScanner(text)
        guard let year = scanner.number(digits: 4), scanner.consume("-"),
              let month = scanner.number(digits: 2), scanner.consume("-"),
              let day = scanner.number(digits: 2) else { return .malformed }
        guard (1...12).contains(month) else { return .noSuchMonth(month) }
        let days = CivilCalendar.daysIn(month: month, year: year)
        guard (1...days).contains(day) else { return .noSuchDay(year: year, month: month, days: days) }
        let rest = text.dropFirst(10)
        return rest.contains("Z") || rest.contains("z") || rest.contains("+") || rest.contains("-") ? .malformed : .noZone
    }

    /// The instant in RFC 3339 form in UTC, e.g. `2035-03-01T14:02:00Z`.
    ///
    /// Milliseconds are written only when they are not zero.
    public var iso8601: String {
        let c = utcComponents
        var text = "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))"
        if c.millisecond != 0 { text += "." + pad(c.millisecond, 3) }
        return text + "Z"
    }

    /// The UTC calendar date, e.g. `2035-03-01`.
    public var isoDate: String {
        let c = utcComponents
        return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))"
    }

    /// The UTC time of day to the minute, e.g. `14:02`.
    public var utcTimeOfDay: String {
        let c = utcComponents
        return "\(pad(c.hour)):\(pad(c.minute))"
    }
}

func pad(_ value: Int, _ width: Int = 2) -> String {
    let digits = String(abs(value))
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return value < 0 ? "-" + padded : padded
}

/// A tiny cursor over ASCII text for the fixed-width formats marsgen reads.
struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { index == bytes.count }

    mutating func consume(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, index < bytes.count, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// Reads one or more digits of a decimal fraction and returns it in milliseconds.
    mutating func fraction() -> Int? {
        var millis = 0
        var count = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            if count < 3 { millis = millis * 10 + Int(bytes[index] - 48) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        if count < 3 { for _ in count..<3 { millis *= 10 } }
        return millis
    }

    mutating func sign() -> Int? {
        if consume("+") { return 1 }
        if consume("-") { return -1 }
        return nil
    }
}
