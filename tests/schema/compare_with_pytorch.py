#!/usr/bin/env python3
"""Compares `schemac parse --json` with PyTorch's own schema parser (torch._C.parse_schema).

Usage: compare_with_pytorch.py --schemac PATH [--verdicts] FILE...

Each FILE is a native_functions.yaml (its `- func:` entries) or a text file with one schema per
line (blank lines and lines starting with `#` are skipped). For every schema both parsers accept,
the structure must be equal: operator name and overload, and for every argument and return its
name, type (as a tree of PyTorch's type kinds), whether it has a default, whether it is
keyword-only, and its alias annotation (before set, after set, write flag); is_vararg and
is_varret where this PyTorch exposes them. Types are compared as trees, not as text: PyTorch
1.13 prints types lossily (ScalarType as int, Dimname as str).

Verdicts (accepted or not) must agree too, except on the deliberate deviations listed in
docs/schema-language.md (custom classes PyTorch has not registered). schemac's parser reads every
form some release reads: where this torch's release refuses one (Dimname from 2.13), `schemac lint
--torch-version` of that release must report it (schema-release). Schemas are parsed as a
library's def() parses them where schemac refuses one that a newer parse_schema takes only as a
type variable (`a.b`: def() refuses it). With --verdicts, a file's
verdict disagreements are only counted and reported, not failures (for edge-case collections).

Exit 0 when everything agrees, 1 otherwise. Needs a python with torch (Debian's python3-torch).
"""
import argparse
import json
import os
import re
import subprocess
import sys

import torch  # noqa: E402 - Debian's python3-torch (PyTorch 1.13) or newer

# What each leaf type of the schema language is in PyTorch's type system, by its "fake" type
# (the one FunctionSchema arguments report): ScalarType, Layout, MemoryFormat and SymInt are int.
LEAF_KINDS = {
    "Tensor": "TensorType", "int": "IntType", "SymInt": "IntType", "ScalarType": "IntType",
    "Layout": "IntType", "MemoryFormat": "IntType", "DeviceIndex": "IntType",
    "ConstQuantizerPtr": "IntType", "float": "FloatType", "bool": "BoolType",
    "str": "StringType", "Dimname": "StringType", "Scalar": "NumberType",
    "complex": "ComplexType", "Device": "DeviceObjType", "Generator": "GeneratorType",
    "Storage": "StorageType", "Stream": "StreamObjType", "QScheme": "QSchemeType",
    "None": "NoneType", "NoneType": "NoneType", "Any": "AnyType", "Capsule": "CapsuleType",
    "Quantizer": "QuantizerType", "AnyClassType": "AnyClassType",
    "AnyEnumType": "AnyEnumType", "SymBool": "SymBoolType",
}
CONTAINERS = {"Dict": "DictType", "Union": "UnionType", "Future": "FutureType",
              "RRef": "RRefType", "Await": "AwaitType"}


def torch_type_tree(t):
    kind = t.kind()
    if kind == "VarType":
        return ("VarType", str(t))
    if kind == "ClassType":
        return ("ClassType", str(t))
    return (kind,) + tuple(torch_type_tree(c) for c in t.containedTypes())


