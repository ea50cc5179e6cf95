#!/usr/bin/env bash
# Builds the PersistenceController example with modelc's build plugin and runs its tests (the
# repository on an in-memory store, through the TaskItem class the plugin generates). Works on
# a copy of the example that depends on this package by absolute path, so the sources stay as
# they are; builds in .build-persistence-controller, kept for inspection with the build's log,
# or in MODELC_EXAMPLE_SCRATCH (CI passes the plugin check's, whose modelc it reuses).
set -euo pipefail

. "$(dirname "$0")/../copy-example.sh" PersistenceController ZTASKITEM Sources Tests

echo "== build and test ($SECONDS s so far)"
status=0
swift build --build-tests --package-path "$example" --scratch-path "$scratch" >"$scratch/build.log" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -40 "$scratch/build.log"; fail "the example did not build"; }
grep -qF "Compiling Core Data model Tasks.xcdatamodeld" "$scratch/build.log" || echo "note: the model was already compiled"
grep -qF "Generating classes of Core Data model Tasks.xcdatamodeld" "$scratch/build.log" || echo "note: the classes were already generated"
swift test --skip-build --package-path "$example" --scratch-path "$scratch" 2>&1 | tee "$scratch/test.log" | tail -5
grep -qE "Test run with [0-9]+ tests? (in [0-9]+ suites? )?passed" "$scratch/test.log" || fail "the example's tests failed"

echo "== an attribute added to the model appears in the generated class ($SECONDS s so far)"
contents="$example/Sources/Tasks/Tasks.xcdatamodeld/Tasks.xcdatamodel/contents"
sed -i 's#<attribute name="title" attributeType="String"/>#&\n        <attribute name="note" optional="YES" attributeType="String"/>#' "$contents"
grep -qF 'name="note"' "$contents" || fail "could not add an attribute to the copy's model"
status=0
swift build --package-path "$example" --scratch-path "$scratch" >"$scratch/rebuild.log" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -40 "$scratch/rebuild.log"; fail "the edited example did not build"; }
grep -qF "Generating classes of Core Data model Tasks.xcdatamodeld" "$scratch/rebuild.log" || fail "editing the model did not regenerate the classes"
generated=$(find "$scratch" -path '*TasksClasses/Tasks+CoreDataModel.swift' | head -1)
grep -qF 'public var note: String? {' "$generated" || fail "no 'note' property in $generated"
echo "regenerated with the new property: ok"

printf '\nPersistenceController example passed in %ds\n' "$SECONDS"
