"""Operators of the shapes PyTorch extensions register, end to end: extension_ops.yaml went
through `schemac gen --target torch`, its kernels (stubs) compiled against libtorch with the
generated files. Here the library loads into PyTorch, which checks every kernel's C++ signature
against its schema as it registers it; then every operator of the YAML must be in torch.ops with
the schema PyTorch itself parses from the YAML's func and a CPU kernel, and a call of a typed and
of a boxed kernel must reach the stub.

usage: python3 test_extension_ops.py LIBRARY YAML
"""
import re
import sys

import torch


def funcs(yaml_path):
    """The `func:` of every entry, in file order (the YAML is one `- func:` line per entry)."""
    return [m.group(1) for m in re.finditer(r"^- func: (.+)$", open(yaml_path).read(), re.M)]


def registered(schema):
    """The operator torch.ops holds for `schema`'s name, or None."""
    name = schema.name.split("::", 1)
    try:
        packet = getattr(getattr(torch.ops, name[0]), name[1])
        return getattr(packet, schema.overload_name or "default")
    except (AttributeError, RuntimeError):
        return None


def expect_stub(what, call, kernel):
    try:
        call()
    except RuntimeError as e:
        if f"{kernel}: stub" in str(e):
            print(f"ok call {what} reaches {kernel}")
            return
        raise
    raise AssertionError(f"{what}: the call returned, but the stub throws")


def main(library, yaml_path):
    torch.ops.load_library(library)
    problems = []
    entries = funcs(yaml_path)
    for func in entries:
        want = torch._C.parse_schema(func)
        op = registered(want)
        qualified = want.name + ("." + want.overload_name if want.overload_name else "")
        if op is None:
            problems.append(f"{qualified}: not in torch.ops")
            continue
        if str(op._schema) != str(want):
            problems.append(f"{qualified}: schema {op._schema} differs from {want}")
        if not torch._C._dispatch_has_kernel_for_dispatch_key(qualified, "CPU"):
            problems.append(f"{qualified}: no CPU kernel")
    for problem in problems:
        print("FAIL", problem)
    print(f"{len(entries) - len(problems)}/{len(entries)} operators: same schema and a CPU kernel in torch.ops")
    if problems:
        sys.exit(1)

    x = torch.ones(2, 3)
    calls = [
        ("xmisc::scale", "typed", lambda: torch.ops.xmisc.scale(x, 2.0), "scale_cpu"),
        ("xmoe::scatter_add_dense", "boxed: returns None",
         lambda: torch.ops.xmoe.scatter_add_dense(x, x, torch.zeros(2, dtype=torch.long)),
         "scatter_add_dense_cpu"),
        # torch.ops reads a Dimname from a qualified name (1.13: "all symbols must have a namespace")
        ("xmisc::dimname_args", "typed", lambda: torch.ops.xmisc.dimname_args(x, "dimname::N"),
         "dimname_args_cpu"),
    ]
    names = {torch._C.parse_schema(func).name for func in entries}
    for name, kind, call, kernel in calls:
        if name in names:
            expect_stub(f"{name} ({kind})", call, kernel)


if __name__ == "__main__":
    main(*sys.argv[1:])
