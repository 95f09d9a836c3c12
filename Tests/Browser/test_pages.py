"""Every page of a built site, opened in headless Chromium as a reader would open it.

MARSGEN_SITE names the built site (an output directory of `marsgen build`). The site is
served over HTTP on a free loopback port, because its links are root-relative.
"""
import os
import pathlib

import pytest

from browser import build_demo, make_driver, served
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SITE = pathlib.Path(os.environ.get("MARSGEN_SITE", "public")).resolve()
SCREENSHOTS = pathlib.Path(os.environ.get("MARSGEN_SCREENSHOTS", ".build/screenshots")).resolve()
PAGES = sorted(str(p.relative_to(SITE)) for p in SITE.rglob("*.html"))


@pytest.fixture(scope="session")
def base_url():
    with served(SITE) as url:
        yield url


@pytest.fixture(scope="session")
def desktop():
    driver = make_driver(1280, 900)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def phone():
    driver = make_driver(390, 844, mobile=True)
    yield driver
    driver.quit()


def url_for(base_url, page):
    return base_url + (page[: -len("index.html")] if page.endswith("index.html") else page)


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_site_was_built():
    assert len(PAGES) > 50, f"expected a built demo site in {SITE}"


@pytest.mark.parametrize("page", PAGES)
def test_page_opens_without_console_errors(desktop, base_url, page):
    desktop.get(url_for(base_url, page))
    assert desktop.title, f"{page} has no title"
    assert console_errors(desktop) == []
    # The theme's stylesheet applied: the page is dark.
    background = desktop.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(11, 15, 20)", background


@pytest.mark.parametrize("page", PAGES)
def test_page_fits_a_phone(phone, base_url, page):
    phone.get(url_for(base_url, page))
    assert console_errors(phone) == []
    assert phone.execute_script("return window.innerWidth") == 390
    overflow = phone.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{page} scrolls sideways by {overflow}px on a 390px-wide phone"
    font_size = phone.execute_script("return parseFloat(getComputedStyle(document.querySelector('main')).fontSize)")
    assert font_size >= 15


def test_weather_expands_without_javascript(desktop, base_url):
    desktop.get(base_url)
    weather = desktop.find_element(By.CSS_SELECTOR, ".pinned .section-weather details")
    assert weather.get_attribute("open") is None
    details = weather.find_elements(By.CSS_SELECTOR, ".cell-detail")
    assert [d.is_displayed() for d in details] == [False] * 4
    weather.find_element(By.CSS_SELECTOR, "summary .weather-reading").click()
    assert weather.get_attribute("open") is not None
    labels = [d.find_element(By.CSS_SELECTOR, ".detail-label").text for d in details]
    assert labels == ["SUNRISE", "SUNSET", "HIGH", "LOW"]
    assert all(d.is_displayed() for d in details)


def test_a_heading_linked_to_shows_below_the_masthead(desktop, base_url):
    """A link to a section of an entry (its heading's id) scrolls the heading into view below
    the sticky masthead, not under it, and marks it."""
    desktop.get(base_url)
    ids = desktop.execute_script("return [...document.querySelectorAll('.prose :is(h1, h2, h3, h4, h5, h6)[id]')].map(h => h.id)")
    assert ids, "the demo's front page shows an entry with headings"
    desktop.get(base_url + "#" + ids[-1])
    heading = desktop.find_element(By.ID, ids[-1])
    assert desktop.execute_script("return window.scrollY") > 0
    top = desktop.execute_script("return arguments[0].getBoundingClientRect().top", heading)
    masthead = desktop.execute_script("return document.querySelector('.masthead').getBoundingClientRect().bottom")
    assert top >= masthead, f"the heading is at {top}px, under the masthead that ends at {masthead}px"
    assert desktop.execute_script("return arguments[0].matches(':target')", heading)
    assert desktop.execute_script("return getComputedStyle(arguments[0]).backgroundColor", heading) != "rgba(0, 0, 0, 0)"
    # The entry's link to its own section leads there on its own page.
    desktop.get(base_url + "journal/sol-14-two-weeks/")
    desktop.find_element(By.LINK_TEXT, "the plan").click()
    assert desktop.execute_script("return location.hash") == "#sol-14-two-weeks:next-fortnight"
    assert desktop.find_element(By.ID, "sol-14-two-weeks:next-fortnight").text == "Next fortnight"


