#!/usr/bin/env python3
"""Compares storyrun's Cucumber JSON with real Cucumber's for the same
features (Fixtures/cucumber-json/features, with the Ruby steps beside them
and their Swift twins in Sources/StoryrunSteps/ShopSteps.swift).

Every field must be equal except:
- durations (`result.duration`),
- match locations (Swift vs Ruby files); storyrun's extra `match` fields
  (`pattern`, `arguments` with `offset`, which Cucumber 2.4 does not write)
  are not compared either,
- `error_message`: Ruby's ends with the exception class and a Ruby backtrace,
  so it must contain Cucumber's message text (before ` (RuntimeError)`).

Usage: compare.py STORYRUN.json CUCUMBER.json
Prints each difference and `N fields compared, N differ`; exits 1 on a difference."""
import json, sys

def normalise(value, path=""):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "duration":
                continue
            if key == "match":
                continue
            out[key] = normalise(item, path + "/" + key)
        return out
    if isinstance(value, list):
        return [normalise(item, path) for item in value]
    return value

def compare(ours, theirs, path, differences, counter):
    if isinstance(theirs, dict) and isinstance(ours, dict):
        for key in sorted(set(ours) | set(theirs)):
            if key not in ours:
                differences.append(f"{path}/{key}: missing (Cucumber: {json.dumps(theirs[key])[:120]})")
            elif key not in theirs:
                differences.append(f"{path}/{key}: extra (storyrun: {json.dumps(ours[key])[:120]})")
            elif key == "error_message":
                counter[0] += 1
                expected = theirs[key].split(" (RuntimeError)")[0]
                if expected not in ours[key]:
                    differences.append(f"{path}/{key}: {ours[key]!r} does not contain {expected!r}")
            else:
                compare(ours[key], theirs[key], f"{path}/{key}", differences, counter)
    elif isinstance(theirs, list) and isinstance(ours, list):
        if len(ours) != len(theirs):
            differences.append(f"{path}: {len(ours)} items, Cucumber {len(theirs)}")
        for index, (a, b) in enumerate(zip(ours, theirs)):
            compare(a, b, f"{path}/{index}", differences, counter)
    else:
        counter[0] += 1
        if ours != theirs:
            differences.append(f"{path}: {json.dumps(ours)[:120]} != Cucumber {json.dumps(theirs)[:120]}")

def main():
    ours = normalise(json.load(open(sys.argv[1], encoding="utf-8")))
    theirs = normalise(json.load(open(sys.argv[2], encoding="utf-8")))
    ours.sort(key=lambda f: f["uri"])
    theirs.sort(key=lambda f: f["uri"])
    differences, counter = [], [0]
    compare(ours, theirs, "", differences, counter)
    for line in differences:
        print(line)
    print(f"{counter[0]} fields compared, {len(differences)} differ")
    sys.exit(1 if differences else 0)

main()
