#!/usr/bin/env python3
"""storyrun's benchmarks, side by side with peers in one run (ratios, since
these machines are noisy). Not a test: `make bench` runs it.

Matching: N stories x 5 steps against D regex definitions, every step matching
exactly one definition with two integer captures converted to integers, no-op
bodies; storyrun vs behave (PyPI) vs cucumber-ruby (Debian), wall time, us per
step and peak RSS. Environment: BENCH_N (default 10000), BENCH_BIG_N (100000,
storyrun only, for memory), BENCH_PEERS=0 to skip behave and cucumber.
"""
import os, random, shutil, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out")
STORYRUN = os.path.join(os.path.dirname(HERE), ".build", "release", "storyrun-bench")
STEPS_PER_STORY = 5
KEYWORDS = ["Given", "And", "When", "Then", "And"]
STORIES_PER_FILE = 1000


def steps_for(n, d, seed=7):
    rng = random.Random(seed)
    for story in range(n):
        yield story, [(KEYWORDS[i], f"the widget{rng.randrange(d)} has {rng.randrange(100)} parts and {rng.randrange(100)} bolts")
                      for i in range(STEPS_PER_STORY)]


def write_corpus(folder, n, d, ext):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    handle = None
    for story, steps in steps_for(n, d):
        if story % STORIES_PER_FILE == 0:
            if handle: handle.close()
            handle = open(os.path.join(folder, f"part{story // STORIES_PER_FILE:04}.{ext}"), "w")
            if ext == "feature": handle.write(f"Feature: part {story // STORIES_PER_FILE}\n\n")
        if ext == "feature":
            handle.write(f"  Scenario: story {story}\n")
            handle.writelines(f"    {k} {t}\n" for k, t in steps)
        else:
            handle.write(f"Story: story {story}\n")
            handle.writelines(f"{k} {t}\n" for k, t in steps)
        handle.write("\n")
    if handle: handle.close()


def write_behave_steps(folder, d):
    os.makedirs(os.path.join(folder, "steps"), exist_ok=True)
    with open(os.path.join(folder, "steps", "widget_steps.py"), "w") as f:
        f.write(f"""from behave import step, use_step_matcher
use_step_matcher("re")
def make():
    def run(context, parts, bolts):
        int(parts); int(bolts)
    return run
for index in range({d}):
    step(r"the widget%d has (?P<parts>\\d+) parts and (?P<bolts>\\d+) bolts" % index)(make())
""")


def write_cucumber_steps(folder, d):
    os.makedirs(os.path.join(folder, "step_definitions"), exist_ok=True)
    with open(os.path.join(folder, "step_definitions", "widget_steps.rb"), "w") as f:
        f.write(f"(0...{d}).each {{ |i| Given(/^the widget#{{i}} has (\\d+) parts and (\\d+) bolts$/) {{ |a, b| a.to_i; b.to_i }} }}\n")


def measure(command, env=None, cwd=None):
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, **(env or {})}, cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        print(f"  ! {' '.join(command[:3])} exited {code}: {process.stderr.read().decode()[-400:]}")
    return wall, usage.ru_maxrss / 1024


