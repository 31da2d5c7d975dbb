#!/usr/bin/env python3
"""Converts the official Cucumber Expressions YAML testdata to JSON fixtures.

Usage: python3 convert.py SOURCE_DIR [DEST_DIR]

SOURCE_DIR holds `cucumber-expression/` and `regular-expression/` (the
upstream `testdata/` folder). Every `*.yaml` becomes a `*.json` with the same
relative path under DEST_DIR (default: this script's folder). Big numbers are
written as JSON strings exactly as YAML read them; keys keep their order.
"""
import json
import os
import pathlib
import shutil
import sys

import yaml


def main() -> None:
    source = pathlib.Path(sys.argv[1])
    dest = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else pathlib.Path(__file__).parent
    count = 0
    for path in sorted(source.rglob("*.yaml")):
        relative = path.relative_to(source).with_suffix(".json")
        with path.open(encoding="utf-8") as stream:
            case = yaml.safe_load(stream)
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("w", encoding="utf-8") as stream:
            json.dump(case, stream, ensure_ascii=False, indent=2)
            stream.write("\n")
        count += 1
    licence = source / "LICENSE"
    if licence.exists():
        shutil.copyfile(licence, dest / "LICENSE")
    print(f"converted {count} files into {os.fspath(dest)}")


if __name__ == "__main__":
    main()
