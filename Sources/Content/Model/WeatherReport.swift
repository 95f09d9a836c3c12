import MarsTime
import SiteConfig

/// The sky over the habitat, as a weather report file describes it.
public enum WeatherCondition: String, CaseIterable, Hashable, Sendable, Codable {
    case clear
    case cloudy
    case dustStorm = "dust storm"
    case windy
    case snow
    case fog

    /// The condition as authors write it and readers see it (`dust storm`).
    public var displayName: String { rawValue }
}

/// A weather report: one file under `content/weather/`.
///
/// A class, as every ``FeedObject`` is; every property is a constant, so it is still a value
/// in all but name.
public final class WeatherReport: FeedObject, Hashable {
    public var kind: ObjectKind { .weather }
    public let diffIdentifier: String
    public let contentHash: ContentHash
    public let stamp: UInt64
    public let sourcePath: String
    public let instant: Instant
    public let sol: Int
    public let lmst: MarsClockTime
    /// Current temperature, °C.
    public let temperature: Double
    /// The sol's high, °C.
    public let high: Double
    /// The sol's low, °C.
    public let low: Double
    /// Sunrise, LMST.
    public let sunrise: MarsClockTime
    /// Sunset, LMST.
    public let sunset: MarsClockTime
    /// The sky.
    public let condition: WeatherCondition
    /// Optional notes rendered to HTML (empty when there are none).
    public let notesHTML: String
    /// Its front matter's values of your own for templates (`extra:`; see `ExtraValue`).
    public let extra: [String: ExtraValue]

    public var authorIDs: [String] { [] }
    public var title: String { "Weather, sol \(sol): \(formatCelsius(temperature)) °C, \(condition.displayName)" }

    /// The ``diffIdentifier`` of the report in the file at `sourcePath`: one report a file.
    public static func identifier(sourcePath: String) -> String { "weather:\(sourcePath)" }

    /// Creates a report and computes its identifier and hash.
    public convenience init(sourcePath: String, instant: Instant, sol: Int, lmst: MarsClockTime, temperature: Double, high: Double,
                low: Double, sunrise: MarsClockTime, sunset: MarsClockTime, condition: WeatherCondition, notesHTML: String,
                extra: [String: ExtraValue] = [:]) {
        var hash = ContentHash()
        for field in [String(sol), lmst.description, String(temperature), String(high), String(low), sunrise.description,
                      sunset.description, condition.rawValue, notesHTML] {
            hash.combine(field)
        }
        hash.combine(instant.unixMillis)
        hash.combine(extra: extra)
        self.init(restoring: Self.identifier(sourcePath: sourcePath), contentHash: hash, sourcePath: sourcePath, instant: instant, sol: sol,
                  lmst: lmst, temperature: temperature, high: high, low: low, sunrise: sunrise, sunset: sunset,
                  condition: condition, notesHTML: notesHTML, extra: extra)
    }

    /// Recreates a report exactly as an earlier build recorded it, identifier and hash
    /// included, without computing them again; its stamp too, when the state holds it.
    public init(restoring diffIdentifier: String, contentHash: ContentHash, sourcePath: String, instant: Instant, sol: Int,
                lmst: MarsClockTime, temperature: Double, high: Double, low: Double, sunrise: MarsClockTime,
                sunset: MarsClockTime, condition: WeatherCondition, notesHTML: String, extra: [String: ExtraValue] = [:],
                stamp: UInt64? = nil) {
        self.diffIdentifier = diffIdentifier
        self.contentHash = contentHash
        self.stamp = stamp ?? Self.stamp(identifier: diffIdentifier, contentHash: contentHash)
        self.sourcePath = sourcePath
        self.instant = instant
        self.sol = sol
        self.lmst = lmst
        self.temperature = temperature
        self.high = high
        self.low = low
        self.sunrise = sunrise
        self.sunset = sunset
        self.condition = condition
        self.notesHTML = notesHTML
        self.extra = extra
    }

    public static func == (lhs: WeatherReport, rhs: WeatherReport) -> Bool {
        if lhs === rhs { return true }
        return lhs.diffIdentifier == rhs.diffIdentifier
            && lhs.contentHash == rhs.contentHash
            && lhs.sourcePath == rhs.sourcePath
            && lhs.instant == rhs.instant
            && lhs.sol == rhs.sol
            && lhs.lmst == rhs.lmst
            && lhs.temperature == rhs.temperature
            && lhs.high == rhs.high
            && lhs.low == rhs.low
            && lhs.sunrise == rhs.sunrise
            && lhs.sunset == rhs.sunset
            && lhs.condition == rhs.condition
            && lhs.notesHTML == rhs.notesHTML
            && lhs.extra == rhs.extra
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(diffIdentifier)
        hasher.combine(contentHash)
    }
}

/// Formats a temperature without a trailing `.0` (`-63`, `-4.5`).
public func formatCelsius(_ value: Double) -> String {
    // Any finite value can reach here (an error message quotes one out of range), and
    // `Int(_:)` traps past 2^63: whole numbers go through it only when they fit.
    guard abs(value) < 1e15 else { return String(value) }
    if value == value.rounded() { return String(Int(value)) }
    return String((value * 10).rounded() / 10)
}
