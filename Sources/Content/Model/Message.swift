import MarsTime

/// One message from a message log (`content/messages/*.md`), under its `## <when> <author>` heading.
///
/// A class, as every ``FeedObject`` is; every property is a constant, so it is still a value
/// in all but name.
public final class Message: FeedObject, Hashable {
    public var kind: ObjectKind { .message }
    /// Made a string when asked for: a rebuild restores tens of thousands and asks a few.
    public var diffIdentifier: String { identifier.text }
    /// The identifier as it is held (see ``StoredText``).
    public let identifier: StoredText
    public let contentHash: ContentHash
    public let stamp: UInt64
    public let sourcePath: String
    /// The log's channel (`pathfinder`, `habitat`).
    public let channel: String
    /// The sender.
    public let author: CrewMember
    public let instant: Instant
    public let sol: Int
    public let lmst: MarsClockTime
    /// The message text rendered to HTML.
    public let body: HTMLBody
    /// The message text rendered to HTML, as a string.
    public var bodyHTML: String { body.text }
    /// The line of the message's heading in its log.
    public let line: Int

    /// Stored, not computed: the planner asks every object for its authors on every build.
    public let authorIDs: [String]
    public var title: String { "\(author.name) on \(channel), sol \(sol) \(lmst.hourMinute)" }

    /// Creates a message. `ordinal` tells apart two messages of one author at one instant.
    public convenience init(sourcePath: String, channel: String, author: CrewMember, instant: Instant, sol: Int, lmst: MarsClockTime,
                bodyHTML: String, line: Int, ordinal: Int) {
        let suffix = ordinal > 0 ? "#\(ordinal)" : ""
        var hash = ContentHash()
        for field in [channel, author.id, author.name, author.role, String(sol), lmst.description, bodyHTML] {
            hash.combine(field)
        }
        hash.combine(instant.unixMillis)
        self.init(restoring: "message:\(sourcePath)@\(instant.iso8601)/\(author.id)\(suffix)", contentHash: hash,
                  sourcePath: sourcePath, channel: channel, author: author, instant: instant, sol: sol, lmst: lmst,
                  body: HTMLBody(bodyHTML), line: line)
    }

    /// Recreates a message exactly as an earlier build recorded it, identifier and hash
    /// included, without computing them again.
    ///
    /// - Parameter authorIDs: `[author.id]`, when the caller holds it already: messages by one
    ///   author then share one array. Anything else is ignored.
    public convenience init(restoring diffIdentifier: String, contentHash: ContentHash, sourcePath: String, channel: String,
                            author: CrewMember, instant: Instant, sol: Int, lmst: MarsClockTime, body: HTMLBody, line: Int,
                            authorIDs: [String]? = nil) {
        self.init(restoring: StoredText(diffIdentifier), contentHash: contentHash, sourcePath: sourcePath, channel: channel,
                  author: author, instant: instant, sol: sol, lmst: lmst, body: body, line: line, authorIDs: authorIDs)
    }

    /// The message restored with its identifier as the state holds it, and its stamp when the
    /// state holds that too (else it is computed from the identifier and the hash).
    public init(restoring identifier: StoredText, contentHash: ContentHash, sourcePath: String, channel: String,
                author: CrewMember, instant: Instant, sol: Int, lmst: MarsClockTime, body: HTMLBody, line: Int,
                authorIDs: [String]? = nil, stamp: UInt64? = nil) {
        self.identifier = identifier
        self.contentHash = contentHash
        self.stamp = stamp ?? ObjectFingerprint.stamp(identifier: identifier, contentHash: contentHash)
        self.sourcePath = sourcePath
        self.channel = channel
        self.author = author
        self.authorIDs = author.asAuthorIDs(sharing: authorIDs)
        self.instant = instant
        self.sol = sol
        self.lmst = lmst
        self.body = body
        self.line = line
    }

    public static func == (lhs: Message, rhs: Message) -> Bool {
        if lhs === rhs { return true }
        return lhs.diffIdentifier == rhs.diffIdentifier
            && lhs.contentHash == rhs.contentHash
            && lhs.sourcePath == rhs.sourcePath
            && lhs.channel == rhs.channel
            && lhs.author == rhs.author
            && lhs.instant == rhs.instant
            && lhs.sol == rhs.sol
            && lhs.lmst == rhs.lmst
            && lhs.body == rhs.body
            && lhs.line == rhs.line
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(diffIdentifier)
        hasher.combine(contentHash)
    }
}
