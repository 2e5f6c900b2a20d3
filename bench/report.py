#!/usr/bin/env python3
"""Summarises Google Benchmark JSON files: min and median of the repetitions of every benchmark,
and ratios against the baselines measured in the same run (pairs listed in bench/baselines.txt).

Usage: report.py BASELINES_TXT RESULT.json...
"""
import json
import statistics
import sys


def load_runs(paths):
    """Returns {binary: {benchmark: {"time": [ns...], "bytes": [B/s...], "items": [...]}}}."""
    runs = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        binary = doc["context"]["executable"].rsplit("/", 1)[-1]
        per = runs.setdefault(binary, {})
        for b in doc["benchmarks"]:
            if b.get("run_type") != "iteration":
                continue
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
            entry = per.setdefault(b["run_name"], {"time": [], "bytes": [], "items": []})
            entry["time"].append(b["real_time"] * scale)
            if "bytes_per_second" in b:
                entry["bytes"].append(b["bytes_per_second"])
            if "items_per_second" in b:
                entry["items"].append(b["items_per_second"])
    return runs


def human_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = load_runs(sys.argv[2:])
    for binary, benches in sorted(runs.items()):
        print(f"\n{binary}")
        print(f"  {'benchmark':<48} {'min':>10} {'median':>10} {'GB/s (max/median)':>20}")
        for name, e in benches.items():
            rate = ""
            if e["bytes"]:
                rate = f"{max(e['bytes']) / 1e9:.2f}/{statistics.median(e['bytes']) / 1e9:.2f}"
            print(f"  {name:<48} {human_time(min(e['time'])):>10} "
                  f"{human_time(statistics.median(e['time'])):>10} {rate:>20}")
    pairs = []
    with open(sys.argv[1]) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 3:
                pairs.append(line)
    printed_header = False
    for binary, bench, base in pairs:
        b = runs.get(binary, {}).get(bench)
        a = runs.get(binary, {}).get(base)
        if not a or not b:
            continue
        if not printed_header:
            print("\nratios against baselines from the same run (median; min in brackets)")
            printed_header = True
        if a["bytes"] and b["bytes"]:
            med = statistics.median(b["bytes"]) / statistics.median(a["bytes"])
            best = max(b["bytes"]) / max(a["bytes"])
            print(f"  {bench} / {base}: {med:.2f}x the bandwidth [{best:.2f}x]")
        else:
            med = statistics.median(b["time"]) / statistics.median(a["time"])
            best = min(b["time"]) / min(a["time"])
            print(f"  {bench} / {base}: {med:.2f}x the time [{best:.2f}x]")


if __name__ == "__main__":
    main()
