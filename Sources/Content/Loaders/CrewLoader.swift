import GFM
import Diagnostics
import SiteConfig

/// Reads `content/crew.yml`: crew id → `name`, `role`, and for their page `bio` and `image`.
///
///     lewis:
///       name: Melissa Lewis
///       role: Commander
///       bio: Twenty years in the Navy before NASA. Keeps the disco records.
///       image: img/crew/lewis.jpg
public enum CrewLoader {
    /// The crew file's site-relative path.
    public static let path = "content/crew.yml"

    /// Parses the crew file.
    ///
    /// - Throws: A ``Diagnostic`` for invalid YAML, a bad id or a member without a name.
    public static func load(_ file: SourceFile, log: inout DiagnosticLog) throws(Diagnostic) -> Crew {
        let yaml = try YAMLMapping.parse(file.text, path: file.path,
                                         shape: "write each member as its id and a colon, with 'name:' and 'role:' indented under it")
        var members: [CrewMember] = []
        for id in yaml.keys {
            guard Slug.isValid(id) else {
                let lowercased = id.lowercased()
                throw Diagnostic.error("crew id '\(id)' may use only lowercase letters, digits, '-' and '_'",
                                       at: yaml.keyLocation(of: id),
                                       hint: "ids appear in URLs: /crew/<id>/" + (Slug.isValid(lowercased) ? "; did you mean '\(lowercased)'?" : ""))
            }
            if let problem = Slug.lengthProblem(id, what: "crew id", at: yaml.keyLocation(of: id)) { throw problem }
            // /crew/<id>/ would be a folder named like the crew index page, /crew/index.html.
            guard id != "index.html" else {
                throw Diagnostic.error("crew id 'index.html' is the name of the crew index page's file",
                                       at: yaml.keyLocation(of: id), hint: "ids appear in URLs, /crew/<id>/: choose another")
            }
            // `vega:` alone, or `vega: Ines Vega`: the member's fields are missing.
            guard yaml.holdsMapping(id), let fields = try yaml.mapping(id) else {
                throw Diagnostic.error("crew member '\(id)' needs 'name' and 'role'", at: yaml.keyLocation(of: id),
                                       hint: "indent them under the id: '  name: Full Name' and '  role: Commander'")
            }
            fields.warnAboutUnknownKeys(Set(profileKeys + ["name", "role"]), into: &log, context: "crew member '\(id)'",
                                        otherNames: ["about": "bio", "description": "bio", "photo": "image", "avatar": "image", "portrait": "image"])
            let name = try fields.requiredString("name", hint: "add 'name: Full Name' under '\(id):'")
            let role = try fields.string("role") ?? ""
            members.append(CrewMember(id: id, name: name, role: role))
        }
        return Crew(members: members)
    }

    /// The keys of a member's profile (see ``CrewProfile``), which ``profiles(in:crew:context:links:log:)`` reads.
    static let profileKeys = ["bio", "image", "image_alt"]

    /// Each member's bio and portrait, from the crew file `file` that gave `crew`: `bio:`
    /// (Markdown, as an entry's text is written: links and images relative to the site's
    /// root, checked with the site's links) and `image:` (a picture of the site, or an
    /// `https:` URL), with `image_alt:` (else none on the page, where the name is beside it,
    /// and the name for link previews). Members without either have none.
    ///
    /// - Parameter links: Gets the bios' and portraits' links and images of the site, for
    ///   the build to check.
    /// - Throws: A ``Diagnostic`` for a bio or image that is not text, a portrait no page
    ///   could show (`data:`), or a link in a bio to a content file, which a bio does not follow.
    public static func profiles(in file: SourceFile, crew: Crew, context: ContentContext, links: inout LinkUses,
                                log: inout DiagnosticLog) throws(Diagnostic) -> [String: CrewProfile] {
        let yaml = try YAMLMapping.parse(file.text, path: file.path,
                                         shape: "write each member as its id and a colon, with 'name:' and 'role:' indented under it")
        var profiles: [String: CrewProfile] = [:]
        for member in crew.members where yaml.holdsMapping(member.id) {
            guard let fields = try yaml.mapping(member.id), profileKeys.contains(where: { fields.keys.contains($0) }) else { continue }
            var profile = CrewProfile()
            if let bio = try fields.string("bio"), !bio.allSatisfy(\.isWhitespace) {
                // A block (`bio: |`) starts on the line after its key, each of its lines
                // indented; a bio on the key's line starts at its value's column.
                let location = fields.location(of: "bio")
                let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
                let line = lines.dropFirst(location.line - 1).first ?? ""
                let isBlock = line.dropFirst(max(0, location.column - 1)).first.map { "|>".contains($0) } ?? false
                func columnOffset(onLine number: Int) -> Int {
                    guard isBlock else { return location.column - 1 }
                    return lines.dropFirst(number - 1).first.map { $0.prefix { $0 == " " }.count } ?? 0
                }
                var uses = LinkUses()
                let document = try context.markdown(bio, firstLine: location.line + (isBlock ? 1 : 0),
                                                    ids: TextIDs(footnotePrefix: "crew-\(member.id)-", headingPrefix: ""), in: file,
                                                    uses: &uses, log: &log)
                if let use = uses.files.first {
                    throw Diagnostic.error("link to '\(Diagnostic.excerpt(use.target))' in a bio: a bio's links lead to pages by their URLs",
                                           at: location, hint: "link to the page the file is shown on, like 'journal/first-light/'")
                }
                links.site += uses.site.map { link in
                    var link = link
                    link.column += columnOffset(onLine: link.line)
                    return link
                }
                (profile.bioHTML, profile.summary) = (document.html(), document.summary())
            }
            if try fields.string("image") != nil {
                let image = try JournalLoader.leadImage(fields, document: MarkdownDocument(parsing: ""), basePath: context.config.basePath,
                                                        imageSize: context.imageSize, links: &links, log: &log, isPreview: false)
                (profile.image, profile.imageSize) = (image.url, image.size)
                profile.imageAlt = try fields.string("image_alt").map { String($0.trimmingSpaces) } ?? ""
            }
            if !profile.isEmpty { profiles[member.id] = profile }
        }
        return profiles
    }
}
