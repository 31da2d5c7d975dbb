#!/usr/bin/env python3
"""How the HTML report scales (issue 31): page size and the time headless
Chromium takes to show it, for 1,000 / 10,000 / 100,000 stories.

The corpus is a Cucumber JSON report (100 stories a file, 10% failing, an
outline's rows, data tables, logged lines with ANSI colours, failing after
hooks with an absolute path, a failed run hook), merged by the built
`storyrun merge … --html` (merge writes the page from the same events a run
does, without running 100,000 stories first).

Time to show: from asking headless Chromium (over the DevTools protocol) to
open the page to a screenshot taken after its load event (parsing, scripts,
layout and paint of what they built), with scripts on and off; the best of
`--repeat` runs, each in a fresh browser.

    python3 Benchmarks/html_scale.py [--storyrun .build/release/storyrun] [--sizes 1000,10000,100000]
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

ESC = "\u001b"


def step(keyword, name, line, status="passed", **extra):
    result = {"status": status, "duration": 1_200_000}
    if status == "failed":
        result["error_message"] = f"expected 3 but got 4\n{ESC}[31mdiff{ESC}[0m: total is off by one"
    return {"keyword": keyword + " ", "name": name, "line": line, "result": result,
            "match": {"location": "Steps/BasketSteps.swift:21"}, **extra}


def story(file_index, index, failing):
    line = 3 + index * 8
    outline = index % 10 == 5
    name = f"Customer {index} checks out row {index % 3 + 1}" if outline else f"Customer {index} checks out"
    steps = [step("Given", f"an empty basket for customer {index}", line + 1),
             step("When", f"I add {index % 7 + 1} apples to the basket", line + 2,
                  output=[f"{ESC}[32madded{ESC}[0m {index % 7 + 1} apples", f"{ESC}[1mbasket{ESC}[0m now holds {index % 7 + 1}"]),
             step("And", "the basket is stocked with:", line + 3,
                  rows=[{"cells": ["item", "count"]}, {"cells": ["pear", str(index % 5)]}]),
             step("Then", f"the basket holds {index % 7 + 1} apples", line + 5, "failed" if failing else "passed"),
             step("And", "the total is 3 euros", line + 6, "skipped" if failing else "passed")]
    element = {"type": "scenario", "keyword": "Scenario Outline" if outline else "Scenario", "name": name,
               "line": line, "tags": [{"name": "@checkout"}] + ([{"name": "@slow"}] if index % 4 == 0 else []),
               "steps": steps}
    if failing and file_index % 2 == 0:
        element["after"] = [{"match": {"location": "/home/ci/shop/Tests/Steps/Hooks.swift:12"},
                             "result": {"status": "failed", "duration": 1000,
                                        "error_message": "the database did not close"}}]
    return element


def corpus(stories):
    features = []
    for file_index in range(max(1, stories // 100)):
        elements = [story(file_index, index, (file_index * 100 + index) % 10 == 3) for index in range(min(100, stories))]
        features.append({"uri": f"features/checkout_{file_index:04d}.feature", "name": f"Checkout {file_index}",
                         "keyword": "Feature", "description": "", "elements": elements})
    features.append({"uri": "run", "name": "run hooks", "storyrun_run_hooks": True, "elements": [
        {"storyrun_hook": "before run", "before": [{"match": {"location": "/home/ci/shop/Tests/Steps/Hooks.swift:4"},
                                                    "result": {"status": "failed", "error_message": "the server did not start"}}]}]})
    return features


class Chromium:
    """Headless Chromium driven over --remote-debugging-pipe (the DevTools
    protocol: JSON messages ended by NUL on file descriptors 3 and 4)."""

    def __init__(self, chromium, folder, scripts):
        to_chromium, self.write_end = os.pipe()
        self.read_end, from_chromium = os.pipe()
        arguments = [chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={folder}/profile",
                     "--remote-debugging-pipe", "--window-size=1280,1600", "about:blank"]
        if not scripts:
            arguments.insert(1, "--blink-settings=scriptEnabled=false")

        def descriptors():
            os.dup2(to_chromium, 3)
            os.dup2(from_chromium, 4)
        self.process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=descriptors, pass_fds=(3, 4))
        os.close(to_chromium)
        os.close(from_chromium)
        self.buffer, self.next_id = b"", 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)

    def send(self, method, session=False, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.write_end, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.read_end, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=False, **params):
        number = self.send(method, session, **params)
        while True:
            message = self.receive()
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def show(self, url):
        """Seconds from asking for the page to a screenshot of it taken after its load event."""
        start = time.monotonic()
        self.send("Page.navigate", session=True, url=url)
        while self.receive().get("method") != "Page.loadEventFired":
            pass
        # A frame after load, painted: layout and paint of what the scripts built.
        self.call("Page.captureScreenshot", session=True)
        return time.monotonic() - start

    def close(self):
        self.process.kill()
        self.process.wait()
        os.close(self.write_end)
        os.close(self.read_end)


def chromium_time(chromium, page, folder, scripts, repeat):
    """Seconds Chromium takes to load, lay out and paint the page (the best of `repeat`)."""
    best = None
    for _ in range(repeat):
        browser = Chromium(chromium, folder, scripts)
        try:
            elapsed = browser.show("file://" + page)
        finally:
            browser.close()
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storyrun", default=".build/debug/storyrun")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--keep", help="a folder to keep the pages in")
    arguments = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not chromium:
        sys.exit("chromium is not installed (make test-tools installs it)")
    folder = tempfile.mkdtemp(prefix="storyrun-html-scale-")
    try:
        print(f"{'stories':>8} {'page':>10} {'write':>8} {'show':>8} {'no JS':>8}")
        for size in [int(s) for s in arguments.sizes.split(",")]:
            source, page = os.path.join(folder, f"in-{size}.json"), os.path.join(folder, f"report-{size}.html")
            with open(source, "w") as file:
                json.dump(corpus(size), file)
            start = time.monotonic()
            subprocess.run([arguments.storyrun, "merge", source, "--html", page],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1200)
            written = time.monotonic() - start
            show = chromium_time(chromium, page, folder, True, arguments.repeat)
            plain = chromium_time(chromium, page, folder, False, arguments.repeat)
            print(f"{size:>8} {os.path.getsize(page) / 1e6:>8.1f} MB {written:>6.1f} s {show:>6.2f} s {plain:>6.2f} s", flush=True)
            if arguments.keep:
                os.makedirs(arguments.keep, exist_ok=True)
                shutil.copy(page, arguments.keep)
            os.remove(source)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
