"""What a fresh browser context per story costs Chromium, measured with raw
DevTools calls over --remote-debugging-pipe (no storyrun, no WebDriver):
the wall time of each call a story's page makes (the same calls
StoryKitBrowser makes: createBrowserContext, createTarget, attachToTarget,
the three enables, a navigation to its load event, disposeBrowserContext),
the renderer processes each story starts (alive once its page loaded), and the CPU time of Chromium's
whole process tree per story (which is what limits a 2-core machine).

    python3 context_cost.py URL [--stories 20] [--flags "--disable-features=..."]

Without --flags it starts Chromium with StoryKitBrowser's own flags (read
from ChromiumProcess.swift); with --flags, with those instead of its
--disable-features. Prints medians.

--way says how a story gets its page, to weigh what isolation costs:
  fresh   a browser context of its own (what StoryKitBrowser does);
  tab     a new tab in one context shared by all stories, its storage and
          cache cleared after each story;
  reuse   one tab for all stories, sent to about:blank and its cookies,
          storage and cache cleared after each (Capybara's reset; the
          session storage of other origins and the tab's history stay).
Chromium: STORYKIT_CHROMIUM, else the one StoryKitBrowser picks first.
"""
import argparse
import fcntl
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "Sources", "StoryKitBrowser", "Browser", "ChromiumProcess.swift")
BASE = ["--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--disable-background-networking", "--disable-sync", "--disable-dev-shm-usage", "--mute-audio",
        "--hide-scrollbars", "--disable-breakpad", "--disable-component-update", "--disable-background-timer-throttling",
        "--window-size=1280,800"]


def executable():
    for path in (os.environ.get("STORYKIT_CHROMIUM"), "/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"):
        if path and os.access(path, os.X_OK):
            return path
    raise SystemExit("no Chromium: apt-get install chromium-headless-shell")


def storykit_features():
    """The --disable-features StoryKitBrowser passes (its string pieces joined)."""
    text = open(SOURCE).read()
    start = text.index('"--disable-features=')
    pieces = re.findall(r'"([^"]*)"', text[start:text.index("\n", text.index('",', start) + 2)])
    return "".join(pieces)


