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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

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
    """Wall time, and peak RSS through /usr/bin/time (a process forked
    from this Python starts with Python's own peak RSS, so wait4's figure
    would be at least this script's size): time's fork is small. Time's own
    start adds about a millisecond, so the start-up and floor comparisons
    use ``wall()``, which spawns the command itself."""
    timer = ["/usr/bin/time", "-f", "%M"] if os.path.exists("/usr/bin/time") else []
    start = time.perf_counter()
    process = subprocess.Popen(timer + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, **(env or {})}, cwd=cwd)
    _, errors = process.communicate()
    wall = time.perf_counter() - start
    lines = errors.decode(errors="replace").strip().splitlines()
    rss = float(lines[-1]) / 1024 if timer and lines and lines[-1].strip().isdigit() else float("nan")
    if process.returncode != 0:
        print(f"  ! {' '.join(command[:3])} exited {process.returncode}: {errors.decode(errors='replace')[-400:]}")
    return wall, rss


def wall(command, env=None):
    """Wall time alone, the command spawned directly (no RSS)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    process.wait()
    return time.perf_counter() - start, float("nan")


def median_run(command, env=None, runs=3):
    """storyrun's runs take a fraction of a second, so one unlucky moment on
    a noisy machine weighs heavily: the median of a few runs (the peers'
    runs take seconds to minutes, and are timed once)."""
    results = sorted(measure(command, env) for _ in range(runs))
    return results[len(results) // 2]


def row(name, n, d, wall, rss, corpus=""):
    us = wall * 1e6 / (n * STEPS_PER_STORY)
    print(f"  {corpus:<14} {name:<14} N={n:<7} D={d:<5} {wall:8.2f} s {us:9.1f} us/step {rss:7.1f} MB")
    return wall


NEUTRAL = os.path.join(os.path.dirname(HERE), ".build", "release", "storyrun-bench-neutral")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def alternate(commands, rounds=ROUNDS, rss=True):
    """Runs each command once per round, in turn, so a noisy moment hits
    every side alike; returns {name: (median wall, peak RSS)}. Walls come
    from direct spawns; with `rss`, one more run of each through
    /usr/bin/time gives its peak RSS."""
    times = {name: [] for name in commands}
    for _ in range(rounds):
        for name, (command, env) in commands.items():
            times[name].append(wall(command, env)[0])
    return {name: (median(v), measure(*commands[name])[1] if rss else float("nan")) for name, v in times.items()}


def main():
    """Every corpus at N stories x 5 steps, D = 1,000: storyrun (whole
    process, its default report, supervised) against behave and
    cucumber-ruby on the same files; storyrun's runs alternate with the
    peers' (the peers take seconds to a minute and run BENCH_PEER_ROUNDS
    times, default 1), and each ratio uses the median of storyrun's runs."""
    n = int(os.environ.get("BENCH_N", "10000"))
    peers = os.environ.get("BENCH_PEERS", "1") != "0"
    peer_rounds = int(os.environ.get("BENCH_PEER_ROUNDS", "1"))
    has_behave = peers and shutil.which("behave")
    has_cucumber = peers and shutil.which("cucumber")
    print(f"Peers: N={n} stories x {STEPS_PER_STORY} steps, D=1000, whole process; storyrun's default report (summary), "
          "behave --format null --no-summary, cucumber --format progress (the peers' lightest output)")
    neutral = os.path.join(OUT, f"neutral-{n}")
    corpus.write_neutral(neutral, n)
    rich = os.path.join(OUT, f"rich-{n}")
    corpus.write_rich(rich, n)
    widgets_stories = os.path.join(OUT, f"stories-{n}-1000")
    write_corpus(widgets_stories, n, 1000, "stories")
    widgets = os.path.join(OUT, f"features-{n}-1000")
    write_corpus(widgets, n, 1000, "feature")
    corpora = {
        "neutral": ([NEUTRAL, neutral], {}, neutral, lambda f: (corpus.write_behave_steps(f, 1000), corpus.write_cucumber_steps(f, 1000))),
        "rich": ([NEUTRAL, rich], {}, rich, lambda f: (corpus.write_behave_steps(f, 1000), corpus.write_cucumber_steps(f, 1000))),
        "widgets (old)": ([STORYRUN, widgets_stories], {"BENCH_DEFINITIONS": "1000"}, widgets,
                          lambda f: (write_behave_steps(f, 1000), write_cucumber_steps(f, 1000))),
    }
    ratios = []
    # The same runs --in-process (not the default; see Supervision below),
    # alternating with the default ones: what supervision costs against the
    # peers.
    in_process_ratios = []
    for name, (command, env, features, write_steps) in corpora.items():
        write_steps(features)
        ours, in_process, peer_times = [], [], {}
        def ours_three():
            for _ in range(3):
                ours.append(wall(command, env)[0])
                in_process.append(wall(command + ["--in-process"], env)[0])
        ours_three()
        for _ in range(peer_rounds):
            if has_behave:
                peer_times.setdefault("behave", []).append(measure(["behave", "--format", "null", "--no-capture", "--no-summary", features]))
                ours_three()
            if has_cucumber:
                peer_times.setdefault("cucumber-ruby", []).append(measure(["cucumber", "--format", "progress", "--require", features, features]))
                ours_three()
        ours_wall = median(ours)
        row(f"storyrun", n, 1000, ours_wall, measure(command, env)[1], corpus=name)
        for peer, values in peer_times.items():
            peer_wall = median(w for w, _ in values)
            row(peer, n, 1000, peer_wall, median(r for _, r in values), corpus=name)
            ratios.append((peer_wall / ours_wall, peer, name))
            in_process_ratios.append((peer_wall / median(in_process), peer, name))
    print("Ratios at N=%d, D=1000 (peer wall / median of storyrun's runs, 3 before and 3 after each peer run):" % n)
    for ratio, peer, name in ratios:
        target = " (target >= 100x)" if peer == "behave" else " (target >= 250x)"
        print(f"  {peer:<14} / storyrun, {name:<14} {ratio:6.0f}x{target}")
    for ratio, peer, name in in_process_ratios:
        print(f"  {peer:<14} / storyrun --in-process, {name:<14} {ratio:6.0f}x (not the default: for comparison)")
    for peer in ("behave", "cucumber-ruby"):
        least = [r for r in ratios if r[1] == peer]
        if least:
            ratio, _, name = min(least)
            print(f"  least flattering vs {peer}: {ratio:.0f}x ({name} corpus)")

    print(f"Flat in D: neutral corpus, D=10 vs D=1000 (its texts from the first 10 or all 1000 definitions), median of {ROUNDS} alternating")
    small = os.path.join(OUT, f"neutral-{n}-d10")
    corpus.write_neutral(small, n, d=10)
    flat = alternate({"D=10": ([NEUTRAL, small], {"BENCH_DEFINITIONS": "10"}), "D=1000": ([NEUTRAL, neutral], {})})
    for name, (seconds, rss) in flat.items():
        print(f"  {name:<8} {seconds:6.3f} s {rss:6.1f} MB")
    print(f"  D=1000 / D=10: {flat['D=1000'][0] / flat['D=10'][0]:.2f}x (target <= 1.2x)")

    supervision(neutral, n)
    long_stories()
    startup()
    floor(neutral, n)
    memory()


