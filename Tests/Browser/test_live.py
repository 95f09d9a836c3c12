"""`marsgen serve` in a real browser: saves reach the open page without a reload.

Each test copies the demo site to a temporary folder, starts `marsgen serve --port 0` on it
(MARSGEN_BIN names the binary), opens a page in headless Chromium, sets a marker on
`window` (a reload would lose it), edits the site's files as an author would, and watches
the page change.
"""
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser import make_driver

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests"))
from demo_site import copy_demo  # noqa: E402
BINARY = pathlib.Path(os.environ.get("MARSGEN_BIN", REPO / ".build/debug/marsgen")).resolve()
LIVE_TIMEOUT = 2.0  # seconds from the save to the page showing it


class Serve:
    """A copy of the demo site and `marsgen serve` running on it."""

    def __init__(self, root):
        self.root = root
        root.mkdir(parents=True)
        copy_demo(root)
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", "0", "--source", str(root)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.log = []
        deadline = time.time() + 60
        self.url = None
        while time.time() < deadline and self.url is None:
            line = self.process.stdout.readline()
            if not line:
                break
            self.log.append(line)
            match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
            if match:
                self.url = match.group(1)
        assert self.url, "marsgen serve did not start:\n" + "".join(self.log)

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        return self.process.returncode

    def path(self, relative):
        return self.root / relative

    def write(self, relative, text):
        """An editor's atomic save: a temporary file renamed over the original."""
        target = self.path(relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + "___jb_tmp___")
        temporary.write_text(text)
        os.replace(temporary, target)

    def append(self, relative, text):
        with open(self.path(relative), "a") as handle:
            handle.write(text)


@pytest.fixture(scope="module")
def browser():
    driver = make_driver(1280, 900)
    yield driver
    driver.quit()


@pytest.fixture
def serve(tmp_path):
    server = Serve(tmp_path / "site")
    yield server
    assert server.stop() == 0


def open_live(driver, url):
    """Opens `url`, waits for the live connection, and sets the reload marker."""
    driver.get(url)
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return !!(window.__marsgenLive && window.__marsgenLive.generation)"))
    driver.execute_script("window.__marsgenMarker = 'still here'")


def marker_kept(driver):
    return driver.execute_script("return window.__marsgenMarker") == "still here"


def section_ids(driver, container=".feed"):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' > section[data-diff-id]')]"
        ".filter(s => !s.dataset.marsgenLeaving).map(s => s.dataset.diffId)", container)


def wait_for(driver, condition, timeout=LIVE_TIMEOUT):
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition())


def test_an_appended_message_slides_in_without_a_reload(browser, serve):
    open_live(browser, serve.url)
    before = section_ids(browser)
    serve.append("content/messages/habitat.md", "\n## Sol 14 21:30 vega\nLiftoff in 3... from the live test.\n")
    wait_for(browser, lambda: "Liftoff in 3... from the live test." in browser.find_element(By.CSS_SELECTOR, ".feed").text)
    after = section_ids(browser)
    assert marker_kept(browser), "the page reloaded"
    assert len(after) == len(before) + 1 or after[1:] == before[:-1], (before, after)
    assert after[0] not in before, "the new message is the newest section, on top"


def test_an_edited_entry_changes_only_its_section(browser, serve):
    open_live(browser, serve.url)
    # Tag every section element; an untouched section must be the same element afterwards.
    browser.execute_script(
        "document.querySelectorAll('.feed > section[data-diff-id]').forEach(s => s.__kept = true)")
    entry = "content/journal/sol-14-bag-wall.md"
    text = serve.path(entry).read_text()
    serve.write(entry, text.replace("Best trade we have made.", "Best trade we have made, live."))
    wait_for(browser, lambda: "Best trade we have made, live." in browser.find_element(By.CSS_SELECTOR, ".feed").text)
    replaced = browser.execute_script(
        "return [...document.querySelectorAll('.feed > section[data-diff-id]')]"
        ".filter(s => !s.__kept).map(s => s.dataset.diffId)")
    assert marker_kept(browser)
    assert len(replaced) == 1 and replaced[0].endswith("sol-14-bag-wall.md"), replaced


def test_a_deleted_entry_leaves(browser, serve):
    open_live(browser, serve.url)
    ids = section_ids(browser)
    gone = next(i for i in ids if i.endswith("sol-14-bag-wall.md"))
    serve.path("content/journal/sol-14-bag-wall.md").unlink()
    wait_for(browser, lambda: gone not in section_ids(browser))
    # After the fade-out it is out of the page entirely.
    wait_for(browser, lambda: browser.execute_script(
        "return !document.querySelector('section[data-diff-id=\"' + arguments[0] + '\"]')", gone), timeout=3)
    assert marker_kept(browser)


def test_expanded_weather_stays_expanded_through_an_update(browser, serve):
    open_live(browser, serve.url)
    summary = browser.find_element(By.CSS_SELECTOR, ".pinned details summary")
    summary.click()
    assert browser.execute_script("return document.querySelector('.pinned details').open")
    weather = "content/weather/sol-14.md"
    serve.write(weather, serve.path(weather).read_text().replace("temperature: -49", "temperature: -47"))
    wait_for(browser, lambda: "-47" in browser.find_element(By.CSS_SELECTOR, ".pinned").text)
    assert browser.execute_script("return document.querySelector('.pinned details').open"), "the weather collapsed"
    # An update elsewhere leaves it open too.
    serve.append("content/messages/habitat.md", "\n## Sol 14 21:40 okoro\nStill expanded?\n")
    wait_for(browser, lambda: "Still expanded?" in browser.find_element(By.CSS_SELECTOR, ".feed").text)
    assert browser.execute_script("return document.querySelector('.pinned details').open")
    assert marker_kept(browser)


