import SiteConfig

extension ExtraValue {
    /// The value as a template sees it: a text, `true` or `false`, a list, or a mapping, so
    /// that `{{extra.mood}}`, `{{#extra.outside}}…{{/extra.outside}}` and
    /// `{{#extra.suits}}{{.}}{{/extra.suits}}` read as in Zola or Hugo.
    public var templateValue: Any {
        switch self {
        case .text(let text): text
        case .flag(let flag): flag
        case .list(let items): items.map(\.templateValue)
        case .mapping(let fields): Self.templateValue(of: fields)
        }
    }

    /// `fields` (an `extra:` mapping) as a template sees it.
    public static func templateValue(of fields: [String: ExtraValue]) -> [String: Any] {
        fields.mapValues(\.templateValue)
    }
}
