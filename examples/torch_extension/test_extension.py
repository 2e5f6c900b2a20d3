"""Loads the extension built from ops.yaml into PyTorch, calls every operator and checks its
values, and compares each operator's dispatch table with `dispatch-inspect table OP --runtime
torch --format torch`.

usage: python3 test_extension.py LIBRARY DISPATCH_INSPECT
"""
import subprocess
import sys

import torch


def check(name, got, want):
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            check(name, g, w)
        return
    if not torch.allclose(got, want):
        raise AssertionError(f"{name}: got {got}, want {want}")
    print(f"ok {name}")


def main(library, inspect):
    torch.ops.load_library(library)
    ops = torch.ops.myops
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)

    check("scale", ops.scale(x, 2.0), x * 2)
    # PyTorch 1.13 registers no fallthrough for AutogradMeta (it does for AutogradCPU), so an
    # operator without an autograd kernel reaches Meta only with autograd off.
    with torch.inference_mode():
        meta = ops.scale(torch.empty(4, 5, device="meta"), 2.0)
    assert meta.device.type == "meta" and meta.shape == (4, 5), meta
    print("ok scale (Meta)")
    out = torch.empty(0)
    result = ops.scale.out(x, 3.0, out=out)
    check("scale.out", out, x * 3)
    assert result.data_ptr() == out.data_ptr(), "scale.out returns its out argument"
    y = x.clone()
    ops.scale_(y, -1.0)
    check("scale_", y, -x)
    check("blend", ops.blend(x, [1]), x.sum(1))
    check("blend (all arguments)", ops.blend(x, [0], torch.ones(3), 2, True, "mean"),
          x.mean(0, keepdim=True) + 2)
    check("minmax", ops.minmax(x), (x.min(), x.max()))
    check("scale_twice", ops.scale_twice(x, 3.0), x * 9)
    check("filled", ops.filled([2, 2], 7.5), torch.full((2, 2), 7.5))
    assert ops.filled([3], 1, dtype=torch.int64).dtype == torch.int64

    for op in ["myops::scale", "myops::scale.out", "myops::scale_", "myops::blend",
               "myops::minmax", "myops::scale_twice", "myops::filled"]:
        ours = subprocess.run([inspect, "table", op, "--runtime", "torch", "--load", library,
                               "--format", "torch"], check=True, capture_output=True, text=True).stdout
        theirs = torch._C._dispatch_dump_table(op)
        if ours != theirs:
            raise AssertionError(f"{op}: dispatch-inspect's table differs from PyTorch's:\n{ours}\n---\n{theirs}")
        print(f"ok table {op}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