def test_a_cell_template_change_updates_the_sections_that_show_it_without_a_reload(browser, serve):
    open_live(browser, serve.url)
    browser.execute_script(
        "document.querySelectorAll('.feed > section[data-diff-id]').forEach(s => s.__kept = true)")
    # Expanded weather stays expanded; the weather's sections are not made with the template.
    browser.find_element(By.CSS_SELECTOR, ".pinned details summary").click()
    cell = (REPO / "Sources/Rendering/Theme/cell-message.mustache").read_text()
    serve.write("templates/cell-message.mustache", cell.replace('<p class="sender">', '<p class="sender" data-live="edited">'))
    wait_for(browser, lambda: browser.execute_script(
        "return document.querySelectorAll('.section-message [data-live=\"edited\"]').length") > 0)
    replaced = browser.execute_script(
        "return [...document.querySelectorAll('.feed > section[data-diff-id]')]"
        ".filter(s => !s.__kept).map(s => s.dataset.diffId)")
    assert marker_kept(browser), "the page reloaded"
    assert replaced and all(diff_id.startswith("message:") for diff_id in replaced), replaced
    assert not browser.execute_script(
        "return [...document.querySelectorAll('.section-message')].some(s => !s.querySelector('[data-live]'))")
    assert browser.execute_script("return document.querySelector('.pinned details').open")


def test_a_broken_template_shows_an_overlay_until_fixed(browser, serve):
    open_live(browser, serve.url)
    footer = serve.path("templates/footer.mustache").read_text()
    serve.write("templates/footer.mustache", footer + "\n{{#unclosed}}\n")
    wait_for(browser, lambda: browser.execute_script("return !!document.getElementById('marsgen-overlay')"))
    overlay = browser.find_element(By.ID, "marsgen-overlay").text
    assert "templates/footer.mustache" in overlay, overlay
    assert "error:" in overlay
    serve.write("templates/footer.mustache", footer)
    wait_for(browser, lambda: browser.execute_script("return !document.getElementById('marsgen-overlay')"))
    assert marker_kept(browser)


def test_a_stylesheet_change_is_swapped_in_without_a_reload(browser, serve):
    open_live(browser, serve.url)
    css = (REPO / "Sources/Rendering/Theme/marsgen.css").read_text()
    serve.write("static/theme/marsgen.css", css + "\nbody { outline: 7px solid rgb(0, 128, 0); }\n")
    wait_for(browser, lambda: browser.execute_script("return getComputedStyle(document.body).outlineWidth") == "7px")
    assert marker_kept(browser)


def test_a_change_outside_the_sections_reloads_the_page(browser, serve):
    open_live(browser, serve.url)
    config = serve.path("marsgen.yml").read_text()
    serve.write("marsgen.yml", config.replace("title: Kasei Station Log", "title: Kasei Station Live Log"))
    wait_for(browser, lambda: "Kasei Station Live Log" in browser.title, timeout=5)
    assert not marker_kept(browser), "a layout change is a full reload"


def test_a_deleted_page_says_so_and_goes_to_the_front_page(browser, serve):
    open_live(browser, serve.url + "journal/sol-14-bag-wall/")
    serve.path("content/journal/sol-14-bag-wall.md").unlink()
    wait_for(browser, lambda: browser.execute_script("return !!document.getElementById('marsgen-notice')"))
    wait_for(browser, lambda: browser.current_url == serve.url, timeout=5)


def test_a_page_fetched_ahead_and_edited_since_opens_as_it_is_now(browser, serve):
    """The pages a page fetches ahead (its pager's) are not kept past an edit: following the
    link after the neighbour changed shows the change."""
    open_live(browser, serve.url + "journal/sol-07-bags/")
    following = "/journal/sol-08-greenhouse-sprouts/"
    WebDriverWait(browser, 10).until(lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').some(e => e.initiatorType === 'link'"
        " && new URL(e.name).pathname === arguments[0])", following))
    builds = browser.execute_script("return window.__marsgenLive.builds")
    entry = "content/journal/sol-08-greenhouse-sprouts.md"
    serve.write(entry, serve.path(entry).read_text().replace("is doing very well.", "is doing very well, as of now."))
    wait_for(browser, lambda: browser.execute_script("return window.__marsgenLive.builds") > builds)
    browser.find_element(By.CSS_SELECTOR, f".pager a[href='{following}']").click()
    wait_for(browser, lambda: browser.execute_script("return location.pathname") == following)
    assert "is doing very well, as of now." in browser.find_element(By.TAG_NAME, "main").text


def test_the_search_page_finds_a_text_saved_while_it_is_open(browser, serve):
    """The search page under `marsgen serve` loads its index again after a rebuild that
    wrote it, and runs the reader's query over it: no reload, the query kept."""
    open_live(browser, serve.url + "search/?q=liftoff")
    WebDriverWait(browser, 10).until(
        lambda d: d.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("data-query") == "liftoff")
    assert browser.find_elements(By.CSS_SELECTOR, ".search-result") == []
    serve.append("content/messages/habitat.md", "\n## Sol 14 21:30 vega\nLiftoff in 3... from the search test.\n")
    wait_for(browser, lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".search-snippet")]
             == ["Liftoff in 3... from the search test."])
    assert marker_kept(browser), "the page reloaded"
    assert browser.find_element(By.CSS_SELECTOR, "input[type=search]").get_attribute("value") == "liftoff"
    # An edit of the text is found too, and what it no longer says is not.
    text = serve.path("content/messages/habitat.md").read_text()
    serve.write("content/messages/habitat.md", text.replace("Liftoff in 3...", "Touchdown in 3..."))
    wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".search-result") == [])
    assert marker_kept(browser)
