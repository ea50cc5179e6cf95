#!/usr/bin/env bash
# Times `modelc migrate` on a generated store of 1,000,000 rows against the same table rewrite
# written by hand and run by the sqlite3 shell: whole processes, median of several runs, with
# hyperfine. The migration renames an attribute, adds one with a default, removes one and makes
# one required with a default, which rewrites the table; goal at most 1.2x the shell. Then a
# purely additive migration (one optional attribute) of the same store, which must not rewrite
# the table: goal under 100 ms. Peak memory of the rewriting migration: goal under 100 MB.
#
# Usage: Benchmarks/migration-vs-sqlite3.sh [--rows N] [--runs R] [--no-build] [--enforce]
#   --enforce   exit 2 when a goal is missed (for CI); otherwise exit 0 once measured.
# Works from any current directory. Output goes to Benchmarks/output/migration/ (git-ignored).
set -euo pipefail

rows=1000000
runs=10
build=1
enforce=0
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --enforce) enforce=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option: $1" >&2; usage >&2; exit 64 ;;
    esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="Benchmarks/output/migration"
mkdir -p "$work"

# --- Tools ----------------------------------------------------------------------------------
. "$root/Benchmarks/tools.sh"
missing=()
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    echo "==> Installing ${missing[*]}"
    install_packages "${missing[@]}"
fi

if [ "$build" -eq 1 ]; then
    echo "==> swift build -c release --product modelc"
    swift build -c release --product modelc >/dev/null
fi
modelc="${MODELC:-$root/.build/release/modelc}"   # MODELC=PATH times another build

# --- The model: three versions of one entity ------------------------------------------------
model="$work/Items.xcdatamodeld"
rm -rf "$model"
mkdir -p "$model/Items.xcdatamodel" "$model/Items 2.xcdatamodel" "$model/Items 3.xcdatamodel"
header='<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift">'
cat > "$model/Items.xcdatamodel/contents" <<EOF
$header
    <entity name="Item" representedClassName="Item" syncable="YES">
        <attribute name="count" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
        <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="legacy" optional="YES" attributeType="String"/>
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="note" optional="YES" attributeType="String"/>
    </entity>
</model>
EOF
cat > "$model/Items 2.xcdatamodel/contents" <<EOF
$header
    <entity name="Item" representedClassName="Item" syncable="YES">
        <attribute name="count" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="note" optional="YES" attributeType="String"/>
        <attribute name="priority" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String" elementID="name"/>
    </entity>
</model>
EOF
sed 's|        <attribute name="title"|        <attribute name="tag" optional="YES" attributeType="String"/>\n        <attribute name="title"|' \
    "$model/Items 2.xcdatamodel/contents" > "$model/Items 3.xcdatamodel/contents"
printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' '<plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Items 3.xcdatamodel</string></dict></plist>' \
    > "$model/.xccurrentversion"

