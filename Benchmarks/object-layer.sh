#!/usr/bin/env bash
# The object layer (ModelContext) against GRDB and prepared statements on the same store file,
# release build, each figure a ratio measured side by side in one process:
#   insert 50,000 objects and save / the same INSERTs through prepared statements (Z_MAX included)
#   fetch 200,000 objects reading their 10 integers / GRDB FetchableRecord (and GRDB Row cursor)
#   count(for:) on 1,000,000 rows / SELECT COUNT(*)
#   the query plan of a predicate on the indexed attribute
#   peak memory of a batch-faulting fetch (batch size 500) of 100,000 and of 1,000,000 objects
#   insert 50,000 objects and save with persistent history / without
#   update 10,000 fetched objects and save / the same UPDATEs by hand, Z_OPT checked
#   merge a background save of 10,000 updated objects into a context holding them / that save
#   a child context's save of 10,000 new objects into its parent / the parent's save of them
# Usage: Benchmarks/object-layer.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)
out="$root/Benchmarks/output/object-layer"
mkdir -p "$out/Bench.xcdatamodeld/Bench.xcdatamodel"
{
    echo '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    echo '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">'
    echo '    <entity name="Item" representedClassName="Item" syncable="YES" codeGenerationType="class">'
    for i in 0 1 2 3 4 5 6 7 8 9; do
        echo "        <attribute name=\"a$i\" optional=\"YES\" attributeType=\"Integer 64\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>"
    done
    echo '        <fetchIndex name="byA0"><fetchIndexElement property="a0" type="Binary" order="ascending"/></fetchIndex>'
    echo '    </entity>'
    echo '</model>'
} >"$out/Bench.xcdatamodeld/Bench.xcdatamodel/contents"
echo "Building the benchmark (release)..."
swift build -c release --package-path "$root/Benchmarks/ObjectLayer" --scratch-path "$root/.build-object-layer" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
bench="$root/.build-object-layer/release/object-layer-bench"
model="$out/Bench.xcdatamodeld"
run() { "$bench" "$model" "$out" "$@"; }
peak() { /usr/bin/time -f "%M" -o "$out/peak" "$bench" "$model" "$out" "$@" >/dev/null; echo "$(($(cat "$out/peak") / 1024)) MB"; }
run insert 50000
run seed 200000 >/dev/null
run fetch 200000
run seed 100000 >/dev/null
echo "batches 100000: peak $(peak batches 100000)"
run seed 1000000 >/dev/null
echo "batches 1000000: peak $(peak batches 1000000)"
run count 1000000
run plan 1000000
run history 50000
run seed 10000 >/dev/null
run update 10000
run merge 10000
run child 10000
