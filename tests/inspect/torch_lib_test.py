"""The torch helper chosen at run time: `--torch-lib DIR` builds one against the libtorch that
find_package(Torch) finds at DIR (here this Python's torch.utils.cmake_prefix_path, as a user
passes it; its PyTorch is the one this build found, so that the answers can be compared), once,
into the cache ($XDG_CACHE_HOME/schemac/torch-helpers, a temporary folder here), then reuses it;
`--runtime python --torch-lib DIR` loads that one into the Python; `--runtime torch --python EXE`
reads EXE's libtorch, with the helper beside dispatch-inspect when EXE's PyTorch is the one it was
built against (no build then); and `--runtime python` whose helper beside the tool was built
against another PyTorch (a copy of the tool whose helper says so) uses the one built against the
Python's (the same cache entry) instead of refusing.
usage: torch_lib_test.py DISPATCH_INSPECT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import torch
import torch.utils

FAILURES = []


def check(what, ok, detail=""):
    print(("ok " if ok else "FAIL ") + what)
    if not ok:
        FAILURES.append(f"{what}\n{detail}")


def main(tool):
    prefix = torch.utils.cmake_prefix_path
    cache = tempfile.mkdtemp(prefix="inspect_torch_lib_")
    env = dict(os.environ, XDG_CACHE_HOME=cache)

    def run(*args):
        started = time.monotonic()
        done = subprocess.run([tool, *args], capture_output=True, text=True, env=env)
        return done, time.monotonic() - started

    table = ["table", "aten::add.Tensor", "--format", "torch"]
    beside, _ = run(*table, "--runtime", "torch")
    built, first = run(*table, "--runtime", "torch", "--torch-lib", prefix)
    check(f"--torch-lib builds a helper once ({first:.0f} s) and answers as the one beside the tool",
          built.returncode == 0 and "building the torch helper against" in built.stderr
          and built.stdout == beside.stdout and built.stdout, built.stderr[-3000:])
    helpers = os.path.join(cache, "schemac", "torch-helpers")
    folders = os.listdir(helpers) if os.path.isdir(helpers) else []
    check("the helper lands in the cache", len(folders) == 1 and os.path.exists(
        os.path.join(helpers, folders[0], "dispatch-inspect-torch")), str(folders))
    again, second = run(*table, "--runtime", "torch", "--torch-lib", prefix)
    check(f"the second time it is reused ({second:.1f} s)", again.returncode == 0
          and "building" not in again.stderr and again.stdout == beside.stdout, again.stderr)
    check("it says which PyTorch answered", "note: answered by PyTorch " in again.stderr, again.stderr)

    meta, _ = run("resolve", "aten::relu", "--tensor", "meta", "--runtime", "python", "--python",
                  sys.executable, "--torch-lib", prefix, "--format", "json")
    answer = json.loads(meta.stdout or "{}")
    check("--runtime python --torch-lib loads the built helper into the Python",
          meta.returncode == 0 and "building" not in meta.stderr
          and answer.get("runtime", {}).get("torch_version") == torch.__version__
          and answer["chain"][-1]["key"] == "Meta", meta.stdout + meta.stderr)

    same, _ = run("ops", "--runtime", "torch", "--python", sys.executable, "--format", "json")
    check("--runtime torch --python EXE uses the helper beside the tool when EXE's PyTorch is its own",
          same.returncode == 0 and "building" not in same.stderr
          and json.loads(same.stdout)["runtime"]["runtime"] == "torch", same.stderr)

    # A tool whose helper was built against another PyTorch: its Python helper says so quietly,
    # and the tool asks again with the one built against this Python's.
    other = tempfile.mkdtemp(prefix="inspect_other_pytorch_")
    here = os.path.dirname(tool)
    for name in ["dispatch-inspect", "dispatch-inspect-torch", "libdispatch-inspect-torch.so",
                 "dispatch_inspect_python.py", "torch-helper.json"]:
        shutil.copy2(os.path.join(here, name), other)
    with open(os.path.join(other, "libdispatch-inspect-torch.so.json"), "w", encoding="utf-8") as f:
        json.dump({"torch_version": "0.0.1", "libtorch_folder": "/nowhere"}, f)
    copy = os.path.join(other, "dispatch-inspect")
    rebuilt = subprocess.run([copy, "resolve", "aten::relu", "--tensor", "meta", "--runtime", "python",
                              "--python", sys.executable, "--format", "json"], capture_output=True,
                             text=True, env=env)
    check("--runtime python with a helper built against another PyTorch uses one built against the Python's",
          rebuilt.returncode == 0 and json.loads(rebuilt.stdout)["chain"][-1]["key"] == "Meta",
          rebuilt.stdout + rebuilt.stderr)
    refused = subprocess.run([copy, "ops", "--runtime", "python", "--python", sys.executable],
                             capture_output=True, text=True, env=dict(env, XDG_CACHE_HOME=other,
                                                                       PATH="/nonexistent"))
    check("without CMake to build one, it refuses naming both PyTorch versions", refused.returncode == 2
          and "built against PyTorch 0.0.1" in refused.stderr and torch.__version__ in refused.stderr,
          refused.stderr)
    shutil.rmtree(other)
    shutil.rmtree(cache)
    if FAILURES:
        sys.exit("\n\n".join(FAILURES))


if __name__ == "__main__":
    main(sys.argv[1])
