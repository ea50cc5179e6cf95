#!/usr/bin/env python3
"""Times `modelc validate` (and, with --hash, `modelc hash`, `modelc compile` and `modelc store
create`) on inheritance chains: models of N entities, each the parent of the next, each with one
attribute of its own and the last with a to-one relationship whose inverse is declared at the
root. Validation must stay linear in N.

    Benchmarks/inheritance-chain.py --modelc .build/release/modelc 1000 2000 5000 10000 20000
    Benchmarks/inheritance-chain.py --hash --shape relationships 1000 20000

prints a Markdown table: entities, seconds (best of --runs), microseconds per entity. With
--shape relationships each entity has instead one to-many relationship to itself that is its own
inverse (a join table each, so the store can be created at any depth). A chain of attributes
needs one column per entity in the hierarchy's one table, and SQLite allows 2,000: from 1,998
entities on, `store create` is refused (class tooManyColumns), and the column shows the time of
that refusal. The models are written under a temporary folder and removed afterwards.
"""

import argparse
import os
import shutil
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


def chain_model(count, shape="attributes"):
    """The contents of a model whose entities E1 ... E<count> each inherit from the one before."""
    lines = [HEADER]
    for index in range(1, count + 1):
        parent = f' parentEntity="E{index - 1}"' if index > 1 else ""
        lines.append(f'    <entity name="E{index}" representedClassName="E{index}"{parent} syncable="YES">\n')
        if shape == "relationships":
            lines.append(f'        <relationship name="r{index}" optional="YES" toMany="YES" deletionRule="Nullify" '
                         f'destinationEntity="E{index}" inverseName="r{index}" inverseEntity="E{index}"/>\n')
            lines.append("    </entity>\n")
            continue
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


def best_time(command, runs, refusal=None, cleanup=None):
    """The shortest wall-clock time of `runs` runs of `command`, which must exit 0, or fail with
    `refusal` in its output (then the time is that of the refusal); `cleanup` runs after each."""
    best = None
    refused = False
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if cleanup:
            cleanup()
        if result.returncode != 0:
            if refusal is None or refusal not in result.stdout + result.stderr:
                sys.exit(f"{' '.join(command)} exited {result.returncode}: {(result.stdout + result.stderr)[:500]}")
            refused = True
        best = elapsed if best is None else min(best, elapsed)
    return best, refused


def remove(*paths):
    """Removes files and folders that may not exist."""
    for path in paths:
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modelc", default=".build/release/modelc")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hash", action="store_true",
                        help="time `modelc hash`, `modelc compile` and `modelc store create` as well")
    parser.add_argument("--shape", choices=["attributes", "relationships"], default="attributes",
                        help="one attribute per entity (the default) or one many-to-many relationship to itself")
    parser.add_argument("sizes", type=int, nargs="*", default=[1000, 2000, 5000, 10000, 20000])
    options = parser.parse_args()
    columns = ["entities", "validate (s)", "µs per entity"]
    if options.hash:
        columns += ["hash (s)", "µs per entity", "compile (s)", "µs per entity", "store create (s)", "µs per entity"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    with tempfile.TemporaryDirectory(prefix="modelc-chain-") as folder:
        for size in options.sizes:
            version = os.path.join(folder, f"Chain{size}.xcdatamodel")
            os.makedirs(version)
            with open(os.path.join(version, "contents"), "w") as file:
                file.write(chain_model(size, options.shape))
            seconds, _ = best_time([options.modelc, "validate", version], options.runs)
            row = [str(size), f"{seconds:.3f}", f"{seconds / size * 1e6:.1f}"]
            if options.hash:
                seconds, _ = best_time([options.modelc, "hash", version], options.runs)
                row += [f"{seconds:.3f}", f"{seconds / size * 1e6:.1f}"]
                output = os.path.join(folder, "out")
                seconds, _ = best_time([options.modelc, "compile", version, "-o", output], options.runs,
                                       cleanup=lambda: remove(output))
                row += [f"{seconds:.3f}", f"{seconds / size * 1e6:.1f}"]
                store = os.path.join(folder, "Chain.sqlite")
                seconds, refused = best_time(
                    [options.modelc, "store", "create", "--model", version, store], options.runs,
                    refusal="tooManyColumns", cleanup=lambda: remove(store, store + "-wal", store + "-shm"))
                row += [f"{seconds:.3f}" + (" (refused: too many columns)" if refused else ""),
                        f"{seconds / size * 1e6:.1f}"]
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
