#!/usr/bin/env bash
# Times a modelc command on a large generated model against `xmllint --noout` on the same
# contents files: whole processes (start-up, reading, parsing, the command's work, exit),
# median of several runs, with hyperfine (or a Python loop when hyperfine cannot be installed).
# validate: one version, goal at most 2x; compile: two versions, goal at most 2.5x.
#
# Usage: Benchmarks/modelc-vs-xmllint.sh validate|compile [--entities N] [--attributes M]
#            [--runs R] [--warmup W] [--no-build] [--enforce] [--python]
#   --enforce   exit 2 when the ratio is above the goal (for CI); otherwise exit 0 once measured.
#   --python    time with the Python loop even when hyperfine is available.
# Works from any current directory. Output goes to Benchmarks/output/ (git-ignored).
set -euo pipefail

entities=2000
attributes=12
runs=15
warmup=3
build=1
enforce=0
timer_choice=auto
command_name="${1:-}"
case "$command_name" in
    validate) goal=2.0; versions=1 ;;
    compile) goal=2.5; versions=2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 validate|compile [options]" >&2; exit 64 ;;
esac
shift

usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --entities) entities="$2"; shift 2 ;;
        --attributes) attributes="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --enforce) enforce=1; shift ;;
        --python) timer_choice=python; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option: $1" >&2; usage >&2; exit 64 ;;
    esac
done

# The package root, from this script's own path.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="Benchmarks/output"
mkdir -p "$work"

# --- Tools ----------------------------------------------------------------------------------
. "$root/Benchmarks/tools.sh"
missing=()
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
[ "$timer_choice" = python ] || command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
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
    --versions "$versions" --name Benchmark --out "$work")"
contents_files=("$bundle/Benchmark.xcdatamodel/contents")
for v in $(seq 2 "$versions"); do
    # Version folders are named "Benchmark 2.xcdatamodel": a link without the space keeps the
    # xmllint command splittable by hyperfine -N.
    ln -sf "$(cd "$bundle" && pwd)/Benchmark $v.xcdatamodel/contents" "$work/contents-$v"
    contents_files+=("$work/contents-$v")
done
size=$(cat "${contents_files[@]}" | wc -c)
if [ "$command_name" = compile ]; then
    modelc_args=(compile "$bundle" -o "$work/compiled")
else
    modelc_args=(validate "$bundle")
fi

# --- Both tools must succeed on the model before timing ------------------------------------
log="$work/modelc-$command_name.log"
if ! "$modelc" "${modelc_args[@]}" >"$log" 2>&1; then
    echo "error: modelc $command_name failed on the generated model:" >&2
    cat "$log" >&2
    exit 1
fi
echo "    modelc: $(tail -n 1 "$log")"
if ! xmllint --noout "${contents_files[@]}"; then
    echo "error: xmllint rejects the generated model" >&2
    exit 1
fi

# --- Timing ---------------------------------------------------------------------------------
json="$work/$command_name-vs-xmllint.json"
# hyperfine -N splits commands on spaces, so the generated paths have none.
modelc_command="$modelc ${modelc_args[*]}"
xmllint_command="xmllint --noout ${contents_files[*]}"

if [ "$timer_choice" != python ] && command -v hyperfine >/dev/null 2>&1; then
    # -N: no intermediate shell, so both figures are the programs alone.
    shell_option=()
    help_text="$(hyperfine --help 2>&1 || true)"
    if [[ "$help_text" == *"--shell"* && "$help_text" == *"-N"* ]]; then shell_option=(-N); fi
    hyperfine "${shell_option[@]}" --warmup "$warmup" --runs "$runs" --export-json "$json" \
        -n "modelc $command_name" "$modelc_command" \
        -n "xmllint --noout" "$xmllint_command"
    timer="hyperfine $(hyperfine --version | awk '{print $2}')"
else
    echo "==> hyperfine unavailable: timing with a Python loop ($warmup warm-up, $runs runs)"
    python3 - "$warmup" "$runs" "$json" "$command_name" "$modelc_command" "$xmllint_command" <<'PY'
import json, statistics, subprocess, sys, time
warmup, runs, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
name, modelc_command, xmllint_command = sys.argv[4:7]
commands = [("modelc " + name, modelc_command.split()),
            ("xmllint --noout", xmllint_command.split())]
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
python3 - "$json" "$goal" "$size" "$entities" "$attributes" "$runs" "$timer" "$command_name" "$versions" <<'PY'
import json, sys
path, goal, size, entities, attributes, runs, timer, name, versions = sys.argv[1:10]
goal = float(goal)
results = {r["command"]: r for r in json.load(open(path))["results"]}
modelc = results["modelc " + name]["median"]
xmllint = results["xmllint --noout"]["median"]
ratio = modelc / xmllint
print()
print(f"model:   {entities} entities x {attributes} attributes, {versions} version(s), contents {int(size):,} bytes")
print(f"timer:   {timer}, median of {runs} runs")
print(f"modelc {name:8s} median {modelc * 1000:8.1f} ms")
print(f"xmllint --noout  median {xmllint * 1000:8.1f} ms")
print(f"ratio            {ratio:8.2f}x  (goal: at most {goal:g}x) -> {'met' if ratio <= goal else 'MISSED'}")
print(f"results: {path}")
sys.exit(0 if ratio <= goal else 2)
PY
status=$?
set -e
if [ "$status" -eq 2 ] && [ "$enforce" -eq 0 ]; then status=0; fi
exit "$status"
