import Diagnostics
import Foundation
import Images
import MarsTime

/// A site's settings, read from `marsgen.yml`.
///
///     title: Ares Station Log
///     base_url: https://example.org/ares/
///     language: en
///     page_size: 20
///     mission:
///       name: Ares IV
///       landing: 2037-02-14T09:32:00Z
///       longitude: -35.8
///       first_sol: 1
public struct SiteConfiguration: Hashable, Sendable, Encodable {
    /// The site's title, shown in every page's header and title.
    public var title: String
    /// A one-line description for the front page, the Atom feed and `<meta name="description">`.
    public var description: String
    /// The absolute URL the site is published at, always ending in `/`.
    public var baseURL: String
    /// The path part of ``baseURL`` (`/` or `/ares/`): every link in the site starts with it.
    public var basePath: String
    /// The language of the content, as a BCP 47 tag (`en`, `fr-CA`).
    public var language: String
    /// Whether ``language`` is written right to left (Arabic, Hebrew, Persian, Urdu…), so
    /// that pages say `dir="rtl"`: its script subtag decides when it has one (`az-Arab` is,
    /// `ku-Latn` is not), otherwise the script the language is usually written in.
    public var isRightToLeft: Bool { Self.isRightToLeft(language) }
    /// How many objects a feed page holds.
    public var pageSize: Int
    /// Whether raw HTML in Markdown is kept (`unsafe_html: true`).
    public var allowsRawHTML: Bool
    /// Beginnings of URLs (`/downloads/`, `api/`) that the check of links and images leaves
    /// alone: what they name is served beside the site, not made by it.
    public var uncheckedLinks: [String]
    /// How many URLs one sitemap file lists (`sitemap_max_urls`, at most
    /// ``sitemapURLLimit``): a site with more pages gets `sitemap.xml` as a sitemap index
    /// of files `sitemap-1.xml`, `sitemap-2.xml`, … each listing at most this many.
    public var sitemapMaxURLs: Int
    /// Whether each tag gets an Atom feed of its newest entries (`tag_feeds: true`), at
    /// `/tags/<slug>/feed.xml`. Off by default: an entry's edit then rewrites the feed of
    /// each of its tags too.
    public var hasTagFeeds: Bool
    /// Whether each crew member gets an Atom feed of their newest journal entries and
    /// messages (`crew_feeds: true`), at `/crew/<id>/feed.xml`: a reader follows one of the
    /// crew. Off by default: an edit or a message then rewrites its author's feed too.
    public var hasCrewFeeds = false
    /// Whether the site has a search page (`search: true`), at `/search/`, which finds journal
    /// entries and messages in the search index it reads, `/search/index.json`. Off by
    /// default: the index holds every text, and an edit of any of them rewrites it.
    public var hasSearch = false
    /// The picture a link to a page without one of its own is previewed with (`image:`, for
    /// `og:image`), as written: a path from the site's root (`img/patch.png`), from the host's
    /// root, or an `http(s):` URL; empty when the site has none.
    public var image: String
    /// Its alt text (`image_alt:`).
    public var imageAlt: String
    /// Where `image:` is in `marsgen.yml`, for a warning when its file is not there. Not a
    /// setting: a line added above it changes no page.
    public var imageLocation: NotASetting<SourceLocation?>
    /// The size of the picture `image:` names, when it is the site's own and its file gives
    /// one (see `ImageSize`), for `og:image:width` and `og:image:height`: not read from
    /// `marsgen.yml` but from the file, by the build (which rebuilds every page when it
    /// changes). Not a setting.
    public var imageSize: NotASetting<ImageSize?> = NotASetting(nil)
    /// The words the built-in theme shows readers (`words:`), English unless given.
    public var words: ThemeWords
    /// Links of the site's own in every page's navigation (`nav:`), among the pages of their
    /// own that ask to be there: another site's page (the mission's), or one of this site's.
    public var navigationLinks: [NavigationLink] = []
    /// Values of the site's own for its templates (`extra:`, `site.extra` in every one),
    /// which marsgen does not read (see ``ExtraValue``).
    public var extra: [String: ExtraValue] = [:]
    /// The mission the sols are counted for.
    public var mission: Mission