class TypeText:
    """Reads the canonical type text `schemac parse --json` prints into a PyTorch type tree."""

    def __init__(self, text):
        self.text = text
        self.pos = 0

    def peek(self, s):
        return self.text.startswith(s, self.pos)

    def skip_blanks(self):
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def alias(self):
        # `(a!)`, `(a -> b)`, `!`: skipped, the JSON's alias field carries them.
        if self.peek("!"):
            self.pos += 1
        elif self.peek("(") and re.match(r"\((?:[A-Za-z_*$][\w$]*|\*)(?:\|[\w*$]+)*!?( -> [\w*|$]*)?\)",
                                         self.text[self.pos:]):
            self.pos = self.text.index(")", self.pos) + 1

    def type(self):
        if self.peek("("):
            self.pos += 1
            items = []
            while not self.peek(")"):
                items.append(self.type())
                self.skip_blanks()
                if self.peek(","):
                    self.pos += 1
                    self.skip_blanks()
            self.pos += 1
            node = ("TupleType",) + tuple(items)
        else:
            m = re.compile(r"[A-Za-z_][\w.]*").match(self.text, self.pos)
            name = m.group(0)
            self.pos = m.end()
            if name in CONTAINERS and self.peek("("):
                self.pos += 1
                items = []
                while not self.peek(")"):
                    items.append(self.type())
                    self.skip_blanks()
                    if self.peek(","):
                        self.pos += 1
                        self.skip_blanks()
                self.pos += 1
                node = (CONTAINERS[name],) + tuple(items)
                if name == "Union":
                    node = normalize_union(node)
            elif name in LEAF_KINDS:
                node = (LEAF_KINDS[name],)
            elif name.startswith("__torch__."):
                node = ("ClassType", name)
            else:
                node = ("VarType", name)
            self.alias()
        while True:
            if self.peek("?"):
                self.pos += 1
                # PyTorch's Optional of an Optional is the Optional itself (`int??`).
                node = node if node[0] == "OptionalType" else ("OptionalType", node)
            elif self.peek("["):
                self.pos = self.text.index("]", self.pos) + 1
                node = ("ListType", node)
                self.alias()
            else:
                return node


def normalize_union(node):
    # PyTorch makes `Union(T, None)` an Optional[T], and flattens nothing else here.
    members = [m for m in node[1:]]
    if len(members) == 2 and ("NoneType",) in members:
        other = members[0] if members[1] == ("NoneType",) else members[1]
        return ("OptionalType", other)
    return node


def our_type_tree(text):
    return TypeText(text).type()


def torch_alias(a):
    info = a.alias_info
    if info is None:
        return None
    return (sorted(info.before_set), sorted(info.after_set), bool(info.is_write))


def our_alias(alias):
    if alias is None:
        return None
    return (sorted(set(alias["before"])), sorted(set(alias["after"])), alias["write"])


def torch_structure(schema):
    f = torch._C.parse_schema(schema)
    entries = lambda xs, is_return: [
        (a.name, torch_type_tree(a.type), False if is_return else has_default(a), a.kwarg_only,
         torch_alias(a)) for a in xs]
    out = {"name": f.name, "overload": f.overload_name,
           "arguments": entries(f.arguments, False), "returns": entries(f.returns, True)}
    if hasattr(f, "is_vararg"):
        out["is_vararg"] = f.is_vararg
        out["is_varret"] = f.is_varret
    return out


def has_default(a):
    if hasattr(a, "has_default_value"):
        return a.has_default_value()
    return a.default_value is not None


def our_structure(parsed, with_varargs):
    s = parsed["schema"]
    entries = lambda xs, is_return: [
        (a["name"], our_type_tree(a["type"]), (not is_return) and a["default"] is not None,
         a["kwarg_only"], our_alias(a["alias"])) for a in xs]
    out = {"name": s["name"], "overload": s["overload"],
           "arguments": entries(s["arguments"], False), "returns": entries(s["returns"], True)}
    if with_varargs:
        out["is_vararg"] = s["is_vararg"]
        out["is_varret"] = s["is_varret"]
    return out


def refused_by_def(schema):
    """Whether parse_schema refuses the schema as a library's def() parses it: newer releases take
    allow_typevars, True by default, which reads any unknown name (`a.b`) as a type variable;
    def() passes False. None where this release has no such parameter (1.13)."""
    try:
        torch._C.parse_schema(schema, allow_typevars=False)
        return False
    except TypeError:
        return None
    except RuntimeError:
        return True


def torch_result(schema):
    try:
        return {"ok": True, "structure": torch_structure(schema), "refused_by_def": refused_by_def(schema)}
    except BaseException as e:  # noqa: BLE001 - any failure is a rejection
        return {"ok": False, "error": (str(e).strip().splitlines() or [type(e).__name__])[0]}


def worker():
    """Parses one schema per stdin line with PyTorch, one JSON result per stdout line."""
    for line in sys.stdin:
        print(json.dumps(torch_result(line.rstrip("\n")), default=list), flush=True)