def supervision(neutral, n):
    print(f"Supervision: neutral corpus N={n}, D=1000, median of {ROUNDS} alternating")
    results = alternate({
        "--in-process": ([NEUTRAL, "--in-process", neutral], {}),
        "supervised (1 worker)": ([NEUTRAL, neutral], {}),
        "--jobs 2": ([NEUTRAL, "--jobs", "2", neutral], {}),
    })
    for name, (wall, rss) in results.items():
        print(f"  {name:<22} {wall:6.3f} s {rss:6.1f} MB")
    one = results["supervised (1 worker)"][0]
    print(f"  supervised / in-process: {one / results['--in-process'][0]:.2f}x (target <= 1.25x)")
    print(f"  --jobs 2 / one worker:   {results['--jobs 2'][0] / one:.2f}x (target <= 1.0x)")


def long_stories():
    """One story of 50,000 and one of 1,000,000 steps (Benchmarks/long_story.py),
    supervised against --in-process: median wall, ratio, peak RSS of the parent
    and of its worker. BENCH_LONG (default "50000,1000000") sets the sizes."""
    import long_story
    sizes = [int(n) for n in os.environ.get("BENCH_LONG", "50000,1000000").split(",") if n]
    print("Long stories: one story of N steps, supervised vs --in-process (widgets bench executable, D=10; "
          "median of 3 alternating at 50,000, 1 run each at 1,000,000; peak RSS sampled from /proc)")
    for n in sizes:
        # Passing, the compact answer; one more step undefined, the answer
        # that went as one JSON document before (issue 29's 1,000,001 steps).
        for undefined in (False, True):
            long_story.compare(n, STORYRUN, rounds=3 if n <= 100_000 else 1, timeout=600, undefined=undefined)
        # Every step undefined: what telling each one ("did you mean", a
        # snippet) costs against the passing steps above.
        if n <= 100_000:
            long_story.compare(n, STORYRUN, rounds=3, timeout=600, all_undefined=True)


def compile_swift(name, static=False):
    source = os.path.join(HERE, "floor", f"{name}.swift")
    binary = os.path.join(OUT, name + ("-static" if static else ""))
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        subprocess.run(["swiftc", "-O"] + (["-static-stdlib"] if static else []) + [source, "-o", binary], check=True)
    return binary


# The same executable linked with the Swift runtime and Foundation inside it
# (`swift build --static-swift-stdlib`, as `make bench` builds it): no
# dynamic loading at start-up.
NEUTRAL_STATIC = os.path.join(os.path.dirname(HERE), ".build-static", "release", "storyrun-bench-neutral")


