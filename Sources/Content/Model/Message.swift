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
    /// Its log, channel and sender, which the messages of one sender in one log share.
    public let origin: MessageOrigin
    public var sourcePath: String { origin.sourcePath }
    /// The log's channel (`pathfinder`, `habitat`).
    public var channel: String { origin.channel }
    /// The sender.
    public var author: CrewMember { origin.author }
    public let instant: Instant
    public let sol: Int
    public let lmst: MarsClockTime
    /// The message text rendered to HTML.
    public let body: HTMLBody
    /// The message text rendered to HTML, as a string.
    public var bodyHTML: String { body.text }
    /// The line of the message's heading in its log.
    public let line: Int

    /// Kept with the origin, not computed: the planner asks every object for its authors on
    /// every build.
    public var authorIDs: [String] { origin.authorIDs }
    public var title: String { "\(author.name) on \(channel), sol \(sol) \(lmst.hourMinute)" }

    /// Creates a message. `ordinal` tells apart two messages of one author at one instant.
    public convenience init(sourcePath: String, channel: String, author: CrewMember, instant: Instant, sol: Int, lmst: MarsClockTime,
                bodyHTML: String, line: Int, ordinal: Int) {
        self.init(origin: MessageOrigin(sourcePath: sourcePath, channel: channel, author: author), instant: instant, sol: sol,
                  lmst: lmst, bodyHTML: bodyHTML, line: line, ordinal: ordinal)
    }

    /// Creates a message from `origin` (which the messages of one sender in one log may
    /// share). `ordinal` tells apart two messages of one author at one instant.
    public convenience init(origin: MessageOrigin, instant: Instant, sol: Int, lmst: MarsClockTime, bodyHTML: String, line: Int,
                            ordinal: Int) {
        let (sourcePath, channel, author) = (origin.sourcePath, origin.channel, origin.author)
        let suffix = ordinal > 0 ? "#\(ordinal)" : ""
        var hash = ContentHash()
        for field in [channel, author.id, author.name, author.role, String(sol), lmst.description, bodyHTML] {
            hash.combine(field)
        }
        hash.combine(instant.unixMillis)
        self.init(restoring: StoredText("message:\(sourcePath)@\(instant.iso8601)/\(author.id)\(suffix)"), contentHash: hash,
                  origin: origin, instant: instant, sol: sol, lmst: lmst, body: HTMLBody(bodyHTML), line: line)
    }

    /// Recreates a message exactly as an earlier build recorded it, identifier and hash
    /// included, without computing them again.
    ///
    /// - Parameter authorIDs: `[author.id]`, when the caller holds it already: messages by one
    ///   author then share one array. Anything else is ignored.
    public convenience init(restoring diffIdentifier: String, contentHash: ContentHash, sourcePath: String, channel: String,
                            author: CrewMember, instant: Instant, sol: Int, lmst: MarsClockTime, body: HTMLBody, line: Int,
                            authorIDs: [String]? = nil) {
        self.init(restoring: StoredText(diffIdentifier), contentHash: contentHash,
                  origin: MessageOrigin(sourcePath: sourcePath, channel: channel, author: author, authorIDs: authorIDs),
                  instant: instant, sol: sol, lmst: lmst, body: body, line: line)
    }

    /// The message restored with its identifier as the state holds it, and its stamp when the
    /// state holds that too (else it is computed from the identifier and the hash).
    public init(restoring identifier: StoredText, contentHash: ContentHash, origin: MessageOrigin, instant: Instant, sol: Int,
                lmst: MarsClockTime, body: HTMLBody, line: Int, stamp: UInt64? = nil) {
        self.identifier = identifier
        self.contentHash = contentHash
        self.stamp = stamp ?? ObjectFingerprint.stamp(identifier: identifier, contentHash: contentHash)
        self.origin = origin
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
            && lhs.origin == rhs.origin
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

/// Where a message comes from and who sent it: what the messages of one sender in one log
/// share, held once for all of them. A large site restores tens of thousands of messages on
/// every rebuild: one reference each instead of five strings and an array (a path, a
/// channel, a sender's id, name and role, and the list of authors) takes a third off each
/// message and five retains off each restore.
public final class MessageOrigin: Sendable, Equatable {
    /// The log's path.
    public let sourcePath: String
    /// The log's channel (`pathfinder`, `habitat`).
    public let channel: String
    /// The sender.
    public let author: CrewMember
    /// `[author.id]`: a message's authors.
    public let authorIDs: [String]

    /// An origin; `authorIDs` is `[author.id]`, the array given when it is that already (a
    /// caller restoring many objects passes one array per author, for them all to share).
    public init(sourcePath: String, channel: String, author: CrewMember, authorIDs: [String]? = nil) {
        self.sourcePath = sourcePath
        self.channel = channel
        self.author = author
        self.authorIDs = author.asAuthorIDs(sharing: authorIDs)
    }

    /// Whether it is the origin of a message of `author` in the log at `sourcePath` on `channel`.
    public func isOrigin(sourcePath: String, channel: String, author: CrewMember) -> Bool {
        self.sourcePath == sourcePath && self.channel == channel && self.author == author
    }

    public static func == (lhs: MessageOrigin, rhs: MessageOrigin) -> Bool {
        lhs === rhs || lhs.isOrigin(sourcePath: rhs.sourcePath, channel: rhs.channel, author: rhs.author)
    }
}
