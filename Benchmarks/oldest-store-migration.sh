#!/bin/sh
# Migrates a copy of the oldest corpus store (Wire's store1-25, made by version `zmessaging`)
# to the bundle's current version (zmessaging2.101.0) with each modelc binary given, and prints
# the wall time, the steps, the table rewrites and the rows touched of each run.
# Usage: Benchmarks/oldest-store-migration.sh MODELC [MODELC ...]
set -eu
corpus=${CORPUS:-"$(cd "$(dirname "$0")/../.." && pwd)/shared/corpus"}   # ../shared/corpus beside the package
store="$corpus/wireapp__wire-ios-data-model/Tests/Resources/store1-25.wiredatabase"
model="$corpus/wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for binary in "$@"; do
    cp "$store" "$work/store.sqlite"
    chmod u+w "$work/store.sqlite"
    start=$(date +%s.%N)
    "$binary" migrate "$work/store.sqlite" --model "$model" --no-backup --allow-data-loss --json > "$work/result.json"
    end=$(date +%s.%N)
    python3 - "$work/result.json" "$binary" "$start" "$end" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
steps = result["steps"]
print(f'{sys.argv[2]}: {float(sys.argv[4]) - float(sys.argv[3]):.2f} s, {result["outcome"]}, {len(steps)} steps, '
      f'{sum(len(s["rewrittenTables"]) for s in steps)} table rewrites, {sum(s["rowsTouched"] for s in steps)} rows touched')
PY
done
