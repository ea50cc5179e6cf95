#!/usr/bin/env bash
# Makes the store fixtures: one store per version of Models/Library.xcdatamodeld, created by
# `modelc store create` (rollback journal, so each is one file) and filled by the SQL file of the
# same name. Run from anywhere; needs the sqlite3 shell. Replaces the fixtures it made before.
set -euo pipefail
cd "$(dirname "$0")/.."

modelc=${MODELC:-.build/debug/modelc}
[ -x "$modelc" ] || swift build --product modelc

make_fixture() {
    local version=$1 name=$2
    rm -f "Fixtures/$name.sqlite"
    "$modelc" store create --model Models/Library.xcdatamodeld --model-version "$version" \
        --journal-mode delete "Fixtures/$name.sqlite"
    sqlite3 "Fixtures/$name.sqlite" < "Fixtures/$name.sql"
}

make_fixture "Library" Library-v1
make_fixture "Library 2" Library-v2
make_fixture "Library 3" Library-v3
