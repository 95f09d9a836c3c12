extension ThemeWords {
    /// A word of the built-in theme, named as `words:` names it (`continue_reading`).
    public enum Key: String, CaseIterable, Hashable, Sendable {
        // The site's parts: the navigation and the pages' headings.
        case feed, journal, sols, crew, tags, atom
        case siteNavigation = "site_navigation"
        case pageNavigation = "page_navigation"
        case skipToContent = "skip_to_content"
        case latest
        case missionLog = "mission_log"
        case latestSol = "latest_sol"
        case older, newer
        case solTitle = "sol_title"
        case solRange = "sol_range"
        case archiveTitle = "archive_title"
        case archiveHeading = "archive_heading"
        case tagTitle = "tag_title"
        case tagFeedSubtitle = "tag_feed_subtitle"
        case crewFeedSubtitle = "crew_feed_subtitle"
        // Ledes and empty pages.
        case journalEntries = "journal_entries"
        case entries, messages
        case newestFirst = "newest_first"
        case byTag = "by_tag"
        case allTags = "all_tags"
        case tagged
        case tagFeed = "tag_feed"
        case crewFeed = "crew_feed"
        case earth
        case emptyFeed = "empty_feed"
        case emptyJournal = "empty_journal"
        case emptySols = "empty_sols"
        case emptyCrew = "empty_crew"
        case emptyTags = "empty_tags"
        // The cells.
        case solLabel = "sol_label"
        case lmst
        case by, draft, contents
        case readingTime = "reading_time"
        case continueReading = "continue_reading"
        case untitledEntry = "untitled_entry"
        case messageTitle = "message_title"
        case weather
        case weatherTitle = "weather_title"
        case weatherText = "weather_text"
        case sunrise, sunset, high, low
        case details
        case detailsNotes = "details_notes"
        case hide
        case clear, cloudy
        case dustStorm = "dust_storm"
        case windy, snow, fog
        // The footer, the page not found and an old address.
        case landed
        case clockNote = "clock_note"
        case builtWith = "built_with"
        case notFound = "not_found"
        case notFoundCode = "not_found_code"
        case notFoundText = "not_found_text"
        case backToFeed = "back_to_feed"
        case moved
        // The search page (`search: true`).
        case search
        case searchResults = "search_results"
        case searchNone = "search_none"
        case searchNeedsScript = "search_needs_script"
        case searchUnavailable = "search_unavailable"
        case searchMore = "search_more"

        /// The English word, or a counted word's `other` form.
        public var defaultText: String {
            switch self {
            case .feed: "Feed"
            case .journal: "Journal"
            case .sols: "Sols"
            case .crew: "Crew"
            case .tags: "Tags"
            case .atom: "Atom"
            case .siteNavigation: "Site"
            case .pageNavigation: "Pages"
            case .skipToContent: "Skip to content"
            case .latest: "Latest transmissions"
            case .missionLog: "{mission} mission log"
            case .latestSol: "The latest sol with content"
            case .older: "Older"
            case .newer: "Newer"
            case .solTitle: "Sol {sol}"
            case .solRange: "Sols {first}–{last}"
            case .archiveTitle: "Archive page {number}, {range}"
            case .archiveHeading: "Archive · {range}"
            case .tagTitle: "Tag: {tag}"
            case .tagFeedSubtitle: "Journal entries tagged {tag}"
            case .crewFeedSubtitle: "Journal entries and messages by {name}"
            case .journalEntries: "{count} journal entries"
            case .entries: "{count} entries"
            case .messages: "{count} messages"
            case .newestFirst: "newest first"
            case .byTag: "by tag"
            case .allTags: "all tags"
            case .tagged: "tagged"
            case .tagFeed: "feed"
            case .crewFeed: "feed"
            case .earth: "Earth"
            case .emptyFeed: "No transmissions yet."
            case .emptyJournal: "No journal entries yet."
            case .emptySols: "No sols with content yet."
            case .emptyCrew: "No crew listed in content/crew.yml."
            case .emptyTags: "No tags yet."
            case .solLabel: "SOL"
            case .lmst: "LMST"
            case .by: "by"
            case .draft: "draft"
            case .contents: "Contents"
            case .readingTime: "{count} min read"
            case .continueReading: "Continue reading"
            case .untitledEntry: "Sol {sol}, {time} LMST"
            case .messageTitle: "{author} on {channel}, sol {sol} {time}"
            case .weather: "WEATHER"
            case .weatherTitle: "Weather, sol {sol}: {temperature} °C, {condition}"
            case .weatherText: "{temperature} °C, {condition}. High {high} °C, low {low} °C. Sunrise {sunrise}, sunset {sunset} LMST."
            case .sunrise: "SUNRISE"
            case .sunset: "SUNSET"
            case .high: "HIGH"
            case .low: "LOW"
            case .details: "Details"
            case .detailsNotes: "Details + notes"
            case .hide: "Hide"
            case .clear: "clear"
            case .cloudy: "cloudy"
            case .dustStorm: "dust storm"
            case .windy: "windy"
            case .snow: "snow"
            case .fog: "fog"
            case .landed: "landed"
            case .clockNote: "sols in local mean solar time (Mars24)"
            case .builtWith: "Built with marsgen"
            case .notFound: "Signal lost"
            case .notFoundCode: "ERR 404 · NO CARRIER"
            case .notFoundText: "This page is not in the mission log. It may have moved, or never been transmitted."
            case .backToFeed: "Back to the feed"
            case .moved: "This page has moved:"
            case .search: "Search"
            case .searchResults: "{count} results"
            case .searchNone: "Nothing in the log matches “{query}”."
            case .searchNeedsScript: "Search runs in your browser, and needs JavaScript turned on."
            case .searchUnavailable: "The search index could not be loaded. Try again later."
            case .searchMore: "More results"
            }
        }

        /// A counted word's English `one` form; the ``defaultText`` of the others.
        public var defaultOne: String {
            switch self {
            case .journalEntries: "{count} journal entry"
            case .entries: "{count} entry"
            case .messages: "{count} message"
            case .searchResults: "{count} result"
            default: defaultText
            }
        }

        /// Whether the word takes a form by a number, `{count}` (see ``ThemeWords/counted(_:_:)``).
        public var isCounted: Bool {
            switch self {
            case .journalEntries, .entries, .messages, .readingTime, .searchResults: true
            default: false
            }
        }

        /// The placeholders the word may hold, as the English one does.
        public var placeholders: [String] { ThemeWords.placeholders(in: defaultText) }
    }
}
