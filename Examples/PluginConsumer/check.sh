#!/usr/bin/env bash
# Checks modelc's build plugin end to end with real builds of this example: a clean build puts
# Notes.momd in the resource bundle with the hashes `modelc hash` gives; a build with no change
# compiles nothing (once SwiftPM is done rebuilding the plugin's tool); an edit recompiles and
# shows the model's warning; a broken model fails the build at its file and line. Works on a
# copy of the example that depends on this package by absolute path, so the sources stay as
# they are; builds in .build-plugin-consumer, kept for inspection with each build's log.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd -P)
scratch="$root/.build-plugin-consumer"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example="$(cd "$work" && pwd -P)/PluginConsumer"
model="$example/Sources/NotesModel/Notes.xcdatamodeld"
current="$model/Notes 2.xcdatamodel/contents"
compile_step="Compiling Core Data model Notes.xcdatamodeld"

step() { printf '\n== %s (%ds so far)\n' "$1" "$SECONDS"; }
fail() { echo "FAIL: $1" >&2; exit 1; }

# Builds the copy; the log goes to $work/build.log and $scratch/check-N.log, the status to $status.
build() {
    builds=$((${builds:-0} + 1))
    status=0
    swift build --package-path "$example" --scratch-path "$scratch" >"$work/build.log" 2>&1 || status=$?
    cp "$work/build.log" "$scratch/check-$builds.log"
    grep -E '^Build complete|error: ' "$work/build.log" | tail -1 || true
}

# The modelc the plugin ran: SwiftPM 6 names a plugin's tool with a -tool suffix.
modelc() {
    local tool
    for tool in "$scratch/debug/modelc-tool" "$scratch/debug/modelc"; do
        [ -x "$tool" ] && { "$tool" "$@"; return; }
    done
    fail "no modelc in $scratch/debug"
}

# The hashes the example reads from its bundle must be those modelc computes from the source.
expect_same_hashes() {
    "$scratch/debug/notes-hashes" >"$work/bundle.txt"
    modelc hash "$model" >"$work/source.txt"
    diff -u "$work/source.txt" "$work/bundle.txt" || fail "bundle hashes differ from 'modelc hash' ($1)"
}

step "copy the example to $example, depending on $root"
mkdir -p "$example"
cp -R "$root/Examples/PluginConsumer/Package.swift" "$root/Examples/PluginConsumer/Sources" "$example/"
sed -i "s#path: \"\.\./\.\.\"#path: \"$root\"#" "$example/Package.swift"
grep -q "path: \"$root\"" "$example/Package.swift" || fail "could not point the copy at $root"
rm -rf "$scratch"

step "clean build"
build
[ "$status" -eq 0 ] || { cat "$work/build.log"; fail "clean build failed"; }
grep -qF "$compile_step" "$work/build.log" || fail "clean build did not compile the model"
# NotesModel does not depend on ModelObjects, so its entities' classes are not generated.
! grep -qF "Generating classes of Core Data model" "$work/build.log" || fail "classes were generated for a target without ModelObjects"
expect_same_hashes "clean build"
cat "$work/bundle.txt"
cp "$work/bundle.txt" "$work/original.txt"

step "second build, no change"
# SwiftPM 6.3 keeps two build databases, one for plugin tools and one for the build, and each
# redoes the tool's link (and its C objects) once after the other has built them; a command
# whose tool was relinked runs again. So this build may compile the model, but only then.
# Seen in session 6 (Swift 6.3.1): both databases hold the commands that make modelc-tool, and
# the first no-change build redoes in each what the other one wrote: the debug wrapping of every
# Swift module's AST ("Wrapping AST for … for debugging"), the copies of dependencies' resources,
# then the link; no Swift file of modelc is compiled again. No dependency change avoids it.
build
[ "$status" -eq 0 ] || { cat "$work/build.log"; fail "second build failed"; }
if grep -qF "$compile_step" "$work/build.log"; then
    grep -qF "Linking modelc" "$work/build.log" || fail "the model was compiled again though modelc was not rebuilt"
    ! grep -qE "Compiling (Model[A-Za-z]*|modelc) [^ ]+\.swift" "$work/build.log" || fail "a build with no change compiled modelc's Swift sources"
    echo "SwiftPM relinked modelc, so the model was compiled again"
else
    echo "no compile"
fi

step "third build, no change"
build
[ "$status" -eq 0 ] || { cat "$work/build.log"; fail "third build failed"; }
! grep -qF "$compile_step" "$work/build.log" || fail "a build with no change compiled the model again"
! grep -qF "Linking modelc" "$work/build.log" || fail "a build with no change relinked modelc"
echo "no compile: ok"

