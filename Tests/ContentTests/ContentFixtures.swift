import Content
import Diagnostics
import MarsTime
import SiteConfig
import Testing

/// A small mission and crew for loader tests.
enum ContentFixtures {
    static let configText = """
        title: Test Log
        base_url: https://example.org/log/
        mission:
          name: Test
          landing: 2038-11-02T14:17:00Z
          longitude: -58.2
          first_sol: 1
        """

    static var config: SiteConfiguration {
        var log = DiagnosticLog()
        // The fixture is valid; a failure here fails every test that uses it.
        return (try? SiteConfiguration.parse(configText, log: &log))!
    }

    static let crew = Crew(members: [
        CrewMember(id: "vega", name: "Ines Vega", role: "Commander"),
        CrewMember(id: "okoro", name: "Daniel Okoro", role: "Engineer"),
    ])

    static var context: ContentContext { ContentContext(config: config, crew: crew) }
}

/// Runs `body` and returns the diagnostic it throws, failing the test if it does not throw one.
func expectDiagnostic(_ body: () throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Diagnostic? {
    do {
        try body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch let diagnostic as Diagnostic {
        return diagnostic
    } catch {
        Issue.record("expected a Diagnostic, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
