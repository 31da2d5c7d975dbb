#!/usr/bin/env python3
"""Runs the Cucumber Compatibility Kit samples through storyrun and compares
each Messages stream with the kit's expected one, envelope by envelope, in
the kit's order.

Usage: cck.py STORYRUN KIT_SAMPLES_FOLDER [SAMPLE...] [--allow Fixtures/cck/known-gaps.txt] [-v]

Each sample runs as `STORYRUN_FIXTURE_STEPS=cck:NAME storyrun --strict --messages OUT
[arguments from NAME.arguments.txt] samples/NAME/NAME.feature` from the kit's
folder (so `uri`s are the kit's), with the Swift twins of the sample's step
definitions (Sources/StoryrunSteps/CCK/). `--strict` because Cucumber's
default is storyrun's strict mode: an undefined or ambiguous step fails the
run (without it storyrun runs the first of several matching definitions,
Simon's rule).

The streams must hold the same envelopes in the same order. Before they
are compared, only what names the run or the language is normalised:

1. `meta` is dropped: it names the implementation, its version, the machine.
2. Ids are renumbered by first appearance, walking the stream in order with
   sorted keys: ids are opaque, only which message points at which must agree.
3. Timestamps and durations become 0: they are the run's times.
4. Source paths: the `sourceReference` of step definitions, hooks and
   parameter types keeps only that it exists (Swift files and lines, not
   the kit's TypeScript), and a line of a failure's message that is only
   a place (`at FILE:LINE`, `FILE:LINE`) is dropped.

Then some differences are allowed because they are language-specific text;
each one found is listed by name under the sample:

- `snippet`: a suggestion's snippets (storyrun suggests one Swift snippet,
  the kit one TypeScript snippet per way of reading the step);
- `exception type`: `Error` in JavaScript, storyrun's error types in Swift;
- `stack trace`: a JavaScript trace against a Swift one (a failed step's or
  hook's must be there; storyrun's gives where the error was thrown, the step
  definition or hook, and the story step);
- `run error text (--error fixture)`: the kit's `--error` makes
  fake-cucumber throw "Whoops!" outside any step or hook; storyrun's
  fixture for it is a worker process that cannot start
  (`STORYRUN_WORKER_EXECUTABLE=/bin/false`), so `testRunFinished` must
  carry a message and an exception, with storyrun's text.

A sample whose stream differs otherwise is a failure unless it is listed,
with its reason, in the allowlist (known-gaps.txt); a listed sample that
passes is reported, so the list only shrinks. Prints each difference with
-v, then `N passed, N failed` (and the known gaps); exits 1 when an
unlisted sample fails, or a listed one passes.
"""
import json, os, re, subprocess, sys, tempfile


ID_KEYS = {"id"}
PLACE_LINE = re.compile(r"^(at )?\S+:\d+$")


def is_id_key(key):
    return key in ID_KEYS or key.endswith("Id") or key.endswith("Ids") or key == "astNodeIds"


def envelopes(path):
    out = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                out.append(json.loads(line))
    return out


def message_text(text, allowed):
    """A failure's message without the lines that only give a place."""
    lines = [line for line in text.split("\n") if not PLACE_LINE.match(line.strip())]
    return "\n".join(lines)


def normalise(stream, allowed):
    """The stream in order, `meta` left out, normalised; `allowed` collects
    the names of the language-specific differences left out."""
    ids = {}

    def renumber(value):
        if value not in ids:
            ids[value] = f"#{len(ids)}"
        return ids[value]

    def walk(value, kind, key=None):
        if isinstance(value, dict):
            out = {}
            for k in sorted(value):
                item = value[k]
                if k in ("timestamp", "duration"):
                    out[k] = 0
                elif k == "sourceReference" and kind in ("stepDefinition", "hook", "parameterType"):
                    out[k] = "(present)"
                elif k == "stackTrace" and key == "exception" and kind == "testRunFinished":
                    # storyrun's run error (a worker that cannot start) has no code to trace.
                    allowed.add("stack trace")
                elif k == "stackTrace" and key == "exception":
                    # A failed step's or hook's trace must be there; its text is the language's.
                    allowed.add("stack trace")
                    out[k] = "(present)"
                elif k == "type" and key == "exception":
                    allowed.add("exception type")
                elif k == "message" and kind == "testRunFinished":
                    # The run's own failure: the kit's `--error` throws
                    # "Whoops!", storyrun's fixture is a worker that cannot start.
                    allowed.add("run error text (--error fixture)")
                    out[k] = "(present)"
                elif k == "message" and key in ("testStepResult", "result", "exception"):
                    out[k] = message_text(item, allowed)
                elif k == "snippets" and kind == "suggestion":
                    allowed.add("snippet")
                    out[k] = "(present)" if item else "(none)"
                elif is_id_key(k) and isinstance(item, str):
                    out[k] = renumber(item)
                elif is_id_key(k) and isinstance(item, list) and all(isinstance(i, str) for i in item):
                    out[k] = [renumber(i) for i in item]
                else:
                    out[k] = walk(item, kind, k)
            return out
        if isinstance(value, list):
            return [walk(item, kind, key) for item in value]
        return value

    result = []
    for envelope in stream:
        (kind, message), = envelope.items()
        if kind != "meta":
            result.append({kind: walk(message, kind, kind)})
    return result