    /// A mission: its name and its sol clock.
    public struct Mission: Hashable, Sendable, Encodable {
        /// The mission's name (`Ares IV`).
        public var name: String
        /// The mission clock: landing, longitude, first sol.
        public var clock: MissionClock

        /// Creates a mission.
        public init(name: String, clock: MissionClock) {
            self.name = name
            self.clock = clock
        }
    }

    /// A link of the site's own in the navigation (an item of `nav:`).
    public struct NavigationLink: Hashable, Sendable, Encodable {
        /// Its words.
        public var title: String
        /// Where it leads, as written: a URL with a scheme (`https:`, `mailto:`), a path from
        /// the host's root (`/other-app/`), or a path from the site's root (`sol/452/`).
        public var url: String
        /// Its place among the navigation's links: lower first (`weight`, as a page's).
        public var weight: Int
        /// Where `url:` is in `marsgen.yml`, for the check of the site's links. Not a setting.
        public var location: NotASetting<SourceLocation?>

        public init(title: String, url: String, weight: Int = 0, location: SourceLocation? = nil) {
            (self.title, self.url, self.weight, self.location) = (title, url, weight, NotASetting(location))
        }
    }

    /// The settings as bytes that two configurations share exactly when every setting is the
    /// same: each field (the `Encodable` conformance is synthesized, so a field added later
    /// is in too), keys sorted. A comment, blank lines, quoting or the keys' order in the
    /// file change nothing here, which is what lets a build tell them from a change.
    public var settingsDigest: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Only a value JSON cannot hold (a longitude that is not a number, which parsing
        // rejects) fails: then the values as Swift prints them, every field all the same.
        guard let data = try? encoder.encode(self) else { return Array(String(reflecting: self).utf8) }
        return Array(data)
    }

    /// The config file name in a site's root.
    public static let fileName = "marsgen.yml"

    /// The most URLs the sitemap protocol allows in one file, and the default of
    /// ``sitemapMaxURLs``. (Its other limit, 50 MB a file, is out of reach but for a base URL
    /// hundreds of characters long: a page's URL is the base URL and a path of at most a
    /// 255-byte folder name and a few short folders.)
    public static let sitemapURLLimit = 50_000

    /// Creates a configuration.
    public init(title: String, description: String = "", baseURL: String, language: String = "en", pageSize: Int = 20,
                allowsRawHTML: Bool = false, uncheckedLinks: [String] = [], sitemapMaxURLs: Int = sitemapURLLimit,
                hasTagFeeds: Bool = false, image: String = "", imageAlt: String = "", imageLocation: SourceLocation? = nil,
                words: ThemeWords? = nil, mission: Mission) {
        self.title = title
        self.description = description
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.basePath = Self.path(ofURL: self.baseURL)
        self.language = language
        self.pageSize = pageSize
        self.allowsRawHTML = allowsRawHTML
        self.uncheckedLinks = uncheckedLinks
        self.sitemapMaxURLs = sitemapMaxURLs
        self.hasTagFeeds = hasTagFeeds
        self.image = image
        self.imageAlt = imageAlt
        self.imageLocation = NotASetting(imageLocation)
        self.words = words ?? ThemeWords(language: language)
        self.mission = mission
    }

    static let knownKeys: Set<String> = ["title", "description", "base_url", "language", "page_size", "unsafe_html", "unchecked_links",
                                         "sitemap_max_urls", "tag_feeds", "crew_feeds", "search", "image", "image_alt", "words", "extra", "mission",
                                         "nav"]
    /// Hugo's and Zola's names for keys marsgen has, lowercased: what a site moved from one
    /// of them most likely holds.
    static let otherGeneratorsKeys: [String: String] = [
        "languagecode": "language", "defaultcontentlanguage": "language", "default_language": "language",
        "paginate": "page_size", "paginate_by": "page_size", "pagination": "page_size", "pagersize": "page_size",
        "translations": "words", "build_search_index": "search", "menu": "nav", "menus": "nav",
    ]
    static let knownMissionKeys: Set<String> = ["name", "landing", "longitude", "first_sol"]

