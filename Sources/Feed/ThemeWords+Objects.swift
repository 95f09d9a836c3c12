import Content
import SiteConfig

extension ThemeWords {
    /// What an object is called in page titles, lists, pager links and the Atom feed: an
    /// entry's own title, or for an entry without one, a message or a weather report, a
    /// title made of its sol and time in the site's words.
    public func title(of object: any FeedObject) -> String {
        switch object {
        case let entry as JournalEntry:
            return entry.explicitTitle ?? phrase(.untitledEntry, ["sol": String(entry.sol), "time": entry.lmst.hourMinute])
        case let message as Message:
            return phrase(.messageTitle, ["author": message.author.name, "channel": message.channel, "sol": String(message.sol),
                                          "time": message.lmst.hourMinute])
        case let report as WeatherReport:
            return phrase(.weatherTitle, ["sol": String(report.sol), "temperature": formatCelsius(report.temperature),
                                          "condition": self[report.condition]])
        default:
            return object.title
        }
    }

    /// The sky's name (`dust storm`).
    public subscript(condition: WeatherCondition) -> String {
        switch condition {
        case .clear: self[Key.clear]
        case .cloudy: self[Key.cloudy]
        case .dustStorm: self[Key.dustStorm]
        case .windy: self[Key.windy]
        case .snow: self[Key.snow]
        case .fog: self[Key.fog]
        }
    }

    /// A weather report as a sentence (the Atom feed's text of it).
    public func sentence(for report: WeatherReport) -> String {
        phrase(.weatherText, ["temperature": formatCelsius(report.temperature), "condition": self[report.condition],
                              "high": formatCelsius(report.high), "low": formatCelsius(report.low),
                              "sunrise": report.sunrise.hourMinute, "sunset": report.sunset.hourMinute])
    }
}