class TorchParser:
    """PyTorch 1.13 aborts the process on some schemas (a default before a non-default argument),
    so it parses in a worker process that is started again when it dies."""

    def __init__(self):
        self.process = None

    def parse(self, schema):
        if self.process is None:
            self.process = subprocess.Popen([sys.executable, __file__, "--worker"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True)
        self.process.stdin.write(schema.replace("\n", " ") + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            self.process = None
            return {"ok": False, "error": "PyTorch aborted"}
        return json.loads(line)


# Where torch 1.13 (Debian's python3-torch) rejects what current PyTorch accepts or the other way
# round; current PyTorch is the reference, so these verdicts are not compared.
NEWER_PYTORCH = re.compile(
    r"\b(DeviceIndex|SymBool|Await|double|int64_t)\b|ScalarType\??(\[\d*\])? \w+=(?!float\b|long\b|complex\b|None\b|-?\d)")


def read_schemas(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith((".yaml", ".yml")):
        return [m.group(1).strip() for m in re.finditer(r"^- func: (.*)$", text, re.M)]
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def is_deviation(schema, theirs):
    # Deliberate: custom classes are accepted without being registered.
    if "__torch__.torch.classes." in schema and not theirs["ok"]:
        return True
    return NEWER_PYTORCH.search(schema) is not None


RELEASE = ".".join(torch.__version__.split(".")[:2])


def refused_by_release(schemac, schema):
    """Whether `schemac lint --torch-version RELEASE` reports schema-release on the schema: a form
    the schema parser reads (for some release) that this torch's release does not."""
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", encoding="utf-8") as f:
        f.write(f"- func: {json.dumps(schema)}\n")
        f.flush()
        run = subprocess.run([schemac, "lint", "--torch-version", RELEASE, "--format", "json", f.name],
                             capture_output=True, text=True)
    return any(d.get("rule") == "schema-release" for d in json.loads(run.stdout or "[]"))


def compare_file(path, schemac, verdicts_only, torch_parser):
    schemas = read_schemas(path)
    run = subprocess.run([schemac, "parse", "--json"], input="\n".join(schemas) + "\n",
                         capture_output=True, text=True)
    ours = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(ours) == len(schemas), f"{path}: {len(ours)} results for {len(schemas)} schemas"
    structure_diffs = verdict_diffs = both_ok = release_bound = 0
    for schema, mine in zip(schemas, ours):
        theirs = torch_parser.parse(schema)
        if theirs["ok"] != mine["ok"]:
            if not theirs["ok"] and refused_by_release(schemac, schema):
                release_bound += 1
                continue
            if theirs["ok"] and theirs["refused_by_def"]:
                continue  # schemac refuses it as def() does (`a.b` read as a type variable)
            if is_deviation(schema, theirs):
                continue
            verdict_diffs += 1
            print(f"{path}: verdict differs (PyTorch {'accepts' if theirs['ok'] else 'rejects'}"
                  f", schemac {'accepts' if mine['ok'] else 'rejects'}): {schema}\n"
                  f"    PyTorch: {theirs.get('error', 'ok')}\n"
                  f"    schemac: {mine.get('error', 'ok')}")
            continue
        if not theirs["ok"]:
            continue
        both_ok += 1
        expected = theirs["structure"]
        got = json.loads(json.dumps(our_structure(mine, "is_vararg" in expected), default=list))
        if got != expected:
            structure_diffs += 1
            print(f"{path}: structure differs: {schema}\n    PyTorch: {expected}\n"
                  f"    schemac: {got}")
    total = len(schemas)
    agree = total - verdict_diffs
    print(f"{path}: {total} schemas, {both_ok} parsed by both with {structure_diffs} structure "
          f"differences; verdicts agree on {agree}/{total} ({100.0 * agree / max(total, 1):.1f}%)"
          + (f", {release_bound} of them refused by {RELEASE} as schemac's schema-release says"
             if release_bound else ""))
    failed = structure_diffs > 0 or (verdict_diffs > 0 and not verdicts_only)
    return not failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemac")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--verdicts", action="append", default=[],
                        help="a file whose verdict differences are reported, not failures")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    torch_parser = TorchParser()
    ok = True
    for path in args.files:
        ok = compare_file(path, args.schemac, False, torch_parser) and ok
    for path in args.verdicts:
        ok = compare_file(path, args.schemac, True, torch_parser) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
