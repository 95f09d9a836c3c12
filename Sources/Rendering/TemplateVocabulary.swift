import SiteConfig

/// The names marsgen puts in each template's context, and the transforms swift-mustache
/// applies: what a site's template can look up and get something other than nothing.
///
/// A name outside them renders as nothing, without a word from Mustache, so `{{sendr}}` in
/// a site's `cell-message.mustache` would print an empty sender on every message; the build
/// warns instead (see ``TemplateLibrary/unknownNames``). A template's names are those at
/// any depth of its contexts (`site.title` gives `site` and `title`), without telling which
/// depth: inside a section a template sees the section's values and all those around it.
///
/// `FeedTests` renders a site that gives every kind of value and checks that each
/// template's contexts hold exactly the names listed for it here.
public enum TemplateVocabulary {
    /// `words.…`, the site's words (`words:`), in every template.
    static let words: Set<String> = Set(["words"] + ThemeWords.Key.allCases.filter { !$0.isCounted }.map(\.rawValue))

    /// `site.…`, on every page and in the Atom feed, the sitemap and the sol index's rows.
    static let site: Set<String> = [
        "site", "title", "description", "hasDescription", "language", "isRightToLeft", "missionName",
        "landing", "landingDate", "home", "journalURL", "solsURL", "crewURL", "tagsURL", "atomURL", "atomAbsoluteURL",
        "cssURL", "iconURL", "iconAbsoluteURL", "baseURL", "searchURL", "image", "imageAlt", "imageWidth", "imageHeight", "extra",
    ]

    /// What every HTML page's template gets (the layout too).
    static let page: Set<String> = site.union([
        "pageTitle", "heading", "url", "canonical", "description", "nav", "feed", "journal", "sols", "crew", "search",
        "navPages", "isCurrent", "current", "navCurrent",
    ])

    /// A crew member's bio and portrait, on their page and (the portrait) in the crew index.
    static let crewProfile: Set<String> = ["bio", "hasBio", "portrait", "portraitAlt", "hasPortrait", "portraitWidth", "portraitHeight"]

    /// A link to another page: `newer`, `older`, `previous`, `next`.
    static let link: Set<String> = ["url", "label"]

    /// What every cell gets: the object's time and place.
    static let cell: Set<String> = ["sol", "lmst", "solURL", "utc", "earthDate", "earthTime", "permalink"]

    /// A row of the sol index.
    static let solRow: Set<String> = site.union(["sol", "url", "earthDate", "entryCount", "messageCount", "entryCountText", "messageCountText", "weather",
                                                 "temperature", "condition"])

    /// A list of entries, a line each, and its pages: the journal's and each tag's.
    static let journalList: Set<String> = link.union(["entries", "title", "url", "author", "authorURL", "date", "sol", "solURL",
                                                      "lmst", "extra", "entryCount", "entryCountText", "isEmpty", "isFront", "hasPager", "newer", "older"])

    /// The pages' templates' own names.
    static let pages: [String: Set<String>] = [
        "page-feed": page.union(link).union(["sections", "pinned", "html", "isEmpty", "isFront", "pageNumber", "latestSol",
                                             "solRange", "hasPager", "newer", "older"]),
        "page-entry": page.union(link).union(["sections", "html", "sol", "solURL", "solTitle", "published", "image", "imageAlt", "imageWidth", "imageHeight", "extra", "hasPager",
                                              "previous", "next"]),
        "page-sol": page.union(link).union(["sections", "html", "sol", "earthStart", "earthEnd", "earthRange", "entryCount",
                                            "messageCount", "entryCountText", "messageCountText", "hasPager", "previous", "next"]),
        // `sols` holds each row's values and its `html`.
        "page-sols": page.union(solRow).union(["hasSols", "solsHTML", "html"]),
        "page-journal": page.union(journalList),
        "page-tag": page.union(journalList).union(["tag", "name", "slug", "hasFeed", "feedURL"]),
        "page-tags": page.union(["tags", "name", "slug", "url", "entryCount", "hasTags"]),
        "page-crew": page.union(link).union(["member", "id", "name", "role", "hasRole", "hasFeed", "feedURL", "sections", "html", "entryCount",
                                             "messageCount", "entryCountText", "messageCountText", "isFront", "hasPager", "newer", "older"])
            .union(crewProfile),
        "page-crew-index": page.union(["members", "id", "name", "role", "url", "hasMembers"]).union(crewProfile),
        "page-404": page,
        // The search page's script fills in `{count}` and `{query}` of its words.
        "page-search": page.union(["indexURL", "scriptURL", "resultForms", "category", "text", "noindex"]),
        "page-standalone": page.union(["body", "isDraft", "tableOfContents", "hasTableOfContents", "image", "imageAlt", "imageWidth",
                                       "imageHeight", "extra", "parent", "subpages", "hasSubpages"]),
    ]

    /// The names each of marsgen's templates gets, by template. The layout gets its page's;
    /// partials (`header`, `footer`, `pager`, a site's own) get those of the templates that
    /// include them.
    public static let byTemplate: [String: Set<String>] = pages.merging([
        "layout": pages.values.reduce(["content"]) { $0.union($1) },
        "sol-row": solRow,
        "section": ["kind", "id", "hash", "anchor", "isExpandable", "cells", "html", "summary", "details"],
        "cell-journal-date": cell,
        "cell-journal-text": cell.union(["title", "hasExplicitTitle", "url", "body", "authorName", "authorRole", "hasAuthorRole",
                                         "authorURL", "tags", "name", "hasTags", "isDraft", "isOwnPage", "hasMore", "moreURL",
                                         "hasTableOfContents", "tableOfContents", "wordCount", "readingMinutes", "readingTime", "extra"]),
        "cell-message": cell.union(["sender", "senderID", "senderURL", "channel", "body"]),
        "cell-weather-summary": cell.union(["temperature", "condition", "conditionClass", "notes", "hasNotes", "extra"]),
        "cell-weather-detail": ["label", "value"],
        "cell-weather-notes": ["notes"],
        // A tag's feed also gets its `tag`, as the tag's pages do, and a crew member's its `member`.
        "atom": site.union(["feedTitle", "feedID", "alternateURL", "selfURL", "subtitle", "updated", "entries", "id", "title", "link",
                            "sol", "author", "authorURI", "hasAuthorURI", "categories", "term", "summary", "content", "html",
                            "tag", "name", "slug", "url", "hasFeed", "feedURL", "member", "role", "hasRole"]),
        "alias": site.union(["url", "canonical", "title"]),
        "sitemap": site.union(["urls", "loc"]),
        "sitemap-index": site.union(["sitemaps", "loc"]),
    ]) { first, _ in first }.mapValues { $0.union(words) }

    /// Where `template` comes in a hint naming the templates that get a value: the cells
    /// and pages first (what a site most often writes its own of), then the rest (the
    /// layout, rows, feeds, sitemaps, an alias's page), each group by name.
    static func hintRank(_ template: String) -> Int {
        template.hasPrefix("cell-") || template.hasPrefix("page-") ? 0 : 1
    }

    /// Every name some template gets.
    public static let names: Set<String> = byTemplate.values.reduce([]) { $0.union($1) }

    /// swift-mustache's transforms (`{{uppercased(name)}}`, `{{#first()}}` in a list).
    public static let transforms: Set<String> = [
        "capitalized", "count", "empty", "enumerated", "equalzero", "even", "first", "index", "last",
        "lowercased", "minusone", "odd", "plusone", "reversed", "sorted", "uppercased",
    ]
}
