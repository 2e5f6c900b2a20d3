#!/usr/bin/python3
"""The agreement test against torchgen: runs the torchgen that this Python imports on every case
of tests/lint/torchgen/{accept,reject}, runs `schemac lint --torch-version X.Y` (X.Y: that
torchgen's PyTorch release) on the same case, and reports every case where the two verdicts
differ. The folders hold torchgen 1.13's verdicts (Debian's python3-torch), which
tests/lint/torchgen_verdicts_test.cpp checks without Python; this script checks any release
whose torchgen is installed, that the native_functions.yaml packaged with that torchgen (the
release's own file) lints without errors under its own release, and mutated copies of that file:
the file with each snippet of tests/lint/torchgen/mutations/ appended. A mutated copy's verdict
is torchgen's, and, where torch of the same release imports, also that of torch._C.parse_schema
on each schema the snippet adds: the build registers every schema at load, and its parser may
refuse what torchgen takes (a ScalarType default written by dtype name before 2.5).

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


def parser_verdict(release, snippet):
    """reject and why when the release's torch._C.parse_schema refuses a func of the snippet;
    None when it takes them all or no torch of that release imports."""
    try:
        import torch
    except ImportError:
        return None
    if ".".join(torch.__version__.split(".")[:2]) != release:
        return None
    for line in snippet.splitlines():
        line = line.strip()
        if line.startswith("- func:"):
            func = line[len("- func:"):].strip()
            try:
                torch._C.parse_schema(func)
            except RuntimeError as e:
                return "reject", f"parse_schema: {' '.join(str(e).split())[:120]}"
    return None


def mutated_copies(gen, schemac, release, own, own_tags):
    """The release's own file with each snippet of mutations/ appended: the number of copies and
    of those whose verdicts differ."""
    import tempfile
    with open(own, encoding="utf-8") as f:
        text = f.read()
    paths = sorted(glob.glob(os.path.join(here, "mutations", "*.yaml")))
    differ = rejected = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            with open(path, encoding="utf-8") as f:
                snippet = f.read()
            copy = os.path.join(tmp, os.path.basename(path))
            with open(copy, "w", encoding="utf-8") as f:
                f.write(text + ("" if text.endswith("\n") else "\n") + "\n" + snippet)
            theirs, why = torchgen_verdict(gen, copy, own_tags)
            if theirs == "accept":
                theirs, why = parser_verdict(release, snippet) or (theirs, why)
            ours, output = schemac_verdict(schemac, release, copy, own_tags)
            rejected += theirs == "reject"
            if theirs != ours:
                differ += 1
                print(f"own file + mutations/{os.path.basename(path)}: torchgen {release} says {theirs} {why}; "
                      f"schemac says {ours}")
                if ours == "reject":
                    print("    " + "\n    ".join(l for l in output.splitlines() if "error:" in l))
    print(f"{len(paths) - differ} of {len(paths)} mutated copies of the own file agree with torchgen {release} "
          f"(it rejects {rejected} of them)")
    return differ


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
    if not own:
        differ += 1
        print(f"torchgen {release}'s own native_functions.yaml is neither packaged with it nor in its checkout")
    else:
        ours, output = schemac_verdict(schemac, release, own, own_tags)
        if ours != "accept":
            differ += 1
            print(f"torchgen {release}'s own native_functions.yaml: schemac says reject\n    " +
                  output.strip().replace("\n", "\n    ")[:4000])
        else:
            print(f"torchgen {release}'s own native_functions.yaml lints without errors")
        differ += mutated_copies(gen, schemac, release, own, own_tags)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
