import SiteConfig

extension ContentHash {
    /// Combines an object's `extra:` values (see ``ExtraValue/digest(into:)``); nothing when
    /// it has none, so that objects without any hash as they did before `extra` existed.
    public mutating func combine(extra: [String: ExtraValue]) {
        guard !extra.isEmpty else { return }
        ExtraValue.mapping(extra).digest { combine($0) }
    }
}
