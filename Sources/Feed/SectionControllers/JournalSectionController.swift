import Content
import SiteConfig
import Foundation
import GFM

/// A journal entry: a date cell (`SOL 452 · 14:02 LMST`, linking to the sol) and a text
/// cell (title, author and rendered Markdown, linking to the entry's page; on that page,
/// the title is the page's heading). Elsewhere an entry with a `<!--more-->` shows the text
/// before it, and a link on.
public struct JournalSectionController: SectionController {
    public var kind: ObjectKind { .journal }
    public var cellTemplates: [String] { ["cell-journal-date", "cell-journal-text"] }

    /// Creates the controller.
    public init() {}

    public func section(for object: any FeedObject, context: FeedContext) -> FeedSection? {
        guard let entry = object as? JournalEntry else { return nil }
        let time = context.timeContext(for: entry)
        var text = time
        text["title"] = context.words.title(of: entry)
        text["hasExplicitTitle"] = entry.explicitTitle != nil
        let url = context.links.journal(slug: entry.slug)
        text["url"] = url
        text["authorName"] = entry.author.name
        text["authorRole"] = entry.author.role
        text["hasAuthorRole"] = !entry.author.role.isEmpty
        text["authorURL"] = context.links.crew(entry.author.id)
        text["tags"] = entry.tags.map { ["name": $0, "url": context.links.tag(Slug.ofTag($0))] }
        text["hasTags"] = !entry.tags.isEmpty
        text["isDraft"] = entry.isDraft
        // Pages listing the entry show the part before its <!--more-->, with a link on to
        // where it breaks on its own page.
        let isTeaser = entry.hasTeaser && !context.isOwnPage
        text["body"] = isTeaser ? Self.teaser(entry.teaser.text, linkingOnTo: url)
            : context.isOwnPage ? Self.loadingFirstImageAtOnce(entry.bodyHTML) : entry.bodyHTML
        text["hasMore"] = isTeaser
        if isTeaser { text["moreURL"] = url + "#" + JournalEntry.continueFragment }
        text["isOwnPage"] = context.isOwnPage
        text["wordCount"] = entry.wordCount
        let minutes = ReadingTime.minutes(forWords: entry.wordCount)
        text["readingMinutes"] = minutes
        text["readingTime"] = context.words.counted(.readingTime, minutes)
        // Its own page lists its headings, when its front matter asks.
        if !entry.extra.isEmpty { text["extra"] = ExtraValue.templateValue(of: entry.extra) }
        let hasContents = context.isOwnPage && !entry.tableOfContents.isEmpty
        text["hasTableOfContents"] = hasContents
        if hasContents { text["tableOfContents"] = entry.tableOfContents.text }
        return FeedSection(kind: kind, diffIdentifier: entry.diffIdentifier, contentHash: isTeaser ? Self.teaserHash(of: entry) : entry.contentHash,
                           anchor: context.links.anchor(for: entry), layout: .stacked,
                           cells: [RenderRequest(template: "cell-journal-date", context: time),
                                   RenderRequest(template: "cell-journal-text", context: text)])
    }
}

extension JournalSectionController {
    /// A hash of what a section showing `entry`'s teaser shows: everything its cells are
    /// made of but the text after the break, so that an edit there leaves the pages listing
    /// the entry as they were (their sections' `data-diff-hash` included).
    static func teaserHash(of entry: JournalEntry) -> ContentHash {
        var hash = ContentHash()
        hash.combine(Int64(bitPattern: entry.listingStamp))
        hash.combine(entry.author.role)
        hash.combine(entry.isDraft ? "draft" : "")
        hash.combine(Int64(entry.tags.count))
        for tag in entry.tags { hash.combine(tag) }
        // The listing stamp holds the title, slug, author, date and `extra` already.
        entry.teaser.withUTF8 { hash.combine(buffer: $0) }
        return hash
    }

    /// `body` with its first image loaded as the page loads: on an entry's own page it is
    /// likely the largest thing in view, which a browser paints later when it waits to lay
    /// the page out first (`loading="lazy"`). The others stay lazy, as everywhere else.
    static func loadingFirstImageAtOnce(_ body: String) -> String {
        // On the bytes, with the standard library's search: no copy of a body without images.
        let bytes = body.utf8
        guard let start = bytes.firstRange(of: "<img ".utf8), let end = bytes[start.upperBound...].firstIndex(of: UInt8(ascii: ">")),
              let lazy = bytes[start.upperBound..<end].firstRange(of: " loading=\"lazy\"".utf8) else { return body }
        return String(body[..<lazy.lowerBound]) + String(body[lazy.upperBound...])
    }

    /// `teaser` with each link within the page (`href="#…"`) to an element it does not
    /// hold (a heading or a footnote after the break) written after `page`, the entry's
    /// own page, where the element is: on a page listing the entry, it would lead nowhere.
    static func teaser(_ teaser: String, linkingOnTo page: String) -> String {
        let linkStart = "href=\"#"
        guard teaser.contains(linkStart) else { return teaser }
        var held: Set<Substring> = []
        var rest = teaser[...]
        while let found = rest.firstRange(of: " id=\"") {
            let value = rest[found.upperBound...].prefix { $0 != "\"" }
            held.insert(value)
            rest = rest[value.endIndex...]
        }
        var linked = ""
        linked.reserveCapacity(teaser.utf8.count + 64)
        rest = teaser[...]
        while let found = rest.firstRange(of: linkStart) {
            let fragment = rest[found.upperBound...].prefix { $0 != "\"" }
            linked += rest[..<found.lowerBound]
            // A heading's id is written percent-escaped in a link (`caf%C3%A9`).
            let isHeld = held.contains(fragment) || fragment.removingPercentEncoding.map { held.contains(Substring($0)) } == true
            linked += isHeld ? linkStart : "href=\"" + page + "#"
            rest = rest[found.upperBound...]
        }
        linked += rest
        return linked
    }
}
