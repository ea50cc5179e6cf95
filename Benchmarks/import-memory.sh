#!/usr/bin/env bash
# Peak memory (maximum resident set, /usr/bin/time %M) and wall time of `modelc import` of a
# generated Library file (generate-import-file.py) of N and of 4N objects into a new store:
#   checked only   the file read and checked, then refused (an unknown entity at its end): the
#                  cost of the parsed file and the id tables, which grow with the file
#   batches        the import as it runs, saved in batches of 1,000
#   one batch      --batch-size larger than the file: every object in one save, as before
# Usage: Benchmarks/import-memory.sh [BOOKS]   (default 5000 books, about 15,500 objects; N = that)
# MODELC names the binary (default: .build/release/modelc, else .build/debug/modelc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)
out="$root/Benchmarks/output/import-memory"
mkdir -p "$out"
modelc=${MODELC:-$root/.build/release/modelc}
[ -x "$modelc" ] || modelc="$root/.build/debug/modelc"
model="$root/Models/Library.xcdatamodeld"
books=${1:-5000}
measure() { # label file extra-arguments...
    local label=$1 file=$2
    shift 2
    rm -f "$out/store.sqlite"
    /usr/bin/time -f "%M %e" -o "$out/time" "$modelc" import "$out/store.sqlite" --model "$model" "$file" "$@" >/dev/null 2>&1 || true
    read -r kb seconds < <(tail -n 1 "$out/time")
    printf '  %-12s peak %5d MB  %6.2f s\n' "$label" $((kb / 1024)) "$seconds"
}
echo "modelc: $modelc"
for factor in 1 4; do
    n=$((books * factor))
    count=$("$root/Benchmarks/generate-import-file.py" "$n" "$out/objects.json")
    "$root/Benchmarks/generate-import-file.py" "$n" "$out/unknown.json" --unknown >/dev/null
    echo "$count objects ($(($(stat -c %s "$out/objects.json") / 1024 / 1024)) MB of JSON):"
    measure "checked only" "$out/unknown.json"
    measure "batches" "$out/objects.json"
    measure "one batch" "$out/objects.json" --batch-size 100000000
done
rm -f "$out/store.sqlite"