    /// Reads a configuration from the text of `marsgen.yml`.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - path: Its site-relative path, for diagnostics.
    ///   - log: Receives a warning for each unknown key.
    /// - Throws: A ``Diagnostic`` for a missing required key or an invalid value.
    public static func parse(_ text: String, path: String = fileName, log: inout DiagnosticLog) throws(Diagnostic) -> SiteConfiguration {
        let yaml = try YAMLMapping.parse(text, path: path)
        yaml.warnAboutUnknownKeys(knownKeys, into: &log, context: path, otherNames: otherGeneratorsKeys)

        let title = try yaml.requiredString("title", hint: "add a line 'title: My Mission Log'")
        let baseURL = try yaml.requiredString("base_url", hint: "add a line 'base_url: https://example.org/'")
        if let (problem, hint) = problem(withBaseURL: baseURL) {
            throw Diagnostic.error("'base_url' \(problem)", at: yaml.location(of: "base_url"), hint: hint)
        }
        let language = try yaml.string("language") ?? "en"
        guard isLanguageTag(language) else {
            let dashed = language.replacingOccurrences(of: "_", with: "-")
            let hint = dashed != language && isLanguageTag(dashed) ? "subtags are joined by '-': '\(dashed)'"
                : "the language is its two- or three-letter code: 'en' for English, 'de' for German, 'ja' for Japanese"
            throw Diagnostic.error("'language' must be a language tag like 'en' or 'pt-BR', not '\(Diagnostic.excerpt(language))'",
                                   at: yaml.location(of: "language"), hint: hint)
        }
        let pageSize = try yaml.int("page_size") ?? 20
        guard pageSize >= 1 else {
            throw Diagnostic.error("'page_size' must be at least 1", at: yaml.location(of: "page_size"),
                                   hint: "it is how many objects a feed page shows, like 'page_size: 20'")
        }
        let uncheckedLinks = try yaml.strings("unchecked_links")
        if uncheckedLinks.contains(where: \.isEmpty) {
            throw Diagnostic.error("'unchecked_links' holds an empty beginning, which every URL has", at: yaml.location(of: "unchecked_links"),
                                   hint: "list how the URLs to leave unchecked begin, as you write them: 'unchecked_links: [/downloads/]'")
        }
        let sitemapMaxURLs = try yaml.int("sitemap_max_urls") ?? sitemapURLLimit
        guard (1...sitemapURLLimit).contains(sitemapMaxURLs) else {
            throw Diagnostic.error("'sitemap_max_urls' must be between 1 and 50000, not \(sitemapMaxURLs)",
                                   at: yaml.location(of: "sitemap_max_urls"),
                                   hint: "the sitemap protocol allows 50,000 URLs in a file; a larger site gets several files and an index")
        }
        guard let missionYAML = try yaml.mapping("mission") else {
            throw yaml.missingKey("mission", hint: "add a 'mission:' block with 'name', 'landing', 'longitude' and 'first_sol'")
        }
        missionYAML.warnAboutUnknownKeys(knownMissionKeys, into: &log, context: "mission")
        let name = try missionYAML.requiredString("name", hint: "add 'name: My Mission' under 'mission:'")
        let landingText = try missionYAML.requiredString("landing", hint: "add the landing instant in UTC, e.g. 'landing: 2037-02-14T09:32:00Z'")
        guard let landing = Instant(iso8601: landingText) else {
            throw Diagnostic.error("'landing' is not an ISO 8601 instant with a zone: '\(landingText)'",
                                   at: missionYAML.location(of: "landing"), hint: "write it like 2037-02-14T09:32:00Z")
        }
        guard let longitude = try missionYAML.double("longitude") else {
            throw missionYAML.missingKey("longitude", hint: "add the east-positive longitude in degrees, e.g. 'longitude: -35.8'")
        }
        guard (-360...360).contains(longitude) else {
            throw Diagnostic.error("'longitude' must be between -360 and 360 degrees", at: missionYAML.location(of: "longitude"),
                                   hint: "the landing site's longitude in degrees, east positive, like 'longitude: 77.5'")
        }
        let firstSol = try missionYAML.int("first_sol") ?? 0
        guard firstSol == 0 || firstSol == 1 else {
            throw Diagnostic.error("'first_sol' must be 0 or 1", at: missionYAML.location(of: "first_sol"),
                                   hint: "0 as for Curiosity and Perseverance, 1 as for Pathfinder and Spirit")
        }
        let image = try siteImage(yaml, log: &log)
        let imageAlt = String((try yaml.string("image_alt") ?? "").trimmingSpaces)
        if image.isEmpty, !imageAlt.isEmpty {
            log.warn("'image_alt' describes no picture: the site has no 'image'", at: yaml.location(of: "image_alt"),
                     hint: "add 'image:' with the picture link previews show (like 'image: img/mission-patch.png'), or remove 'image_alt'")
        }
        let words = try ThemeWords.parse(try yaml.mapping("words"), language: language, log: &log)
        var config = SiteConfiguration(
            title: title,
            description: try yaml.string("description") ?? "",
            baseURL: baseURL,
            language: language,
            pageSize: pageSize,
            allowsRawHTML: try yaml.bool("unsafe_html") ?? false,
            uncheckedLinks: uncheckedLinks,
            sitemapMaxURLs: sitemapMaxURLs,
            hasTagFeeds: try yaml.bool("tag_feeds") ?? false,
            image: image,
            imageAlt: image.isEmpty ? "" : imageAlt,
            imageLocation: image.isEmpty ? nil : yaml.location(of: "image"),
            words: words,
            mission: Mission(name: name, clock: MissionClock(landing: landing, eastLongitude: longitude, firstSol: firstSol))
        )
        config.hasSearch = try yaml.bool("search") ?? false
        config.hasCrewFeeds = try yaml.bool("crew_feeds") ?? false
        config.extra = try yaml.extra("extra")
        config.navigationLinks = try navigationLinks(yaml, log: &log)
        return config
    }

