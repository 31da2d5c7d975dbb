#!/usr/bin/env python3
"""Fuzzes storyrun's whole command line through the real executable.

Each case writes mutated story files (.stories and .feature, seeded from
Fixtures/) into a fresh folder, picks a mutated command line (subcommands,
options with odd values, report paths, tag expressions, PATH:LINE…) and runs
the executable there with a time limit. A case fails when storyrun

  - is ended by a signal (a crash),
  - exits with a status other than 0, 1 or 2,
  - runs longer than the time limit (a hang), or
  - creates a file outside the case's folder (HOME and TMPDIR point into a
    sandbox that is checked too).

    python3 Tests/Fuzz/cli_fuzz.py [--binary .build/debug/storyrun]
        [--cases 200] [--seconds 60] [--seed N] [--timeout 20] [--no-workers]

Failing cases are kept under .fuzz/cli/ (files and a `command` file to
replay them). Exits 1 when a case failed. `make fuzz-cli` runs it longer.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Bits of syntax that make parsers and matchers work: keywords, tables,
# doc strings, tags, comments, deep nesting, odd bytes.
TOKENS = [
    "Story:", "Feature:", "Scenario:", "Scenario Outline:", "Examples:", "Background:", "Rule:",
    "Given ", "When ", "Then ", "And ", "But ", "As a ", "* ", "|", "| a | b |", '"""', "```",
    "@tag ", "@wip", "# comment", "#language: fr", "#language:xx", "<name>", "{int}", "{string}",
    "(", ")", "((((((((", "))))", "\\", "/", "\t", "\r", "\r\n", "\x00", "\xff\xfe", "é", "\u202e",
    "I add 3 apples to the basket", "the basket holds 3 apples", "a step that sleeps for 10 ms",
    "x" * 2000, "\n" * 50, " " * 300,
]

OPTION_VALUES = {
    "--step-timeout": ["1", "0.5", "0", "-1", "inf", "nan", "1e300", "2e10", "86400", "86401", "0.0001", "abc", ""],
    "--retry": ["0", "1", "2", "100", "101", "-1", "99999999999999999999", "x"],
    "--jobs": ["0", "1", "2", "3", "300", "-2", "x"],
    "--shard": ["1/2", "2/2", "0/0", "3/2", "1/0", "a/b", "1/99999999999999999999"],
    "--order": ["defined", "random", "random:1", "random:-1", "random:x", "sideways"],
    "--name": ["apples", "(", "[", ".*", "a{1000000}", "(a+)+$", "\\"],
    "--format": ["summary", "progress", "pretty", "github", "pickles", "nope"],
    "--tags": ["@smoke", "not @wip", "@a and (@b or not @c)", "(", ")", "@a and", "not",
               "not " * 200 + "@a", "(" * 300 + "@a" + ")" * 300, "\\", "@a\\ b"],
}
FLAGS = ["--dry-run", "--strict", "-v", "--no-color", "--fail-fast", "--check", "--version", "--help", "--"]
WORKER_FLAGS = ["--isolate", "--jobs", "--in-process"]
REPORTS = ["--html", "--junit", "--json", "--messages", "--rerun"]


def seeds():
    found = []
    official = os.environ.get("CONFORMANCE_DIR") or os.path.join(ROOT, "..", "shared", "conformance")
    for folder in ["Fixtures/stories/good", "Fixtures/stories/bad", "Fixtures/features",
                   os.path.join(official, "gherkin", "good"), os.path.join(official, "gherkin", "bad")]:
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith((".stories", ".feature")):
                with open(os.path.join(path, name), "rb") as handle:
                    found.append((name, handle.read()))
    return found


