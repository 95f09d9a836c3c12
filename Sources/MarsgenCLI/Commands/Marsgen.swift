import ArgumentParser
import Site

/// The `marsgen` command: builds sol-dated mission feeds from Markdown.
public struct Marsgen: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "marsgen",
        abstract: "A static site generator for sol-dated mission feeds.",
        discussion: """
            Journal entries, message logs and weather reports in content/ become a sol-dated \
            feed in public/: newest first, the current weather pinned on top, a page per entry, \
            per sol and per crew member, and an Atom feed.
            """,
        version: MarsgenVersion.current,
        subcommands: [BuildCommand.self, WatchCommand.self, ServeCommand.self, NewCommand.self, SolCommand.self, InitCommand.self]
    )

    public init() {}
}
