#!/usr/bin/env python3
"""Runs storyrun over the official Gherkin test data (cucumber/gherkin's
testdata, read where it lives: FOLDER, else $CONFORMANCE_DIR/gherkin, else
../shared/conformance/gherkin beside the package) and compares what it prints with what the
official parser must give: every good/*.feature's pickles and every
bad/*.feature's errors. Prints `N passed, N failed`; exits 1 on a failure.

Usage: conformance.py STORYRUN [FOLDER]"""
import json, os, subprocess, sys

def normalise(item):
    # The official files name their own paths ("../testdata/good/x.feature").
    if "pickle" in item:
        item["pickle"]["uri"] = os.path.basename(item["pickle"]["uri"])
    if "parseError" in item:
        item["parseError"]["source"]["uri"] = os.path.basename(item["parseError"]["source"]["uri"])
    return item

def load(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [normalise(json.loads(line)) for line in f if line.strip()]

def main():
    storyrun = sys.argv[1]
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    official = os.environ.get("CONFORMANCE_DIR") or os.path.join(package, "..", "shared", "conformance")
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(official, "gherkin")
    passed, failed = 0, []
    for kind, suffix in (("good", ".pickles.ndjson"), ("bad", ".errors.ndjson")):
        folder = os.path.join(root, kind)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".feature"):
                continue
            feature = os.path.join(folder, name)
            expected = load(feature + suffix)
            if kind == "bad" and not expected:
                continue
            run = subprocess.run([storyrun, "--format", "pickles", feature], capture_output=True, text=True)
            actual = [normalise(json.loads(line)) for line in run.stdout.splitlines() if line.startswith("{")]
            if kind == "good":
                actual = [item for item in actual if "pickle" in item]
            if actual == expected:
                passed += 1
            else:
                failed.append(f"{kind}/{name}")
    for name in failed:
        print(f"FAILED {name}")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
