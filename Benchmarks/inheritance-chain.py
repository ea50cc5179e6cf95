#!/usr/bin/env python3
"""Times `modelc validate` (and, with --hash, `modelc hash`) on inheritance chains: models of N
entities, each the parent of the next, each with one attribute of its own and the last with a
to-one relationship whose inverse is declared at the root. Validation must stay linear in N.

    Benchmarks/inheritance-chain.py --modelc .build/release/modelc 1000 2000 5000 10000 20000

prints a Markdown table: entities, seconds (best of --runs), microseconds per entity. The
models are written under a temporary folder and removed afterwards.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

HEADER = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" '
    'lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" '
    'sourceLanguage="Swift" userDefinedModelVersionIdentifier="">\n'
)


def chain_model(count):
    """The contents of a model whose entities E1 ... E<count> each inherit from the one before."""
    lines = [HEADER]
    for index in range(1, count + 1):
        parent = f' parentEntity="E{index - 1}"' if index > 1 else ""
        lines.append(f'    <entity name="E{index}" representedClassName="E{index}"{parent} syncable="YES">\n')
        lines.append(f'        <attribute name="a{index}" optional="YES" attributeType="String"/>\n')
        if index == 1:
            lines.append('        <relationship name="children" optional="YES" toMany="YES" '
                         f'deletionRule="Nullify" destinationEntity="E{count}" inverseName="up" inverseEntity="E{count}"/>\n')
        if index == count:
            lines.append('        <relationship name="up" optional="YES" maxCount="1" '
                         'deletionRule="Nullify" destinationEntity="E1" inverseName="children" inverseEntity="E1"/>\n')
        lines.append("    </entity>\n")
    lines.append("</model>\n")
    return "".join(lines)


def best_time(command, runs):
    """The shortest wall-clock time of `runs` runs of `command`, which must exit 0."""
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"{' '.join(command)} exited {result.returncode}: {result.stderr[:500]}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modelc", default=".build/release/modelc")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hash", action="store_true", help="time `modelc hash` as well")
    parser.add_argument("sizes", type=int, nargs="*", default=[1000, 2000, 5000, 10000, 20000])
    options = parser.parse_args()
    columns = ["entities", "validate (s)", "µs per entity"] + (["hash (s)"] if options.hash else [])
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    with tempfile.TemporaryDirectory(prefix="modelc-chain-") as folder:
        for size in options.sizes:
            version = os.path.join(folder, f"Chain{size}.xcdatamodel")
            os.makedirs(version)
            with open(os.path.join(version, "contents"), "w") as file:
                file.write(chain_model(size))
            seconds = best_time([options.modelc, "validate", version], options.runs)
            row = [str(size), f"{seconds:.3f}", f"{seconds / size * 1e6:.1f}"]
            if options.hash:
                row.append(f"{best_time([options.modelc, 'hash', version], options.runs):.3f}")
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
