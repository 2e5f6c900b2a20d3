#!/usr/bin/python3
"""The agreement test against torchgen: runs the torchgen that this Python imports on every case
of tests/lint/torchgen/{accept,reject}, runs `schemac lint --torch-version X.Y` (X.Y: that
torchgen's PyTorch release) on the same case, and reports every case where the two verdicts
differ. The folders hold torchgen 1.13's verdicts (Debian's python3-torch), which
tests/lint/torchgen_verdicts_test.cpp checks without Python; this script checks any release
whose torchgen is installed, and that the native_functions.yaml packaged with that torchgen (the
release's own file) lints without errors under its own release:

    /usr/bin/python3 tests/lint/torchgen/compare.py build/tools/schemac/schemac
    /path/to/venv-torch-2.4/bin/python tests/lint/torchgen/compare.py build/tools/schemac/schemac
    PYTHONPATH=/src/pytorch-2.6 python3 tests/lint/torchgen/compare.py --release 2.6 build/tools/schemac/schemac

The release is torch.__version__'s, or --release X.Y for a torchgen without an importable torch (a
source checkout of that release on PYTHONPATH, whose aten/src/ATen/native files are then the
release's own).

Exit 0 when every verdict agrees, 1 when one differs, 2 when the release is one schemac does not
know or torchgen cannot be imported.
"""
import glob
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def torchgen_verdict(gen, path, tags):
    gen._GLOBAL_PARSE_NATIVE_YAML_CACHE.clear()
    try:
        gen.get_grouped_native_functions(gen.parse_native_yaml(path, tags).native_functions)
        return "accept", ""
    except BaseException as e:  # torchgen asserts, raises RuntimeError or a YAML error
        return "reject", " ".join(str(e).split())[:160]


def schemac_verdict(schemac, release, path, tags):
    run = subprocess.run([schemac, "lint", "--torch-version", release, "--tags", tags, "--kind", "native", path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"schemac lint failed on {path} (exit {run.returncode}):\n{run.stdout}")
    return "accept" if run.returncode == 0 else "reject", run.stdout


def own_files(gen):
    """The native_functions.yaml and tags.yaml of the release: packaged with an installed
    torchgen, or in the source checkout that holds it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(gen.__file__)))
    for folder in (os.path.join(os.path.dirname(gen.__file__), "packaged", "ATen", "native"),
                   os.path.join(root, "aten", "src", "ATen", "native")):
        if os.path.exists(os.path.join(folder, "native_functions.yaml")):
            return os.path.join(folder, "native_functions.yaml"), os.path.join(folder, "tags.yaml")
    return None, None


def main():
    args = sys.argv[1:]
    release = None
    if len(args) == 3 and args[0] == "--release":
        release, args = args[1], args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    schemac = args[0]
    try:
        import torchgen.gen as gen
        if release is None:
            import torch
            release = ".".join(torch.__version__.split(".")[:2])
    except ImportError as e:
        print(f"compare.py: this Python has no torchgen (or no torch, and no --release): {e}")
        return 2
    known = subprocess.run([schemac, "lint", "--torch-version", release, "--list-tags"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    if not known:
        print(f"compare.py: schemac does not know PyTorch {release}")
        return 2
    tags = os.path.join(here, "tags.yaml")
    paths = sorted(glob.glob(os.path.join(here, "accept", "*.yaml")) + glob.glob(os.path.join(here, "reject", "*.yaml")))
    differ = 0
    for path in paths:
        theirs, why = torchgen_verdict(gen, path, tags)
        ours, output = schemac_verdict(schemac, release, path, tags)
        if theirs != ours:
            differ += 1
            print(f"{os.path.relpath(path, here)}: torchgen {release} says {theirs} {why}; schemac says {ours}")
            if ours == "reject":
                print("    " + output.strip().replace("\n", "\n    "))
    print(f"{len(paths) - differ} of {len(paths)} cases agree with torchgen {release}")
    # The release's own native_functions.yaml, which its torchgen built, lints without errors.
    own, own_tags = own_files(gen)
    if own:
        ours, output = schemac_verdict(schemac, release, own, own_tags)
        if ours != "accept":
            differ += 1
            print(f"torchgen {release}'s own native_functions.yaml: schemac says reject\n    " +
                  output.strip().replace("\n", "\n    ")[:4000])
        else:
            print(f"torchgen {release}'s own native_functions.yaml lints without errors")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
