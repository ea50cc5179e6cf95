#!/usr/bin/env bash
# Times `modelc migrate` through a custom mapping model (the Shelf fixture: Author renamed to
# Writer, Book.title upper-cased, the author <-> books relationship re-linked by $manager) against
# the lightweight migration of the same change (no --mapping: the rename inferred from the
# renaming identifier, titles copied as they are), on generated stores of 1,000,000 and 5,000,000
# books (plus one author per ten books): whole-process wall time and peak resident memory, with
# /usr/bin/time -v. Each size is measured on two stores: keys from 1 without gaps, as the generator
# writes them, and with every key doubled, as after deletions (--layouts picks). Goals: the custom migration at most 3x the lightweight one; its peak memory at
# 5M within 1.2x of its peak at 1M, and under 200 MB.
#
# Usage: Benchmarks/custom-mapping-migration.sh [--sizes "1000000 5000000"] [--layouts "dense gaps"] [--runs R] [--kinds "lightweight custom"] [--no-build] [--enforce]
#   --runs R    runs per measurement (median reported; default 1)
#   --kinds K   which migrations to measure (default both)
#   --layouts L which stores to measure: dense, gaps (default both)
#   --enforce   exit 2 when a goal is missed (for CI); otherwise exit 0 once measured.
# Works from any current directory. Output goes to Benchmarks/output/custom-mapping/ (git-ignored).
set -euo pipefail

sizes="1000000 5000000"
runs=1
build=1
enforce=0
kinds="lightweight custom"
layouts="dense gaps"
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) sizes="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --kinds) kinds="$2"; shift 2 ;;
        --layouts) layouts="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --enforce) enforce=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option: $1" >&2; usage >&2; exit 64 ;;
    esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="Benchmarks/output/custom-mapping"
mkdir -p "$work"
model="$root/Fixtures/Shelf.xcdatamodeld"
mapping="$root/Fixtures/ShelfToShelf2.xcmappingmodel"

. "$root/Benchmarks/tools.sh"
missing=()
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    echo "==> Installing ${missing[*]}"
    install_packages "${missing[@]}"
fi
if [ "$build" -eq 1 ]; then
    echo "==> swift build -c release --product modelc"
    swift build -c release --product modelc >/dev/null
fi
modelc="${MODELC:-$root/.build/release/modelc}"   # MODELC=PATH measures another build

# One measured run: copies the base store, migrates it with the given options, checks the result
# and appends "kind books layout seconds peak_kb" to results.txt.
measure() {
    local kind="$1" books="$2" layout="$3"; shift 3
    rm -f "$work"/run.*
    cp "$work/base-$books-$layout.sqlite" "$work/run.sqlite"
    sync
    if ! /usr/bin/time -v "$modelc" migrate "$work/run.sqlite" --model "$model" "$@" --quiet 2> "$work/time.txt"; then
        cat "$work/time.txt" >&2
        echo "error: the $kind migration of $books books failed" >&2
        exit 1
    fi
    local seconds peak
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$work/time.txt")
    peak=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time.txt")
    local writers books_now upper
    writers=$(sqlite3 "$work/run.sqlite" "SELECT COUNT(*) FROM ZWRITER")
    books_now=$(sqlite3 "$work/run.sqlite" "SELECT COUNT(*) FROM ZBOOK")
    upper=$(sqlite3 "$work/run.sqlite" "SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE GLOB 'TITLE *'")
    linked=$(sqlite3 "$work/run.sqlite" "SELECT COUNT(*) FROM ZBOOK b JOIN ZWRITER w ON w.Z_PK = b.ZAUTHOR")
    if [ "$writers" -ne $((books / 10)) ] || [ "$books_now" -ne "$books" ] || [ "$linked" -ne "$books" ]; then
        echo "error: the $kind migration of $books books gave $writers writers, $books_now books, $linked linked" >&2
        exit 1
    fi
    if [ "$kind" = custom ] && [ "$upper" -ne "$books" ]; then
        echo "error: the custom migration upper-cased $upper of $books titles" >&2
        exit 1
    fi
    echo "$kind $books $layout $seconds $peak" >> "$work/results.txt"
    printf '    %-11s %9d books (%s keys): %7.2f s, peak %6.1f MB\n' "$kind" "$books" "$layout" "$seconds" "$(echo "$peak / 1024" | bc -l)"
}

rm -f "$work/results.txt"
for books in $sizes; do
    for layout in $layouts; do
        echo "==> generating a Shelf store of $books books ($layout keys)"
        gaps=""
        [ "$layout" = gaps ] && gaps="--gaps"
        python3 Benchmarks/generate-shelf-store.py --books "$books" --out "$work/base-$books-$layout.sqlite" --modelc "$modelc" $gaps >/dev/null
        ls -l "$work/base-$books-$layout.sqlite" | awk '{ printf "    %.1f MB\n", $5 / 1e6 }'
        for _ in $(seq "$runs"); do
            case " $kinds " in *" lightweight "*) measure lightweight "$books" "$layout" --no-backup ;; esac
            case " $kinds " in *" custom "*) measure custom "$books" "$layout" --mapping "$mapping" --no-backup ;; esac
        done
        rm -f "$work/base-$books-$layout.sqlite"
    done
done
rm -f "$work"/run.*

python3 - "$work" "$enforce" <<'PY'
import statistics, sys
work, enforce = sys.argv[1], sys.argv[2] == "1"
rows = [line.split() for line in open(f"{work}/results.txt")]
def median(kind, books, layout, column):
    values = [float(r[column]) for r in rows if r[0] == kind and int(r[1]) == books and r[2] == layout]
    return statistics.median(values) if values else float("nan")
sizes = sorted({int(r[1]) for r in rows})
layouts = [l for l in ("dense", "gaps") if any(r[2] == l for r in rows)]
missed = []
print("| books | keys | lightweight s | custom s | ratio | lightweight peak MB | custom peak MB |")
print("|---:|---|---:|---:|---:|---:|---:|")
for books in sizes:
    for layout in layouts:
        light, custom = median("lightweight", books, layout, 3), median("custom", books, layout, 3)
        lpeak, cpeak = median("lightweight", books, layout, 4) / 1024, median("custom", books, layout, 4) / 1024
        print(f"| {books:,} | {layout} | {light:.2f} | {custom:.2f} | {custom / light:.2f}x | {lpeak:.1f} | {cpeak:.1f} |")
        if custom > 3 * light:
            missed.append(f"custom {custom / light:.2f}x the lightweight migration at {books:,} books, {layout} keys (goal <= 3x)")
        if cpeak >= 200:
            missed.append(f"custom peak {cpeak:.1f} MB at {books:,} books, {layout} keys (goal < 200 MB)")
if len(sizes) > 1:
    for layout in layouts:
        small, large = median("custom", sizes[0], layout, 4), median("custom", sizes[-1], layout, 4)
        print(f"custom peak at {sizes[-1]:,} / at {sizes[0]:,} ({layout} keys): {large / small:.2f}x (goal <= 1.2x)")
        if large > 1.2 * small:
            missed.append(f"custom peak grows {large / small:.2f}x from {sizes[0]:,} to {sizes[-1]:,} books, {layout} keys (goal <= 1.2x)")
if any(r[0] == "custom" for r in rows) and any(r[0] == "lightweight" for r in rows):
    print("goals met" if not missed else "goals missed:\n  " + "\n  ".join(missed))
else:
    print("goals not judged: only one kind of migration was measured")
sys.exit(2 if missed and enforce else 0)
PY
