/// How long a text takes to read, as Hugo's `.ReadingTime` and `.WordCount` and Zola's
/// `reading_time` and `word_count` tell it.
public enum ReadingTime {
    /// Words a minute, as Zola counts.
    public static let wordsPerMinute = 200

    /// The words of `html`'s text: runs of characters between white space, outside tags
    /// and comments (a character reference is part of its word), and each Chinese or
    /// Japanese character one word, as those scripts put no spaces between words. One pass
    /// over the bytes of a body cmark-gfm wrote.
    public static func words(inHTML html: String) -> Int {
        var html = html
        return html.withUTF8 { bytes in
            var count = 0
            var inWord = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "<"):
                    // A tag or a comment ends a word only where white space would (`<em>a</em>b`
                    // is one word): skipped whole.
                    let isComment = index + 3 < bytes.count && bytes[index + 1] == UInt8(ascii: "!") && bytes[index + 2] == UInt8(ascii: "-")
                    index += 1
                    while index < bytes.count {
                        if bytes[index] == UInt8(ascii: ">"), !isComment || (bytes[index - 1] == UInt8(ascii: "-") && bytes[index - 2] == UInt8(ascii: "-")) {
                            break
                        }
                        index += 1
                    }
                case 0x20, 0x0A, 0x09, 0x0D:
                    inWord = false
                case 0xE3...0xE9:
                    // U+3000 to U+9FFF, three bytes: kana and the common ideographs, a word
                    // each; U+3000 to U+303F, the ideographic space and punctuation, none.
                    let isPunctuation = byte == 0xE3 && index + 1 < bytes.count && bytes[index + 1] == 0x80
                    if !isPunctuation { count += 1 }
                    inWord = false
                    index += 2
                default:
                    if !inWord {
                        count += 1
                        inWord = true
                    }
                }
                index += 1
            }
            return count
        }
    }

    /// Minutes to read `words` words, rounded up; at least one.
    public static func minutes(forWords words: Int) -> Int {
        max(1, (words + wordsPerMinute - 1) / wordsPerMinute)
    }
}
