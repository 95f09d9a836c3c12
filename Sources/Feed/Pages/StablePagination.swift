/// Splits a newest-first list into pages numbered from the *oldest* end, so that adding a
/// new newest object leaves every existing full page as it was.
///
/// With `n` objects and page size `s`, archive page `k` (from 1) holds the objects at
/// oldest-first positions `(k−1)·s ..< k·s`; only full pages exist. The newest `n mod s`
/// objects live on the first (front) page, which always shows the newest `s`. A new object
/// therefore changes the front page and, when it completes a page, creates one new page and
/// rewrites the one before it (its "newer" link).
struct StablePagination<Item> {
    let newestFirst: [Item]
    let pageSize: Int

    /// How many archive pages exist.
    var archivePageCount: Int { newestFirst.count / pageSize }

    /// The items of archive page `number`, newest first.
    func archivePage(_ number: Int) -> ArraySlice<Item> {
        let oldestStart = (number - 1) * pageSize
        // Oldest-first positions [a, b) are newest-first positions (n−b, n−a].
        let upper = newestFirst.count - oldestStart
        return newestFirst[(upper - pageSize)..<upper]
    }

    /// The archive page holding the item at newest-first `position`, if it is on one.
    func archivePage(containingNewestFirstPosition position: Int) -> Int? {
        let oldestPosition = newestFirst.count - 1 - position
        let page = oldestPosition / pageSize + 1
        return page <= archivePageCount ? page : nil
    }
}
