#!/bin/sh
# Runs one official conformance suite: official.sh FOLDER NAME COMMAND...
# FOLDER is the suite's official test data (under CONFORMANCE_DIR). Where it is
# absent the suite is skipped with one line saying so, or, under
# CONFORMANCE_REQUIRED=1 (CI), fails.
folder=$1 name=$2
shift 2
if [ ! -e "$folder" ]; then
  if [ "${CONFORMANCE_REQUIRED:-}" = 1 ]; then
    echo "official test data not found at $folder: the $name conformance tests cannot run (CONFORMANCE_REQUIRED=1)" >&2
    exit 1
  fi
  echo "official test data not found at $folder: the $name conformance tests are skipped (set CONFORMANCE_DIR)"
  exit 0
fi
exec "$@"
