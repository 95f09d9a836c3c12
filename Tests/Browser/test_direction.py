"""The demo site in a language written right to left (`language: ar`), in headless Chromium.

The page reads from the right: the message's accent bar and the quotes' rule sit at the
start of the line, which is now its right, the weather readings' dividers at its end, and
nothing scrolls sideways (the hidden skip link, pushed off the page's left, would widen a
right-to-left page). MARSGEN_BIN names the binary that builds the site.
"""
import pytest

from browser import build_demo, make_driver, served


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with served(build_demo(tmp_path_factory.mktemp("rtl-site"), "ar")) as url:
        yield url


@pytest.fixture(scope="module", params=[(1280, 900, False), (390, 844, True)], ids=["desktop", "phone"])
def driver(request):
    width, height, mobile = request.param
    driver = make_driver(width, height, mobile=mobile)
    yield driver
    driver.quit()


def widths(driver, selector):
    """The left and right border widths of the first element `selector` finds, in pixels."""
    return driver.execute_script(
        "const style = getComputedStyle(document.querySelector(arguments[0]));"
        "return [parseFloat(style.borderLeftWidth), parseFloat(style.borderRightWidth)];", selector)


@pytest.mark.parametrize("page", ["", "sol/2/", "journal/sol-06-dust-devil/"])
def test_a_right_to_left_page_reads_from_the_right_and_does_not_scroll_sideways(driver, base_url, page):
    driver.get(base_url + page)
    assert driver.execute_script("return document.documentElement.dir") == "rtl"
    assert driver.execute_script("return getComputedStyle(document.querySelector('main')).direction") == "rtl"
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"/{page} scrolls sideways by {overflow}px"
    # The page starts at the right: nothing is left scrolled out of view at the start.
    assert driver.execute_script("return window.scrollX") == 0


def test_the_accents_sit_at_the_start_of_a_right_to_left_line(driver, base_url):
    driver.get(base_url + "sol/2/")
    # The message's 3px accent replaces the section's 1px frame at the line's start.
    left, right = widths(driver, ".section-message")
    assert right == 3 and left < 3
    # The weather readings' dividers end each reading: on its left now.
    left, right = widths(driver, ".cell-detail")
    assert left == 1 and right == 0
