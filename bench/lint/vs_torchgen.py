#!/usr/bin/python3
"""`schemac lint` end to end against torchgen's parse_native_yaml, measured in the same run.

schemac: the whole `schemac lint FILE` process (start, read, YAML, every rule, output), best of
--runs. torchgen: parse_native_yaml(FILE, tags.yaml) in this Python process (its cache cleared
before each run), best of --runs; Python's start and torchgen's import are not counted. torchgen
is the one that `import torchgen` finds (Debian's python3-torch gives 1.13), and it reads its own
packaged native_functions.yaml because 1.13 cannot parse the newest one (DeviceIndex, SymBool).
So two ratios are printed: the same file for both, and schemac on the newest corpus (bigger)
against torchgen on its own file. Run it with /usr/bin/python3 (the interpreter that has torch).
"""
import argparse
import os
import resource
import subprocess
import sys
import time


def best_process(cmd, runs):
    """Best wall time and best CPU time (user + system) of running `cmd`."""
    wall = cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = min(wall, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def best_torchgen(path, tags, runs):
    import torchgen.gen as gen
    wall = cpu = float("inf")
    for _ in range(runs):
        gen._GLOBAL_PARSE_NATIVE_YAML_CACHE.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        gen.parse_native_yaml(path, tags)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemac", default=os.path.join(root, "build/tools/schemac/schemac"))
    parser.add_argument("--corpus", default=os.path.join(root, "tests/data/pytorch/native_functions.yaml"))
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    try:
        import torchgen
    except ImportError:
        print("bench_lint_vs_torchgen: skipped (no torchgen in this Python; run with /usr/bin/python3)")
        return 0
    packaged = os.path.join(os.path.dirname(torchgen.__file__), "packaged/ATen/native")
    tg_yaml, tg_tags = os.path.join(packaged, "native_functions.yaml"), os.path.join(packaged, "tags.yaml")
    version = getattr(torchgen, "__version__", None) or __import__("torch").__version__
    # Best of several runs, torchgen before and after schemac, so that load on the machine
    # affects both alike; CPU time (user + system) is printed too, as it is steadier under load.
    tg = best_torchgen(tg_yaml, tg_tags, args.runs)
    same = best_process([args.schemac, "lint", "--tags", tg_tags, tg_yaml], args.runs)
    corpus = best_process([args.schemac, "lint", args.corpus], args.runs)
    tg = tuple(map(min, tg, best_torchgen(tg_yaml, tg_tags, args.runs)))
    print(f"torchgen {version} parse_native_yaml, its own file:  wall {tg[0] * 1e3:7.1f} ms  cpu {tg[1] * 1e3:7.1f} ms")
    for label, (wall, cpu) in (("schemac lint, the same file:     ", same), ("schemac lint, the newest corpus: ", corpus)):
        print(f"{label}                  wall {wall * 1e3:7.1f} ms  cpu {cpu * 1e3:7.1f} ms"
              f"  ratio wall {tg[0] / wall:5.1f}x  cpu {tg[1] / max(cpu, 1e-4):5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
