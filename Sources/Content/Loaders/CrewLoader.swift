import Diagnostics
import SiteConfig

/// Reads `content/crew.yml`: crew id → `name`, `role`.
///
///     lewis:
///       name: Melissa Lewis
///       role: Commander
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
            fields.warnAboutUnknownKeys(["name", "role"], into: &log, context: "crew member '\(id)'")
            let name = try fields.requiredString("name", hint: "add 'name: Full Name' under '\(id):'")
            let role = try fields.string("role") ?? ""
            members.append(CrewMember(id: id, name: name, role: role))
        }
        return Crew(members: members)
    }
}