def mutate(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        choice = rng.random()
        position = rng.randint(0, len(data)) if data else 0
        if choice < 0.3:
            data[position:position] = rng.choice(TOKENS).encode("utf-8", "surrogateescape")
        elif choice < 0.45 and data:
            del data[position:position + rng.randint(1, 40)]
        elif choice < 0.6 and data:
            data[min(position, len(data) - 1)] = rng.randrange(256)
        elif choice < 0.75:
            lines = data.split(b"\n")
            if lines:
                line = rng.choice(lines)
                lines.insert(rng.randint(0, len(lines)), line)
                data = bytearray(b"\n".join(lines))
        elif choice < 0.85:
            data = data[:position]
        else:
            lines = data.split(b"\n")
            rng.shuffle(lines)
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def command(rng, files, workers):
    """A mutated command line for the files (names in the case folder)."""
    kind = rng.random()
    if kind < 0.06:
        expression = rng.choice(["I have {int} {word}", "(a)(b)", "((((a))))", "{", "a/b/c", "x" * 500,
                                 "(" * rng.randint(1, 3000) + "a" + ")" * rng.randint(0, 3000), "\\", "{int"])
        text = rng.choice(["I have 3 red", "a", "", "b" * 1000])
        syntax = rng.choice(["--expression", "--regex"])
        return ["match", syntax, expression, text]
    if kind < 0.1:
        return ["merge"] + rng.sample(files, min(len(files), rng.randint(0, 2))) + \
            rng.choice([[], ["--json", "m.json"], ["--html", "m.html", "--junit", "m.html"]])
    arguments = []
    if kind < 0.2:
        arguments.append(rng.choice(["check", "lint", "explain"]))
    for _ in range(rng.randint(0, 5)):
        choice = rng.random()
        if choice < 0.3:
            option = rng.choice(list(OPTION_VALUES))
            if option == "--jobs" and not workers:
                continue
            arguments += [option, rng.choice(OPTION_VALUES[option])]
        elif choice < 0.55:
            flag = rng.choice(FLAGS)
            arguments.append(flag)
        elif choice < 0.85:
            report = rng.choice(REPORTS)
            path = rng.choice(["r.out", "r.out", "./r.out", "sub/r.out", "/dev/null", "link.out", "dir", "nodir/r.out"])
            arguments += [report, path]
        elif workers:
            arguments.append(rng.choice(WORKER_FLAGS[:1] + WORKER_FLAGS[2:]))
    if not any(a in arguments for a in ["--step-timeout"]):
        arguments += ["--step-timeout", "5"]
    paths = rng.sample(files, rng.randint(1, len(files))) if files else []
    for path in paths:
        roll = rng.random()
        if roll < 0.15:
            path += ":" + str(rng.choice([0, 1, 3, 99999, -1]))
        elif roll < 0.2:
            path = "missing.stories"
        elif roll < 0.25:
            path = "."
        arguments.append(path)
    rng.shuffle(arguments) if rng.random() < 0.1 else None
    return arguments


def listing(folder):
    found = set()
    for base, folders, names in os.walk(folder):
        for name in folders + names:
            found.add(os.path.relpath(os.path.join(base, name), folder))
    return found


def run_case(binary, number, rng, seed_files, timeout, workers, keep):
    sandbox = tempfile.mkdtemp(prefix="storyrun-cli-fuzz-")
    work = os.path.join(sandbox, "work")
    home = os.path.join(sandbox, "home")
    tmp = os.path.join(sandbox, "tmp")
    for folder in (work, home, tmp, os.path.join(work, "sub"), os.path.join(work, "dir")):
        os.makedirs(folder)
    os.symlink("r.out", os.path.join(work, "link.out"))
    names = []
    for index in range(rng.randint(1, 3)):
        name, data = rng.choice(seed_files)
        stem, extension = os.path.splitext(name)
        if rng.random() < 0.05:
            extension = rng.choice([".stories", ".feature", ".txt", ""])
        target = f"{index}-{stem}{extension}"
        with open(os.path.join(work, target), "wb") as handle:
            handle.write(mutate(data, rng))
        names.append(target)
    arguments = command(rng, names, workers)
    environment = dict(os.environ, HOME=home, TMPDIR=tmp, NO_COLOR="1")
    environment.pop("GITHUB_ACTIONS", None)
    start = time.monotonic()
    problem = None
    try:
        process = subprocess.Popen([binary] + arguments, cwd=work, env=environment, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            problem = f"hang: still running after {timeout} s"
        if problem is None and process.returncode < 0:
            problem = f"crash: signal {-process.returncode} ({signal.Signals(-process.returncode).name})"
        elif problem is None and process.returncode not in (0, 1, 2):
            problem = f"exit status {process.returncode}"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, UnboundLocalError):
            pass
    elapsed = time.monotonic() - start
    outside = sorted(listing(home) | {"TMPDIR/" + p for p in listing(tmp)} |
                     {"SANDBOX/" + p for p in set(os.listdir(sandbox)) - {"work", "home", "tmp"}})
    if problem is None and outside:
        problem = "files outside the case folder: " + ", ".join(outside[:5])
    if problem:
        kept = os.path.join(keep, f"case-{number}")
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(work, kept, symlinks=True)
        with open(os.path.join(kept, "command"), "w") as handle:
            handle.write(repr(arguments) + "\n" + problem + "\n")
        with open(os.path.join(kept, "output"), "wb") as handle:
            handle.write(output[-20000:] if output else b"")
    shutil.rmtree(sandbox, ignore_errors=True)
    return problem, arguments, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/storyrun"))
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=20, help="seconds one case may take")
    parser.add_argument("--no-workers", action="store_true", help="leave out --isolate and --jobs")
    parser.add_argument("--keep", default=os.path.join(ROOT, ".fuzz/cli"))
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    seed_files = seeds()
    if not os.access(options.binary, os.X_OK) or not seed_files:
        print(f"cli-fuzz: no executable at {options.binary} (run swift build) or no seeds", file=sys.stderr)
        return 2
    os.makedirs(options.keep, exist_ok=True)
    start = time.monotonic()
    failures = []
    cases = 0
    slowest = 0.0
    while cases < options.cases and time.monotonic() - start < options.seconds:
        problem, arguments, elapsed = run_case(options.binary, cases, rng, seed_files, options.timeout,
                                               not options.no_workers, options.keep)
        slowest = max(slowest, elapsed)
        if problem:
            failures.append((cases, problem, arguments))
            print(f"case {cases}: {problem}\n  {arguments[:12]}", flush=True)
        cases += 1
    print(f"cli-fuzz: seed {seed}, {cases} cases in {time.monotonic() - start:.1f} s "
          f"(slowest {slowest:.1f} s), {len(failures)} failed" +
          (f"; kept under {options.keep}" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
