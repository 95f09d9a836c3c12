import Content
import Diagnostics

/// The objects a saved state's content files give the loaders, by kind and in path order,
/// with the files' warnings: what the next build of the same process (`marsgen watch`,
/// `marsgen serve`) takes for a kind none of whose files changed, instead of gathering the
/// objects of every file from its record again (touching each of tens of thousands of
/// objects, a sixth of a watched rebuild after one edit).
///
/// Made from the state as saved, in the background (see `SiteBuilder.saveBuildState`), and
/// good only for the build whose previous state is that one (same token).
struct KeptContent: Sendable {
    /// What one kind's files gave.
    struct Kind<Object: Sendable>: Sendable {
        /// How many files of the kind the state holds records of.
        var fileCount = 0
        var objects: [Object] = []
        var warnings: [Diagnostic] = []
    }

    /// The token of the state it was made from.
    let stateToken: String
    var journal = Kind<JournalEntry>()
    var messages = Kind<Message>()
    var weather = Kind<WeatherReport>()

    init(stateToken: String) {
        self.stateToken = stateToken
    }
}
