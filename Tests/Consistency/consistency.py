#!/usr/bin/env python3
"""Every report tells the same truth: random suites through the built storyrun.

Usage: consistency.py STORYRUN [--suites N] [--seed S] [--keep]

Each suite is a few `.stories` files (or Gherkin `.feature` files, with a
background and scenario outlines) of random stories over the steps of
StoryrunSteps/ConsistencySteps.swift (STORYRUN_FIXTURE_STEPS=consistency):
steps that pass, fail, attach, print, are undefined, are ambiguous, pass
only on a later attempt, hang past `--step-timeout 1`, or crash their worker
process (always, or until a later attempt), write a stray line to their
worker's channel to storyrun, or zero their time limit on the shared page; stories tagged so their before, after or after-step hook
fails; now and then a failing before-run or after-run hook; `--retry` 0-2.

The suite runs once, supervised as a user runs it (workers, not
--in-process; one suite in three with `--jobs 2`, one in four in a random
order, one in five with `--tags "not @fail-after"`), with `--strict` and every report: the terminal summary,
--json, --junit, --messages, --html. Then it runs as two shards
(`--shard 1/2`, `--shard 2/2`, each with --messages), and `storyrun merge`
writes --json, --junit and --html of the shards' Messages streams; a suite whose steps never
end their process runs `--in-process` too (--json).

For every story, these must agree: its status (passed, failed, undefined)
and what failed first in its last attempt (the step's text, or the hook's
kind), in the summary, JSON, JUnit, Messages and HTML of the run, and in the
JSON, JUnit and HTML of the merge (and the merge's own summary); whether it
was flaky in the summary, HTML and Messages; whether a run hook failed in
the summary, JUnit and Messages; the exit status of the run, and of the
merge (the same: the shards' Messages say they failed as --strict runs and
hold their run hooks). The expected verdict is
also computed from the suite itself (what each step and hook was told to
do), so reports that agree on a wrong answer fail too.

Prints `N suites, N stories, N verdicts compared, N differ` and exits 1 on
a difference (the suite's folder is kept and named)."""
import json, os, random, re, shutil, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

KEYWORDS = ["Given", "And"]


def random_step(rng, n, retries):
    """A step of one of the kinds the suites use: (kind, text, attempt).
    A step that hangs costs seconds each time it runs (its limit, then the
    worker's grace): only in suites that do not retry."""
    kind = rng.choices(["passes", "fails", "attaches", "nowhere", "ambiguous", "late", "crashes", "crashlate", "prints", "hangs",
                        "strays", "stalls"],
                       [10, 2, 2, 1, 1, 2, 1, 1, 1, 0.3 if retries == 0 else 0, 0.5, 0.3 if retries == 0 else 0])[0]
    if kind == "late":
        attempt = rng.randint(2, 3)
        return kind, f"step {n} passes on attempt {attempt}", attempt
    if kind == "crashlate":
        attempt = rng.randint(2, 3)
        return kind, f"step {n} crashes until attempt {attempt}", attempt
    if kind == "nowhere":
        return kind, f"step {n} is nowhere", 0
    if kind == "ambiguous":
        return kind, f"step {n} is ambiguous", 0
    if kind == "stalls":
        return kind, f"step {n} stalls its clock", 0
    return kind, f"step {n} {kind}", 0


def random_tags(rng):
    return [t for t in ("@fail-before", "@fail-after", "@fail-after-step") if rng.random() < 0.12]


def generate(rng):
    """A suite: files of stories (`.stories`, or Gherkin `.feature` with a
    background and scenario outlines); each step a (kind, arg), tags, and
    the expected verdicts."""
    files = {}
    expected = {}
    tags_of = {}
    retries = rng.choice([0, 0, 1, 2])
    run_hook = rng.choice([None] * 6 + ["before", "after"])
    for f in range(rng.randint(1, 3)):
        if rng.random() < 0.4:
            name = f"f{f}.feature"
            files[name] = gherkin_file(rng, f, name, expected, tags_of, retries)
            continue
        name = f"f{f}.stories"
        lines, line = [], 1
        for s in range(rng.randint(2, 6)):
            tags = random_tags(rng)
            if tags:
                lines.append(" ".join(tags))
                line += 1
            title = f"Story {f}-{s}"
            lines.append(f"Story: {title}")
            story_line = line
            line += 1
            steps = []
            for n in range(1, rng.randint(1, 4) + 1):
                steps.append(random_step(rng, n, retries))
                lines.append(f"  {KEYWORDS[min(n - 1, 1)]} {steps[-1][1]}")
                line += 1
            lines.append("")
            line += 1
            expected[(name, story_line)] = (title, expect(steps, tags, retries))
            tags_of[(name, story_line)] = tags
        files[name] = "\n".join(lines)
    return files, expected, retries, run_hook, tags_of


