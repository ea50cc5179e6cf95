#!/usr/bin/env bash
# Builds the PersistenceController example with modelc's build plugin and runs its tests (the
# repository on an in-memory store). Works on a copy of the example that depends on this
# package by absolute path, so the sources stay as they are; builds in
# .build-persistence-controller, kept for inspection with the build's log.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd -P)
scratch="$root/.build-persistence-controller"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example="$(cd "$work" && pwd -P)/PersistenceController"

fail() { echo "FAIL: $1" >&2; exit 1; }

mkdir -p "$example" "$scratch"
cp -R "$root/Examples/PersistenceController/Package.swift" "$root/Examples/PersistenceController/Sources" \
    "$root/Examples/PersistenceController/Tests" "$example/"
sed -i "s#path: \"\.\./\.\.\"#path: \"$root\"#" "$example/Package.swift"
grep -q "path: \"$root\"" "$example/Package.swift" || fail "could not point the copy at $root"

echo "== build and test ($SECONDS s so far)"
status=0
swift build --build-tests --package-path "$example" --scratch-path "$scratch" >"$scratch/build.log" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -40 "$scratch/build.log"; fail "the example did not build"; }
grep -qF "Compiling Core Data model Tasks.xcdatamodeld" "$scratch/build.log" || echo "note: the model was already compiled"
swift test --skip-build --package-path "$example" --scratch-path "$scratch" 2>&1 | tee "$scratch/test.log" | tail -5
grep -qE "Test run with [0-9]+ tests? (in [0-9]+ suites? )?passed" "$scratch/test.log" || fail "the example's tests failed"

printf '\nPersistenceController example passed in %ds\n' "$SECONDS"
