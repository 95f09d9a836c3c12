import CCmarkGFM
import Foundation

/// cmark-gfm's extensions, made safe to use from many threads at once.
///
/// The library is not: registering the core extensions is an unguarded check-then-set, and
/// every parse switches its extensions' special inline characters (`|`, `:`, `w`, `~`) on in
/// one process-wide table and off again when it finishes (a table row does it too). Two
/// parses at once then see those characters switched off halfway through and silently
/// lose tables, autolinks and strikethrough, or crash in the table extension.
///
/// So registration runs once (a Swift global is initialised exactly once), and:
/// - the table and autolink characters are switched on for good, and those extensions'
///   lists of them emptied, so no parse switches them off again (they only drive
///   `match_inline`, which does not consult the list);
/// - strikethrough needs its list (cmark-gfm looks its delimiter up there), so it is
///   attached only to documents that contain a `~`, and those parses take a lock. A
///   document without `~` parses and renders the same with or without it.
enum ExtensionRegistry {
    /// The extensions every document gets, in `MarkdownDocument.extensionNames` order.
    static var alwaysAttached: [OpaquePointer] { prepared.alwaysAttached }
    /// The extensions for a document containing `~`, in the same order.
    static var withStrikethrough: [OpaquePointer] { prepared.withStrikethrough }

    /// Serialises the parses that switch `~` on and off.
    static let strikethroughLock = NSLock()

    private static let prepared = Prepared()

    private struct Prepared: @unchecked Sendable {
        let alwaysAttached: [OpaquePointer]
        let withStrikethrough: [OpaquePointer]

        init() {
            cmark_gfm_core_extensions_ensure_registered()
            var always: [OpaquePointer] = [], all: [OpaquePointer] = []
            for name in MarkdownDocument.extensionNames {
                guard let item = cmark_find_syntax_extension(name) else { continue }
                all.append(item)
                if name != "strikethrough" { always.append(item) }
            }
            alwaysAttached = always
            withStrikethrough = all
            guard let keeper = cmark_parser_new(CMARK_OPT_DEFAULT) else { return }
            for item in always { cmark_parser_attach_syntax_extension(keeper, item) }
            cmark_manage_extensions_special_characters(keeper, 1)
            cmark_parser_free(keeper)
            // The library frees these lists only with the extension, which lives as long as
            // the process; dropping them leaks a few bytes, once.
            for item in always { cmark_syntax_extension_set_special_inline_chars(item, nil) }
        }
    }
}
