import CCmarkGFM
import Foundation

/// Where a link, an image or raw HTML starts in the text, where cmark-gfm's own place for it
/// is wrong.
///
/// cmark-gfm parses a paragraph's inlines from its text with each line's block-quote markers,
/// list indentation and leading whitespace taken off (a lazy line, one that does not go on in
/// every block holding the paragraph, keeps its whitespace), and places an inline by the
/// number of line ends it has counted and the bytes since the last one. That is right on a paragraph's first line and
/// wrong after it in several ways: a column counts from where the *first* line's text starts
/// (a lazy line of a block quote, or a line indented more or less, is off by the difference);
/// a line end inside a code span, raw HTML or a link's title, or after a backslash (a hard
/// line break), is not counted, so what follows is given the line before and a column from
/// that line's start; a link whose text goes on over lines is given the line it ends on. And
/// when a table takes the last lines of a paragraph (`see ![map](m.png)` on the line before
/// `| a | b |`), the table extension parses what is left again, alone: the paragraph has no
/// place, and its inlines count lines and columns from 0 within it (the table starts where
/// the paragraph did).
///
/// The place is found again from the text: the byte offset of an inline within the
/// paragraph's text is the offset just after the last line end cmark-gfm counted, plus its
/// column less the first line's; which line ends it counted is read from the paragraph's
/// breaks, in order, against the text. A paragraph on one line keeps cmark-gfm's place. A
/// heading underlined with `===` or `---` is a paragraph's text. A table cell's place, and an
/// HTML block's later lines, have their own rules (below).
struct InlinePlaces {
    private let text: String
    /// Byte offset of each line's start in `text`, made when first needed.
    private var lineStarts: [Int]?
    /// The paragraphs walked, with where their text is in the file.
    private var paragraphs: [OpaquePointer: ParagraphText] = [:]
    /// The offset within its paragraph's text of each inline walked.
    private var offsets: [OpaquePointer: Int] = [:]
    /// Where each line of an HTML block's literal starts, and the spaces before its tag.
    private var blockLines: [OpaquePointer: (lineStarts: [Int], indentation: Int)] = [:]

    init(text: String) {
        self.text = text
    }

    /// The line and column in the text (both from 1) of the byte `bytes` after the start of
    /// `node`, an inline; column 0 when the place is not known.
    ///
    /// `bytes` counts within the node's source (raw HTML's literal is its source).
    mutating func start(of node: OpaquePointer, advancedBy bytes: Int = 0) -> (line: Int, column: Int) {
        let line = Int(cmark_node_get_start_line(node))
        let column = Int(cmark_node_get_start_column(node))
        guard let block = Self.enclosingBlock(of: node) else { return (line, column + bytes) }
        if Self.typeName(of: block) == "table_cell" { return startInCell(node, cell: block, advancedBy: bytes) }
        // A heading underlined with `===` or `---` is a paragraph's text made a heading, over
        // lines as one; other blocks (an ATX heading) hold one line.
        let type = cmark_node_get_type(block)
        guard type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING else { return (line, column + bytes) }
        let paragraph = block
        let paragraphLine = Int(cmark_node_get_start_line(paragraph))
        if paragraphLine > 0, paragraphLine == Int(cmark_node_get_end_line(paragraph)) { return (line, column + bytes) }
        if paragraphs[paragraph] == nil { walk(paragraph) }
        guard let text = paragraphs[paragraph], let offset = offsets[node] else { return (line, 0) }
        return text.place(ofOffset: offset + bytes)
    }

