#!/usr/bin/env bash
# The fetched results controller's cost of one change, by the size of its results, release build:
# a controller of 1,000, 10,000 and 100,000 objects (sorted by an integer attribute), one object
# changed to move it elsewhere in the order, the time from the context's objects-did-change to
# controllerDidChangeContent (median of 31 changes). Flat when a change costs in proportion to
# itself; linear when the controller fetches or sorts its results again.
# Usage: Benchmarks/fetched-results.sh (after or without Benchmarks/object-layer.sh: same build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)
out="$root/Benchmarks/output/fetched-results"
mkdir -p "$out/Bench.xcdatamodeld/Bench.xcdatamodel"
{
    echo '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    echo '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">'
    echo '    <entity name="Item" representedClassName="Item" syncable="YES" codeGenerationType="class">'
    for i in 0 1 2 3 4 5 6 7 8 9; do
        echo "        <attribute name=\"a$i\" optional=\"YES\" attributeType=\"Integer 64\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>"
    done
    echo '    </entity>'
    echo '</model>'
} >"$out/Bench.xcdatamodeld/Bench.xcdatamodel/contents"
echo "Building the benchmark (release)..."
swift build -c release --package-path "$root/Benchmarks/ObjectLayer" --scratch-path "$root/.build-object-layer" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
bench="$root/.build-object-layer/release/object-layer-bench"
model="$out/Bench.xcdatamodeld"
for count in 1000 10000 100000; do
    "$bench" "$model" "$out" seed "$count" >/dev/null
    "$bench" "$model" "$out" results "$count"
done