def gherkin_file(rng, f, name, expected, tags_of, retries):
    """A feature: perhaps a background (of a passing step, which runs first
    in every scenario), then scenarios and scenario outlines, whose rows are
    stories of their own (at the row's line, named by its `row` column)."""
    lines = [f"Feature: f{f}", ""]
    background = []
    if rng.random() < 0.5:
        background = [("passes", "step 0 passes", 0)]
        lines += ["  Background:", "    Given step 0 passes", ""]
    for s in range(rng.randint(2, 5)):
        tags = random_tags(rng)
        if tags:
            lines.append("  " + " ".join(tags))
        title = f"Story {f}-{s}"
        count = rng.randint(1, 3)
        if rng.random() < 0.6:
            lines.append(f"  Scenario: {title}")
            story_line = len(lines)
            steps = [random_step(rng, n, retries) for n in range(1, count + 1)]
            for n, step in enumerate(steps):
                lines.append(f"    {KEYWORDS[min(n, 1)]} {step[1]}")
            lines.append("")
            expected[(name, story_line)] = (title, expect(background + steps, tags, retries))
            tags_of[(name, story_line)] = tags
            continue
        # An outline: its first step's text comes from the examples.
        lines.append(f"  Scenario Outline: {title} row <row>")
        fixed = [random_step(rng, n, retries) for n in range(2, count + 1)]
        lines.append("    Given <first>")
        for step in fixed:
            lines.append(f"    And {step[1]}")
        lines += ["", "    Examples:", "      | row | first |"]
        for row in range(1, rng.randint(1, 3) + 1):
            first = random_step(rng, 1, retries)
            lines.append(f"      | {row} | {first[1]} |")
            key = (name, len(lines))
            expected[key] = (f"{title} row {row}", expect(background + [first] + fixed, tags, retries))
            tags_of[key] = tags
        lines.append("")
    return "\n".join(lines)


def expect(steps, tags, retries):
    """(status, culprit, flaky): the suite's stories run in this model as
    storyrun runs them (a late step counts the times it ran, across attempts).
    As Cucumber's: the steps before an undefined one run, an ambiguous step
    after it still fails the story, and a story with an undefined or
    ambiguous step is not run again."""
    can_change = not any(kind in ("nowhere", "ambiguous") for kind, _, _ in steps)
    runs = {}
    culprit = None
    for attempt in range(1, (retries if can_change else 0) + 2):
        culprit = "hook:before story" if "@fail-before" in tags else None
        undefined = None
        for kind, text, late in steps:
            if kind == "nowhere":
                undefined = undefined or text
                continue
            if undefined is not None or culprit is not None:
                # Skipped, but an ambiguous step says so and fails the story.
                if kind == "ambiguous" and culprit is None:
                    culprit = text
                continue
            runs[text] = runs.get(text, 0) + 1
            if kind in ("fails", "ambiguous", "crashes", "hangs", "strays", "stalls") or (kind in ("late", "crashlate") and runs[text] < late):
                # A crash ends the attempt there: no after hook runs.
                culprit = text
            elif "@fail-after-step" in tags:
                culprit = "hook:after step"
        if culprit is None and "@fail-after" in tags:
            culprit = "hook:after story"
        if culprit is None and undefined is not None:
            return ("undefined", undefined, False)
        if culprit is None:
            return ("passed", None, attempt > 1)
    return ("failed", culprit, False)


def hook_label(text):
    match = re.match(r"(?:the )?(before|after) (story|step) hook", text.strip(), re.I)
    return f"hook:{match.group(1).lower()} {match.group(2).lower()}" if match else None


def step_label(text):
    text = re.sub(r"\s{2}\S+:\d+$", "", text.strip())
    return re.sub(r"^(Given|When|Then|And|But|\*) ", "", text)


