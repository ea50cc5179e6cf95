#!/usr/bin/env bash
# Shows that KillTests can fail: with MODELC_BINARY pointing at a wrapper whose `migrate` exits 1
# without touching the store, the test must fail; with the real binary it must pass.
# Run from the package root after `swift build --build-tests`.
set -uo pipefail
cd "$(dirname "$0")/.."
real="$(swift build --show-bin-path)/modelc"
wrapper="$(mktemp -d /tmp/modelc-broken-XXXXXX)/modelc"
trap 'rm -rf "$(dirname "$wrapper")"' EXIT
cat > "$wrapper" <<SCRIPT
#!/bin/sh
# A broken modelc: 'migrate' fails at once and changes nothing; every other command is the real one.
if [ "\$1" = migrate ]; then echo "migrate: broken on purpose" >&2; exit 1; fi
exec "$real" "\$@"
SCRIPT
chmod +x "$wrapper"

status=0
echo "== KillTests with MODELC_BINARY=$wrapper (must fail)"
if MODELC_BINARY="$wrapper" swift test --skip-build --filter KillTests 2>&1 | tail -15; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    echo "FAIL: KillTests passed against a modelc whose migrate does nothing"; status=1
else
    echo "ok: KillTests failed against the broken modelc"
fi
echo "== KillTests with the built modelc (must pass)"
if swift test --skip-build --filter KillTests 2>&1 | tail -6; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    echo "ok: KillTests passed"
else
    echo "FAIL: KillTests failed against the built modelc"; status=1
fi
exit $status
