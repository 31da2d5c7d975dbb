#!/usr/bin/env python3
"""Watch mode's latency (not a test; `make bench` runs it): the time from
saving a story file to its result on the screen (the run's `Stories:` line),
with `storyrun-bench --watch` on a 1,000-story suite (BENCH_WATCH_FILES files,
default 50, of 20 stories x 5 steps) at D = BENCH_DEFINITIONS (default 1000)
step definitions; median and 90th percentile of BENCH_EDITS (default 30)
saves with inotify, then a few with --watch-poll for comparison.
"""
import os, queue, random, shutil, statistics, subprocess, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.environ.get("BENCH_BINARY", os.path.join(os.path.dirname(HERE), ".build", "release", "storyrun-bench"))
D = int(os.environ.get("BENCH_DEFINITIONS", "1000"))
EDITS = int(os.environ.get("BENCH_EDITS", "30"))
FILES = int(os.environ.get("BENCH_WATCH_FILES", "50"))
STORIES = 1000
SUITE = os.path.join(HERE, "out", "watch-suite")


def story_text(rng, index):
    lines = [f"Story: story {index}"]
    for keyword in ["Given", "And", "When", "Then", "And"]:
        lines.append(f"{keyword} the widget{rng.randrange(D)} has {rng.randrange(100)} parts and {rng.randrange(100)} bolts")
    return "\n".join(lines) + "\n\n"


def write_suite():
    shutil.rmtree(SUITE, ignore_errors=True)
    os.makedirs(SUITE)
    rng = random.Random(11)
    per_file = STORIES // FILES
    paths = []
    for file in range(FILES):
        path = os.path.join(SUITE, f"part{file:03}.stories")
        with open(path, "w") as handle:
            handle.writelines(story_text(rng, file * per_file + i) for i in range(per_file))
        paths.append(path)
    return paths, per_file


def measure(paths, per_file, edits, options):
    process = subprocess.Popen([BINARY, "--watch", *options, SUITE], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env={**os.environ, "BENCH_DEFINITIONS": str(D)})
    lines = queue.Queue()

    def read():
        for line in process.stdout:
            lines.put((time.perf_counter(), line.decode(errors="replace")))
        lines.put((time.perf_counter(), None))

    threading.Thread(target=read, daemon=True).start()

    def wait_for(prefix, after, timeout=60):
        deadline = time.perf_counter() + timeout
        while True:
            stamp, line = lines.get(timeout=max(0.01, deadline - time.perf_counter()))
            if line is None:
                sys.exit(f"storyrun-bench --watch ended early (status {process.wait()})")
            if stamp >= after and line.startswith(prefix):
                return stamp, line

    try:
        start = time.perf_counter()
        _, status = wait_for("watching ", 0)
        first = time.perf_counter() - start
        results, statuses = [], []
        rng = random.Random(3)
        for edit in range(edits):
            path = paths[edit % len(paths)]
            with open(path) as handle:
                text = handle.read()
            # Another name for the first story: its steps stay as they were.
            text = text.replace(" (saved)\n", "\n", 1) if " (saved)\n" in text else text.replace("\n", " (saved)\n", 1)
            saved = time.perf_counter()
            with open(path, "w") as handle:
                handle.write(text)
            result, line = wait_for("Stories:", saved)
            if f"{per_file} passed" not in line:
                sys.exit(f"unexpected result: {line.strip()}")
            shown, _ = wait_for("watching ", saved)
            results.append((result - saved) * 1000)
            statuses.append((shown - saved) * 1000)
            time.sleep(rng.uniform(0.1, 0.2))
        return first, status.strip(), results, statuses
    finally:
        process.send_signal(2)
        try:
            code = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            code = "killed after 10 s"
        if code != 0:
            print(f"  ! SIGINT ended storyrun-bench --watch with status {code}, not 0")


def report(name, results, statuses):
    p90 = sorted(results)[int(len(results) * 0.9) - 1] if len(results) >= 10 else max(results)
    print(f"  {name:<9} save -> result: median {statistics.median(results):6.1f} ms, p90 {p90:6.1f} ms, "
          f"max {max(results):6.1f} ms; -> status line: median {statistics.median(statuses):6.1f} ms ({len(results)} saves)")


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"{BINARY} is missing: swift build -c release --product storyrun-bench")
    paths, per_file = write_suite()
    print(f"Watch mode latency: {STORIES} stories in {FILES} files ({per_file} stories x 5 steps a file), "
          f"D={D} definitions; one file saved at a time (goal < 200 ms)")
    first, status, results, statuses = measure(paths, per_file, EDITS, [])
    print(f"  first run of every story: {first * 1000:.0f} ms ({status})")
    report("inotify", results, statuses)
    _, _, results, statuses = measure(paths, per_file, max(5, EDITS // 3), ["--watch-poll"])
    report("polling", results, statuses)


if __name__ == "__main__":
    main()