    /// The place of an inline in a table cell. cmark-gfm places it in the row's text from its
    /// first non-blank byte, but counts from the row's column (where the prefixes of the
    /// blocks holding the table end), with each `\|` (a pipe within a cell) made `|`: one byte
    /// short per escape before it. A header row whose table took the last lines of a
    /// paragraph is placed in the paragraph's text (on the paragraph's first line, the column
    /// counted from its start).
    private mutating func startInCell(_ node: OpaquePointer, cell: OpaquePointer, advancedBy extra: Int) -> (line: Int, column: Int) {
        let line = Int(cmark_node_get_start_line(node))
        let column = Int(cmark_node_get_start_column(node)) + extra
        guard let row = cmark_node_parent(cell), let table = cmark_node_parent(row) else { return (line, column) }
        let starts = textLineStarts()
        var text = text
        return text.withUTF8 { bytes -> (line: Int, column: Int) in
            let prefixes = LinePrefixes(of: table, in: bytes, lineStarts: starts)
            var rowLine = line
            /// Where the row's text starts in `bytes`, and the node's offset within it as cmark-gfm counts.
            var (rowStart, offset) = (0, 0)
            if cmark_gfm_extensions_get_table_row_is_header(row) != 0, let paragraph = cmark_node_previous(table),
               Self.table(after: paragraph) == table {
                // The delimiter row follows the header, and the first body row (if any) it.
                let first = (line: Int(cmark_node_get_start_line(table)), column: Int(cmark_node_get_start_column(table)))
                rowLine = cmark_node_next(row).map { Int(cmark_node_get_start_line($0)) - 2 } ?? Int(cmark_node_get_end_line(table)) - 1
                guard first.line >= 1, rowLine > first.line, rowLine <= starts.count else { return (line, 0) }
                // The header's offset in the paragraph's text: the lines before it, each with its line end.
                var headerOffset = prefixes.end(ofLine: first.line) - (starts[first.line - 1] + first.column - 1) + 1
                for before in (first.line + 1)..<rowLine {
                    headerOffset += prefixes.end(ofLine: before) - prefixes.textStart(ofLine: before) + 1
                }
                rowStart = prefixes.textStart(ofLine: rowLine)
                // Counted from the paragraph's first column, as its first line's inlines are.
                offset = column - first.column - headerOffset
            } else {
                guard rowLine >= 1, rowLine <= starts.count else { return (line, 0) }
                // Counted from the row's own column (where its holders' prefixes end) over its
                // text from its first non-blank byte: a row indented further is off by as much.
                rowStart = prefixes.textStart(ofLine: rowLine)
                offset = column - Int(cmark_node_get_start_column(row))
            }
            guard offset >= 0 else { return (rowLine, 0) }
            // Each escaped pipe before the offset is two bytes of the file.
            let limit = prefixes.end(ofLine: rowLine)
            var index = rowStart
            for _ in 0..<offset where index < limit {
                index += bytes[index] == UInt8(ascii: "\\") && index + 1 < limit && bytes[index + 1] == UInt8(ascii: "|") ? 2 : 1
            }
            return (rowLine, index - starts[rowLine - 1] + 1)
        }
    }

    /// The line (from 1) where a top-level block starts: a paragraph a table took the last
    /// lines of has no place of its own, but the table after it starts where it did.
    static func startLine(ofBlock node: OpaquePointer) -> Int {
        Int(cmark_node_get_start_line(table(after: node) ?? node))
    }

