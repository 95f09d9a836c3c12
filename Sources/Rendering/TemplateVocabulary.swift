import SiteConfig

/// Every name marsgen puts in a template's context, and the transforms swift-mustache
/// applies: what a site's template can look up and get something other than nothing.
///
/// A name outside it renders as nothing, without a word from Mustache, so `{{sendr}}` in a
/// site's `cell-message.mustache` would print an empty sender on every message; the build
/// warns instead (see ``TemplateLibrary/unknownNames``). One list for every template, not
/// one per template: a name that another template's context holds is not flagged, which
/// keeps the warning free of false alarms (inside a section a template sees the section's
/// values and everything around it) at the cost of missing a name used in the wrong
/// template.
///
/// `FeedTests` renders a site that gives every kind of value and checks that each name its
/// contexts hold is listed here and each name listed here is given.
public enum TemplateVocabulary {
    /// Names of values, at any depth (`site.title` gives `site` and `title`).
    public static let names: Set<String> = [
        // Every page: the site (`site.…`), the page's own, the navigation.
        "site", "title", "description", "hasDescription", "language", "isRightToLeft", "missionName",
        "landing", "landingDate", "home", "journalURL", "solsURL", "crewURL", "atomURL", "atomAbsoluteURL",
        "cssURL", "iconURL", "baseURL",
        "pageTitle", "heading", "subtitle", "url", "canonical", "nav", "feed", "journal", "sols", "crew",
        "content", "isFront", "pageNumber", "hasPager", "newer", "older", "previous", "next", "link", "label",
        // Lists of objects on a page and their sections.
        "sections", "pinned", "entries", "entryCount", "messageCount", "isEmpty", "solRange",
        "kind", "id", "hash", "anchor", "isExpandable", "cells", "html", "summary", "details",
        // An object's common values.
        "sol", "lmst", "solURL", "utc", "earthDate", "earthTime", "permalink",
        // Journal entries, messages, weather reports.
        "body", "author", "authorName", "authorRole", "authorURL", "authorURI", "hasAuthorRole", "hasAuthorURI",
        "hasExplicitTitle", "isDraft", "tags", "hasTags", "name", "date",
        "sender", "senderID", "senderURL", "channel",
        "weather", "temperature", "condition", "conditionClass", "notes", "hasNotes", "value",
        // Sols, the sol index, crew pages.
        "hasSols", "solsHTML", "latestSol", "earthStart", "earthEnd", "earthRange",
        "member", "members", "hasMembers", "role", "hasRole",
        // The Atom feed and the sitemap.
        "updated", "selfURL", "categories", "term", "urls", "loc", "sitemaps",
    ]

    /// swift-mustache's transforms (`{{uppercased(name)}}`, `{{#first()}}` in a list).
    public static let transforms: Set<String> = [
        "capitalized", "count", "empty", "enumerated", "equalzero", "even", "first", "index", "last",
        "lowercased", "minusone", "odd", "plusone", "reversed", "sorted", "uppercased",
    ]

    /// The listed name `name` is most likely a misspelling of, if any.
    static func suggestion(for name: String, among known: Set<String>) -> String? {
        known.sorted().first { $0.isCloseMatch(for: name) }
    }
}