    /// The schemes a link in the navigation may have: a page, or a mail to write.
    static let navigationSchemes: Set<String> = ["http", "https", "mailto"]

    /// The links of `nav:`, each with its title and URL.
    ///
    /// - Throws: A ``Diagnostic`` for an item without either, or a URL of another scheme
    ///   (`javascript:`) or with blanks.
    static func navigationLinks(_ yaml: YAMLMapping, log: inout DiagnosticLog) throws(Diagnostic) -> [NavigationLink] {
        var links: [NavigationLink] = []
        let shape = "write each link as an item '- title: Mission home' with 'url: https://example.org/' under its title"
        for item in try yaml.mappings("nav", hint: shape) {
            item.warnAboutUnknownKeys(["title", "url", "weight"], into: &log, context: "a 'nav' link",
                                      otherNames: ["name": "title", "pageref": "url", "href": "url", "link": "url", "identifier": "title"])
            let title = String(try item.requiredString("title", hint: "add 'title: …': the link's words in the navigation").trimmingSpaces)
            let url = String(try item.requiredString("url", hint: "add 'url: …': a page of the site ('sol/1/') or another site's ('https://…')")
                .trimmingSpaces)
            guard !title.isEmpty else {
                throw Diagnostic.error("a 'nav' link's title is empty", at: item.location(of: "title"), hint: "write the link's words in the navigation")
            }
            let scheme = url.prefix { $0 != ":" && $0 != "/" && $0 != "?" && $0 != "#" }
            if url.isEmpty || url.contains(where: \.isWhitespace)
                || (scheme.count < url.count && url[scheme.endIndex] == ":" && !navigationSchemes.contains(scheme.lowercased())) {
                throw Diagnostic.error("'url' of a 'nav' link must be a page of the site or an http:, https: or mailto: URL, not '\(Diagnostic.excerpt(url))'",
                                       at: item.location(of: "url"),
                                       hint: "write a path from the site's root ('sol/1/'), from the host's ('/other-app/'), or a whole URL ('https://example.org/'), without blanks")
            }
            links.append(NavigationLink(title: title, url: url, weight: try item.int("weight") ?? 0, location: item.location(of: "url")))
        }
        return links
    }

