#!/usr/bin/python3
"""Custom ops inferred by schemac against the real torch.library.custom_op: every Python file of
the project's custom-op corpus (tests/custom_op_inference/corpus/, tests/sources/data/ and
fuzz/corpus/source_scanner/) is run, one top-level statement at a time, by the torch that this
Python imports, and read by `schemac parse --source` and `schemac lint` under that torch's
release (a .schemac.yaml with its torch-version beside a copy of the file). For every op that
custom_op (or triton_op) registered with an inferred schema, schemac must give that schema byte
for byte (the name, then infer_schema's text); for every op whose custom_op raised inside torch,
schemac must report custom-op-schema for it; and schemac refuses none that custom_op registered.

    python3 tests/custom_op_inference/agree_with_torch.py build/tools/schemac/schemac

Exit 0 when all agree, 1 when one differs, 2 when this Python's torch has no
torch.library.custom_op (PyTorch 1.13 has none: CMake defines the test only where it has).
"""
import ast
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
CUSTOM_OP_CALLS = ("custom_op", "triton_op")


def corpus_files():
    files = sorted(glob.glob(os.path.join(here, "corpus", "*.py")))
    for pattern in ("tests/sources/data/**/*.py", "fuzz/corpus/source_scanner/*.py"):
        for path in sorted(glob.glob(os.path.join(root, pattern), recursive=True)):
            with open(path, encoding="utf-8", errors="replace") as f:
                if any(call in f.read() for call in CUSTOM_OP_CALLS):
                    files.append(path)
    return files


def op_of_statement(statement):
    """The op name a statement's custom_op/triton_op call (decorator or call) names, or None."""
    for node in ast.walk(statement):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in CUSTOM_OP_CALLS and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            return node.args[0].value
    return None


def run_in_torch(path):
    """Child: runs `path` statement by statement; prints what custom_op registered and refused."""
    import torch
    import torch._library.custom_ops as custom_ops
    registered = {}  # "ns::name" -> schema text infer_schema gave (None when schema= was given)
    inferred = []
    real_infer = torch.library.infer_schema

    def infer_schema(*args, **kwargs):
        text = real_infer(*args, **kwargs)
        inferred.append(text)
        return text

    torch.library.infer_schema = infer_schema
    real_init = custom_ops.CustomOpDef.__init__

    def init(self, namespace, name, schema, fn, *args, **kwargs):
        real_init(self, namespace, name, schema, fn, *args, **kwargs)
        registered[f"{namespace}::{name}"] = schema if inferred and inferred[-1] is schema else None

    custom_ops.CustomOpDef.__init__ = init
    sys.path[:0] = [os.path.dirname(path), os.path.join(root, "tests", "sources", "data", "helpers")]
    with open(path, encoding="utf-8") as f:
        module = ast.parse(f.read(), path)
    scope = {"__name__": "__corpus__", "__file__": path}
    refused = {}  # "ns::name" -> why torch refused it
    for statement in module.body:
        try:
            exec(compile(ast.Module([statement], []), path, "exec"), scope)
        except Exception as e:  # a refusal inside torch, or the file's own missing names
            op = op_of_statement(statement)
            frames = traceback.extract_tb(e.__traceback__)
            if op and any(f"{os.sep}torch{os.sep}" in frame.filename for frame in frames):
                refused[op] = f"{type(e).__name__}: {' '.join(str(e).split())[:200]}"
    print(json.dumps({"registered": registered, "refused": refused}))


def schemac_view(schemac, path, release):
    """What schemac infers for `path` under `release`: {op: schema} and {op: message} of the
    custom-op-schema errors."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copy(path, copy)
        config = ""
        folder = os.path.dirname(path)
        while folder.startswith(root):
            candidate = os.path.join(folder, ".schemac.yaml")
            if os.path.exists(candidate):
                with open(candidate, encoding="utf-8") as f:
                    config = f.read()
                break
            folder = os.path.dirname(folder)
        with open(os.path.join(tmp, ".schemac.yaml"), "w", encoding="utf-8") as f:
            f.write(config + ("" if not config or config.endswith("\n") else "\n") +
                    f"torch-version: '{release}'\n")
        parsed = subprocess.run([schemac, "parse", "--source", copy, "--json"], cwd=tmp,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        schemas = {}
        for line in parsed.stdout.splitlines():
            entry = json.loads(line)
            text = entry.get("canonical", "")
            if "(" in text:
                schemas[text[:text.index("(")]] = text
        linted = subprocess.run([schemac, "lint", "--torch-version", release, "--format", "json", copy],
                                cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        refused = {}
        for d in json.loads(linted.stdout or "[]"):
            if d.get("rule") == "custom-op-schema":
                message = d.get("message", "")
                if message.startswith("custom op '"):
                    refused.setdefault(message[len("custom op '"):].split("'")[0], message)
        return schemas, refused


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--run":
        run_in_torch(sys.argv[2])
        return 0
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    schemac = sys.argv[1]
    try:
        import torch
        torch.library.custom_op  # noqa: B018
    except (ImportError, AttributeError) as e:
        print(f"agree_with_torch.py: this Python's torch has no torch.library.custom_op: {e}")
        return 2
    release = ".".join(torch.__version__.split(".")[:2])
    differ = compared = 0
    for path in corpus_files():
        child = subprocess.run([sys.executable, __file__, "--run", path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        if child.returncode != 0 or not child.stdout.strip():
            print(f"{path}: running it in torch failed:\n{child.stderr[-2000:]}")
            differ += 1
            continue
        theirs = json.loads(child.stdout.strip().splitlines()[-1])
        schemas, refused = schemac_view(schemac, path, release)
        name = os.path.relpath(path, root)
        for op, schema in theirs["registered"].items():
            if schema is None:
                continue  # schema= given: nothing inferred
            compared += 1
            ours = schemas.get(op)
            if ours != op + schema:
                differ += 1
                print(f"{name}: {op}: torch {release} infers '{op}{schema}', schemac "
                      + (f"'{ours}'" if ours else f"nothing ({refused.get(op, 'no finding')})"))
        for op, why in theirs["refused"].items():
            compared += 1
            if op not in refused:
                differ += 1
                print(f"{name}: {op}: torch {release} refuses it ({why}); schemac "
                      + (f"infers '{schemas[op]}'" if op in schemas else "reports no custom-op-schema error"))
        for op, message in refused.items():
            if op not in theirs["refused"] and op in theirs["registered"]:
                differ += 1
                print(f"{name}: {op}: torch {release} registers it; schemac refuses it: {message}")
    print(f"{compared - differ} of {compared} custom ops agree with torch {release}'s custom_op")
    if compared == 0:
        print("agree_with_torch.py: no custom op of the corpus was registered or refused")
        return 1
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
