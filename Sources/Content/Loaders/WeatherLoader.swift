import Diagnostics
import GFM
import MarsTime

/// Reads weather reports from `content/weather/*.md`.
///
///     ---
///     sol: 12
///     temperature: -48
///     high: -12
///     low: -81
///     sunrise: "05:42"
///     sunset: "17:58"
///     condition: dust storm
///     ---
///     Optional notes in Markdown.
public enum WeatherLoader {
    static let knownKeys: Set<String> = ["date", "sol", "time", "temperature", "high", "low", "sunrise", "sunset", "condition", "extra"]

    /// Parses one weather report.
    ///
    /// A report dated by `sol` alone is placed at the start of that sol, so it leads the sol's page.
    public static func load(_ file: SourceFile, context: ContentContext, log: inout DiagnosticLog) throws(Diagnostic) -> WeatherReport {
        var links = LinkUses()
        return try load(file, context: context, log: &log, links: &links)
    }

    /// Parses one weather report, adding its links to other content files and to the site's pages and files to `links`.
    public static func load(_ file: SourceFile, context: ContentContext, log: inout DiagnosticLog,
                            links: inout LinkUses) throws(Diagnostic) -> WeatherReport {
        let matter = try FrontMatter(splitting: file)
        let fields = matter.fields
        fields.warnAboutUnknownKeys(knownKeys, into: &log, context: "weather front matter")
        var moment = try matter.moment(in: context, what: "this report")
        if !fields.contains("date"), !fields.contains("time") {
            moment = context.moment(sol: moment.sol, lmst: MarsClockTime(secondsOfSol: 0))
        }

        func number(_ key: String) throws(Diagnostic) -> Double {
            guard let value = try fields.double(key) else {
                throw fields.missingKey(key, hint: "add '\(key): <degrees Celsius>'")
            }
            guard (-150...60).contains(value) else {
                throw Diagnostic.error("'\(key)' of \(formatCelsius(value)) °C is not a Mars temperature",
                                       at: fields.location(of: key), hint: "temperatures are in degrees Celsius, between -150 and 60")
            }
            return value
        }
        func clockTime(_ key: String) throws(Diagnostic) -> MarsClockTime {
            guard let text = try fields.string(key) else {
                throw fields.missingKey(key, hint: "add '\(key): \"HH:MM\"' in LMST")
            }
            guard let time = MarsClockTime(parsing: text) else {
                throw Diagnostic.error("'\(key)' must be a local mean solar time HH:MM, not '\(Diagnostic.excerpt(text))'", at: fields.location(of: key),
                                       hint: ContentContext.paddingHint(for: text) { "\(key): \"\($0)\"" }
                                           ?? "hours 00–23 and minutes 00–59, like '\(key): \"06:12\"'")
            }
            return time
        }

        let temperature = try number("temperature")
        let high = try number("high")
        let low = try number("low")
        guard high >= low else {
            throw Diagnostic.error("'high' (\(formatCelsius(high)) °C) is below 'low' (\(formatCelsius(low)) °C)",
                                   at: fields.location(of: "high"), hint: "swap the two values")
        }
        let sunrise = try clockTime("sunrise")
        let sunset = try clockTime("sunset")
        guard let conditionText = try fields.string("condition") else {
            throw fields.missingKey("condition", hint: "one of: \(WeatherCondition.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let condition = WeatherCondition(rawValue: conditionText.lowercased()) else {
            // `dust-storm`, `DustStorm`, `dust storms`, `cloudy.`: the condition written another way.
            let letters = { (text: String) in text.lowercased().filter(\.isLetter) }
            let near = WeatherCondition.allCases.first { letters($0.rawValue) == letters(conditionText) }
                ?? WeatherCondition.allCases.first { letters($0.rawValue).isCloseMatch(for: letters(conditionText)) }
            throw Diagnostic.error("unknown weather condition '\(Diagnostic.excerpt(conditionText))'", at: fields.location(of: "condition"),
                                   hint: near.map { "did you mean '\($0.rawValue)'?" }
                                       ?? "one of: \(WeatherCondition.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let notes = matter.body.allSatisfy(\.isWhitespace) ? "" :
            try context.markdown(matter.body, firstLine: matter.bodyFirstLine, ids: .weatherReport(sol: moment.sol), in: file,
                                 uses: &links, log: &log).html()
        return WeatherReport(sourcePath: file.path, instant: moment.instant, sol: moment.sol, lmst: moment.lmst,
                             temperature: temperature, high: high, low: low, sunrise: sunrise, sunset: sunset,
                             condition: condition, notesHTML: notes, extra: try fields.extra("extra"))
    }
}