def test_an_entry_page_is_headed_by_its_title(desktop, phone, base_url):
    """An entry's page has one level-one heading, its title, shown larger than the
    headings of its text (which come under it); on a feed page the same entry's title is a
    level-two heading that links to the entry's page."""
    desktop.get(base_url + "sol/14/")
    link = desktop.find_element(By.CSS_SELECTOR, "h2.entry-title a[href='/journal/sol-14-two-weeks/']")
    title = link.text
    link.click()
    assert desktop.execute_script("return location.pathname") == "/journal/sol-14-two-weeks/"
    for browser in (desktop, phone):
        browser.get(base_url + "journal/sol-14-two-weeks/")
        headings = browser.find_elements(By.TAG_NAME, "h1")
        assert [h.text for h in headings] == [title]
        assert headings[0].is_displayed()
        assert not headings[0].find_elements(By.TAG_NAME, "a")
        size = lambda element: float(browser.execute_script(
            "return parseFloat(getComputedStyle(arguments[0]).fontSize)", element))
        body = browser.find_elements(By.CSS_SELECTOR, ".prose h2")
        assert [h.text for h in body][:1] == ["What we have"]
        assert all(size(headings[0]) > size(h) for h in body)


def test_a_tag_leads_to_its_entries(desktop, base_url):
    """An entry's tag is a link to the tag's page, which lists the entry; the index of tags,
    linked from there, leads to each tag's page and says how many entries have it."""
    desktop.get(base_url + "journal/sol-06-eva-2/")
    title = desktop.find_element(By.CSS_SELECTOR, ".entry-title").text
    desktop.find_element(By.CSS_SELECTOR, ".tags a[rel=tag]").click()
    assert desktop.execute_script("return location.pathname") == "/tags/eva/"
    assert title in [a.text for a in desktop.find_elements(By.CSS_SELECTOR, ".journal-title")]
    desktop.find_element(By.LINK_TEXT, "all tags").click()
    assert desktop.execute_script("return location.pathname") == "/tags/"
    geology = desktop.find_element(By.CSS_SELECTOR, ".tag-list a[href='/tags/geology/']")
    count = int(geology.find_element(By.CSS_SELECTOR, ".tag-count").text)
    geology.click()
    assert desktop.execute_script("return location.pathname") == "/tags/geology/"
    assert len(desktop.find_elements(By.CSS_SELECTOR, ".journal-row")) == count


def test_an_old_address_leads_to_its_entry(desktop, base_url):
    """An entry's alias sends the browser on to the entry's page, which names itself canonical.
    Like every page, it names the site's icon: no request for a /favicon.ico the site has not."""
    assert '<link rel="icon" href="/theme/favicon.svg"' in (SITE / "posts/oxygen-plant/index.html").read_text()
    desktop.get(base_url + "posts/oxygen-plant/")
    WebDriverWait(desktop, 10).until(lambda d: d.execute_script("return location.pathname") == "/journal/sol-04-isru/")
    assert desktop.find_element(By.TAG_NAME, "h1").text == "The oxygen plant wakes up"


def test_the_pages_a_reader_may_open_next_are_fetched_ahead(desktop, base_url):
    """Marslink's working range: while a reader reads a page, the browser fetches the pages
    its pager leads to, so following one does not download it again. (This test server, as
    most hosts, sends no max-age: the browser asks whether the page changed, and the answer,
    "not modified", is all that crosses the network.)"""
    for start, follow in (("journal/sol-07-bags/", "a[rel=next]"), ("", "a.pager-older")):
        # Other tests opened these pages: only a fetch ahead may have put them in the cache.
        desktop.execute_cdp_cmd("Network.clearBrowserCache", {})
        desktop.get(base_url + start)
        neighbours = {a.get_attribute("pathname") for a in desktop.find_elements(By.CSS_SELECTOR, ".pager a")}
        assert neighbours
        fetched = lambda d: {e["path"] for e in d.execute_script(
            "return performance.getEntriesByType('resource')"
            ".filter(e => e.initiatorType === 'link').map(e => ({path: new URL(e.name).pathname}))")}
        WebDriverWait(desktop, 10).until(lambda d: neighbours <= fetched(d))
        link = desktop.find_element(By.CSS_SELECTOR, follow)
        target = link.get_attribute("pathname")
        link.click()
        WebDriverWait(desktop, 10).until(lambda d: d.execute_script("return location.pathname") == target)
        navigation = desktop.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "return {transferred: n.transferSize, body: n.encodedBodySize, delivery: n.deliveryType}")
        assert navigation["delivery"] == "cache" and navigation["transferred"] < navigation["body"], (start, target, navigation)


