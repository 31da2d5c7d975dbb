#!/usr/bin/env python3
"""Converts the official tag-expressions test data (YAML, kept beside this
script with its LICENSE) to JSON, which Swift reads without a dependency."""
import json, os, yaml

here = os.path.dirname(os.path.abspath(__file__))
for name in ("parsing", "evaluations", "errors"):
    with open(os.path.join(here, f"{name}.yml")) as source:
        data = yaml.safe_load(source)
    with open(os.path.join(here, f"{name}.json"), "w") as target:
        json.dump(data, target, indent=1, ensure_ascii=False)
        target.write("\n")
