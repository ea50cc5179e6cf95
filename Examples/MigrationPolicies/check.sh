#!/bin/sh
# Builds the example and runs it on a COPY of CoreDataPlus's SampleModel_V2.sqlite (the corpus
# stays untouched): the store must end at SampleModel3 with one Maker row per distinct maker
# string and every car's createdBy pointing at the Maker of its old maker string.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS:-$here/../../../shared/corpus}
resources="$corpus/alemar11__CoreDataPlus/Tests/Resources/SampleModel"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$resources/Fixtures/SampleModel_V2.sqlite" "$work/"
expected=$(sqlite3 "$work/SampleModel_V2.sqlite" "SELECT group_concat(ZNUMBERPLATE || '=' || ZMAKER, ',') FROM (SELECT * FROM ZCAR ORDER BY ZNUMBERPLATE)")
makers=$(sqlite3 "$work/SampleModel_V2.sqlite" "SELECT COUNT(DISTINCT ZMAKER) FROM ZCAR")
cd "$here"
# Issue 14 writes `swift run -c release -- STORE MODEL MAPPINGS`, but SwiftPM (6.3) takes the first
# argument after `--` as the product's name ("no executable product named '…/SampleModel_V2.sqlite'"),
# so the one executable is named; its three arguments are the issue's.
swift run -c release migrate-sample "$work/SampleModel_V2.sqlite" "$resources/SampleModel.xcdatamodeld" "$resources/MappingModels"
actual=$(sqlite3 "$work/SampleModel_V2.sqlite" "SELECT group_concat(p || '=' || n, ',') FROM (SELECT c.ZNUMBERPLATE p, m.ZNAME n FROM ZCAR c JOIN ZMAKER m ON m.Z_PK = c.ZCREATEDBY ORDER BY c.ZNUMBERPLATE)")
test "$actual" = "$expected" || { echo "cars and makers differ: $actual"; exit 1; }
test "$(sqlite3 "$work/SampleModel_V2.sqlite" "SELECT COUNT(*) FROM ZMAKER")" = "$makers" || { echo "Maker rows differ"; exit 1; }
echo "ok: $makers makers, cars linked to them"
