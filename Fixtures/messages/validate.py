#!/usr/bin/env python3
"""Validates Cucumber Messages NDJSON files against the official JSON Schema
(Draft 2020-12, every constraint: required fields, types, enums, minItems,
patterns, no unknown properties) with Python's `jsonschema`.

Usage: validate.py SCHEMA FILE.ndjson...
Prints one line per invalid envelope and `N envelopes valid, N invalid`;
exits 1 when any envelope is invalid."""
import json, sys

try:
    import jsonschema
except ImportError:
    print("jsonschema is not installed: pip install jsonschema", file=sys.stderr)
    sys.exit(3)

def main():
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    valid = invalid = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                errors = sorted(validator.iter_errors(json.loads(line)), key=lambda e: list(e.absolute_path))
                if errors:
                    invalid += 1
                    for error in errors[:3]:
                        where = "/".join(str(p) for p in error.absolute_path)
                        print(f"{path}:{number}: {where}: {error.message[:300]}")
                else:
                    valid += 1
    print(f"{valid} envelopes valid, {invalid} invalid")
    sys.exit(1 if invalid or not valid else 0)

main()
