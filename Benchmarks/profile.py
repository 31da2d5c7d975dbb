#!/usr/bin/env python3
"""Where a run's time goes, by phase (issue 16): `perf record` (Debian
linux-perf, installed if missing) samples every process of a run of the
neutral corpus with call chains; each sample goes to the phase of the
innermost StoryKit frame that names one (start-up, registration, parsing,
matching, running, reporting, and for a supervised run the parent/worker
exchange), by priority when frames of several phases are on the stack.

Usage: profile.py FOLDER [storyrun flags...]; prints CPU milliseconds per
process and phase. Not a test.
"""
import collections, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
NEUTRAL = os.path.join(os.path.dirname(HERE), ".build", "release", "storyrun-bench-neutral")
FREQUENCY = 4999

# A sample goes to the innermost frame that names a phase (its function's
# name, argument labels left out), the phases of one frame checked in this
# order; registration wins wherever it is on the stack.
PHASES = [
    # Registering always has RegistryBuilder on the stack; a StepMap frame
    # without it is the closure that converts a step's arguments and calls
    # its body (running).
    ("registration", r"RegistryBuilder\.|\.define\(|StepRegistry\.init|freeze\("),
    ("parsing", r"Gherkin|StoryLoader|StoryParser|StoryCompiler|Lexer|Pickle|parseFile|LineSelection|StoryFeed\.parse"),
    ("matching", r"Matcher|PatternIndex|SimpleRegex|RequiredWords|WordTable|NSRegularExpression|Pattern\.|StepRegistry\.matches|Match|StoryFeed\.match"),
    ("reporting", r"Reporter|RunSummary|TextStyle|writeLine|Render|emit #"),
    ("exchange", r"WorkerWire|SupervisedWorker|Supervisor|LineReader|StorySource|StoryFiles|SharedPosition|OutputCapture|HandOff|WorkerMain\.send|ChildProcess"),
    ("running", r"Runner|StoryExecution|ArgumentCursor|StepArgument|StepMap\.|Probe|Neutral|WorkerMain|default argument"),
    ("start-up", r"_dl_|dl_main|__libc_start_main|Options|ConfigFile|StorySelection|StoryRun\.|main"),
]


def phase_of(frames, compiled):
    names = []
    for frame in frames:
        name = frame.split(" ", 1)[1] if " " in frame else frame
        while re.search(r"\([^()]*\)", name):
            name = re.sub(r"\([^()]*\)", "", name)
        names.append(name)
    if any(compiled[0][1].search(n) for n in names):
        return compiled[0][0]
    for name in names:
        for phase, pattern in compiled[1:]:
            if pattern.search(name):
                return phase
    return None


def ensure_perf():
    if shutil.which("perf"):
        return True
    subprocess.run("apt-get update -qq && apt-get install -y -qq linux-perf", shell=True)
    return shutil.which("perf") is not None


# perf hands the command it starts descriptors of its own (an eventfd, a
# pipe); a run that finds an eventfd open does not fork its first worker but
# starts it again (ForkCheck), so what perf measured was not the default run.
# The command starts with only 0, 1 and 2.
ONLY_STANDARD_DESCRIPTORS = [sys.executable, "-c", "import os, sys; os.closerange(3, 65536); os.execvp(sys.argv[1], sys.argv[1:])"]


