#!/usr/bin/env bash
# The README's promise, tried as a new user would: a fresh clone of this
# repository's HEAD in an empty folder (no ../shared beside it), then
# `make stories` and `make test`, each timed. Without official test data the
# conformance suites must be skipped, each with one line naming the path, and
# everything else must pass. With CONFORMANCE_DIR set (or --with DIR) the same
# clone runs every official suite, and a skipped one is a failure.
#
#   Tests/Build/fresh_clone.sh               # official data absent
#   Tests/Build/fresh_clone.sh --with DIR    # official data at DIR
#
# The clone lives in a temporary folder, removed at the end (KEEP=1 keeps it).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
with=""
if [ "${1:-}" = --with ]; then with=$(cd "$2" && pwd); fi

empty=$(mktemp -d "${TMPDIR:-/tmp}/storyrun-fresh.XXXXXX")
cleanup() { if [ "${KEEP:-}" != 1 ]; then rm -rf "$empty"; fi; }
trap cleanup EXIT
# As a clone in a home folder: others may enter (a test runs storyrun as nobody).
chmod 755 "$empty"
git clone -q "$repo" "$empty/storyrun"
cd "$empty/storyrun"
if [ -e ../shared ]; then echo "fresh_clone: $empty has a shared folder beside the clone" >&2; exit 1; fi

unset CONFORMANCE_DIR CONFORMANCE_REQUIRED
if [ -n "$with" ]; then export CONFORMANCE_DIR=$with CONFORMANCE_REQUIRED=1; fi

status=0
for target in stories test; do
  start=$(date +%s)
  if make "$target" > "$empty/$target.log" 2>&1; then result=passed; else result=FAILED; status=1; fi
  end=$(date +%s)
  echo "fresh clone: make $target $result in $((end - start)) s (log: $empty/$target.log)"
  [ "$result" = passed ] || { tail -40 "$empty/$target.log"; KEEP=1; }
done

log=$empty/test.log
skipped=$(grep -c "official test data not found" "$log" || true)
echo "fresh clone: $skipped lines say official test data was not found:"
grep -o "official test data not found at [^:]*: the .* conformance tests are skipped.*" "$log" | sort | uniq -c | sed 's/^/  /' || true
if [ -n "$with" ] && [ "$skipped" != 0 ]; then echo "fresh clone: suites were skipped though CONFORMANCE_DIR=$with" >&2; status=1; fi
if [ -z "$with" ] && [ "$skipped" = 0 ]; then echo "fresh clone: no suite said it was skipped, though no official data was beside the clone" >&2; status=1; fi
grep -E "^(Test run with|✔ Test run|✘ Test run)|passed|failed" "$log" | grep -E "Test run|stories|samples|Gherkin" | tail -12 | sed 's/^/  /' || true
exit $status
