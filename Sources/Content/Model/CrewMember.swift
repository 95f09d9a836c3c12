import Images

/// A member of the crew, from `content/crew.yml`.
public struct CrewMember: Hashable, Sendable, Codable {
    /// The id authors use in front matter and message headings (`lewis`).
    public var id: String
    /// The full name (`Melissa Lewis`).
    public var name: String
    /// The role (`Commander`).
    public var role: String

    /// Creates a crew member.
    public init(id: String, name: String, role: String) {
        self.id = id
        self.name = name
        self.role = role
    }

    /// `[id]`, as an object this member wrote lists its authors: `shared` when it is that
    /// already (a caller restoring many objects passes one array per author, for them all to
    /// share), else a new one.
    func asAuthorIDs(sharing shared: [String]?) -> [String] {
        if let shared, shared.count == 1, shared[0] == id { return shared }
        return [id]
    }
}

extension ContentHash {
    /// Mixes in what a page shows of a member: id, name and role.
    public mutating func combine(_ member: CrewMember) {
        combine(member.id)
        combine(member.name)
        combine(member.role)
    }
}

/// What a member's own page says of them beyond their name and role: a few words about
/// them and their portrait (`bio:` and `image:` in `content/crew.yml`). Kept apart from
/// ``CrewMember``, which every object a member wrote holds: a bio edited is their page's
/// change alone, not a change to each of their messages.
public struct CrewProfile: Hashable, Sendable {
    /// The bio's Markdown as HTML; empty without one.
    public var bioHTML: String
    /// The bio's start as plain text, for the page's description; empty without one.
    public var summary: String
    /// The portrait's URL, escaped as a page writes it; empty without one.
    public var image: String
    /// Its alt text, `image_alt:`; empty without (the member's name is beside it).
    public var imageAlt: String
    /// Its size, for a static image of the site whose file gives one.
    public var imageSize: ImageSize?

    public init(bioHTML: String = "", summary: String = "", image: String = "", imageAlt: String = "", imageSize: ImageSize? = nil) {
        (self.bioHTML, self.summary, self.image, self.imageAlt, self.imageSize) = (bioHTML, summary, image, imageAlt, imageSize)
    }

    /// Whether there is anything to show.
    public var isEmpty: Bool { bioHTML.isEmpty && image.isEmpty }

    /// The portrait alone, without the bio: what the crew index shows of a member.
    public var portrait: CrewProfile { CrewProfile(image: image, imageAlt: imageAlt, imageSize: imageSize) }
}

extension ContentHash {
    /// Mixes in what a page shows of a member's profile.
    public mutating func combine(_ profile: CrewProfile) {
        combine(profile.bioHTML)
        combine(profile.image)
        combine(profile.imageAlt)
        combine(Int64(profile.imageSize?.width ?? -1))
        combine(Int64(profile.imageSize?.height ?? -1))
    }
}

/// The crew, in the order of `content/crew.yml`.
public struct Crew: Hashable, Sendable {
    /// The members in file order.
    public private(set) var members: [CrewMember]
    private var byID: [String: Int]
    /// Each member's bio and portrait, by id, once rendered (see ``CrewLoader/profiles(of:context:links:log:)``).
    public var profiles: [String: CrewProfile] = [:]

    /// Creates a crew.
    public init(members: [CrewMember]) {
        self.members = members
        self.byID = Dictionary(members.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The member with id `id`, if there is one.
    public func member(id: String) -> CrewMember? {
        byID[id].map { members[$0] }
    }

    /// The one member whose name is `text` (`Sam Okafor`), or one word of whose name it is
    /// (`Okafor`), letter case and spacing aside; nil when none is, or more than one. For a
    /// hint: a person writing a log writes names more readily than ids.
    public func member(named text: String) -> CrewMember? {
        let words = { (name: String) in name.lowercased().split(whereSeparator: \.isWhitespace) }
        let written = words(text)
        guard !written.isEmpty else { return nil }
        let whole = members.filter { words($0.name) == written }
        if whole.count == 1 { return whole[0] }
        guard whole.isEmpty, written.count == 1 else { return nil }
        let byWord = members.filter { words($0.name).contains(written[0]) }
        return byWord.count == 1 ? byWord[0] : nil
    }

    /// The position in ``members`` of the first member with id `id`, if there is one.
    public func position(ofMemberID id: String) -> Int? {
        byID[id]
    }
}
