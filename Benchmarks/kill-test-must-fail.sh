#!/usr/bin/env bash
# Shows that the kill tests can fail: with MODELC_BINARY pointing at a wrapper whose `migrate` exits 1
# without touching the store, each must fail; with the real binary each must pass. The kill tests
# are KillTests (lightweight migrations) and CustomMappingKillTests (migrations through a mapping model).
# Run from the package root after `swift build --build-tests`.
set -uo pipefail
cd "$(dirname "$0")/.."
real="$(swift build --show-bin-path)/modelc"
folder="$(mktemp -d /tmp/modelc-broken-XXXXXX)"
trap 'rm -rf "$folder"' EXIT
# Two broken modelc: 'migrate' ends at once and changes nothing, with status 1 (failing) or 0
# (pretending to succeed); every other command is the real one.
for code in 1 0; do
    mkdir -p "$folder/exit$code"
    cat > "$folder/exit$code/modelc" <<SCRIPT
#!/bin/sh
if [ "\$1" = migrate ]; then echo "migrate: broken on purpose" >&2; exit $code; fi
exec "$real" "\$@"
SCRIPT
    chmod +x "$folder/exit$code/modelc"
done

status=0
for suite in KillTests CustomMappingKillTests; do
    for code in 1 0; do
        wrapper="$folder/exit$code/modelc"
        echo "== $suite with MODELC_BINARY=$wrapper, whose migrate exits $code doing nothing (must fail)"
        if MODELC_BINARY="$wrapper" swift test --skip-build --filter "ModelMigrationTests.$suite/" 2>&1 | tail -15; [ "${PIPESTATUS[0]}" -eq 0 ]; then
            echo "FAIL: $suite passed against a modelc whose migrate does nothing"; status=1
        else
            echo "ok: $suite failed against the broken modelc"
        fi
    done
    echo "== $suite with the built modelc (must pass)"
    if swift test --skip-build --filter "ModelMigrationTests.$suite/" 2>&1 | tail -6; [ "${PIPESTATUS[0]}" -eq 0 ]; then
        echo "ok: $suite passed"
    else
        echo "FAIL: $suite failed against the built modelc"; status=1
    fi
done
exit $status
