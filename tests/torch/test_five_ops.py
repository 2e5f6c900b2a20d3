"""The PyTorch target end to end: five_ops.yaml went through `schemac gen --target torch`, its
kernels compiled against libtorch with the generated files; here the library loads into
PyTorch, every operator returns the right values, and `dispatch-inspect table OP --runtime torch
--load LIB --format torch` equals torch._C._dispatch_dump_table(OP) byte for byte.

usage: python3 test_five_ops.py LIBRARY DISPATCH_INSPECT
"""
import json
import subprocess
import sys

import torch


def expect_equal(what, got, want):
    if not torch.equal(got, want):
        raise AssertionError(f"{what}: got {got}, want {want}")
    print(f"ok {what}")


def main(library, inspect):
    torch.ops.load_library(library)
    five = torch.ops.five
    x = torch.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]])

    expect_equal("shift", five.shift(x, 1.5), x + 1.5)
    out = torch.empty(0)
    returned = five.shift(x, 2.0, out=out)
    expect_equal("shift.out", out, x + 2.0)
    assert returned.data_ptr() == out.data_ptr(), "shift.out returns its out argument"
    y = x.clone()
    five.shift_(y, -1.0)
    expect_equal("shift_", y, x - 1.0)
    expect_equal("reduce (sum)", five.reduce(x, [1], None, 2, False, "sum"), x.sum(1) * 2)
    expect_equal("reduce (max, bias, keepdim)", five.reduce(x, [1], torch.ones(2, 1), 3, True, "max"),
                 x.max(1, keepdim=True).values * 3 + 1)
    expect_equal("shift_twice", five.shift_twice(x, 0.5), x + 1.0)

    for op in ["five::shift", "five::shift.out", "five::shift_", "five::reduce", "five::shift_twice"]:
        ours = subprocess.run([inspect, "table", op, "--runtime", "torch", "--load", library, "--format", "torch"],
                              check=True, capture_output=True, text=True).stdout
        theirs = torch._C._dispatch_dump_table(op)
        if ours != theirs:
            raise AssertionError(f"{op}: dispatch-inspect differs from PyTorch:\n{ours}---\n{theirs}")
        print(f"ok table {op} ({len(theirs.splitlines())} entries)")

    def inspect_out(*args):
        return subprocess.run([inspect, *args, "--runtime", "torch", "--load", library], check=True,
                              capture_output=True, text=True).stdout

    # dump: torch._C._dispatch_dump; resolve: libtorch's winner; ops: the library's operators.
    assert inspect_out("dump", "five::reduce") == torch._C._dispatch_dump("five::reduce")
    print("ok dump five::reduce")
    resolved = inspect_out("resolve", "five::shift", "--keys", "CPU,AutogradCPU")
    skipped = [line for line in resolved.splitlines() if line.startswith("skipped (fallthrough): ")]
    if torch.__version__ < "2":  # AutogradCPU falls through to the CPU kernel
        assert "winner: CPU\n" in resolved and skipped and "AutogradCPU" in skipped[0], resolved
    else:  # 2.x's autograd fallback runs first (it warns when an input requires grad), then CPU
        assert "winner: AutogradCPU\n" in resolved and "reason: backend fallback" in resolved and \
            "  2. CPU: " in resolved, resolved
    resolved = inspect_out("resolve", "five::shift_twice", "--keys", "CPU,AutogradCPU")
    assert "winner: AutogradCPU\n" in resolved and "reason: math kernel" in resolved, resolved
    print("ok resolve")
    listed = json.loads(inspect_out("ops", "--format", "json"))["operators"]
    ours = {o["name"]: o for o in listed if o["name"].startswith("five::")}
    assert sorted(ours) == ["five::reduce", "five::shift", "five::shift.out", "five::shift_",
                            "five::shift_twice"], sorted(ours)
    assert ours["five::shift_twice"]["keys"] == ["CompositeImplicitAutograd"], ours["five::shift_twice"]
    print(f"ok ops ({len(listed)} operators in libtorch)")


if __name__ == "__main__":
    main(*sys.argv[1:3])
