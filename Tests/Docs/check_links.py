#!/usr/bin/env python3
"""Opens the built documentation's index in headless Chromium (served over
loopback, as DocC's pages load their content with scripts) and checks that it
links every article, and that every link on it resolves: the page's address
is served and so is the content DocC's script loads for it
(`/data/documentation/....json`). Usage: check_links.py SITE_FOLDER. Prints
`N passed, N failed`."""
import functools, http.server, re, shutil, subprocess, sys, threading, urllib.request

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

def serve(folder):
    handler = functools.partial(Quiet, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server

def render(chromium, url):
    run = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=8000",
                          "--dump-dom", url], capture_output=True, text=True, timeout=60)
    return run.stdout

def main():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium is not installed: the documentation link check is skipped (apt-get install chromium)")
        return 0
    server = serve(sys.argv[1])
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        index = render(chromium, base + "/documentation/storykit/")
        links = sorted(set(re.findall(r'href="(/documentation/storykit/[^"#]+)"', index)))
        articles = [link for link in links if link.rsplit("/", 1)[-1] in ARTICLES]
        failed = [] if len(articles) == len(ARTICLES) else [f"index links {len(articles)} of {len(ARTICLES)} articles"]
        passed = 0
        if "<h1" not in index:
            failed.append("the index did not render")
        for link in links:
            try:
                for path in (link + "/", "/data" + link + ".json"):
                    with urllib.request.urlopen(base + path, timeout=10) as answer:
                        answer.read()
                passed += 1
            except OSError as error:
                failed.append(f"{link}: {error}")
    finally:
        server.shutdown()
    for link in failed:
        print(f"FAILED {link}")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0

ARTICLES = {"gettingstarted", "writingstories", "definingsteps", "thestore", "commandline", "reports",
            "runningatscale", "workerprocesses", "steplibraries", "theeditor", "storiesinswifttest", "statusandfigures"}

sys.exit(main())
