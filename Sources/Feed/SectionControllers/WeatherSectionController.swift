import Content
import SiteConfig

/// A weather report: a summary cell (temperature and condition) that expands to four
/// detail cells (`SUNRISE`, `SUNSET`, `HIGH 13 C`, `LOW -69 C`) and, when the report has
/// notes, a notes cell under them.
public struct WeatherSectionController: SectionController {
    public var kind: ObjectKind { .weather }
    public var cellTemplates: [String] { ["cell-weather-summary", "cell-weather-detail", "cell-weather-notes"] }

    /// Creates the controller.
    public init() {}

    public func section(for object: any FeedObject, context: FeedContext) -> FeedSection? {
        guard let report = object as? WeatherReport else { return nil }
        var summary = context.timeContext(for: report)
        summary["temperature"] = formatCelsius(report.temperature)
        summary["condition"] = context.words[report.condition]
        summary["conditionClass"] = report.condition.rawValue.replacingSpaces
        summary["notes"] = report.notesHTML
        summary["hasNotes"] = !report.notesHTML.isEmpty
        if !report.extra.isEmpty { summary["extra"] = ExtraValue.templateValue(of: report.extra) }
        let words = context.words
        let details: [(String, String)] = [
            (words[.sunrise], report.sunrise.hourMinute),
            (words[.sunset], report.sunset.hourMinute),
            (words[.high], "\(formatCelsius(report.high)) C"),
            (words[.low], "\(formatCelsius(report.low)) C"),
        ]
        var detailCells = details.map { label, value in
            RenderRequest(template: "cell-weather-detail", context: ["label": label, "value": value])
        }
        if !report.notesHTML.isEmpty {
            detailCells.append(RenderRequest(template: "cell-weather-notes", context: ["notes": report.notesHTML]))
        }
        return FeedSection(kind: kind, diffIdentifier: report.diffIdentifier, contentHash: report.contentHash,
                           anchor: context.links.anchor(for: report), layout: .expandable,
                           cells: [RenderRequest(template: "cell-weather-summary", context: summary)] + detailCells)
    }
}

extension String {
    var replacingSpaces: String { String(map { $0 == " " ? "-" : $0 }) }
}