    /// The site's `image:`, trimmed; empty when there is none.
    ///
    /// - Throws: A ``Diagnostic`` for a URL a link preview could not fetch (`data:`, `//host/…`).
    static func siteImage(_ yaml: YAMLMapping, log: inout DiagnosticLog) throws(Diagnostic) -> String {
        guard let given = try yaml.string("image"), case let written = String(given.trimmingSpaces), !written.isEmpty else { return "" }
        let lowered = written.lowercased()
        let scheme = lowered.prefix { $0 != ":" && $0 != "/" && $0 != "?" && $0 != "#" }
        let hasScheme = scheme.count < lowered.count && lowered.dropFirst(scheme.count).hasPrefix(":")
        guard !written.hasPrefix("//"), !hasScheme || scheme == "https" || scheme == "http" else {
            throw Diagnostic.error("image '\(Diagnostic.excerpt(written))' is not an address a link preview can fetch", at: yaml.location(of: "image"),
                                   hint: "give a file of the site, like 'img/mission-patch.png' (relative to the site's root), or an https:// URL")
        }
        if lowered.prefix(while: { $0 != "?" && $0 != "#" }).hasSuffix(".svg") {
            log.warn("image '\(Diagnostic.excerpt(written))' is an SVG image, which link previews do not show", at: yaml.location(of: "image"),
                     hint: "give a PNG, JPEG or WebP image for previews (about 1200 × 630 pixels shows well everywhere)")
        }
        return written
    }

    /// What is wrong with `url` as a site's base URL (`base_url`, `--base-url`), with a hint;
    /// nil when nothing is.
    public static func problem(withBaseURL url: String) -> (problem: String, hint: String)? {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.count > "https://".count else {
            return ("must be an absolute http(s) URL, not '\(Diagnostic.excerpt(url))'", "for example 'https://example.org/' or 'https://example.org/mission/'")
        }
        return baseURLProblem(url)
    }

    /// This configuration published at `url` instead of its `base_url` (`--base-url`, for a
    /// preview of the site at another address): every link, the feed and the sitemap follow.
    /// `url` is one ``problem(withBaseURL:)`` finds nothing wrong with.
    public mutating func publish(at url: String) {
        baseURL = url.hasSuffix("/") ? url : url + "/"
        basePath = Self.path(ofURL: baseURL)
    }