def test_a_shortened_entry_goes_on_at_its_break(desktop, base_url):
    """The front page shows an entry with <!--more--> up to the break, with a link on that
    names the entry to a screen reader; it opens the entry's page at the break, below the
    masthead, where the rest of the text follows."""
    desktop.get(base_url)
    section = desktop.find_element(By.ID, "entry-sol-14-two-weeks")
    assert not section.find_elements(By.CSS_SELECTOR, ".prose h2")
    link = section.find_element(By.CSS_SELECTOR, ".more a")
    assert link.text == "Continue reading →"
    assert link.accessible_name == "Continue reading: Two weeks"
    link.click()
    WebDriverWait(desktop, 10).until(lambda d: d.execute_script("return location.pathname") == "/journal/sol-14-two-weeks/")
    assert desktop.execute_script("return location.hash") == "#continue-reading"
    following = desktop.find_element(By.ID, "sol-14-two-weeks:what-we-have")
    top = desktop.execute_script("return arguments[0].getBoundingClientRect().top", following)
    masthead = desktop.execute_script("return document.querySelector('.masthead').getBoundingClientRect().bottom")
    assert masthead <= top < desktop.execute_script("return innerHeight"), (top, masthead)


def test_an_entry_lists_its_headings(desktop, phone, base_url):
    """An entry with toc: true has a Contents box that folds shut and open; each of its
    links scrolls to its heading."""
    for browser in (desktop, phone):
        browser.get(base_url + "journal/sol-14-two-weeks/")
        contents = browser.find_element(By.CSS_SELECTOR, "nav.toc details")
        links = contents.find_elements(By.TAG_NAME, "a")
        assert [a.text for a in links] == ["What we have", "What we still owe", "Next fortnight"]
        links[-1].click()
        assert browser.execute_script("return location.hash") == "#sol-14-two-weeks:next-fortnight"
        heading = browser.find_element(By.ID, "sol-14-two-weeks:next-fortnight")
        assert browser.execute_script("return arguments[0].matches(':target')", heading)
        browser.execute_script("scrollTo(0, 0)")
        contents.find_element(By.TAG_NAME, "summary").click()
        assert contents.get_attribute("open") is None and not links[0].is_displayed()


def test_a_page_of_its_own_is_in_the_navigation_of_every_page(desktop, phone, base_url):
    """The demo's about page (content/pages/about.md, nav: true) is linked from the header
    of every page, after Crew, and marked as the current page on itself; the link fits a
    phone's header, its page reads as an entry's (one heading, its contents, a table that
    scrolls within the page) and its links lead where the entries' files are shown."""
    for browser in (desktop, phone):
        browser.get(base_url + "sol/3/")
        nav = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "nav.nav a")]
        # The theme writes the navigation in capitals.
        assert nav[nav.index("CREW") + 1] == "ABOUT", nav
        about = browser.find_element(By.CSS_SELECTOR, "nav.nav a[href='/about/']")
        assert about.is_displayed() and about.get_attribute("aria-current") is None
        about.click()
        WebDriverWait(browser, 5).until(lambda b: b.current_url == base_url + "about/")
        current = browser.find_element(By.CSS_SELECTOR, "nav.nav a[aria-current='page']")
        assert current.get_attribute("href") == base_url + "about/"
        assert [h.text for h in browser.find_elements(By.TAG_NAME, "h1")] == ["About Kasei Station"]
        assert browser.title == "About Kasei Station · Kasei Station Log"
        links = browser.find_elements(By.CSS_SELECTOR, "nav.toc a")
        assert [a.text for a in links] == ["The crew", "How to read a sol", "Why a log"]
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the about page scrolls sideways by {overflow}px"
        # The header's links, one more than before, still all show on a phone.
        for link in browser.find_elements(By.CSS_SELECTOR, "nav.nav a"):
            assert link.is_displayed() and link.rect["x"] >= 0 and link.rect["x"] + link.rect["width"] <= browser.execute_script("return window.innerWidth")
        browser.find_element(By.LINK_TEXT, "day of touchdown").click()
        WebDriverWait(browser, 5).until(lambda b: b.current_url == base_url + "sol/1/")
        assert console_errors(browser) == []


