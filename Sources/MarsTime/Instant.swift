/// A point in time on the UTC time scale, counted in milliseconds since the Unix epoch.
///
/// marsgen keeps its own instant type instead of `Foundation.Date` so that parsing and
/// formatting are strict, locale-free and byte-for-byte deterministic.
public struct Instant: Hashable, Comparable, Sendable, Codable {
    /// Milliseconds since 1970-01-01T00:00:00Z (negative before it).
    public var unixMillis: Int64

    /// Creates an instant from milliseconds since the Unix epoch.
    public init(unixMillis: Int64) {
        self.unixMillis = unixMillis
    }

    /// Creates an instant from a UTC calendar date and time of day.
    ///
    /// - Returns: `nil` when a field is out of range (month 13, `2035-02-30`, hour 24 …).
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
        guard (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (0...999).contains(millisecond)
        else { return nil }
        let days = Int64(CivilCalendar.daysFromEpoch(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.unixMillis = seconds * 1000 + Int64(millisecond)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.unixMillis < rhs.unixMillis }

    /// The instant `seconds` later (earlier when negative).
    public func adding(seconds: Double) -> Instant {
        Instant(unixMillis: unixMillis + Int64((seconds * 1000).rounded()))
    }

    /// The UTC calendar fields of this instant.
    public var utcComponents: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let (days, msOfDay) = floorDivision(unixMillis, 86_400_000)
        let (year, month, day) = CivilCalendar.civilDate(daysFromEpoch: Int(days))
        let ms = Int(msOfDay)
        return (year, month, day, ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}

func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
    var q = a / b
    var r = a % b
    if r < 0 { q -= 1; r += b }
    return (q, r)
}

/// Proleptic Gregorian calendar arithmetic (days since 1970-01-01), after Howard Hinnant's
/// public-domain civil-date algorithms.
enum CivilCalendar {
    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilDate(daysFromEpoch: Int) -> (year: Int, month: Int, day: Int) {
        let z = daysFromEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