def startup():
    """A one-story run at D=1000 against a bare Foundation program that
    prints a line, alternating, median of 3 x ROUNDS."""
    hello = compile_swift("hello")
    one = os.path.join(OUT, "one-story")
    corpus.write_neutral(one, 1)
    commands = {
        "bare Foundation": ([hello], {}),
        "D=1000 supervised": ([NEUTRAL, one], {}),
        "D=1000 --in-process": ([NEUTRAL, "--in-process", one], {}),
        "D=10 supervised": ([NEUTRAL, one], {"BENCH_DEFINITIONS": "10"}),
    }
    static = os.path.exists(NEUTRAL_STATIC)
    if static:
        commands.update({
            "static bare Foundation": ([compile_swift("hello", static=True)], {}),
            "static D=1000 supervised": ([NEUTRAL_STATIC, one], {}),
            "static D=1000 --in-process": ([NEUTRAL_STATIC, "--in-process", one], {}),
        })
    results = alternate(commands, rounds=3 * ROUNDS)
    print(f"Start-up: a one-story run, median of {3 * ROUNDS} alternating (static: linked with --static-swift-stdlib)")
    bare = results["bare Foundation"][0]
    for name, (wall, rss) in results.items():
        print(f"  {name:<26} {wall * 1000:6.1f} ms {wall / bare:5.2f}x bare {rss:6.1f} MB")
    print(f"  D=1000 supervised / bare: {results['D=1000 supervised'][0] / bare:.2f}x (target <= 1.5x)")
    if static:
        print(f"  static D=1000 supervised / bare: {results['static D=1000 supervised'][0] / bare:.2f}x; "
              f"/ static bare: {results['static D=1000 supervised'][0] / results['static bare Foundation'][0]:.2f}x")
        print(f"  static D=1000 --in-process / bare: {results['static D=1000 --in-process'][0] / bare:.2f}x; "
              f"/ static bare: {results['static D=1000 --in-process'][0] / results['static bare Foundation'][0]:.2f}x")


def floor(neutral, n):
    """The floor for the same work: read the files, call 50,000 no-op
    closures with converted Ints, write the same output."""
    binary = compile_swift("floor")
    captured = os.path.join(OUT, "neutral-output.txt")
    with open(captured, "wb") as f:
        subprocess.run([NEUTRAL, neutral], stdout=f, stderr=subprocess.DEVNULL)
    results = alternate({
        "floor": ([binary, captured, neutral], {}),
        "storyrun --in-process": ([NEUTRAL, "--in-process", neutral], {}),
        "storyrun supervised": ([NEUTRAL, neutral], {}),
    })
    print(f"Floor: neutral corpus N={n} ({n * STEPS_PER_STORY} closure calls, same files read, same output), median of {ROUNDS} alternating")
    base = results["floor"][0]
    for name, (wall, rss) in results.items():
        print(f"  {name:<22} {wall:6.3f} s {wall / base:5.2f}x floor {rss:6.1f} MB")


def memory():
    """Peak RSS and wall at BENCH_BIG_N with no report files, JUnit and
    HTML, and all five; then what the five file reports cost at BENCH_N:
    alternating runs with and without them, median."""
    big_n = int(os.environ.get("BENCH_BIG_N", "100000"))
    big = os.path.join(OUT, f"neutral-{big_n}")
    corpus.write_neutral(big, big_n)
    reports = os.path.join(OUT, "reports")
    os.makedirs(reports, exist_ok=True)
    junit_html = ["--junit", f"{reports}/r.xml", "--html", f"{reports}/r.html"]
    all_five = junit_html + ["--json", f"{reports}/r.json", "--messages", f"{reports}/r.ndjson", "--rerun", f"{reports}/rerun.txt"]
    print(f"Memory: neutral corpus N={big_n}, D=1000 (peak RSS: the larger of parent and worker)")
    for name, flags in (("no report files", []), ("--junit --html", junit_html), ("all five reports", all_five)):
        wall, rss = measure([NEUTRAL] + flags + [big])
        print(f"  {name:<18} {wall:6.2f} s {rss:7.1f} MB (target <= 128 MB)")
    n = int(os.environ.get("BENCH_N", "10000"))
    small = os.path.join(OUT, f"neutral-{n}")
    corpus.write_neutral(small, n)
    results = alternate({"none": ([NEUTRAL, small], {}), "all five": ([NEUTRAL] + all_five + [small], {})}, rss=False)
    ratio = results["all five"][0] / results["none"][0]
    print(f"  N={n}: all five reports {results['all five'][0]:.3f} s / none {results['none'][0]:.3f} s: "
          f"{ratio:.2f}x (target <= 2x; median of {ROUNDS} alternating)")


def parallel():
    """How workers scale on CPU-bound and I/O-bound stories."""
    print("Scaling: 1 worker vs --jobs 2 (widgets bench executable, median of 3; no-op stories: see Supervision)")
    env = {"BENCH_DEFINITIONS": "1000"}
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
    # Other work on the machine moves every figure: say how loaded it was.
    print("Load average at the start: %.2f %.2f %.2f (%d cores)" % (*os.getloadavg(), os.cpu_count()))
    only = sys.argv[1:] or ["matching", "parallel", "gherkin"]
    if "matching" in only: main()
    if "long" in only and "matching" not in only: long_stories()
    if "parallel" in only: parallel()
    if "gherkin" in only: gherkin()
    print("Load average at the end: %.2f %.2f %.2f" % os.getloadavg())
