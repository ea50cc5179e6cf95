#!/usr/bin/env bash
# Builds the CoreDataTemplate example, whose persistence code is Xcode's Core Data app template
# and a history-tracking stack written against Core Data's API, with `import CoreData` resolved to
# modelc's CoreData module, and runs its tests. Fails when a source still says `@objc(` or
# `@NSManaged` (the two edits a port makes). Builds in .build-core-data-template, or
# MODELC_EXAMPLE_SCRATCH.
set -euo pipefail

. "$(dirname "$0")/../copy-example.sh" CoreDataTemplate ZITEM Sources Tests

! grep -rnE '@objc\(|@NSManaged' "$root/Examples/CoreDataTemplate/Sources" || fail "a source still holds @objc(...) or @NSManaged"

echo "== build and test ($SECONDS s so far)"
status=0
swift build --build-tests --package-path "$example" --scratch-path "$scratch" >"$scratch/build.log" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -40 "$scratch/build.log"; fail "the example did not build"; }
swift test --skip-build --package-path "$example" --scratch-path "$scratch" 2>&1 | tee "$scratch/test.log" | tail -5
grep -qE "Test run with [0-9]+ tests? (in [0-9]+ suites? )?passed" "$scratch/test.log" || fail "the example's tests failed"

printf '\nCoreDataTemplate example passed in %ds\n' "$SECONDS"