    /// The line and column in the text (both from 1) of byte `offset` of the literal of
    /// `node`, an HTML block. Its first line is as written from the line's start or the
    /// containers' prefixes (cmark-gfm's column is where its tag starts, after any
    /// indentation the literal keeps); each later line is the file's line after the prefixes
    /// of the block quotes and list items that hold the block.
    mutating func place(inBlock node: OpaquePointer, offset: Int) -> (line: Int, column: Int) {
        let startLine = Int(cmark_node_get_start_line(node))
        let startColumn = Int(cmark_node_get_start_column(node))
        guard let literal = cmark_node_get_literal(node) else { return (startLine, 0) }
        // Where each of the literal's lines starts, once per block: a block may hold
        // thousands of lines, each with a URL.
        let (lines, indentation): ([Int], Int)
        if let known = blockLines[node] {
            (lines, indentation) = known
        } else {
            let html = UnsafeBufferPointer(start: UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self), count: strlen(literal))
            var found = [0]
            for index in html.indices where html[index] == UInt8(ascii: "\n") { found.append(index + 1) }
            // The spaces before the tag on the first line, which the literal keeps.
            (lines, indentation) = (found, html.prefix { $0 == UInt8(ascii: " ") }.count)
            blockLines[node] = (lines, indentation)
        }
        // The last line that starts at or before the offset, by halves.
        var (low, high) = (0, lines.count)
        while low < high {
            let middle = (low + high) / 2
            if lines[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let (line, lineStart) = (startLine + low - 1, lines[low - 1])
        if line == startLine { return (line, startColumn - indentation + offset) }
        let starts = textLineStarts()
        guard line <= starts.count else { return (line, 0) }
        var text = text
        return text.withUTF8 { bytes in
            let prefix = LinePrefixes(of: node, in: bytes, lineStarts: starts).prefixEnd(ofLine: line)
            let column = prefix.index - starts[line - 1] + 1
            // Within what is left of a tab the prefixes split: the tab's column.
            return (line, offset - lineStart < prefix.spacesLeft ? column - 1 : column + offset - lineStart - prefix.spacesLeft)
        }
    }

    /// What each block holding a node asks of the node's later lines, read off the text.
    private struct LinePrefixes {
        let bytes: UnsafeBufferPointer<UInt8>
        let starts: [Int]
        /// From the outermost holder in.
        private(set) var containers: [Container] = []

        /// The prefixes for the lines of `node` (a paragraph, a heading or a block).
        init(of node: OpaquePointer, in bytes: UnsafeBufferPointer<UInt8>, lineStarts starts: [Int]) {
            (self.bytes, self.starts) = (bytes, starts)
            var holders: [OpaquePointer] = []
            var parent = cmark_node_parent(node)
            while let current = parent, cmark_node_get_type(current) != CMARK_NODE_DOCUMENT {
                holders.append(current)
                parent = cmark_node_parent(current)
            }
            for holder in holders.reversed() {
                let type = cmark_node_get_type(holder)
                if type == CMARK_NODE_BLOCK_QUOTE {
                    containers.append(.quote)
                } else if type == CMARK_NODE_FOOTNOTE_DEFINITION {
                    containers.append(.indented(4))
                } else if type == CMARK_NODE_ITEM {
                    // A list item's later lines are indented to its text: the marker's own
                    // indentation, its width, and the 1 to 4 spaces after it (1 when more, or none).
                    let line = Int(cmark_node_get_start_line(holder))
                    guard line >= 1, line <= starts.count else { return }
                    let limit = end(ofLine: line)
                    let prefix = prefixEnd(ofLine: line)
                    let marker = whitespace(from: prefix.index, column: prefix.column, limit: limit)
                    var index = marker.index
                    while index < limit, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                    if index < limit { index += 1 }
                    let afterMarker = marker.column + index - marker.index
                    let spaces = whitespace(from: index, column: afterMarker, limit: limit)
                    let padding = spaces.index == limit || spaces.column - afterMarker > 4 ? 1 : spaces.column - afterMarker
                    containers.append(.indented(afterMarker - prefix.column + padding))
                }
            }
        }

        /// The end of the file's line `line` (the index of its line end, or the file's end).
        func end(ofLine line: Int) -> Int { line < starts.count ? starts[line] - 1 : bytes.count }

        /// The index after the whitespace from `index`, and the columns it spans from
        /// `column` (a tab reaches the next multiple of 4).
        func whitespace(from index: Int, column: Int, limit: Int) -> (index: Int, column: Int) {
            var (index, at) = (index, column)
            while index < limit {
                if bytes[index] == UInt8(ascii: " ") { at += 1 } else if bytes[index] == UInt8(ascii: "\t") { at += 4 - at % 4 } else { break }
                index += 1
            }
            return (index, at)
        }

        /// Where the containers' prefixes end on the file's line `line`, or where they stop
        /// matching (`matched` false: a lazy line, whose text keeps its whitespace).
        /// `spacesLeft` counts the columns of a tab the prefixes took only part of (the
        /// byte before `index`): cmark-gfm gives what follows them as that many spaces.
        func prefixEnd(ofLine line: Int) -> (index: Int, column: Int, matched: Bool, spacesLeft: Int) {
            var (index, column, spacesLeft) = (starts[line - 1], 0, 0)
            let limit = end(ofLine: line)
            for container in containers {
                // What is left of a tab the previous prefix split counts as indentation.
                let carried = spacesLeft
                spacesLeft = 0
                switch container {
                case .quote:
                    let indented = whitespace(from: index, column: column, limit: limit)
                    guard indented.column - column + carried <= 3, indented.index < limit, bytes[indented.index] == UInt8(ascii: ">") else {
                        return (index, column, false, carried)
                    }
                    (index, column) = (indented.index + 1, indented.column + 1)
                    // One column after the marker is the marker's: a space, or a tab's first.
                    if index < limit, bytes[index] == UInt8(ascii: " ") {
                        (index, column) = (index + 1, column + 1)
                    } else if index < limit, bytes[index] == UInt8(ascii: "\t") {
                        let width = 4 - column % 4
                        (index, column, spacesLeft) = (index + 1, column + width, width - 1)
                    }
                case .indented(let columns):
                    guard whitespace(from: index, column: column, limit: limit).column - column + carried >= columns else {
                        return (index, column, false, carried)
                    }
                    var target = column + columns - carried
                    if target <= column {
                        spacesLeft = column - target
                        target = column
                    }
                    while column < target {
                        column = bytes[index] == UInt8(ascii: "\t") ? column + 4 - column % 4 : column + 1
                        index += 1
                    }
                    spacesLeft = max(spacesLeft, column - target)
                }
            }
            return (index, column, true, spacesLeft)
        }

        /// Where a paragraph's text on the file's line `line` (not its first) starts, as
        /// cmark-gfm took it: after the containers' prefixes and the whitespace after them; on
        /// a lazy line, where the prefixes stop matching. A lazy line's text starts with what
        /// is left of a tab the prefixes split, as spaces: counted from where they would
        /// begin, the bytes after them fall right.
        func textStart(ofLine line: Int) -> Int {
            let prefix = prefixEnd(ofLine: line)
            return prefix.matched ? whitespace(from: prefix.index, column: prefix.column, limit: end(ofLine: line)).index
                : prefix.index - prefix.spacesLeft
        }
    }

    /// What a block holding a paragraph or a block asks of its later lines.
    private enum Container {
        /// A block quote: a `>`, after at most 3 spaces.
        case quote
        /// A list item or a footnote definition: this many columns of indentation.
        case indented(Int)
    }

    /// A paragraph's text as cmark-gfm parsed its inlines: each line from where its text
    /// starts, joined by line ends.
    private struct ParagraphText {
        /// For each line of the paragraph found so far: its offset in the paragraph's text,
        /// its line in `InlinePlaces.text`, and the column its text starts at there.
        var lines: [(offset: Int, line: Int, column: Int)] = []

        func place(ofOffset offset: Int) -> (line: Int, column: Int) {
            guard let index = line(holding: offset) else { return (0, 0) }
            let found = lines[index]
            return (found.line, found.column + offset - found.offset)
        }

        /// The last line found that starts at or before `offset`, by halves: a paragraph
        /// may have thousands of lines, each with a link.
        func line(holding offset: Int) -> Int? {
            var (low, high) = (0, lines.count)
            while low < high {
                let middle = (low + high) / 2
                if lines[middle].offset <= offset { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? nil : low - 1
        }
    }

    /// Finds the offset of each inline of `paragraph` within its text, following the breaks.
    private mutating func walk(_ paragraph: OpaquePointer) {
        let starts = textLineStarts()
        var paragraphText = ParagraphText()
        defer { paragraphs[paragraph] = paragraphText }
        // Where the first line is, and the column cmark-gfm counts its inlines from.
        let first: (line: Int, column: Int)
        let base: Int
        if cmark_node_get_start_line(paragraph) > 0 {
            first = (Int(cmark_node_get_start_line(paragraph)), Int(cmark_node_get_start_column(paragraph)))
            base = first.column
        } else if let table = Self.table(after: paragraph) {
            first = (Int(cmark_node_get_start_line(table)), Int(cmark_node_get_start_column(table)))
            base = 0
        } else {
            return
        }
        guard first.line >= 1, first.line <= starts.count else { return }
        paragraphText.lines = [(0, first.line, first.column)]
        var text = text
        text.withUTF8 { bytes in
            let prefixes = LinePrefixes(of: paragraph, in: bytes, lineStarts: starts)
            func end(ofLine line: Int) -> Int { prefixes.end(ofLine: line) }
            /// Where the paragraph's line `index` (from 0) starts in `bytes`, and its line end's offset in the paragraph's text.
            func bounds(ofLine index: Int) -> (start: Int, end: Int, lineEndOffset: Int) {
                let line = paragraphText.lines[index]
                let start = starts[line.line - 1] + line.column - 1
                let end = end(ofLine: line.line)
                return (start, end, line.offset + end - start)
            }
            /// The paragraph's line (from 0) that holds `offset`, its line end included; lines
            /// are found as the offsets reach them. Nil past the file's end.
            func line(holding offset: Int) -> Int? {
                while true {
                    let last = paragraphText.lines.count - 1
                    if offset < paragraphText.lines[last].offset { return paragraphText.line(holding: offset) }
                    let (_, end, lineEndOffset) = bounds(ofLine: last)
                    if offset <= lineEndOffset { return last }
                    let next = paragraphText.lines[last].line + 1
                    guard end < bytes.count, next <= starts.count else { return nil }
                    paragraphText.lines.append((lineEndOffset + 1, next, prefixes.textStart(ofLine: next) - starts[next - 1] + 1))
                }
            }
            /// The offsets just after each line end cmark-gfm counted, in order.
            var counted = [0]
            /// The offset just after the last inline placed: a break's line end is the first after it.
            var placedEnd = 0
            func offset(column: Int32) -> Int { counted[counted.count - 1] + Int(column) - base }
            guard let iterator = cmark_iter_new(paragraph) else { return }
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator), node != paragraph else { continue }
                let type = cmark_node_get_type(node)
                if event == CMARK_EVENT_EXIT {
                    if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE {
                        placedEnd = max(placedEnd, offset(column: cmark_node_get_end_column(node)) + 1)
                    }
                    continue
                }
                if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                    // Only whitespace (or a backslash) lies between the last inline and the
                    // break: its line end is the one of the line that inline ended on.
                    guard let index = line(holding: placedEnd) else { return }
                    let (start, end, lineEndOffset) = bounds(ofLine: index)
                    guard end < bytes.count else { return }
                    // A backslash before the line end makes a hard break cmark-gfm does not count.
                    let backslash = type == CMARK_NODE_LINEBREAK && end > start && bytes[end - 1] == UInt8(ascii: "\\")
                    if !backslash { counted.append(lineEndOffset + 1) }
                    placedEnd = lineEndOffset + 1
                    continue
                }
                let start = offset(column: cmark_node_get_start_column(node))
                if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE || type == CMARK_NODE_HTML_INLINE { offsets[node] = start }
                if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE {
                    placedEnd = max(placedEnd, offset(column: cmark_node_get_end_column(node)) + 1)
                } else if type == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node) {
                    placedEnd = max(placedEnd, start + strlen(literal))
                }
            }
            // Every line up to the last inline's end, so that each offset has its line.
            _ = line(holding: placedEnd)
        }
    }

    /// Byte offset of each line's start in `text`, made the first time it is asked for.
    private mutating func textLineStarts() -> [Int] {
        if let lineStarts { return lineStarts }
        var text = text
        let starts = text.withUTF8 { bytes in
            var starts = [0]
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
            return starts
        }
        lineStarts = starts
        return starts
    }

    /// The table that took the last lines of `paragraph`, which the table extension parsed
    /// again alone: such a paragraph has no place (line 0), and the table starts where it did.
    private static func table(after paragraph: OpaquePointer) -> OpaquePointer? {
        guard cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH, cmark_node_get_start_line(paragraph) == 0,
              let next = cmark_node_next(paragraph), typeName(of: next) == "table" else { return nil }
        return next
    }

    /// The name cmark-gfm gives the node's type (`table_cell`): an extension's types have no constant.
    private static func typeName(of node: OpaquePointer) -> String {
        cmark_node_get_type_string(node).map { String(cString: $0) } ?? ""
    }

    /// The block an inline is in (blocks have the type bit 0x4000 clear; inlines, the
    /// extensions' too, have it set).
    private static func enclosingBlock(of node: OpaquePointer) -> OpaquePointer? {
        var parent = cmark_node_parent(node)
        while let current = parent, cmark_node_get_type(current).rawValue & 0x4000 != 0 { parent = cmark_node_parent(current) }
        return parent
    }
}
