"""The stable-ABI extension (ops.yaml through `schemac gen --target torch_stable`, kernels.cpp on
PyTorch's stable API): it loads, every operator is in torch.ops with the schema PyTorch parses
from the YAML, and every call reaches its kernel with its values converted both
ways.

usage: python3 test_stable.py LIBRARY YAML
"""
import re
import sys

import torch


def main(library, yaml_path):
    torch.ops.load_library(library)
    funcs = re.findall(r"^- func: (.+)$", open(yaml_path).read(), re.M)
    for func in funcs:
        want = torch._C.parse_schema(func)
        ns, name = want.name.split("::")
        op = getattr(getattr(getattr(torch.ops, ns), name), want.overload_name or "default")
        assert str(op._schema) == str(want), f"{op._schema} != {want}"
    print(f"{len(funcs)}/{len(funcs)} operators: same schema in torch.ops")
    ops = torch.ops.xstable

    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    checks = {
        "scaled": (ops.scaled(x, 2.0), x * 2),
        "scaled.out": (ops.scaled.out(x, 3.0, out=torch.empty(2, 3)), x * 3),
        "scale_": (ops.scale_(x.clone(), 0.5), x * 0.5),
        "sizes_info": (ops.sizes_info(x, [1, 2], 10), (19, [2, 3])),
        "sizes_info without offset": (ops.sizes_info(x, []), (6, [2, 3])),
        "describe": (ops.describe(x, "d", ["a", "b"], "!"), "d2,a,b!"),
        "describe with defaults": (ops.describe(x, "d", []), "d2"),
        # A ScalarType return reaches Python as its number (PyTorch converts returns by their
        # fake type, int): 6 is float32, 4 int64.
        "dtype_of": (ops.dtype_of(x, None, torch.strided, None, torch.contiguous_format),
                     (6, torch.device("cpu"))),
        "dtype_of given": (ops.dtype_of(x, torch.int64, None, torch.device("cpu")),
                           (4, torch.device("cpu"))),
        "flags": (ops.flags([True, True], [0.5, 1.5], [[1], [2, 3]]), (True, 2.0, 3)),
        "flags strict": (ops.flags([True, False], [], [], False), (False, 0.0, 0)),
        "seeded": (ops.seeded(x, torch.Generator()), torch.ones(2, 3)),
        "seeded without": (ops.seeded(x), torch.zeros(2, 3)),
        "fill_like": (ops.fill_like(x, 7.0), torch.full((2, 3), 7.0)),
    }
    picked = ops.pick([x, x * 2], [None, x], 1, [4])
    assert len(picked) == 3 and torch.equal(picked[0], x * 2) and torch.equal(picked[1], x)
    assert picked[2].shape == (4,) and not picked[2].any()
    print("ok call pick")
    for what, (got, want) in checks.items():
        same = torch.equal(got, want) if isinstance(want, torch.Tensor) else got == want
        if isinstance(want, tuple) and not same:
            same = len(got) == len(want) and all(
                (torch.equal(g, w) if isinstance(w, torch.Tensor) else g == w) for g, w in zip(got, want))
        assert same, f"{what}: {got!r} != {want!r}"
        print(f"ok call {what}")
    print(f"{len(checks) + 1} calls reached their kernels")


if __name__ == "__main__":
    main(*sys.argv[1:])
