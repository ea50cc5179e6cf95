#!/usr/bin/env bash
# Builds the RemoteChanges example with modelc's build plugin and runs it: two processes on one
# store, the second's saves arriving in the first as remote changes read through history. Works
# on a copy that depends on this package by absolute path; builds in .build-remote-changes, or
# in MODELC_EXAMPLE_SCRATCH (CI passes the plugin check's, whose modelc it reuses).
set -euo pipefail

. "$(dirname "$0")/../copy-example.sh" RemoteChanges ZNOTE Sources

echo "== build ($SECONDS s so far)"
status=0
swift build --package-path "$example" --scratch-path "$scratch" --product remote-changes >"$scratch/build.log" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -40 "$scratch/build.log"; fail "the example did not build"; }

echo "== two processes on one store ($SECONDS s so far)"
binary="$(swift build --package-path "$example" --scratch-path "$scratch" --show-bin-path)/remote-changes"
status=0
timeout 60 "$binary" 3 | tee "$scratch/run.log" || status=$?
[ "$status" -eq 0 ] || fail "the example failed (exit $status)"
for number in 1 2 3; do
    grep -qE "^remote change: transaction [0-9]+ by writer: insert note $number$" "$scratch/run.log" || fail "note $number did not arrive"
done
grep -qF "received 3 remote changes from the other process" "$scratch/run.log" || fail "not every save arrived"

printf '\nRemoteChanges example passed in %ds\n' "$SECONDS"
