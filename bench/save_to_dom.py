"""Save-to-DOM latency for `make bench-serve`: write a file, time until the open page shows it.

usage: save_to_dom.py MARSGEN SITE LABEL

Starts `MARSGEN serve --port 0` on SITE, opens its front page in headless Chromium, then
20 times appends a line to the journal entry of the front page's first journal section
and measures, on the one machine clock, from just before the write to the moment a
MutationObserver in the page sees the line. Prints a Markdown table row.
"""
import os
import pathlib
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests/Browser"))
from browser import make_driver  # noqa: E402

EDITS = 20


def main():
    marsgen, site, label = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
    server = subprocess.Popen([marsgen, "serve", "--quiet", "--port", "0", "--source", str(site)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    driver = None
    try:
        url = None
        while url is None:
            line = server.stdout.readline()
            if not line:
                raise SystemExit("marsgen serve did not start")
            match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
            url = match.group(1) if match else None
        driver = make_driver(1280, 900)
        driver.set_script_timeout(60)
        driver.get(url)
        while not driver.execute_script("return !!(window.__marsgenLive && window.__marsgenLive.generation)"):
            time.sleep(0.05)
        entry_id = driver.execute_script(
            "return [...document.querySelectorAll('.feed section[data-diff-id^=\"journal:\"]')][0].dataset.diffId")
        entry = site / entry_id.split(":", 1)[1]
        driver.execute_script("""
            window.__seen = {};
            new MutationObserver(() => {
              const text = document.querySelector('.feed').textContent;
              for (const match of text.matchAll(/Live edit (\\w+)\\./g)) window.__seen[match[1]] ??= Date.now();
            }).observe(document.body, { childList: true, subtree: true, characterData: true });
        """)
        latencies = []
        # Markers unique to this run: a site measured before still shows the last run's.
        run = f"{time.time_ns():x}"
        for number in range(1, EDITS + 1):
            time.sleep(0.3)
            started = time.time() * 1000
            with open(entry, "a") as handle:
                handle.write(f"\nLive edit {run}x{number}.\n")
            deadline = time.time() + 60
            seen = None
            while seen is None and time.time() < deadline:
                seen = driver.execute_script("return window.__seen[arguments[0]] || null", f"{run}x{number}")
                if seen is None:
                    time.sleep(0.005)
            if seen is None:
                raise SystemExit(f"edit {number} never reached the page")
            latencies.append(seen - started)
        latencies.sort()
        p90 = latencies[int(len(latencies) * 0.9) - 1]
        print(f"| {label} | {statistics.median(latencies):.0f} ms | {p90:.0f} ms | {latencies[-1]:.0f} ms |")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
