"""`report --runtime torch` (all of libtorch) stays within a memory budget: its peak resident set,
of dispatch-inspect and of its helper dispatch-inspect-torch, each and the two together, is at
most --max-mb (500 MB). The kernel keeps one peak per waited-for process tree (ru_maxrss of
RUSAGE_CHILDREN is the largest process's), so the helper is also run alone on the same request to
know its own peak; the pair's is bounded by the sum of the two.
usage: report_memory_test.py DISPATCH_INSPECT [--max-mb N]"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

# The request report sends for a whole library (report_command.cpp; render_html's page_key_sets).
REQUEST = {"kind": "library", "key_sets": ["CPU", "CPU,ADInplaceOrView,AutogradCPU,AutocastCPU", "CUDA",
                                           "CUDA,ADInplaceOrView,AutogradCUDA,AutocastCUDA"]}


def peak_mb(command, **kwargs):
    """Runs `command` and returns (its exit code, seconds, the peak RSS in MB of the largest
    process of its tree), measured with wait4 so that only this command counts."""
    start = time.monotonic()
    process = subprocess.Popen(command, **kwargs)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, time.monotonic() - start, usage.ru_maxrss / 1024


def main(inspect, max_mb):
    helper = os.path.join(os.path.dirname(inspect), "dispatch-inspect-torch")
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "torch.html")
        code, seconds, largest = peak_mb([inspect, "report", "--runtime", "torch", "-o", page])
        if code != 0:
            sys.exit(f"FAIL: report exited {code}")
        size = os.path.getsize(page)
        with open(os.path.join(tmp, "answer"), "wb") as answer:
            code, _, helper_mb = peak_mb([helper, json.dumps(REQUEST)], stdout=answer)
        if code != 0:
            sys.exit(f"FAIL: {helper} exited {code}")
    # dispatch-inspect's own peak is at most the largest process's, so the pair's is at most this.
    pair_mb = helper_mb + largest
    print(f"report --runtime torch: {seconds:.1f} s, a {size / 1e6:.1f} MB page; peak RSS: "
          f"largest process {largest:.0f} MB, dispatch-inspect-torch alone {helper_mb:.0f} MB, "
          f"the pair at most {pair_mb:.0f} MB (limit {max_mb} MB each and together)")
    failures = [f"{who} {mb:.0f} MB > {max_mb} MB" for who, mb in
                [("largest process", largest), ("helper", helper_mb), ("pair", pair_mb)] if mb > max_mb]
    if failures:
        sys.exit("FAIL: " + "; ".join(failures))
    print("ok")


if __name__ == "__main__":
    args = sys.argv[1:]
    limit = int(args[args.index("--max-mb") + 1]) if "--max-mb" in args else 500
    main(args[0], limit)
