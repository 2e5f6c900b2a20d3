#!/usr/bin/env python3
"""Summarises Google Benchmark JSON files: min and median of the repetitions of every benchmark,
and ratios against the baselines measured in the same run (pairs listed in bench/baselines.txt).

A pair line is `BINARY BENCH BASELINE` (both in one binary) or `BINARY BENCH BASELINE_BINARY
BASELINE` (the baseline measured by another program of the same run, e.g. bench_torch). A benchmark
written `A-B` is the difference of two benchmarks' times (e.g. a call less the direct call).

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


def lookup(runs, binary, bench):
    """The entry of `bench` in `binary`; for `A-B`, times of A less B (repetition by repetition)."""
    per = runs.get(binary, {})
    if bench in per:
        return per[bench]
    if "-" in bench:
        first, second = bench.split("-", 1)
        if first in per and second in per:
            # sorted, so that the min is min(A) - min(B) and the median median(A) - median(B)
            pairs = zip(sorted(per[first]["time"]), sorted(per[second]["time"]))
            return {"time": [x - y for x, y in pairs],
                    "bytes": [], "items": []}
    return None


def prefix(binary, base_binary):
    return "" if binary == base_binary else base_binary + ":"


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
                pairs.append((line[0], line[1], line[0], line[2]))
            elif len(line) == 4:
                pairs.append(tuple(line))
    printed_header = False
    for binary, bench, base_binary, base in pairs:
        b = lookup(runs, binary, bench)
        a = lookup(runs, base_binary, base)
        if not a or not b:
            continue
        if not printed_header:
            print("\nratios against baselines from the same run (median; min in brackets)")
            printed_header = True
        if a["bytes"] and b["bytes"]:
            med = statistics.median(b["bytes"]) / statistics.median(a["bytes"])
            best = max(b["bytes"]) / max(a["bytes"])
            print(f"  {bench} / {prefix(binary, base_binary)}{base}: {med:.2f}x the bandwidth [{best:.2f}x]")
        else:
            med = statistics.median(b["time"]) / statistics.median(a["time"])
            best = min(b["time"]) / min(a["time"])
            print(f"  {bench} / {prefix(binary, base_binary)}{base}: {med:.2f}x the time [{best:.2f}x]")


if __name__ == "__main__":
    main()
