#!/usr/bin/env bash
# The object layer (ModelObjects) against GRDB on the same store file, release build.
# Side by side on package-benchmark (Benchmarks/ObjectLayer/Benchmarks/ObjectLayerBenchmarks), each
# benchmark in a process of its own, one warm-up iteration, then up to 9 timed iterations:
#   fetch 200,000 × 10 integers: GRDB init(row:) struct / final class / Decodable record, against
#     a fresh context and a warm one (holding the objects), typed accessors and value(forKey:) apart
#   insert + save 50,000 / prepared INSERTs with Z_MAX
#   update 10,000 fetched objects and save / hand UPDATEs checking Z_OPT (the fetch timed on both sides)
#   count(for:) / SELECT COUNT(*) on 200,000 rows
#   fetch 100,000 books (strings, a date, an optional to-one, a to-many fault) / GRDB records
# Then, in plain processes (object-layer-bench, no malloc interposer): the fetch, insert and update
# alternated with GRDB in one process (best and median of the rounds), count(for:) alternated with
# SELECT COUNT(*) (101 rounds), heap bytes per object, the
# query plan, batch faulting's peak memory, history, merge, child saves.
# Usage: Benchmarks/object-layer.sh [--quick]   (--quick: the package-benchmark suite only, 3 iterations)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)
package="$root/Benchmarks/ObjectLayer"
scratch="$root/.build-object-layer"
out="$root/Benchmarks/output/object-layer"
mkdir -p "$out/stores"
export OBJECT_LAYER_FOLDER="$out/stores"
quick=${1:-}

echo "Building the benchmarks (release)..."
swift build -c release --package-path "$package" --scratch-path "$scratch" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }

echo "Running package-benchmark (each benchmark in its own process)..."
[ "$quick" = "--quick" ] && export OBJECT_LAYER_ITERATIONS=3
swift package --package-path "$package" --scratch-path "$scratch" benchmark run --no-progress --format markdown \
    >"$out/benchmarks.md" 2>"$out/benchmarks.log" || { tail -30 "$out/benchmarks.log"; exit 1; }
python3 "$root/Benchmarks/object-layer-table.py" "$out/benchmarks.md"
[ "$quick" = "--quick" ] && exit 0

bench="$scratch/release/object-layer-bench"
model="$package/Sources/BenchFixtures/Models/Bench.xcdatamodeld"
run() { "$bench" "$model" "$out" "$@"; }
peak() { /usr/bin/time -f "%M" -o "$out/peak" "$bench" "$model" "$out" "$@" >/dev/null; echo "$(($(cat "$out/peak") / 1024)) MB"; }
run seed 200000 >/dev/null
run fetch 200000
run count 101
mkdir -p "$out/insert"
"$bench" "$model" "$out/insert" insert-vs-grdb 50000
run memory 200000
run seed 100000 >/dev/null
echo "batches 100000: peak $(peak batches 100000)"
run seed 1000000 >/dev/null
echo "batches 1000000: peak $(peak batches 1000000)"
run plan 1000000
run history 50000
run seed 10000 >/dev/null
run update-vs-grdb 10000
run merge 10000
run child 10000