step "fourth build, no change"
build
[ "$status" -eq 0 ] || { cat "$work/build.log"; fail "fourth build failed"; }
! grep -qF "$compile_step" "$work/build.log" || fail "a second build with no change compiled the model again"
! grep -qF "Linking modelc" "$work/build.log" || fail "a second build with no change relinked modelc"
echo "no compile: ok"

step "edit the current version: a relationship without inverse"
cp "$current" "$work/contents.orig"
sed -i '/<entity name="Tag"/a\        <relationship name="featured" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note"/>' "$current"
line=$(grep -n 'name="featured"' "$current" | cut -d: -f1)
build
[ "$status" -eq 0 ] || { cat "$work/build.log"; fail "a warning failed the build"; }
grep -qF "$compile_step" "$work/build.log" || fail "editing contents did not recompile"
grep -F "$current:$line:9: warning:" "$work/build.log" || fail "no warning at $current:$line:9"
expect_same_hashes "after the edit"
! cmp -s "$work/original.txt" "$work/bundle.txt" || fail "the bundle still holds the old model"
echo "recompiled, new hashes: ok"

step "break the current version: an unknown destination entity"
cp "$work/contents.orig" "$current"
sed -i 's/destinationEntity="Folder" inverseName="notes"/destinationEntity="Folders" inverseName="notes"/' "$current"
line=$(grep -n 'destinationEntity="Folders"' "$current" | cut -d: -f1)
build
[ "$status" -ne 0 ] || fail "a broken model did not fail the build"
grep -F "$current:$line:9: error:" "$work/build.log" || { cat "$work/build.log"; fail "no error at $current:$line:9"; }
echo "build failed (status $status) at the model's line: ok"

step "a transient inverse: refused, then allowed by the target's modelc.options"
cp "$work/contents.orig" "$current"
sed -i 's/<relationship name="folder" optional="YES" maxCount="1"/<relationship name="folder" optional="YES" transient="YES" maxCount="1"/' "$current"
build
[ "$status" -ne 0 ] || fail "a relationship with a transient inverse did not fail the build"
grep -F "$current:" "$work/build.log" | grep -F "[S110]" || { cat "$work/build.log"; fail "no S110 in $current"; }
# Xcode's MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR; left out of 'exclude:' so the manifest is
# unchanged (SwiftPM warns of the unhandled file).
options="$example/Sources/NotesModel/modelc.options"
printf '# as MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR\n--suppress-inverse-transient-error\n' >"$options"
build
[ "$status" -eq 0 ] || { cat "$work/build.log"; fail "modelc.options did not allow the transient inverse"; }
grep -qF "$compile_step" "$work/build.log" || fail "adding modelc.options did not recompile"
! grep -F "[S110]" "$work/build.log" || fail "S110 reported despite modelc.options"
rm "$options"
echo "built with --suppress-inverse-transient-error from modelc.options: ok"

# One build for both, as each change of the target's files costs a rebuild of the plugin's tool.
step "restore the model, and add a mapping model, which compiles into the bundle"
cp "$work/contents.orig" "$current"
mapping="$root/../shared/corpus/alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel"
if [ -d "$mapping" ]; then
    cp -R "$mapping" "$example/Sources/NotesModel/"
    sed -i 's/exclude: \["Notes.xcdatamodeld"\]/exclude: ["Notes.xcdatamodeld", "V2toV3.xcmappingmodel"]/' "$example/Package.swift"
fi
build
[ "$status" -eq 0 ] || { cat "$work/build.log"; fail "build after restoring failed"; }
grep -qF "$compile_step" "$work/build.log" || fail "restoring contents did not recompile"
expect_same_hashes "after restoring"
cmp -s "$work/original.txt" "$work/bundle.txt" || fail "restored model has other hashes than the original"
echo "original hashes back: ok"
if [ -d "$mapping" ]; then
    grep -qF "Compiling Core Data model V2toV3.xcmappingmodel" "$work/build.log" || fail "the mapping model was not compiled"
    bundled=$(find -L "$scratch/debug" -path '*.resources/V2toV3.cdm' -o -path '*.bundle/V2toV3.cdm' | head -1)
    [ -n "$bundled" ] || fail "no V2toV3.cdm in the resource bundle"
    modelc compile "$example/Sources/NotesModel/V2toV3.xcmappingmodel" -o "$work/cdm" >/dev/null
    cmp -s "$bundled" "$work/cdm/V2toV3.cdm" || fail "the bundled .cdm differs from 'modelc compile'"
    echo "V2toV3.cdm in the bundle: ok"
else
    echo "corpus absent: mapping-model step skipped"
fi

printf '\nplugin check passed in %ds\n' "$SECONDS"
