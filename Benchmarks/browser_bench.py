"""`make bench-browser`: storyrun (StoryKitBrowser, DevTools over a pipe)
side by side with behave + Selenium (chromedriver, WebDriver over HTTP) on
the same 50 UI stories, against one running copy of the web example and
the same Chromium (the one StoryKitBrowser picks, Debian's headless shell
when installed, set for both in STORYKIT_CHROMIUM), in alternating runs.

Prints `storyrun vs behave+selenium: N.Nx` for the whole suite (wall time of
each tool's process, browser start included) and for a click-then-read round
trip (50 clicks each followed by reading a text, timed inside each tool: the
step durations of its Cucumber JSON / behave JSON report), and
`--jobs 2 vs 1: N.Nx` for storyrun on the suite. Medians, and the least
flattering ratio (the slowest storyrun run against the fastest peer run).

    python3 Benchmarks/browser_bench.py [--runs 3] [--binary PATH]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "browser"))
import generate  # noqa: E402
from context_cost import executable as chromium  # noqa: E402  (the Chromium StoryKitBrowser picks first)

CLICKS = 50


def start_app():
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "browser", "app_server.py"), "0"], stdout=subprocess.PIPE, text=True)
    return server, server.stdout.readline().split()[-1]


def features(folder):
    return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".feature"))


def timed(command, env, cwd=None):
    began = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"{command[0]} failed (exit {done.returncode}):\n{done.stdout[-3000:]}")
    return wall


def round_trip_seconds(report, unit):
    """The summed click and read step durations in a Cucumber JSON report (nanoseconds) or behave's (seconds)."""
    total = 0.0
    for feature in json.load(open(report)):
        for scenario in feature["elements"]:
            for step in scenario["steps"]:
                if step["name"].startswith(('I click "Add one"', 'I see "Count:')):
                    total += step["result"]["duration"] * unit
    return total


def ratio(line, ours, theirs):
    median = statistics.median(theirs) / statistics.median(ours)
    least = min(theirs) / max(ours)
    print(f"{line}: {median:.1f}x (medians {statistics.median(ours):.3f} s vs {statistics.median(theirs):.3f} s; least flattering {least:.1f}x)")
    return median


def main():
    options = argparse.ArgumentParser()
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--binary", default=os.path.join(HERE, "..", "Examples", "WebApp", ".build", "release", "webapp-stories"))
    args = options.parse_args()
    binary = os.path.abspath(args.binary)
    out = tempfile.mkdtemp(prefix="browser-bench-")
    generate.main(out, clicks=CLICKS)
    suite, trip = features(os.path.join(out, "suite")), features(os.path.join(out, "roundtrip"))
    server, url = start_app()
    browser = chromium()
    env = dict(os.environ, STORYKIT_BASE_URL=url, STORYKIT_CHROMIUM=browser)
    load = os.getloadavg()
    print(f"browser bench: {len(suite)} UI stories, {args.runs} alternating runs each, {binary}, app at {url}")
    print(f"both tools drive {browser}")
    print(f"load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores, shared)")
    runs = {"storyrun": [], "jobs2": [], "behave": [], "trip-storyrun": [], "trip-behave": []}
    try:
        for n in range(args.runs):
            runs["storyrun"].append(timed([binary, "--strict", *suite], env))
            runs["behave"].append(timed(["behave", "--format", "null", "--no-summary", os.path.join(out, "suite")], env))
            runs["jobs2"].append(timed([binary, "--strict", "--jobs", "2", *suite], env))
            report = os.path.join(out, f"storyrun-{n}.json")
            timed([binary, "--strict", "--json", report, *trip], env)
            runs["trip-storyrun"].append(round_trip_seconds(report, 1e-9))
            report = os.path.join(out, f"behave-{n}.json")
            timed(["behave", "--format", "json", "--outfile", report, os.path.join(out, "roundtrip")], env)
            runs["trip-behave"].append(round_trip_seconds(report, 1))
            print(f"  round {n + 1}: storyrun {runs['storyrun'][-1]:.2f} s, --jobs 2 {runs['jobs2'][-1]:.2f} s, behave+selenium {runs['behave'][-1]:.2f} s;"
                  f" round trip {1000 * runs['trip-storyrun'][-1] / CLICKS:.1f} ms vs {1000 * runs['trip-behave'][-1] / CLICKS:.1f} ms per click+read", flush=True)
    finally:
        server.terminate()
        server.wait()
    suite_ratio = ratio("storyrun vs behave+selenium", runs["storyrun"], runs["behave"])
    trip_ratio = ratio(f"storyrun vs behave+selenium, click-then-read round trip ({CLICKS} clicks)", runs["trip-storyrun"], runs["trip-behave"])
    jobs_ratio = ratio("--jobs 2 vs 1", runs["jobs2"], runs["storyrun"])
    for name, got, goal in (("suite", suite_ratio, 3), ("round trip", trip_ratio, 5), ("--jobs 2", jobs_ratio, 1.7)):
        print(f"goal {name} >= {goal}x: {'met' if got >= goal else 'NOT met'} ({got:.1f}x)")


if __name__ == "__main__":
    main()
