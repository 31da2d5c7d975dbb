#!/usr/bin/env python3
"""Loads every result storyrun's --allure wrote into allure-python-commons'
model (allure_commons.model2), strictly: a field the model does not have, a
status Allure does not know, a missing attachment file or a uuid that is not
v4 is an error. With --behave DIR (allure-behave's results for the same
feature), also says which fields allure-behave writes that storyrun does not.

Prints one JSON object: {"results": [...summaries...], "errors": [...],
"missing": [...fields allure-behave has and storyrun has not...]}; exits 1
when there are errors."""

import glob
import json
import os
import re
import sys

from allure_commons import model2

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
STATUSES = {model2.Status.PASSED, model2.Status.FAILED, model2.Status.BROKEN, model2.Status.SKIPPED}


def details(data):
    return None if data is None else model2.StatusDetails(**data)


def executable(cls, data, folder, errors, where, strict=True):
    data = dict(data)
    data["steps"] = [executable(model2.TestStepResult, s, folder, errors, where, strict) for s in data.get("steps", [])]
    data["attachments"] = [model2.Attachment(**a) for a in data.get("attachments", [])]
    data["parameters"] = [model2.Parameter(**p) for p in data.get("parameters", [])]
    data["statusDetails"] = details(data.get("statusDetails"))
    if "labels" in data:
        data["labels"] = [model2.Label(**l) for l in data["labels"]]
    if "links" in data:
        data["links"] = [model2.Link(**l) for l in data["links"]]
    item = cls(**data)
    if item.status not in STATUSES:
        errors.append(f"{where}: status {item.status!r} is not one of Allure's")
    if strict and item.stage != "finished":
        errors.append(f"{where}: stage {item.stage!r}")
    if not (isinstance(item.start, int) and isinstance(item.stop, int) and item.start <= item.stop):
        errors.append(f"{where}: start {item.start!r} and stop {item.stop!r} are not times in ms")
    for attachment in item.attachments:
        if not re.match(r"^[0-9a-f-]{36}-attachment\.[a-z0-9]+$", attachment.source or ""):
            errors.append(f"{where}: attachment source {attachment.source!r}")
        elif not os.path.isfile(os.path.join(folder, attachment.source)):
            errors.append(f"{where}: attachment {attachment.source} is not in the folder")
    return item


def load(folder, strict=True):
    """Every result in the folder, loaded into the model; `strict` checks
    what storyrun promises beyond it (allure-behave writes no stage and
    names its files by another uuid)."""
    results, errors = [], []
    for path in sorted(glob.glob(os.path.join(folder, "*-result.json"))):
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        try:
            result = executable(model2.TestResult, data, folder, errors, name, strict)
        except TypeError as error:
            errors.append(f"{name}: {error}")
            continue
        if strict and (not UUID4.match(result.uuid or "") or name != f"{result.uuid}-result.json"):
            errors.append(f"{name}: uuid {result.uuid!r} is not a v4 uuid naming the file")
        for field in ("name", "fullName", "historyId", "testCaseId"):
            if not getattr(result, field):
                errors.append(f"{name}: no {field}")
        results.append((data, result))
    return results, errors


def keys(results):
    """The fields written: of results, steps, statusDetails, and label names."""
    found = {"result": set(), "step": set(), "statusDetails": set(), "label": set()}
    for data, _ in results:
        found["result"] |= set(data)
        found["label"] |= {l["name"] for l in data.get("labels", [])}
        found["statusDetails"] |= set(data.get("statusDetails") or {})
        for step in data.get("steps", []):
            found["step"] |= set(step)
            found["statusDetails"] |= set(step.get("statusDetails") or {})
    return found


def main():
    folder = sys.argv[1]
    behave = sys.argv[sys.argv.index("--behave") + 1] if "--behave" in sys.argv else None
    results, errors = load(folder)
    summaries = [
        {
            "name": r.name, "status": r.status, "historyId": r.historyId, "testCaseId": r.testCaseId,
            "fullName": r.fullName, "flaky": bool(r.statusDetails and r.statusDetails.flaky),
            "message": r.statusDetails.message if r.statusDetails else None,
            "parameters": {p.name: p.value for p in r.parameters},
            "labels": sorted(f"{l.name}={l.value}" for l in r.labels),
            "steps": [[s.name, s.status, len(s.attachments)] for s in r.steps],
        }
        for _, r in results
    ]
    missing = []
    if behave:
        theirs, their_errors = load(behave, strict=False)
        errors += [f"allure-behave's {e}" for e in their_errors]
        ours = keys(results)
        for kind, fields in keys(theirs).items():
            missing += [f"{kind}.{field}" for field in sorted(fields - ours[kind])]
    print(json.dumps({"results": summaries, "errors": errors, "missing": missing}, indent=1))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
