#!/usr/bin/env python3
"""Turns package-benchmark's markdown output (object-layer.sh) into the side-by-side table of
Benchmarks/README.md: each benchmark's wall-clock minimum and median, its ratio of medians to the
GRDB init(row:) record (or hand-written SQL) and to GRDB's Decodable record, and its allocations.
Usage: object-layer-table.py BENCHMARKS.md"""
import re
import sys

GROUPS = [
    ("fetch 200k", ["fetch 200k · GRDB init(row:) struct", "fetch 200k · GRDB Decodable"]),
    ("shelf fetch 100k books", ["shelf fetch 100k books · GRDB init(row:) + belongsTo key", "shelf fetch 100k books · GRDB Decodable"]),
    ("insert 50k", ["insert 50k · prepared INSERTs + Z_MAX"]),
    ("update 10k", ["update 10k · hand UPDATEs checking Z_OPT"]),
    ("count 200k", ["count 200k · SELECT COUNT(*)"]),
]
UNITS = {"ns": 1e-6, "μs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1e3}


def number(text):
    text = text.strip().replace(",", "")
    scale = 1
    if text and text[-1] in "KMG":
        scale = {"K": 1e3, "M": 1e6, "G": 1e9}[text[-1]]
        text = text[:-1]
    return float(text) * scale


def scale(metric):
    """The factor a metric's title gives its figures: (K) thousands, (M) millions."""
    found = re.search(r"\((K|M|G)\)", metric)
    return {"K": 1e3, "M": 1e6, "G": 1e9}[found.group(1)] if found else 1


def parse(path):
    results, current = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        heading = re.match(r"^#+\s+(.*)$", line)
        if heading:
            name = heading.group(1).strip()
            name = re.sub(r"^.*?:", "", name) if ":" in name and "·" in name.split(":", 1)[1] else name
            name = re.sub(r"\s+metrics$", "", name).strip()
            current = name
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if current is None or len(cells) < 9 or cells[1] == "p0" or set(cells[1]) <= set("-:"):
            continue
        metric = cells[0]
        try:
            p0, p50 = number(cells[1]), number(cells[3])
        except ValueError:
            continue
        entry = results.setdefault(current, {})
        if metric.startswith("Time (wall clock)"):
            unit = re.search(r"\((ns|μs|us|ms|s)\)", metric)
            factor = UNITS[unit.group(1)] if unit else 1.0
            entry["min"], entry["median"], entry["samples"] = p0 * factor, p50 * factor, cells[8]
        elif metric.startswith("Malloc (total)"):
            entry["mallocs"] = p50 * scale(metric)
        elif metric.startswith("Malloc (bytes total)"):
            entry["bytes"] = p50 * scale(metric)
    return results


def main():
    results = parse(sys.argv[1])
    print("| benchmark | min ms | median ms | × init(row:) or SQL | × Decodable | mallocs | malloc MB | runs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for prefix, baselines in GROUPS:
        names = [name for name in results if name.startswith(prefix + " ·")]
        names.sort(key=lambda name: (name not in baselines, baselines.index(name) if name in baselines else 0, name))
        for name in names:
            entry = results[name]
            if "median" not in entry:
                continue
            ratios = []
            for baseline in baselines[:2]:
                base = results.get(baseline, {}).get("median")
                ratios.append(f"{entry['median'] / base:.2f}×" if base else "")
            while len(ratios) < 2:
                ratios.append("")
            mallocs = f"{entry['mallocs']:,.0f}" if "mallocs" in entry else ""
            megabytes = f"{entry['bytes'] / 1e6:,.1f}" if "bytes" in entry else ""
            print(f"| {name} | {entry['min']:.3f} | {entry['median']:.3f} | {ratios[0]} | {ratios[1]} | {mallocs} | {megabytes} | {entry['samples']} |")
    missing = [name for name, entry in results.items() if "median" not in entry]
    if missing:
        print("not parsed: " + ", ".join(missing), file=sys.stderr)


main()