def from_summary(output):
    verdicts, current, culprits = {}, None, {}
    for line in output.splitlines():
        match = re.match(r"^(PASSED|FAILED|UNDEFINED|SKIPPED)  (.*?)  (\S+):(\d+)(  \(flaky.*)?$", line)
        if match:
            current = (os.path.basename(match.group(3)), int(match.group(4)))
            verdicts[current] = [match.group(1).lower(), None, bool(match.group(5))]
            continue
        match = re.match(r"^    (failed|undefined|ambiguous): (.*)$", line)
        if match and current:
            # A failed story's culprit is its first failure, even after an
            # undefined step; an undefined story's, its first undefined step.
            label = hook_label(match.group(2)) or step_label(match.group(2))
            is_failure = match.group(1) != "undefined"
            if verdicts[current][1] is None or (is_failure and not culprits.get(current)):
                verdicts[current][1] = label
                if is_failure:
                    culprits[current] = True
    return {key: tuple(value) for key, value in verdicts.items()}


def from_json(path):
    verdicts = {}
    for feature in json.load(open(path, encoding="utf-8")):
        # As Cucumber writes it, a background goes before each scenario as
        # an element of its own, holding the scenario's before hooks and
        # the background's steps (with their step hooks).
        background = []
        for element in feature.get("elements", []):
            ordered = [("hook:before story", h) for h in element.get("before", [])]
            for step in element.get("steps", []):
                ordered += [("hook:before step", h) for h in step.get("before", [])]
                ordered.append((step["name"], step))
                ordered += [("hook:after step", h) for h in step.get("after", [])]
            ordered += [("hook:after story", h) for h in element.get("after", [])]
            if element.get("type") == "background":
                background = ordered
                continue
            ordered = background + ordered
            background = []
            statuses = [item["result"]["status"] for _, item in ordered]
            status = "failed" if "failed" in statuses else "undefined" if "undefined" in statuses else "passed"
            culprit = next((label for label, item in ordered if status != "passed" and item["result"]["status"] == status), None)
            verdicts[(os.path.basename(feature["uri"]), element["line"])] = (status, culprit)
    return verdicts


def from_junit(path, lines_by_name):
    verdicts, run_hook_failed = {}, False
    for case in ET.parse(path).getroot().iter("testcase"):
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if case.get("classname") == "run hooks" or (case.get("classname") or "").endswith("run hooks"):
            run_hook_failed = run_hook_failed or problem is not None
            continue
        key = lines_by_name.get(case.get("name"))
        skipped = case.find("skipped")
        if problem is None and skipped is not None and (skipped.text or skipped.get("message") or "").startswith("undefined steps: "):
            # Without --strict (a merge of runs that were not) an undefined story is skipped.
            problem = skipped
            problem.set("type", "undefined")
        if problem is None:
            verdicts[key] = ("passed", None)
            continue
        kind = problem.get("type")
        first = (problem.text or "").split("\n")[0]
        if kind == "undefined":
            culprit = step_label(first.replace("undefined steps: ", "").split("; ")[0])
        else:
            culprit = hook_label(first) or step_label(first)
        verdicts[key] = ("undefined" if kind == "undefined" else "failed", culprit)
    return verdicts, run_hook_failed


def from_messages(path):
    messages = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    pickles, steps, hooks, cases, started, finished = {}, {}, {}, {}, {}, {}
    kinds = {"BEFORE_TEST_CASE": "hook:before story", "AFTER_TEST_CASE": "hook:after story",
             "BEFORE_TEST_STEP": "hook:before step", "AFTER_TEST_STEP": "hook:after step"}
    run_hook_failed = False
    for envelope in messages:
        (kind, m), = envelope.items()
        if kind == "pickle":
            pickles[m["id"]] = (os.path.basename(m["uri"]), m["location"]["line"])
            for step in m["steps"]:
                steps[step["id"]] = step["text"]
        elif kind == "hook":
            hooks[m["id"]] = kinds.get(m["type"], m["type"])
        elif kind == "testCase":
            cases[m["id"]] = (m["pickleId"], {s["id"]: (hooks[s["hookId"]] if "hookId" in s else steps[s["pickleStepId"]]) for s in m["testSteps"]})
        elif kind == "testCaseStarted":
            started[m["id"]] = (m["testCaseId"], m["attempt"])
            finished[m["id"]] = []
        elif kind == "testStepFinished":
            finished[m["testCaseStartedId"]].append((m["testStepId"], m["testStepResult"]["status"]))
        elif kind == "testRunHookFinished":
            run_hook_failed = run_hook_failed or m["result"]["status"] == "FAILED"
    last = {}
    for started_id, (case_id, attempt) in started.items():
        if case_id not in last or attempt >= last[case_id][1]:
            last[case_id] = (started_id, attempt)
    verdicts = {}
    for case_id, (started_id, attempt) in last.items():
        pickle_id, labels = cases[case_id]
        results = finished[started_id]
        statuses = [status for _, status in results]
        status = "failed" if ("FAILED" in statuses or "AMBIGUOUS" in statuses) else "undefined" if "UNDEFINED" in statuses else "passed"
        wanted = ("FAILED", "AMBIGUOUS") if status == "failed" else ("UNDEFINED",)
        culprit = next((labels[step] for step, s in results if s in wanted), None)
        verdicts[pickles[pickle_id]] = (status, culprit, status == "passed" and attempt > 0)
    return verdicts, run_hook_failed


