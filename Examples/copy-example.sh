# Sourced by an example's check.sh: checks that the example reaches its store through the
# object layer only (no SQL, no Z column or its own table $2 in its sources), then copies it
# (Package.swift and the folders after $2) to a temporary folder, depending on this package by
# absolute path, so that the sources stay as they are. Sets root, scratch (MODELC_EXAMPLE_SCRATCH
# when CI passes the plugin check's, else .build-<$1's folder name>) and example; defines fail.
# Usage: . copy-example.sh NAME TABLE FOLDER...
name=$1 table=$2
shift 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
scratch="${MODELC_EXAMPLE_SCRATCH:-$root/.build-$(echo "$name" | sed 's/\([a-z]\)\([A-Z]\)/\1-\2/g' | tr '[:upper:]' '[:lower:]')}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example="$(cd "$work" && pwd -P)/$name"

fail() { echo "FAIL: $1" >&2; exit 1; }

! grep -rnE "Z_PK|Z_ENT|Z_OPT|$table|SELECT |INSERT |UPDATE |DELETE FROM" "$root/Examples/$name/Sources" \
    || fail "the example's sources hold SQL or Core Data's column names"

mkdir -p "$example" "$scratch"
cp -R "$root/Examples/$name/Package.swift" "${@/#/$root/Examples/$name/}" "$example/"
sed -i "s#path: \"\.\./\.\.\"#path: \"$root\"#" "$example/Package.swift"
grep -q "path: \"$root\"" "$example/Package.swift" || fail "could not point the copy at $root"