def median_run(command, env=None, runs=3):
    """storyrun's runs take a fraction of a second, so one unlucky moment on
    a noisy machine weighs heavily: the median of a few runs (the peers'
    runs take seconds to minutes, and are timed once)."""
    results = sorted(measure(command, env) for _ in range(runs))
    return results[len(results) // 2]


def row(name, n, d, wall, rss):
    us = wall * 1e6 / (n * STEPS_PER_STORY)
    print(f"  {name:<14} N={n:<7} D={d:<5} {wall:8.2f} s {us:9.1f} us/step {rss:7.1f} MB")
    return wall


def main():
    n = int(os.environ.get("BENCH_N", "10000"))
    big_n = int(os.environ.get("BENCH_BIG_N", "100000"))
    peers = os.environ.get("BENCH_PEERS", "1") != "0"
    has_behave = peers and shutil.which("behave")
    has_cucumber = peers and shutil.which("cucumber")
    print(f"Matching benchmark: N stories x {STEPS_PER_STORY} steps, D regex definitions, two Int captures per step")
    results = {}
    for d in (10, 1000):
        stories = os.path.join(OUT, f"stories-{n}-{d}")
        write_corpus(stories, n, d, "stories")
        results[("storyrun", d)] = row("storyrun", n, d, *median_run([STORYRUN, "--strict", "--format", "summary", stories], {"BENCH_DEFINITIONS": str(d)}))
        features = os.path.join(OUT, f"features-{n}-{d}")
        write_corpus(features, n, d, "feature")
        if has_behave:
            write_behave_steps(features, d)
            results[("behave", d)] = row("behave", n, d, *measure(["behave", "--format", "null", "--no-capture", "--no-summary", features]))
        if has_cucumber:
            write_cucumber_steps(features, d)
            results[("cucumber", d)] = row("cucumber-ruby", n, d, *measure(["cucumber", "--format", "progress", "--require", features, features]))
    print("Ratios:")
    print(f"  storyrun D=1000 / D=10: {results[('storyrun', 1000)] / results[('storyrun', 10)]:.2f}x (target <= 1.2x)")
    for peer in ("behave", "cucumber"):
        if (peer, 1000) in results:
            print(f"  {peer} / storyrun at D=1000: {results[(peer, 1000)] / results[('storyrun', 1000)]:.0f}x faster" + (" (target >= 100x)" if peer == "behave" else ""))
    big = os.path.join(OUT, f"stories-{big_n}-1000")
    write_corpus(big, big_n, 1000, "stories")
    wall, rss = measure([STORYRUN, "--strict", big], {"BENCH_DEFINITIONS": "1000"})
    row("storyrun", big_n, 1000, wall, rss)
    print(f"  peak RSS at N={big_n}: {rss:.1f} MB (target <= 64 MB)")


def parallel():
    """What supervision costs, and how workers scale: the supervised default
    (one worker process) against --in-process, and --jobs 2 against one
    worker, on no-op, CPU-bound and I/O-bound stories. Runs alternate and the
    median of each is taken, so a noisy moment hits both sides alike."""
    print("Supervision and workers")
    env = {"BENCH_DEFINITIONS": "1000"}
    noop = os.path.join(OUT, "noop-10000")
    write_corpus(noop, 10000, 1000, "stories")
    modes = {"--in-process": ["--in-process"], "supervised (1 worker)": [], "--jobs 2": ["--jobs", "2"]}
    times = {name: [] for name in modes}
    for _ in range(5):
        for name, flags in modes.items():
            times[name].append(measure([STORYRUN] + flags + [noop], env)[0])
    median = {name: sorted(values)[len(values) // 2] for name, values in times.items()}
    print("  10,000 no-op stories x 5 steps, D=1000 (median of 5, alternating):")
    for name in modes:
        print(f"    {name:<22} {median[name]:6.2f} s")
    print(f"    supervised / in-process: {median['supervised (1 worker)'] / median['--in-process']:.2f}x (target <= 1.25x)")
    print(f"    --jobs 2 / one worker:   {median['--jobs 2'] / median['supervised (1 worker)']:.2f}x (target <= 1.0x)")
    for kind, step, count in (("CPU-bound", "Given the widget burns 20 ms of CPU", 100), ("I/O-bound", "Given the service answers in 50 ms", 60)):
        folder = os.path.join(OUT, kind)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        with open(os.path.join(folder, "work.stories"), "w") as f:
            for story in range(count):
                f.write(f"Story: {kind} {story}\n{step}\nThen the widget0 has 1 parts and 2 bolts\n\n")
        one = sorted(measure([STORYRUN, folder], env)[0] for _ in range(3))[1]
        two = sorted(measure([STORYRUN, "--jobs", "2", folder], env)[0] for _ in range(3))[1]
        print(f"  {count} {kind} stories: 1 worker {one:.2f} s, --jobs 2 {two:.2f} s: speed-up {one / two:.2f}x")


GHERKIN_SCRIPT = """
import sys, os
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler
from gherkin.token_scanner import TokenScanner
parser = Parser()
pickles = 0
for folder in sys.argv[1:]:
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            document = parser.parse(TokenScanner(f.read()))
        document["uri"] = name
        pickles += len(Compiler().compile(document))
print(pickles, "pickles")
"""


def write_features(folder, megabytes):
    """Gherkin features with every construct: background, rules, outlines
    with examples, tags, doc strings and tables."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    rng = random.Random(11)
    size, index = 0, 0
    while size < megabytes * 1_000_000:
        lines = [f"@area{index % 7}", f"Feature: widgets {index}", "  Widgets are counted.", "",
                 "  Background:", "    Given an empty store", ""]
        for scenario in range(20):
            lines += [f"  @tag{scenario % 5}", f"  Scenario: widget {index}-{scenario}",
                      f"    Given the widget{rng.randrange(1000)} has {rng.randrange(100)} parts and {rng.randrange(100)} bolts",
                      "    When the parts are counted", "      | part | count |", "      | bolt | 3     |", "      | nut  | 4     |",
                      "    Then the report says:", '      """', "      all parts counted", '      """', ""]
        lines += ["  Scenario Outline: outline <n>", "    Given the widget<n> has <p> parts and 1 bolts", "    Then it is ok",
                  "    Examples:", "      | n | p |"] + [f"      | {n} | {n * 2} |" for n in range(10)] + [""]
        text = "\n".join(lines) + "\n"
        with open(os.path.join(folder, f"f{index:05}.feature"), "w") as f:
            f.write(text)
        size += len(text.encode())
        index += 1
    return size


def gherkin():
    print("Gherkin parse throughput: parse and compile to pickles, whole process")
    folder = os.path.join(OUT, "gherkin")
    size = write_features(folder, float(os.environ.get("BENCH_GHERKIN_MB", "12")))
    # Reads every file once, untimed, so that neither tool pays for a cold
    # page cache right after the corpus was written.
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as f:
            f.read()
    ours, rss = measure([STORYRUN, "parse", folder])
    print(f"  storyrun         {size / 1e6:6.1f} MB {ours:7.2f} s {size / 1e6 / ours:8.1f} MB/s {rss:7.1f} MB")
    try:
        import gherkin  # noqa: F401
    except ImportError:
        print("  gherkin-official is not installed (pip install gherkin-official): no comparison")
        return
    theirs, rss = measure([sys.executable, "-c", GHERKIN_SCRIPT, folder])
    print(f"  gherkin-official {size / 1e6:6.1f} MB {theirs:7.2f} s {size / 1e6 / theirs:8.1f} MB/s {rss:7.1f} MB")
    print(f"  storyrun / gherkin-official: {theirs / ours:.0f}x (target >= 30x)")


if __name__ == "__main__":
    only = sys.argv[1:] or ["matching", "parallel", "gherkin"]
    if "matching" in only: main()
    if "parallel" in only: parallel()
    if "gherkin" in only: gherkin()