# --- The store: version 1 with $rows rows ---------------------------------------------------
echo "==> generating a store of $rows rows"
rm -f "$work"/*.sqlite*
"$modelc" store create --model "$model" --model-version Items --journal-mode delete "$work/base.sqlite" >/dev/null
sqlite3 "$work/base.sqlite" <<EOF
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZCOUNT, ZCREATED, ZLEGACY, ZNAME, ZNOTE)
SELECT i, 1, 1, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 1000 END, 700000000 + i, 'legacy ' || i, 'item ' || i,
       CASE WHEN i % 3 = 0 THEN NULL ELSE 'a note about item number ' || i END FROM n;
UPDATE Z_PRIMARYKEY SET Z_MAX = $rows WHERE Z_NAME = 'Item';
EOF
ls -l "$work/base.sqlite" | awk '{ printf "    %.1f MB\n", $5 / 1e6 }'

# --- The same rewrite by hand ----------------------------------------------------------------
"$modelc" store create --model "$model" --model-version "Items 2" --journal-mode delete "$work/shape.sqlite" >/dev/null
ddl=$(sqlite3 "$work/shape.sqlite" "SELECT sql FROM sqlite_master WHERE name = 'ZITEM'")
cat > "$work/by-hand.sql" <<EOF
BEGIN;
ALTER TABLE ZITEM RENAME TO OLD_ZITEM;
$ddl;
INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZCOUNT, ZPRIORITY, ZCREATED, ZNOTE, ZTITLE)
    SELECT Z_PK, Z_ENT, Z_OPT, COALESCE(ZCOUNT, 0), 0, ZCREATED, ZNOTE, ZNAME FROM OLD_ZITEM;
DROP TABLE OLD_ZITEM;
COMMIT;
EOF

# --- Check once that both give the same rows -------------------------------------------------
cp "$work/base.sqlite" "$work/check-modelc.sqlite"
cp "$work/base.sqlite" "$work/check-hand.sqlite"
"$modelc" migrate "$work/check-modelc.sqlite" --model "$model" --to "Items 2" --no-backup --allow-data-loss --quiet
sqlite3 "$work/check-hand.sqlite" ".read $work/by-hand.sql"
digest() { sqlite3 "$1" "SELECT COUNT(*), TOTAL(ZCOUNT), TOTAL(ZPRIORITY), TOTAL(LENGTH(ZTITLE)), TOTAL(LENGTH(ZNOTE)) FROM ZITEM"; }
if [ "$(digest "$work/check-modelc.sqlite")" != "$(digest "$work/check-hand.sqlite")" ]; then
    echo "error: modelc and the hand-written SQL give different rows" >&2
    exit 1
fi
echo "    same rows: $(digest "$work/check-modelc.sqlite")"

# --- Time them -----------------------------------------------------------------------------
echo "==> rewrite: modelc migrate against the sqlite3 shell ($runs runs each)"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/rewrite.json" \
    --prepare "sh -c 'cp $work/base.sqlite $work/run.sqlite && sync'" \
    -n sqlite3 "sqlite3 $work/run.sqlite '.read $work/by-hand.sql'" \
    -n modelc "$modelc migrate $work/run.sqlite --model $model --to 'Items 2' --no-backup --allow-data-loss --quiet" >/dev/null
echo "==> rewrite with modelc's default backup first ($runs runs)"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/rewrite-backup.json" \
    --prepare "sh -c 'rm -f $work/run.backup.sqlite && cp $work/base.sqlite $work/run.sqlite && sync'" \
    -n modelc-backup "$modelc migrate $work/run.sqlite --model $model --to 'Items 2' --backup $work/run.backup.sqlite --allow-data-loss --quiet" >/dev/null
echo "==> additive: modelc migrate from Items 2 to Items 3 ($runs runs)"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/additive.json" \
    --prepare "sh -c 'cp $work/check-modelc.sqlite $work/run.sqlite && sync'" \
    -n additive "$modelc migrate $work/run.sqlite --model $model --to 'Items 3' --no-backup --quiet" >/dev/null
cp "$work/base.sqlite" "$work/run.sqlite"
/usr/bin/time -v "$modelc" migrate "$work/run.sqlite" --model "$model" --to "Items 2" --no-backup --allow-data-loss --quiet \
    2> "$work/memory.txt"
peak_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/memory.txt")

python3 - "$work" "$peak_kb" "$enforce" <<'EOF'
import json, sys
work, peak_kb, enforce = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
def median(name, file):
    for result in json.load(open(f"{work}/{file}"))["results"]:
        if result["command"] == name:
            return result["median"] * 1000
hand, tool = median("sqlite3", "rewrite.json"), median("modelc", "rewrite.json")
backup, additive = median("modelc-backup", "rewrite-backup.json"), median("additive", "additive.json")
ratio, peak = tool / hand, peak_kb / 1024
print(f"rewrite   sqlite3 {hand:8.1f} ms   modelc {tool:8.1f} ms   ratio {ratio:.2f}x (goal <= 1.2x)")
print(f"          modelc with its backup first {backup:8.1f} ms ({backup / hand:.2f}x)")
print(f"additive  modelc {additive:8.1f} ms (goal < 100 ms)")
print(f"peak memory of the rewrite {peak:.1f} MB (goal < 100 MB)")
missed = ratio > 1.2 or additive >= 100 or peak >= 100
print("goals: " + ("missed" if missed else "met"))
sys.exit(2 if missed and enforce else 0)
EOF
