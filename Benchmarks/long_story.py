#!/usr/bin/env python3
"""One story of N steps (issue 29's "Long stories"): supervised against
--in-process, wall time and peak RSS of the parent and of the worker.

The steps are the `storyrun-bench` executable's widget definitions
(`^the widgetI has (\\d+) parts and (\\d+) bolts$`, D = 10, no-op bodies),
so the figures are what running, answering and reporting a step costs,
not what its code does.

    python3 Benchmarks/long_story.py [N ...] [--binary PATH] [--rounds R] [--undefined] [--all-undefined]

writes Benchmarks/out/long-N/long.stories and prints, for each N, the
median wall of R alternating runs of each mode and their peak RSS (the
parent's and its worker's, read from /proc/PID/status VmHWM while they
run). With `--all-undefined` every step is undefined: half close to a
definition (`the widgetI has P parts and B screws`, which the "did you
mean" search names) and half like none (`a line about the weather`);
the figures are then what telling an undefined step costs, to set
against the passing steps'. `make bench` prints the same as
its "Long stories" section (bench.py calls `long_stories`).
"""
import os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out")
STORYRUN = os.path.join(os.path.dirname(HERE), ".build", "release", "storyrun-bench")
DEFINITIONS = 10


def write_story(n, undefined=False, folder=None, all_undefined=False):
    """One `.stories` file holding one story of `n` passing steps, and with
    `undefined` one more step no definition matches (the story is then
    undefined, and its answer is not a plain pass: issue 29's story of
    1,000,001 steps); returns its folder (written once per shape)."""
    shape = "-all-undefined" if all_undefined else "-undefined" if undefined else ""
    folder = folder or os.path.join(OUT, f"long-{n}{shape}")
    path = os.path.join(folder, "long.stories")
    if os.path.exists(path):
        return folder
    os.makedirs(folder, exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(f"Story: one story of {n} steps\n")
        for index in range(n):
            keyword = 'And' if index else 'Given'
            if not all_undefined:
                f.write(f"{keyword} the widget{index % DEFINITIONS} has {index % 97} parts and {index % 89} bolts\n")
            elif index % 2:
                f.write(f"{keyword} a line about the weather in town number {index}\n")
            else:
                f.write(f"{keyword} the widget{index % DEFINITIONS} has {index % 97} parts and {index % 89} screws\n")
        if undefined:
            f.write("And a step no definition matches\n")
    os.replace(path + ".tmp", path)
    return folder


def _hwm_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid):
    """Every thread's children (a worker is started from whichever thread
    the parent was on)."""
    children = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                children += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return children


def run(command, timeout, sample=False):
    """(wall seconds, exit status, parent peak MB, worker peak MB). With
    `sample`, polls /proc every 20 ms for the high-water marks of the
    process and its children (VmHWM only grows, so the last reading before
    a process ends is its peak, to within the last 20 ms)."""
    env = {**os.environ, "BENCH_DEFINITIONS": str(DEFINITIONS)}
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    parent, workers = 0, {}
    while True:
        try:
            status = process.wait(timeout=0.02 if sample else timeout)
            break
        except subprocess.TimeoutExpired:
            if time.perf_counter() - start > timeout:
                process.kill()
                process.wait()
                return float("inf"), None, parent / 1024, max(workers.values(), default=0) / 1024
            if sample:
                parent = max(parent, _hwm_kb(process.pid))
                for child in _children(process.pid):
                    workers[child] = max(workers.get(child, 0), _hwm_kb(child))
    wall = time.perf_counter() - start
    return wall, status, parent / 1024, max(workers.values(), default=0) / 1024


def compare(n, binary=STORYRUN, rounds=3, timeout=600, label="", undefined=False, all_undefined=False):
    """Median wall of `rounds` alternating runs per mode, each sampled for
    memory (the highest of its runs); returns {mode: (wall, parent MB,
    worker MB)}."""
    folder = write_story(n, undefined, all_undefined=all_undefined)
    label += "all undefined " if all_undefined else "+1 undefined " if undefined else ""
    modes = {"supervised": [binary, folder], "--in-process": [binary, "--in-process", folder]}
    runs = {mode: [] for mode in modes}
    for _ in range(rounds):
        for mode, command in modes.items():
            wall, status, parent, worker = run(command, timeout, sample=True)
            if status not in (0, None):
                print(f"  ! {mode} N={n} exited {status}")
            runs[mode].append((wall, parent, worker))
    results = {}
    for mode, values in runs.items():
        walls = sorted(v[0] for v in values)
        results[mode] = (walls[len(walls) // 2], max(v[1] for v in values), max(v[2] for v in values))
    for mode, (wall, parent, worker) in results.items():
        memory = f"parent {parent:7.1f} MB" + (f", worker {worker:7.1f} MB" if mode == "supervised" else "")
        shown = f"{wall:8.2f} s" if wall != float("inf") else f" >{timeout} s"
        print(f"  {label}N={n:<9,} {mode:<13} {shown} {memory}")
    ratio = results["supervised"][0] / results["--in-process"][0]
    print(f"  {label}N={n:<9,} supervised / in-process: {ratio:.2f}x (target <= 1.5x)")
    return results


def main(arguments):
    binary, rounds, sizes, undefined, all_undefined = STORYRUN, 3, [], False, False
    while arguments:
        argument = arguments.pop(0)
        if argument == "--binary": binary = arguments.pop(0)
        elif argument == "--rounds": rounds = int(arguments.pop(0))
        elif argument == "--undefined": undefined = True
        elif argument == "--all-undefined": all_undefined = True
        else: sizes.append(int(argument))
    for n in sizes or [10_000, 50_000, 200_000]:
        compare(n, binary, rounds, undefined=undefined, all_undefined=all_undefined)


if __name__ == "__main__":
    main(sys.argv[1:])
