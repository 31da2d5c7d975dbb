#!/bin/sh
# Runs one step of `make test` under a time limit and says when it overran:
#   Tests/time-limit.sh NAME SECONDS COMMAND...
# timeout(1) stops the whole process group (swift test's children too),
# first with SIGTERM, then SIGKILL 15 s later.
name=$1
seconds=$2
shift 2
timeout -k 15 "$seconds" "$@"
status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "make test: the step '$name' overran its time limit of $seconds s and was stopped" >&2
fi
exit "$status"