def from_html(path):
    """The verdicts in the page's data (`<script type="application/json"
    id="storyrun-data">`), which its script shows: a story's status, the
    first failed (or undefined) step or hook of its last attempt, and
    whether it was flaky."""
    text = open(path, encoding="utf-8").read()
    opening = '<script type="application/json" id="storyrun-data">'
    start = text.index(opening) + len(opening)
    data = json.loads(text[start:text.index("</script>", start)])
    verdicts = {}
    for file in data["files"]:
        for story in file["s"]:
            status = story["st"]
            wanted = ("failed", "ambiguous") if status == "failed" else ("undefined",)
            culprit = None
            for step in story.get("x", []):
                if step.get("s") in wanted:
                    culprit = hook_label(step["h"] + " hook") if "h" in step else step["t"]
                    break
            flaky = bool(story.get("fl")) and status == "passed"
            verdicts[(os.path.basename(file["p"]), story["l"])] = (status, culprit, flaky)
    return verdicts


def run(storyrun, arguments, folder, env):
    process = subprocess.run([storyrun] + arguments, cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    return process.returncode, process.stdout + process.stderr


def check_suite(storyrun, rng, index, keep):
    files, expected, retries, run_hook, tags = generate(rng)
    # One suite in five chooses by tags: the stories tagged @fail-after are
    # not run, and no report may name them.
    chooses = index % 5 == 3
    left_out = {key for key in expected if chooses and "@fail-after" in tags[key]}
    titles = {key: title for key, (title, _) in expected.items()}
    expected = {key: value for key, value in expected.items() if key not in left_out}
    folder = tempfile.mkdtemp(prefix=f"storyrun-consistency-{index}-")
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    env = dict(os.environ, STORYRUN_FIXTURE_STEPS="consistency", NO_COLOR="1", SWIFT_BACKTRACE="enable=no")
    if run_hook:
        env["STORYRUN_CONSISTENCY_FAIL_RUN"] = run_hook
    else:
        env.pop("STORYRUN_CONSISTENCY_FAIL_RUN", None)
    common = ["--strict", "--retry", str(retries), "--step-timeout", "1"] + (["--jobs", "2"] if index % 3 == 2 else [])
    if index % 4 == 1:
        common += ["--order", f"random:{rng.randrange(1 << 20)}"]
    if chooses:
        common += ["--tags", "not @fail-after"]
    names = sorted(files)
    status, summary = run(storyrun, common + ["--json", "r.json", "--junit", "r.xml", "--messages", "r.ndjson", "--html", "r.html"] + names, folder, env)
    for leftover in [f for f in os.listdir(folder) if f.startswith(".attempts")]:
        os.remove(os.path.join(folder, leftover))
    shards = []
    for shard in ("1/2", "2/2"):
        # Shards write the lossless record of their run, which merge reads.
        out = f"shard{shard[0]}.ndjson"
        run(storyrun, common + ["--shard", shard, "--messages", out] + names, folder, env)
        shards.append(out)
        for leftover in [f for f in os.listdir(folder) if f.startswith(".attempts")]:
            os.remove(os.path.join(folder, leftover))
    merge_status, merge_summary = run(storyrun, ["merge"] + shards + ["--json", "m.json", "--junit", "m.xml", "--html", "m.html"], folder, env)
    # In process too, where no step ends the process: the same verdicts.
    in_process = not any(word in text for word in ("crashes", "hangs", "strays", "stalls") for text in files.values())
    if in_process:
        run(storyrun, common + ["--in-process", "--json", "p.json"] + names, folder, env)
        for leftover in [f for f in os.listdir(folder) if f.startswith(".attempts")]:
            os.remove(os.path.join(folder, leftover))

    lines_by_name = {title: key for key, title in titles.items()}
    problems, compared = [], 0
    try:
        views = {"summary": from_summary(summary), "json": from_json(os.path.join(folder, "r.json")),
                 "messages": None, "html": from_html(os.path.join(folder, "r.html")),
                 "merge summary": from_summary(merge_summary), "merged json": from_json(os.path.join(folder, "m.json")),
                 "merged html": from_html(os.path.join(folder, "m.html"))}
        views["junit"], junit_run_hook = from_junit(os.path.join(folder, "r.xml"), lines_by_name)
        views["merged junit"], _ = from_junit(os.path.join(folder, "m.xml"), lines_by_name)
        views["messages"], messages_run_hook = from_messages(os.path.join(folder, "r.ndjson"))
        if in_process:
            views["in-process json"] = from_json(os.path.join(folder, "p.json"))
    except Exception as error:  # a report that does not parse is a difference
        problems.append(f"a report does not parse: {error!r}")
        views = {}
    for key, (title, (want_status, want_culprit, want_flaky)) in expected.items():
        if run_hook == "before":
            break  # what a failed before-run hook does to the stories is checked below, by agreement only
        for view, verdicts in views.items():
            got = verdicts.get(key)
            compared += 1
            if got is None:
                problems.append(f"{view}: no verdict for {title} ({key[0]}:{key[1]})")
                continue
            if got[0] != want_status or got[1] != want_culprit:
                problems.append(f"{view}: {title} ({key[0]}:{key[1]}) is {got[0]}/{got[1]}, expected {want_status}/{want_culprit}")
            if len(got) > 2 and view in ("summary", "html", "messages") and got[2] != want_flaky:
                problems.append(f"{view}: {title} flaky={got[2]}, expected {want_flaky}")
    for key in left_out:
        for view, verdicts in views.items():
            compared += 1
            if key in verdicts:
                problems.append(f"{view}: {key} is reported, but --tags left it out")
    if run_hook == "before":
        # Every view must say the same about each story as the summary.
        base = views.get("summary", {})
        for view, verdicts in views.items():
            for key in base:
                compared += 1
                if verdicts.get(key, (None, None))[:2] != base[key][:2]:
                    problems.append(f"{view}: {key} is {verdicts.get(key)}, summary {base[key]}")
    if views:
        hook_failed = bool(run_hook)
        summary_says = bool(re.search(r"the (before|after) run hook", summary))
        for view, says in (("summary", summary_says), ("junit", junit_run_hook), ("messages", messages_run_hook)):
            compared += 1
            if says != hook_failed:
                problems.append(f"{view}: run hook failed={says}, expected {hook_failed}")
        any_failed = run_hook is not None or any(v[1][0] != "passed" for v in expected.values())
        compared += 2
        if status != (1 if any_failed else 0):
            problems.append(f"exit status {status}, expected {1 if any_failed else 0}")
        # The merge exits as the run did: the shards' Messages streams say
        # they were --strict, and hold their failed run hooks.
        if merge_status != (1 if any_failed else 0):
            problems.append(f"merge exit status {merge_status}, expected {1 if any_failed else 0}")
    if problems or keep:
        print(f"suite {index}: {folder} (retry {retries}, run hook {run_hook})")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return len(expected), compared, problems


def main():
    args = sys.argv[1:]
    storyrun = os.path.abspath(args[0])
    suites = int(args[args.index("--suites") + 1]) if "--suites" in args else 20
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else random.randrange(1 << 30)
    keep = "--keep" in args
    rng = random.Random(seed)
    print(f"seed {seed}")
    stories = compared = 0
    differences = []
    for index in range(suites):
        count, checked, problems = check_suite(storyrun, rng, index, keep)
        stories += count
        compared += checked
        for problem in problems:
            print(f"  suite {index}: {problem}")
        differences += problems
    print(f"{suites} suites, {stories} stories, {compared} verdicts compared, {len(differences)} differ")
    sys.exit(1 if differences else 0)


main()
