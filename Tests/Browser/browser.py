"""Headless Chromium through chromedriver, as every browser test opens it."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


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
