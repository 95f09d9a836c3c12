"""The demo site in the languages marsgen's theme speaks besides English (`language: fr`,
`de`, `es`, `it`), in headless Chromium: the words are the language's, longer than English's
("Tripulación" for "Crew"), and no page scrolls sideways on a phone for them; the search
page counts its results in the language. MARSGEN_BIN names the binary that builds the site.
"""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser import build_demo, make_driver, served

# Per language: the navigation's words (the demo's about page is in English, as its text),
# the front page's heading, the search page's count
# of more than one result, and the weather report's button, closed and open.
LANGUAGES = {
    "fr": (["Fil", "Journal", "Sols", "Équipage", "About", "Rechercher", "Atom"], "Dernières transmissions", "résultats", ("Détails", "Masquer")),
    "de": (["Feed", "Journal", "Sols", "Besatzung", "About", "Suche", "Atom"], "Neueste Übertragungen", "Ergebnisse", ("Details", "Ausblenden")),
    "es": (["Novedades", "Diario", "Soles", "Tripulación", "About", "Buscar", "Atom"], "Últimas transmisiones", "resultados", ("Detalles", "Ocultar")),
    "it": (["Feed", "Diario", "Sol", "Equipaggio", "About", "Cerca", "Atom"], "Ultime trasmissioni", "risultati", ("Dettagli", "Nascondi")),
}


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def site(request, tmp_path_factory):
    language = request.param
    with served(build_demo(tmp_path_factory.mktemp(f"site-{language}"), language)) as base_url:
        yield language, base_url


@pytest.fixture(scope="module")
def phone():
    driver = make_driver(360, 740, mobile=True)
    yield driver
    driver.quit()


@pytest.mark.parametrize("page", ["", "sol/2/", "journal/sol-06-dust-devil/", "journal/", "tags/crew/", "search/?q=dust", "404.html"])
def test_a_page_in_the_language_fits_a_phone(phone, site, page):
    language, base_url = site
    nav, heading, _, _ = LANGUAGES[language]
    phone.get(base_url + page)
    assert phone.execute_script("return document.documentElement.lang") == language
    assert [link.get_attribute("textContent").strip() for link in phone.find_elements(By.CSS_SELECTOR, ".nav a")] == nav
    if page == "":
        assert phone.find_element(By.CSS_SELECTOR, "h1").text == heading
    overflow = phone.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"/{page} in {language} scrolls sideways by {overflow}px"


def test_the_search_page_counts_in_the_language(phone, site):
    language, base_url = site
    _, _, results, _ = LANGUAGES[language]
    phone.get(base_url + "search/?q=greenhouse")
    WebDriverWait(phone, 10).until(
        lambda d: d.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("data-query") == "greenhouse")
    count = len(phone.find_elements(By.CSS_SELECTOR, ".search-result"))
    assert count > 1
    assert phone.find_element(By.CSS_SELECTOR, ".search-status").text == f"{count} {results}"


def test_the_weather_button_speaks_the_language(phone, site):
    """The button that opens a weather report, drawn by the style sheet, says the site's
    words: "DETALLES ▾", then "OCULTAR ▴" once open."""
    language, base_url = site
    closed, opened = LANGUAGES[language][3]
    phone.get(base_url + "sol/2/")
    label = "return getComputedStyle(document.querySelector('.section-weather summary .cell-weather'), '::after').content"
    assert phone.execute_script(label) == f'"{closed} ▾"'
    phone.find_element(By.CSS_SELECTOR, ".section-weather summary").click()
    assert phone.execute_script(label) == f'"{opened} ▴"'
