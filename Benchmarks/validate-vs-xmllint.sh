#!/usr/bin/env bash
# Times `modelc validate` on a large generated model against `xmllint --noout` on the same
# contents file: whole processes (start-up, reading, parsing, validation, exit), median of
# several runs, with hyperfine (or a Python timing loop when hyperfine cannot be installed).
# The goal is modelc at most 2x xmllint. See Benchmarks/README.md.
#
# Usage: Benchmarks/validate-vs-xmllint.sh [--entities N] [--attributes M] [--runs R]
#                                          [--warmup W] [--no-build] [--enforce]
#   --enforce   exit 2 when the ratio is above the goal (for CI); otherwise exit 0 once measured.
# Works from any current directory. Output goes to Benchmarks/work/ (git-ignored).
set -euo pipefail

entities=2000
attributes=12
runs=15
warmup=3
build=1
enforce=0
goal=2.0

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --entities) entities="$2"; shift 2 ;;
        --attributes) attributes="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --enforce) enforce=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option: $1" >&2; usage >&2; exit 64 ;;
    esac
done

# The package root, from this script's own path.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="Benchmarks/work"
mkdir -p "$work"

# --- Tools ----------------------------------------------------------------------------------
updated=0
install_packages() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || return 1
        sudo="sudo"
    fi
    command -v apt-get >/dev/null 2>&1 || return 1
    if [ "$updated" -eq 0 ]; then
        $sudo apt-get update -qq || return 1
        updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}

missing=()
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
if [ ${#missing[@]} -gt 0 ]; then
    echo "==> Installing ${missing[*]}"
    install_packages "${missing[@]}" || echo "warning: could not install ${missing[*]}" >&2
fi
if ! command -v xmllint >/dev/null 2>&1; then
    echo "error: xmllint is missing (Debian package libxml2-utils)" >&2
    exit 1
fi

# --- Build and generate ---------------------------------------------------------------------
if [ "$build" -eq 1 ]; then
    echo "==> swift build -c release --product modelc"
    swift build -c release --product modelc
fi
modelc=".build/release/modelc"
if [ ! -x "$modelc" ]; then
    echo "error: $modelc not found; run without --no-build" >&2
    exit 1
fi

echo "==> Generating $entities entities x $attributes attributes into $work"
bundle="$(python3 Benchmarks/generate-model.py --entities "$entities" --attributes "$attributes" \
    --versions 1 --name Benchmark --out "$work")"
contents="$bundle/Benchmark.xcdatamodel/contents"
size=$(wc -c <"$contents")

# --- Both tools must succeed on the model before timing ------------------------------------
if ! "$modelc" validate "$bundle" >"$work/modelc-validate.log" 2>&1; then
    echo "error: modelc validate failed on the generated model:" >&2
    cat "$work/modelc-validate.log" >&2
    exit 1
fi
echo "    modelc: $(tail -n 1 "$work/modelc-validate.log")"
if ! xmllint --noout "$contents"; then
    echo "error: xmllint rejects the generated model" >&2
    exit 1
fi

# --- Timing ---------------------------------------------------------------------------------
json="$work/validate-vs-xmllint.json"
modelc_command="$modelc validate $bundle"
xmllint_command="xmllint --noout $contents"

if command -v hyperfine >/dev/null 2>&1; then
    # -N: no intermediate shell, so both figures are the programs alone.
    shell_option=()
    help_text="$(hyperfine --help 2>&1 || true)"
    if [[ "$help_text" == *"--shell"* && "$help_text" == *"-N"* ]]; then shell_option=(-N); fi
    hyperfine "${shell_option[@]}" --warmup "$warmup" --runs "$runs" --export-json "$json" \
        -n "modelc validate" "$modelc_command" \
        -n "xmllint --noout" "$xmllint_command"
    timer="hyperfine $(hyperfine --version | awk '{print $2}')"
else
    echo "==> hyperfine unavailable: timing with a Python loop ($warmup warm-up, $runs runs)"
    python3 - "$warmup" "$runs" "$json" "$modelc" "$bundle" "$contents" <<'PY'
import json, statistics, subprocess, sys, time
warmup, runs, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
modelc, bundle, contents = sys.argv[4:7]
commands = [("modelc validate", [modelc, "validate", bundle]),
            ("xmllint --noout", ["xmllint", "--noout", contents])]
results = []
for name, argv in commands:
    times = []
    for i in range(warmup + runs):
        start = time.perf_counter()
        code = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        elapsed = time.perf_counter() - start
        if code != 0:
            sys.exit(f"{name} exited {code}")
        if i >= warmup:
            times.append(elapsed)
    results.append({"command": name, "median": statistics.median(times), "mean": statistics.mean(times),
                    "min": min(times), "max": max(times), "times": times})
    print(f"{name}: median {statistics.median(times) * 1000:.1f} ms "
          f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}, {runs} runs)")
with open(out, "w") as file:
    json.dump({"results": results}, file, indent=2)
PY
    timer="python loop"
fi

# --- Report ---------------------------------------------------------------------------------
set +e
python3 - "$json" "$goal" "$size" "$entities" "$attributes" "$runs" "$timer" <<'PY'
import json, sys
path, goal, size, entities, attributes, runs, timer = sys.argv[1:8]
goal = float(goal)
results = {r["command"]: r for r in json.load(open(path))["results"]}
modelc = results["modelc validate"]["median"]
xmllint = results["xmllint --noout"]["median"]
ratio = modelc / xmllint
print()
print(f"model:   {entities} entities x {attributes} attributes, contents {int(size):,} bytes")
print(f"timer:   {timer}, median of {runs} runs")
print(f"modelc validate  median {modelc * 1000:8.1f} ms")
print(f"xmllint --noout  median {xmllint * 1000:8.1f} ms")
print(f"ratio            {ratio:8.2f}x  (goal: at most {goal:g}x) -> {'met' if ratio <= goal else 'MISSED'}")
print(f"results: {path}")
sys.exit(0 if ratio <= goal else 2)
PY
status=$?
set -e
if [ "$status" -eq 2 ] && [ "$enforce" -eq 0 ]; then status=0; fi
exit "$status"