def differences(ours, theirs, path, out, counter):
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            if key not in ours:
                out.append(f"{path}/{key}: missing (expected {json.dumps(theirs[key])[:160]})")
            elif key not in theirs:
                out.append(f"{path}/{key}: extra (storyrun {json.dumps(ours[key])[:160]})")
            else:
                differences(ours[key], theirs[key], f"{path}/{key}", out, counter)
    elif isinstance(ours, list) and isinstance(theirs, list):
        if len(ours) != len(theirs):
            out.append(f"{path}: {len(ours)} items, expected {len(theirs)}")
        for index, (a, b) in enumerate(zip(ours, theirs)):
            differences(a, b, f"{path}/{index}", out, counter)
    else:
        counter[0] += 1
        if ours != theirs:
            out.append(f"{path}: {json.dumps(ours)[:160]} != expected {json.dumps(theirs)[:160]}")


def run_sample(storyrun, kit, name, folder):
    sample = os.path.join(kit, "samples", name)
    features = sorted(f for f in os.listdir(sample) if f.endswith(".feature") or f.endswith(".feature.md"))
    if not features:
        return None, "no .feature or .feature.md file"
    arguments = []
    extra = os.path.join(sample, name + ".arguments.txt")
    if os.path.exists(extra):
        arguments = open(extra, encoding="utf-8").read().split()
    out = os.path.join(folder, name + ".ndjson")
    env = dict(os.environ, STORYRUN_FIXTURE_STEPS="cck:" + name, NO_COLOR="1", SWIFT_BACKTRACE="enable=no")
    if "--error" in arguments:
        # The kit's fake-cucumber switch that makes the run itself fail,
        # outside any step or hook. storyrun's own such failure: a worker
        # process that cannot start (its executable exits at once).
        arguments.remove("--error")
        env["STORYRUN_WORKER_EXECUTABLE"] = "/bin/false"
    command = [storyrun, "--strict", "--messages", out] + arguments + [f"samples/{name}/{f}" for f in features]
    try:
        process = subprocess.run(command, cwd=kit, env=env, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "storyrun did not finish in 60 s"
    if not os.path.exists(out):
        return None, f"no Messages written (exit {process.returncode}): {(process.stdout + process.stderr).strip()[:400]}"
    return out, None


def main():
    args = [a for a in sys.argv[1:]]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    allow_path = None
    if "--allow" in args:
        index = args.index("--allow")
        allow_path = args[index + 1]
        del args[index:index + 2]
    storyrun, root = os.path.abspath(args[0]), os.path.abspath(args[1])
    kit = os.path.dirname(root) if os.path.basename(root) == "samples" else root
    names = args[2:] or sorted(os.listdir(os.path.join(kit, "samples")))
    allowed = {}
    if allow_path:
        for line in open(allow_path, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                sample, _, reason = line.partition(" ")
                allowed[sample] = reason.strip()
    passed, failed, gaps, fields, unexpected, left_out = [], [], [], 0, [], []
    with tempfile.TemporaryDirectory(prefix="storyrun-cck-") as folder:
        for name in names:
            out, problem = run_sample(storyrun, kit, name, folder)
            if problem and problem.startswith("no .feature"):
                left_out.append(name)
                print(f"left out  {name}: {problem}")
                continue
            found = []
            allowed_here = set()
            if out:
                theirs = normalise(envelopes(os.path.join(kit, "samples", name, name + ".ndjson")), allowed_here)
                ours = normalise(envelopes(out), allowed_here)
                counter = [0]
                ours_kinds = [next(iter(e)) for e in ours]
                theirs_kinds = [next(iter(e)) for e in theirs]
                if ours_kinds != theirs_kinds:
                    for index, (a, b) in enumerate(zip(ours_kinds, theirs_kinds)):
                        if a != b:
                            found.append(f"envelope {index}: {a}, expected {b}")
                            break
                    if len(ours_kinds) != len(theirs_kinds):
                        found.append(f"{len(ours_kinds)} envelopes, expected {len(theirs_kinds)}")
                differences(ours, theirs, "", found, counter)
                fields += counter[0]
            else:
                found = [problem]
            if not found:
                passed.append(name)
                if name in allowed:
                    unexpected.append(f"{name}: passes but is listed as a known gap; remove it from the list")
                print(f"passed  {name}" + (f" (language-specific: {', '.join(sorted(allowed_here))})" if allowed_here else ""))
            else:
                (gaps if name in allowed else failed).append(name)
                label = "gap   " if name in allowed else "FAILED"
                print(f"{label}  {name}: {len(found)} difference{'s' if len(found) != 1 else ''}"
                      + (f" (known: {allowed[name]})" if name in allowed else ""))
                if verbose or name not in allowed:
                    for line in found[:40 if verbose else 8]:
                        print("    " + line)
    for line in unexpected:
        print(line)
    print(f"Compatibility kit: {len(passed) + len(failed) + len(gaps)} samples run, {len(left_out)} left out, {fields} fields compared")
    print(f"{len(passed)} passed, {len(failed) + len(gaps)} failed"
          + (f" ({len(gaps)} known gaps in {os.path.basename(allow_path)})" if allow_path else ""))
    sys.exit(1 if failed or unexpected else 0)


main()
