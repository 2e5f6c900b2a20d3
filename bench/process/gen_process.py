#!/usr/bin/env python3
"""Whole-process benchmark of `schemac gen` on PyTorch's native_functions.yaml (tests/data/pytorch):
process start to exit, 35 files written into a fresh directory each run. Same-run baselines:
`schemac --version` (starting the process and its shared libraries) and `schemac lint` of the same
file (what gen reads and checks before it emits anything). Prints a Google Benchmark-style JSON
file that bench/report.py reads like the others (binary name: process_gen).

Usage: gen_process.py SCHEMAC OUT_JSON [--repetitions N]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "pytorch",
                      "native_functions.yaml")
EXPECTED_FILES = 35


def timed(argv, check_files_in=None):
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"gen_process.py: {' '.join(argv)} exited with {done.returncode}")
    if check_files_in is not None and len(os.listdir(check_files_in)) != EXPECTED_FILES:
        sys.exit(f"gen_process.py: expected {EXPECTED_FILES} files in {check_files_in}, "
                 f"found {len(os.listdir(check_files_in))}")
    return elapsed * 1e3  # ms


def main():
    args = sys.argv[1:]
    repetitions = 5
    if "--repetitions" in args:
        i = args.index("--repetitions")
        repetitions = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    schemac, out_json = args
    work = tempfile.mkdtemp(prefix="gen_process.")
    results = {"BM_process_version": [], "BM_process_lint_corpus": [], "BM_process_gen_corpus": []}
    try:
        timed([schemac, "--version"])  # warm the page cache once
        timed([schemac, "lint", CORPUS])
        for rep in range(repetitions):  # interleaved, so that load changes hit all three alike
            results["BM_process_version"].append(timed([schemac, "--version"]))
            results["BM_process_lint_corpus"].append(timed([schemac, "lint", CORPUS]))
            out_dir = os.path.join(work, f"gen{rep}")
            results["BM_process_gen_corpus"].append(
                timed([schemac, "gen", CORPUS, "-o", out_dir], check_files_in=out_dir))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    doc = {"context": {"executable": "process_gen"}, "benchmarks": []}
    for name, times in results.items():
        for t in times:
            doc["benchmarks"].append({"name": name, "run_name": name, "run_type": "iteration",
                                      "real_time": t, "cpu_time": t, "time_unit": "ms"})
    with open(out_json, "w") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
