"""Headless Chromium through chromedriver, as every browser test opens it, and the sites
they open. MARSGEN_BIN names the binary that builds a site."""
import contextlib
import functools
import http.server
import os
import pathlib
import subprocess
import sys
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests"))
from demo_site import copy_demo  # noqa: E402
BINARY = pathlib.Path(os.environ.get("MARSGEN_BIN", REPO / ".build/debug/marsgen")).resolve()


def make_driver(width, height, mobile=False):
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 f"--window-size={max(width, 500)},{height}"):
        options.add_argument(flag)
    if mobile:
        # Headless windows are at least 500px wide; emulate the phone's viewport instead.
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 3, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/120.0 Mobile Safari/537.36",
        })
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder, logging nothing; a missing file gets the folder's own 404.html, as
    a real host gives it."""

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        page = pathlib.Path(self.directory) / "404.html"
        if code == 404 and page.exists():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().send_error(code, message, explain)


@contextlib.contextmanager
def served(folder):
    """The URL of `folder` served over HTTP on a free loopback port (a site's links are
    root-relative), until the block ends."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def build_demo(root, language, more_settings=""):
    """Builds a copy of the demo site in `root` with `language:` set and `more_settings` (YAML)
    added to its marsgen.yml; returns its output folder."""
    copy_demo(root)
    config = root / "marsgen.yml"
    text = config.read_text(encoding="utf-8")
    assert "\nlanguage: en\n" in text
    config.write_text(text.replace("\nlanguage: en\n", f"\nlanguage: {language}\n") + more_settings, encoding="utf-8")
    result = subprocess.run([str(BINARY), "build", "--quiet", "--source", str(root)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return root / "public"
