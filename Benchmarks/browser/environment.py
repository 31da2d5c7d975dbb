"""behave's hooks for the browser bench: one headless Chromium per run
(the bench's STORYKIT_CHROMIUM, else Debian's chromium, through
chromium-driver, as storyrun starts one per worker), and a fresh profile-less window state per scenario (cookies and
storage cleared; storyrun gives each story a new browser context)."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def before_all(context):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("STORYKIT_CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    context.driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    context.base_url = os.environ["STORYKIT_BASE_URL"].rstrip("/")


def after_scenario(context, scenario):
    context.driver.delete_all_cookies()
    context.driver.execute_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")


def after_all(context):
    context.driver.quit()