class Chromium:
    """A headless Chromium on a pipe pair (its descriptors 3 and 4)."""

    def __init__(self, flags):
        def high(fd):
            moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 30)
            os.close(fd)
            return moved
        ours_read, theirs_write = map(high, os.pipe())
        theirs_read, ours_write = map(high, os.pipe())
        self.profile = tempfile.mkdtemp(prefix="context-cost-")

        def descriptors():
            os.dup2(theirs_read, 3)
            os.dup2(theirs_write, 4)
        self.process = subprocess.Popen([executable(), *BASE, f"--user-data-dir={self.profile}",
                                         *flags, "about:blank"], preexec_fn=descriptors, close_fds=False, start_new_session=True,
                                        stderr=subprocess.DEVNULL)
        os.close(theirs_read)
        os.close(theirs_write)
        self.read, self.write, self.buffer, self.next = ours_read, ours_write, b"", 0
        self.times = {}

    def send(self, method, params=None, session=None):
        self.next += 1
        message = {"id": self.next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write, json.dumps(message).encode() + b"\0")
        return self.next

    def until(self, holds):
        while True:
            while b"\0" in self.buffer:
                text, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(text)
                if holds(message):
                    return message
            chunk = os.read(self.read, 1 << 16)
            if not chunk:
                raise SystemExit("Chromium closed its pipe")
            self.buffer += chunk

    def call(self, method, params=None, session=None, label=None):
        began = time.perf_counter()
        sent = self.send(method, params, session)
        answer = self.until(lambda message: message.get("id") == sent)
        self.times.setdefault(label or method, []).append(time.perf_counter() - began)
        if "error" in answer:
            raise SystemExit(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def processes(self):
        """pid -> (process type, CPU seconds with reaped children) of the browser's process tree."""
        found = {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if os.getsid(int(pid)) != self.process.pid:
                    continue
                fields = open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1].split()
                command = open(f"/proc/{pid}/cmdline").read().replace("\0", " ")
            except (OSError, ProcessLookupError):
                continue
            kind = re.search(r"--type=(\S+)", command)
            found[int(pid)] = (kind.group(1) if kind else "browser", sum(map(int, fields[11:15])) / os.sysconf("SC_CLK_TCK"))
        return found

    def stop(self):
        os.killpg(self.process.pid, 9)
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def open_tab(browser, context):
    target = browser.call("Target.createTarget", {"url": "about:blank", "browserContextId": context})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for method, params in (("Page.enable", {}), ("Page.setLifecycleEventsEnabled", {"enabled": True}), ("Runtime.enable", {})):
        browser.call(method, params, session)
    return target, session


def load(browser, session, url):
    loader = browser.call("Page.navigate", {"url": url}, session).get("loaderId")
    browser.until(lambda message: message.get("method") == "Page.lifecycleEvent" and message["params"].get("name") == "load"
                  and message["params"].get("loaderId") == loader)


def renderers(browser):
    return {pid for pid, (kind, _) in browser.processes().items() if kind == "renderer"}


def clear(browser, session, url):
    browser.call("Storage.clearDataForOrigin", {"origin": url.split("/", 3)[0] + "//" + url.split("/", 3)[2], "storageTypes": "all"}, session)
    browser.call("Network.clearBrowserCache", {}, session)


def story_in_tab(browser, url, shared):
    """A new tab in the shared context; storage and cache cleared, the tab closed."""
    began = time.perf_counter()
    target, session = open_tab(browser, shared["context"])
    browser.times.setdefault("tab opened", []).append(time.perf_counter() - began)
    load(browser, session, url)
    alive = renderers(browser)
    clear(browser, session, url)
    browser.call("Target.closeTarget", {"targetId": target})
    return alive


def story_reusing(browser, url, shared):
    """The one shared tab, then Capybara's reset: about:blank, cookies, storage and cache cleared."""
    if "session" not in shared:
        shared["session"] = open_tab(browser, shared["context"])[1]
    session = shared["session"]
    load(browser, session, url)
    alive = renderers(browser)
    began = time.perf_counter()
    load(browser, session, "about:blank")
    browser.call("Network.clearBrowserCookies", {}, session)
    clear(browser, session, url)
    browser.times.setdefault("reset", []).append(time.perf_counter() - began)
    return alive


def story(browser, url, shared=None):
    context = browser.call("Target.createBrowserContext", {"disposeOnDetach": True})["browserContextId"]
    target = browser.call("Target.createTarget", {"url": "about:blank", "browserContextId": context})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    began = time.perf_counter()
    sent = [browser.send("Page.enable", {}, session), browser.send("Page.setLifecycleEventsEnabled", {"enabled": True}, session),
            browser.send("Runtime.enable", {}, session)]
    for command in sent:
        browser.until(lambda message, command=command: message.get("id") == command)
    browser.times.setdefault("three enables at once", []).append(time.perf_counter() - began)
    began = time.perf_counter()
    loader = browser.call("Page.navigate", {"url": url}, session).get("loaderId")
    browser.until(lambda message: message.get("method") == "Page.lifecycleEvent" and message["params"].get("name") == "load"
                  and message["params"].get("loaderId") == loader)
    browser.times.setdefault("navigation to load", []).append(time.perf_counter() - began)
    alive = renderers(browser)
    browser.call("Target.disposeBrowserContext", {"browserContextId": context})
    return alive


def main():
    options = argparse.ArgumentParser()
    options.add_argument("url")
    options.add_argument("--stories", type=int, default=20)
    options.add_argument("--flags", default=None)
    options.add_argument("--way", choices=["fresh", "tab", "reuse"], default="fresh")
    args = options.parse_args()
    flags = args.flags.split() if args.flags is not None else [storykit_features()]
    browser = Chromium(flags)
    try:
        browser.call("Browser.getVersion")
        time.sleep(2)
        before = browser.processes()
        cpu = sum(seconds for _, seconds in before.values())
        way = {"fresh": story, "tab": story_in_tab, "reuse": story_reusing}[args.way]
        shared = {} if args.way == "fresh" else {"context": browser.call("Target.createBrowserContext")["browserContextId"]}
        started_renderers, wall = set(), []
        for _ in range(args.stories):
            started = time.perf_counter()
            started_renderers |= way(browser, args.url, shared) - set(before)
            wall.append(time.perf_counter() - started)
        time.sleep(0.5)
        cpu = sum(seconds for _, seconds in browser.processes().values()) - cpu
        print(f"{executable()}, a page a story: {args.way}; flags: {' '.join(flags)}")
        for name, values in browser.times.items():
            if name != "Browser.getVersion":
                print(f"  {name:30} median {1000 * statistics.median(values):7.1f} ms")
        print(f"  a story: median {1000 * statistics.median(wall):.0f} ms wall; {len(started_renderers) / args.stories:.1f} renderer processes started;"
              f" Chromium's CPU {1000 * cpu / args.stories:.0f} ms (load average {os.getloadavg()[0]:.1f})")
    finally:
        browser.stop()


if __name__ == "__main__":
    main()