def test_images_keep_their_place_before_they_arrive(desktop, phone, base_url):
    """An entry's image holds its room in the page, at its shape, before its file arrives
    (the text below does not jump when it does), on a desktop and on a phone, where it is
    scaled down to the column. Images load lazily, but the first of an entry's own page,
    which loads with the page (it is likely the largest thing in view)."""
    # The same images on their sols' pages (lazy) and on their entries' own pages (at once).
    images = {"/img/dust-devil.svg": (640, 260, "sol/6/", "journal/sol-06-dust-devil/"),
              "/img/kasei-horizon.png": (1200, 630, "sol/1/", "journal/sol-01-touchdown/")}
    for browser in (desktop, phone):
        column = None
        for blocked in (True, False):
            # As on a slow network: the requests for the page's images are held, unanswered
            # (none comes from the cache either). A page whose image loads with it would
            # never finish loading: the held requests are tried on lazy images alone.
            browser.execute_cdp_cmd("Network.enable", {})
            browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": blocked})
            if blocked:
                browser.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/img/*"}]})
            try:
                for source, (width, height, listing, own) in images.items():
                    for page in (listing,) if blocked else (listing, own):
                        browser.get(base_url + page)
                        image = browser.find_element(By.CSS_SELECTOR, f".prose img[src='{source}']")
                        loading = "lazy" if page == listing else None
                        assert image.get_dom_attribute("loading") == loading and image.get_dom_attribute("decoding") == "async", page
                        assert (image.get_dom_attribute("width"), image.get_dom_attribute("height")) == (str(width), str(height))
                        browser.execute_script("arguments[0].scrollIntoView()", image)
                        if not blocked:
                            WebDriverWait(browser, 10).until(lambda d: d.execute_script("return arguments[0].complete", image))
                        box = browser.execute_script(
                            "const r = arguments[0].getBoundingClientRect(), c = arguments[0].closest('.prose').getBoundingClientRect();"
                            "return {width: r.width, height: r.height, column: c.width, natural: [arguments[0].naturalWidth, arguments[0].naturalHeight]}",
                            image)
                        if blocked:
                            assert box["natural"] == [0, 0], "the image was held"
                        else:
                            assert box["natural"] == [width, height], page
                        # Its own width, or the column's when narrower, at the file's shape.
                        assert box["width"] == pytest.approx(min(width, box["column"]), abs=1), (page, box)
                        assert box["height"] == pytest.approx(box["width"] * height / width, abs=1.5), (page, box)
                        column = box["column"]
            finally:
                browser.execute_cdp_cmd("Fetch.disable", {})
                browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
                # The held requests' messages are this test's, not the next page's.
                console_errors(browser)
        assert column < 640 if browser is phone else column > 640


def test_a_titled_image_alone_is_a_figure_with_its_caption_below(desktop, phone, base_url):
    """An image alone in its paragraph with a title (the demo's first sol's view) is a figure:
    its caption, the title, is shown under it, smaller and quieter than the text, within the
    column, on a desktop and on a phone; the image has no tooltip saying it again."""
    caption_text = "Kasei Valles from the cabin window, 19:40 LMST on sol 1. The far wall is some twenty kilometres off."
    for browser in (desktop, phone):
        for page in ("journal/sol-01-touchdown/", "sol/1/"):
            browser.get(base_url + page)
            figure = browser.find_element(By.CSS_SELECTOR, ".prose figure")
            image = figure.find_element(By.CSS_SELECTOR, "img[src='/img/kasei-horizon.png']")
            caption = figure.find_element(By.CSS_SELECTOR, "figcaption")
            assert caption.text == caption_text and image.get_dom_attribute("title") is None, page
            browser.execute_script("arguments[0].scrollIntoView()", figure)
            WebDriverWait(browser, 10).until(lambda d: d.execute_script("return arguments[0].complete", image))
            boxes = browser.execute_script(
                "const box = e => e.getBoundingClientRect(), style = getComputedStyle(arguments[1]), text = getComputedStyle(arguments[2]);"
                "return {image: box(arguments[0]), caption: box(arguments[1]), column: box(arguments[1].closest('.prose')),"
                " size: parseFloat(style.fontSize), textSize: parseFloat(text.fontSize), color: style.color, textColor: text.color}",
                image, caption, browser.find_element(By.CSS_SELECTOR, ".prose p"))
            # Below the image, not beside it, within the column's width.
            assert boxes["caption"]["top"] >= boxes["image"]["bottom"] - 0.5, (page, boxes)
            assert boxes["caption"]["left"] >= boxes["column"]["left"] - 0.5 and boxes["caption"]["right"] <= boxes["column"]["right"] + 0.5, (page, boxes)
            assert boxes["image"]["width"] <= boxes["column"]["width"] + 0.5, (page, boxes)
            assert boxes["size"] < boxes["textSize"] and boxes["color"] != boxes["textColor"], (page, boxes)
        assert console_errors(browser) == []


def test_a_crew_member_has_a_portrait_and_a_bio(desktop, phone, base_url):
    """A member's page (the demo's crew have bios and portraits in content/crew.yml) shows
    their portrait beside their name, round and whole, and their bio under it, before their
    entries and messages; the crew index shows each portrait small in the member's card.
    On a desktop and a phone, nothing spills out of the page."""
    for browser in (desktop, phone):
        browser.get(base_url + "crew/arden/")
        portrait = browser.find_element(By.CSS_SELECTOR, ".crew-header img.crew-portrait")
        heading = browser.find_element(By.CSS_SELECTOR, ".crew-header h1")
        bio = browser.find_element(By.CSS_SELECTOR, ".crew-bio")
        assert heading.text == "Ruth Arden" and bio.text.startswith("Runs the radio")
        WebDriverWait(browser, 10).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", portrait))
        boxes = browser.execute_script(
            "const box = e => e.getBoundingClientRect(); return {portrait: box(arguments[0]), heading: box(arguments[1]), bio: box(arguments[2]),"
            " feed: box(document.querySelector('.feed')), radius: getComputedStyle(arguments[0]).borderRadius}",
            portrait, heading, bio)
        # Beside the name (before it in the line), square and round; the bio below both, then the feed.
        assert boxes["portrait"]["right"] <= boxes["heading"]["left"] + 0.5, boxes
        assert abs(boxes["portrait"]["width"] - boxes["portrait"]["height"]) < 1 and boxes["radius"] == "50%", boxes
        assert boxes["bio"]["top"] >= max(boxes["portrait"]["bottom"], boxes["heading"]["bottom"]) - 0.5, boxes
        assert boxes["feed"]["top"] >= boxes["bio"]["bottom"], boxes
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the member's page scrolls sideways by {overflow}px"
        browser.get(base_url + "crew/")
        cards = browser.find_elements(By.CSS_SELECTOR, ".crew-card")
        assert len(cards) == 5
        for card in cards:
            thumb = card.find_element(By.CSS_SELECTOR, "img.crew-thumb")
            name = card.find_element(By.CSS_SELECTOR, ".crew-name")
            assert thumb.get_dom_attribute("alt") == "" and thumb.rect["width"] < 60
            assert thumb.rect["x"] + thumb.rect["width"] <= name.rect["x"] + 0.5, card.text
        assert console_errors(browser) == []


def search_results(driver, query):
    """The results listed once the search for `query` has run: (title, meta, snippet, marked words)."""
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("data-query") == query)
    return [(item.find_element(By.CSS_SELECTOR, ".search-result-title").text,
             # A page of its own has no sol, author or tags to show.
             "".join(meta.text for meta in item.find_elements(By.CSS_SELECTOR, ".search-meta")),
             item.find_element(By.CSS_SELECTOR, ".search-snippet").text,
             [mark.text for mark in item.find_elements(By.TAG_NAME, "mark")])
            for item in driver.find_elements(By.CSS_SELECTOR, ".search-result")]


def test_search_finds_entries_messages_and_weather_as_the_reader_types(desktop, phone, base_url):
    """The navigation leads to the search page; typing finds every text holding all the
    words typed, accents and case aside, titles first; the words are marked, the count said
    in the site's words, the query kept in the address; a result leads to its page."""
    desktop.get(base_url)
    desktop.find_element(By.CSS_SELECTOR, ".nav a[href='/search/']").click()
    assert desktop.execute_script("return location.pathname") == "/search/"
    box = desktop.find_element(By.CSS_SELECTOR, "input[type=search]")
    assert desktop.switch_to.active_element == box
    box.send_keys("OXYGÈN plant")
    results = search_results(desktop, "OXYGÈN plant")
    titles = [title for title, _, _, _ in results]
    assert titles[0] == "The oxygen plant wakes up", titles
    assert desktop.find_element(By.CSS_SELECTOR, ".search-status").text == f"{len(results)} results"
    for title, meta, snippet, marks in results:
        assert meta.startswith("Sol "), meta
        text = (title + " " + snippet).lower()
        assert "oxygen" in text and "plant" in text, (title, snippet)
        assert {mark.lower() for mark in marks} <= {"oxygen", "plant"} and marks, marks
    assert "q=OXYG%C3%88N+plant" in desktop.current_url or "q=OXYG%C3%88N%20plant" in desktop.current_url
    # A weather report is found by its notes and its sky, with no author to show.
    box.clear()
    box.send_keys("frost panels")
    assert [(title, meta) for title, meta, _, _ in search_results(desktop, "frost panels")] == [("Weather, sol 14: -49 °C, snow", "Sol 14 · snow")]
    # A message is found by its text, and leads to its place on its sol's page.
    box.clear()
    box.send_keys("biscuit")
    assert [meta for _, meta, _, _ in search_results(desktop, "biscuit")] == ["Sol 2 · Ines Vega · eva-ops"]
    link = desktop.find_element(By.CSS_SELECTOR, ".search-result-title")
    target = link.get_attribute("href")
    assert target.startswith(base_url + "sol/2/#"), target
    link.click()
    WebDriverWait(desktop, 10).until(lambda d: d.current_url == target)
    assert "The crust breaks like a biscuit." in desktop.find_element(By.ID, target.split("#")[1]).text
    # An address with a query shows its results at once, on a phone too; none says so.
    for browser in (desktop, phone):
        browser.get(base_url + "search/?q=greenhouse")
        assert browser.find_element(By.CSS_SELECTOR, "input[type=search]").get_attribute("value") == "greenhouse"
        assert search_results(browser, "greenhouse"), "no result for greenhouse"
        assert console_errors(browser) == []
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
    desktop.get(base_url + "search/?q=zzyzx+regolith")
    assert search_results(desktop, "zzyzx regolith") == []
    assert desktop.find_element(By.CSS_SELECTOR, ".search-status").text == "Nothing in the log matches “zzyzx regolith”."


def test_search_finds_a_page_of_its_own(desktop, phone, base_url):
    """The about page is found by its text, listed without a sol (it has none), and leads to itself."""
    for browser in (desktop, phone):
        browser.get(base_url + "search/?q=outflow+channel")
        assert [(title, meta) for title, meta, _, _ in search_results(browser, "outflow channel")][0] == ("About Kasei Station", "")
        first = browser.find_element(By.CSS_SELECTOR, ".search-result")
        assert first.get_attribute("class") == "search-result search-result-page"
        assert first.find_elements(By.CSS_SELECTOR, ".search-meta") == []
        assert "outflow channel" in first.find_element(By.CSS_SELECTOR, ".search-snippet").text
        first.find_element(By.CSS_SELECTOR, "a").click()
        WebDriverWait(browser, 5).until(lambda b: b.current_url == base_url + "about/")


def test_search_shows_texts_as_text(desktop, base_url):
    """Whatever a text holds, a result shows it as text: markup typed in an entry (in code,
    say) is never made into elements by the search page."""
    # A made-up index, read by the page's own script: a title, an author and a text that look like markup.
    fake = desktop.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        const files = {"/search/index.json": {version: 1, parts: ["/p.json"]},
            "/p.json": {version: 1, documents: [{kind: "journal", url: "/x/", title: "<img src=x onerror=alert(1)> dust",
            sol: 3, date: "2038-11-05T00:00:00Z", author: "A <b>B</b>", tags: [], text: "<script>alert(2)</script> dust devil"}]}};
        window.fetch = (url) => Promise.resolve({ok: true, json: () => Promise.resolve(files[url])});
    """})
    try:
        desktop.get(base_url + "search/?q=dust")
        results = search_results(desktop, "dust")
    finally:
        desktop.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": fake["identifier"]})
    assert results == [("<img src=x onerror=alert(1)> dust", "Sol 3 · A <b>B</b>", "<script>alert(2)</script> dust devil", ["dust", "dust"])], results
    assert desktop.find_elements(By.CSS_SELECTOR, ".search-results img, .search-results script, .search-results b") == []


def test_search_lists_a_hundred_results_at_a_time(desktop, base_url):
    """Past a hundred results, a button lists the next hundred, the keyboard going on from
    the first of them, and goes once all are listed; a new search starts again at a hundred."""
    fake = desktop.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        const documents = [];
        for (let n = 250; n >= 1; n--) documents.push({kind: "journal", url: "/e" + n + "/", title: "Dust " + n, sol: n,
            date: "2038-11-05T00:00:00Z", author: "Ines Vega", tags: n % 2 ? ["odd"] : [], text: "Dust devil number " + n + "."});
        const files = {"/search/index.json": {version: 1, parts: ["/p.json"]}, "/p.json": {version: 1, documents: documents}};
        window.fetch = (url) => Promise.resolve({ok: true, json: () => Promise.resolve(files[url])});
    """})
    try:
        desktop.get(base_url + "search/?q=dust")
        titles = [title for title, _, _, _ in search_results(desktop, "dust")]
        assert titles == [f"Dust {n}" for n in range(250, 150, -1)]
        assert desktop.find_element(By.CSS_SELECTOR, ".search-status").text == "250 results"
        more = desktop.find_element(By.CSS_SELECTOR, ".search-more")
        assert more.is_displayed() and more.text == "More results"
        more.click()
        assert len(desktop.find_elements(By.CSS_SELECTOR, ".search-result")) == 200
        assert desktop.execute_script("return document.activeElement.textContent") == "Dust 150"
        assert more.is_displayed()
        more.click()
        titles = [title for title, _, _, _ in search_results(desktop, "dust")]
        assert titles == [f"Dust {n}" for n in range(250, 0, -1)]
        assert not more.is_displayed()
        # A reload, or the back button from a result, lists as many again: the address says so.
        assert desktop.current_url == base_url + "search/?q=dust&shown=250"
        desktop.find_element(By.CSS_SELECTOR, ".search-result:nth-child(220) a").click()
        WebDriverWait(desktop, 5).until(lambda d: d.current_url == base_url + "e31/")
        desktop.back()
        WebDriverWait(desktop, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".search-result")) == 250)
        desktop.refresh()
        WebDriverWait(desktop, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".search-result")) == 250)
        more = desktop.find_element(By.CSS_SELECTOR, ".search-more")
        assert not more.is_displayed()
        box = desktop.find_element(By.CSS_SELECTOR, "input[type=search]")
        box.clear()
        box.send_keys("odd")
        assert len(search_results(desktop, "odd")) == 100 and more.is_displayed()
        assert desktop.current_url == base_url + "search/?q=odd"
        box.clear()
        box.send_keys("dust 7")
        assert [title for title, _, _, _ in search_results(desktop, "dust 7")][:2] == ["Dust 247", "Dust 237"]
        assert not more.is_displayed()
    finally:
        desktop.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": fake["identifier"]})


def test_missing_page_shows_the_site_404(desktop, base_url):
    desktop.get(base_url + "no/such/page/")
    assert "Signal lost" in desktop.title


def test_screenshots(desktop, phone, base_url):
    """Screenshots for people to look at; the test checks only that they were taken."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, driver in (("desktop", desktop), ("phone", phone)):
        for page in ("", "sol/10/", "journal/sol-04-sample-log/"):
            driver.get(base_url + page)
            target = SCREENSHOTS / f"{name}-{page.strip('/').replace('/', '-') or 'front'}.png"
            assert driver.save_screenshot(str(target))


def test_a_page_lists_the_pages_below_it_and_they_lead_back_up(desktop, phone, base_url):
    """The demo's house rules (content/pages/about/rules.md) are below the about page: the
    about page ends with a card for them, their title and description, which leads to them;
    their page starts with a link back up, and the navigation's About is current on it."""
    for browser in (desktop, phone):
        browser.get(base_url + "about/")
        cards = browser.find_elements(By.CSS_SELECTOR, ".subpages a.subpage")
        assert [card.find_element(By.CSS_SELECTOR, ".subpage-title").text for card in cards] == ["House rules"]
        assert cards[0].find_element(By.CSS_SELECTOR, ".subpage-description").text.startswith("How five people share")
        width = browser.execute_script("return window.innerWidth")
        assert cards[0].rect["x"] >= 0 and cards[0].rect["x"] + cards[0].rect["width"] <= width
        browser.execute_script("arguments[0].scrollIntoView()", cards[0])
        cards[0].click()
        WebDriverWait(browser, 5).until(lambda b: b.current_url == base_url + "about/rules/")
        assert [h.text for h in browser.find_elements(By.TAG_NAME, "h1")] == ["House rules"]
        up = browser.find_element(By.CSS_SELECTOR, ".page-parent a")
        assert up.text == "About Kasei Station" and up.is_displayed()
        # About is where the reader is, not the page they are on: "true", not "page"; it looks
        # the same as on the about page.
        about = browser.find_element(By.CSS_SELECTOR, "nav.nav a[aria-current]")
        assert about.get_attribute("href") == base_url + "about/" and about.get_attribute("aria-current") == "true"
        assert browser.find_elements(By.CSS_SELECTOR, "nav.nav a[aria-current='page']") == []
        marked = browser.execute_script("const s = getComputedStyle(arguments[0]); return [s.color, s.backgroundColor, s.boxShadow]", about)
        browser.get(base_url + "about/")
        about = browser.find_element(By.CSS_SELECTOR, "nav.nav a[aria-current='page']")
        assert browser.execute_script("const s = getComputedStyle(arguments[0]); return [s.color, s.backgroundColor, s.boxShadow]", about) == marked
        browser.back()
        up = browser.find_element(By.CSS_SELECTOR, ".page-parent a")
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the house rules scroll sideways by {overflow}px"
        up.click()
        WebDriverWait(browser, 5).until(lambda b: b.current_url == base_url + "about/")


NAVIGATION_LINKS = """
nav:
  - title: Mission control
    url: https://example.org/kasei/
  - title: Landing
    url: sol/1/
    weight: -1
"""


def test_the_sites_own_links_are_in_the_navigation_and_fit_a_phone(desktop, phone, tmp_path):
    """Links of the site's own (`nav:` in marsgen.yml) follow the pages of their own in every
    page's header, by weight, the one to the page open marked current; with them the
    header's links still all show on a phone, and no page scrolls sideways."""
    with served(build_demo(tmp_path, "en", NAVIGATION_LINKS)) as url:
        for browser in (desktop, phone):
            browser.get(url + "sol/1/")
            links = browser.find_elements(By.CSS_SELECTOR, "nav.nav a")
            # The theme writes the navigation in capitals.
            assert [a.text for a in links] == ["FEED", "JOURNAL", "SOLS", "CREW", "LANDING", "ABOUT", "MISSION CONTROL", "SEARCH", "ATOM"]
            assert links[6].get_attribute("href") == "https://example.org/kasei/"
            # The link to the page open says so; Sols, whose page this is one of, says it is where the reader is.
            assert [a.get_attribute("aria-current") for a in links] == [None, None, "true", None, "page", None, None, None, None]
            width = browser.execute_script("return window.innerWidth")
            for link in links:
                assert link.is_displayed() and link.rect["x"] >= 0 and link.rect["x"] + link.rect["width"] <= width, link.text
            overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