def profile(command, label):
    data = tempfile.mktemp(suffix=".perf")
    subprocess.run(["perf", "record", "-q", "-F", str(FREQUENCY), "--call-graph", "fp", "-o", data, "--"] + ONLY_STANDARD_DESCRIPTORS + command,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,ip,sym,dso"], capture_output=True, text=True).stdout
    # Simplified Swift names (`Supervisor.run(next:emit:warn:)`): a mangled
    # name spells its parameters' types too, which would mislead the phases.
    script = subprocess.run(["swift", "demangle", "--simplified"], input=script, capture_output=True, text=True).stdout or script
    os.unlink(data)
    compiled = [(name, re.compile(pattern)) for name, pattern in PHASES]
    by_pid = collections.defaultdict(collections.Counter)
    first_pid = None
    for sample in script.split("\n\n"):
        lines = [l for l in sample.strip().split("\n") if l.strip()]
        if not lines:
            continue
        # "COMM PID": the first line; the samples of python before its exec
        # of the run are not the run's.
        head = lines[0].split()
        try:
            pid = int(head[-1])
        except (ValueError, IndexError):
            continue
        if head[0].startswith("python"):
            continue
        first_pid = first_pid or pid
        frames = " | ".join(lines[1:])
        phase = phase_of([l.strip() for l in lines[1:]], compiled)
        if phase is None:
            phase = "kernel (exec, page faults)" if "[kernel" in frames and "storyrun" not in frames else "other (runtime, libc)"
        by_pid[pid][phase] += 1
    print(f"  {label}: {' '.join(os.path.basename(c) for c in command)}")
    order = [name for name, _ in PHASES] + ["kernel (exec, page faults)", "other (runtime, libc)"]
    for pid, counts in sorted(by_pid.items()):
        role = "parent" if pid == first_pid else "worker"
        total = sum(counts.values())
        parts = ", ".join(f"{name} {counts[name] * 1000 / FREQUENCY:.0f}" for name in order if counts[name])
        print(f"    {role} (pid {pid}): {total * 1000 / FREQUENCY:.0f} ms CPU: {parts}")


def timeline(command, label, runs=5):
    """Wall-clock phases from STORYRUN_PHASES marks (the median of each
    mark over `runs` runs, in ms from the spawn)."""
    marks = collections.defaultdict(list)
    for _ in range(runs):
        path = tempfile.mktemp(suffix=".phases")
        start = time.monotonic_ns()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "STORYRUN_PHASES": path})
        end = time.monotonic_ns()
        with open(path) as f:
            for line in f:
                _, role, phase, ns = line.split()
                marks[(role, phase)].append((int(ns) - start) / 1e6)
        os.unlink(path)
        marks[("python", "reaped")].append((end - start) / 1e6)
    ordered = sorted(marks.items(), key=lambda item: sorted(item[1])[len(item[1]) // 2])
    print(f"  {label} (median of {runs}, ms after spawn): " + ", ".join(
        f"{role} {phase} {sorted(values)[len(values) // 2]:.1f}" for (role, phase), values in ordered))


def main():
    if not ensure_perf():
        print("  perf cannot be installed here: no profile")
        return
    folder = sys.argv[1]
    flags = sys.argv[2:]
    print("Profile by phase (CPU ms sampled by perf at %d Hz; a sample goes to the first phase its stack names)" % FREQUENCY)
    profile([NEUTRAL] + flags + [folder], "supervised")
    profile([NEUTRAL, "--in-process"] + flags + [folder], "--in-process")
    print("Wall-clock phases (STORYRUN_PHASES marks: main entered, workers started, registered, worker ready, running, ran, exit)")
    timeline([NEUTRAL] + flags + [folder], "supervised")
    timeline([NEUTRAL, "--in-process"] + flags + [folder], "--in-process")
    one = os.path.join(HERE, "out", "one-story")
    if os.path.isdir(one):
        timeline([NEUTRAL, one], "one story, supervised", runs=11)
        timeline([NEUTRAL, "--in-process", one], "one story, --in-process", runs=11)
    print("Lock waits (futex system calls of every process of a run, median of 3: threads waiting on each other,"
          " such as one freeing memory another allocated)")
    futexes([NEUTRAL] + flags + [folder], "supervised")
    futexes([NEUTRAL, "--in-process"] + flags + [folder], "--in-process")


def futexes(command, label, runs=3):
    """The futex calls a run makes, counted by `perf stat` (the count does
    not move with the machine's speed, as times do); nothing when the
    tracepoint is not there."""
    counts = []
    for _ in range(runs):
        result = subprocess.run(["perf", "stat", "-x", ",", "-e", "syscalls:sys_enter_futex", "--"] + ONLY_STANDARD_DESCRIPTORS + command,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in result.stderr.splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[2] == "syscalls:sys_enter_futex" and fields[0].strip().isdigit():
                counts.append(int(fields[0]))
    if not counts:
        print(f"  {label}: perf cannot count futex calls here")
        return
    counts.sort()
    print(f"  {label}: {counts[len(counts) // 2]} futex calls")


if __name__ == "__main__":
    main()
