"""Tuple, Dict(K, V) and optional-tuple arguments through the PyTorch target: containers.yaml
went through `schemac gen --target torch` and its kernels were compiled against libtorch; here
the library loads into PyTorch (which checks each kernel's inferred schema against m.def's),
PyTorch prints the schemas as written, and every operator returns the right values when called
with Python dicts, tuples, lists of tuples and None.

usage: python3 test_containers.py LIBRARY
"""
import sys

import torch


def expect(what, got, want):
    same = torch.equal(got, want) if isinstance(want, torch.Tensor) else got == want
    if not same:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")
    print(f"ok {what}")


def main(library):
    torch.ops.load_library(library)
    tc = torch.ops.tc
    expect("schema weighted_sum", str(tc.weighted_sum.default._schema),
           "tc::weighted_sum(Tensor self, Dict(str, Tensor) weights, (int, int)? window) -> Tensor")
    expect("schema describe", str(tc.describe.default._schema),
           "tc::describe((int, str) tag, (float, float)[] spans, Dict(str, int)? counts) -> Dict(str, int)")
    expect("schema split_at", str(tc.split_at.default._schema),
           "tc::split_at(Tensor self, (int, int) at) -> (Tensor, (int, int))")

    x = torch.arange(8.0).reshape(4, 2)
    w = {"a": torch.ones(4, 2), "bcd": torch.full((4, 2), 0.5)}
    expect("weighted_sum (no window)", tc.weighted_sum(x, w, None), x + 1 + 1.5)
    expect("weighted_sum (window (1, 3))", tc.weighted_sum(x, w, (1, 3)), (x + 2.5)[1:3])
    expect("weighted_sum (empty dict)", tc.weighted_sum(x, {}, (0, 1)), x[0:1])

    expect("describe (no counts)", tc.describe((7, "seven"), [(0.0, 1.5), (2.0, 3.0)], None),
           {"seven": 7, "spans": 2, "covered": 3})
    expect("describe (counts, in order)", list(tc.describe((1, "one"), [], {"spans": 9, "z": 1}).items()),
           [("one", 1), ("spans", 9), ("covered", 0), ("z", 1)])

    head, swapped = tc.split_at(x, (3, 5))
    expect("split_at tensor", head, x[0:3])
    expect("split_at tuple", swapped, (5, 3))

    try:
        tc.weighted_sum(x, {"a": 1}, None)
    except RuntimeError as e:
        print(f"ok weighted_sum refuses Dict(str, int): {str(e).splitlines()[0]}")
    else:
        raise AssertionError("weighted_sum accepted a Dict(str, int)")


if __name__ == "__main__":
    main(sys.argv[1])