    /// What is wrong with `url` (an `http://` or `https://` URL) as the start of every link
    /// of the site, with a hint; nil when nothing is.
    ///
    /// Every page, the feed and the sitemap put a path after it, so a query or a fragment
    /// would end up in the middle of each URL, and a space or a quote would make links that
    /// are not URLs (`<a href="/my mission/">`). Characters outside ASCII are refused rather
    /// than encoded behind the author's back: a sitemap's URLs must be escaped, and the
    /// encoded form is the one the author will see in a browser's address bar.
    static func baseURLProblem(_ url: String) -> (problem: String, hint: String)? {
        let rest = url.utf8.drop { $0 != UInt8(ascii: ":") }.dropFirst(3)
        let host = rest.prefix { $0 != UInt8(ascii: "/") }
        guard !host.isEmpty else { return ("has no host", "for example 'https://example.org/'") }
        for byte in rest {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"):
                return ("cannot have a query or a fragment ('\(Character(UnicodeScalar(byte)))'): every page's path goes after it",
                        "end it with the path, such as 'https://example.org/mission/'")
            case UInt8(ascii: "@"):
                return ("cannot hold a user name ('@')", "give only the scheme, host and path, such as 'https://example.org/mission/'")
            case 0x80...:
                return ("must be ASCII: every link of the site starts with it, and a sitemap's URLs must be escaped",
                        "percent-encode the path (café → caf%C3%A9) and write the host in its xn-- form")
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            default:
                // RFC 3986's unreserved and sub-delimiters, `:` (a port), `/`, `%`, and `[` `]` (an IPv6 host).
                guard "-._~!$&'()*+,;=:/%[]".utf8.contains(byte) else {
                    let shown = byte == UInt8(ascii: " ") ? "a space" : "'\(Character(UnicodeScalar(byte)))'"
                    return ("cannot hold \(shown)", "percent-encode it (a space is %20), or leave it out of the URL")
                }
            }
        }
        return nil
    }

    static func path(ofURL url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "/" }
        let rest = url[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        var path = String(rest[slash...])
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<query]) }
        return path.hasSuffix("/") ? path : path + "/"
    }

    static func isRightToLeft(_ tag: String) -> Bool {
        // The language, then its subtags up to the first singleton (`x-…` is private use).
        let subtags = tag.lowercased().split(separator: "-").prefix { $0.count > 1 }
        guard let language = subtags.first else { return false }
        // A script is the one subtag of four letters (a variant of four starts with a digit).
        if let script = subtags.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }) {
            return rightToLeftScripts.contains(String(script))
        }
        return rightToLeftLanguages.contains(String(language))
    }

    /// ISO 15924 scripts written right to left, in lowercase: Arabic (and Nastaliq), Hebrew,
    /// Syriac, Thaana, N'Ko, Adlam, Hanifi Rohingya, Mandaic, Mende Kikakui, Samaritan,
    /// Yezidi, and the ancient ones a mission's fiction might quote.
    static let rightToLeftScripts: Set<String> = [
        "adlm", "arab", "aran", "hebr", "mand", "mend", "nkoo", "rohg", "samr", "syrc", "thaa", "yezi",
        "armi", "avst", "chrs", "cprt", "elym", "hung", "khar", "lydi", "mani", "narb", "nbat", "orkh", "ougr",
        "palm", "phli", "phlp", "phnx", "prti", "sarb", "sogd", "sogo",
    ]

    /// Languages (ISO 639, lowercase) usually written in one of those scripts: Arabic,
    /// Persian and Dari, Urdu, Pashto, Sindhi, Kashmiri, Western Punjabi, Uyghur, Central
    /// and Southern Kurdish, Balochi, Hebrew (and its old code `iw`), Yiddish (`ji`),
    /// Aramaic, Syriac, Dhivehi, N'Ko, and a few more of Iran and Pakistan.
    static let rightToLeftLanguages: Set<String> = [
        "ar", "fa", "prs", "ur", "ps", "sd", "ks", "pnb", "ug", "ckb", "sdh", "bal", "he", "iw", "yi", "ji",
        "arc", "syr", "dv", "nqo", "azb", "glk", "mzn", "lrc", "bqi", "khw", "skr",
    ]

    /// Whether `text` is a language tag `language:` takes (`en`, `pt-BR`, `zh-Hans`).
    public static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        // Every language in the IANA registry has a code of two or three letters (ISO 639);
        // the longer forms BCP 47 allows are unassigned, and `lang="english"` is invalid HTML.
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

/// A value a configuration holds that is not one of its settings (where a key was written):
/// every two are equal, and it is encoded as nothing, so that ``SiteConfiguration/settingsDigest``
/// and equality are the settings' alone.
public struct NotASetting<Value: Sendable>: Hashable, Sendable, Encodable {
    public var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
    public func encode(to encoder: any Encoder) throws {}
}
