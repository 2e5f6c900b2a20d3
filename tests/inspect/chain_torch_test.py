"""`dispatch-inspect resolve --runtime torch` checked against libtorch itself: the library
chain_torch_library.cpp records the key of every kernel of inspect_chain::op that runs (each
leaves the call as PyTorch's kernels of its kind do); for CPU, Meta and nested tensors, with and
without autograd, under autocast and with the Python key, the recorded chain must equal the chain
resolve predicts for the tensor's keys (torch._C._dispatch_keys).
With RUNTIME python the prediction is --runtime python's (the dispatcher inside a Python like this
one, which loads the library there): the same chains.
usage: chain_torch_test.py DISPATCH_INSPECT LIBRARY [RUNTIME: torch (default) or python]"""
import json
import subprocess
import sys

import torch
from torch.utils._pytree import tree_map


class PythonKeyTensor(torch.Tensor):
    """A tensor subclass that carries the Python key; its __torch_dispatch__ is never reached
    here, because inspect_chain::op's Python kernel runs instead of the Python fallback."""

    @staticmethod
    def __new__(cls, elem):
        return torch.Tensor._make_subclass(cls, elem)

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        unwrap = lambda t: t.as_subclass(torch.Tensor) if isinstance(t, cls) else t
        return func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))


def key_names(tensor):
    text = str(torch._C._dispatch_keys(tensor))  # "DispatchKeySet(CPU, ADInplaceOrView, ...)"
    return text[text.index("(") + 1:text.rindex(")")].replace(" ", "")


# The keys chain_torch_library.cpp has a recording kernel for; the others in a predicted chain are
# libtorch's own fallbacks (PythonTLSSnapshot's, say), which record nothing.
RECORDING = {"CPU", "Meta", "NestedTensorCPU", "AutogradCPU", "AutogradMeta", "AutogradNestedTensor",
             "ADInplaceOrView", "AutocastCPU", "Python"}


def predicted(inspect, library, keys, autocast, runtime):
    command = [inspect, "resolve", "inspect_chain::op", "--runtime", runtime, "--load", library,
               "--keys", keys, "--format", "json"] + (["--autocast", "cpu"] if autocast else [])
    if runtime == "python":
        command += ["--python", sys.executable]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, f"{' '.join(command)}: exit {run.returncode}: {run.stderr}"
    return [step["key"] for step in json.loads(run.stdout)["chain"] if step["key"] in RECORDING]


def main(inspect, library, runtime="torch"):
    torch.ops.load_library(library)
    op, recorded = torch.ops.inspect_chain.op, torch.ops.inspect_chain.recorded
    nested = lambda grad: torch.nested.nested_tensor([torch.ones(2), torch.ones(3)],
                                                     requires_grad=grad)
    cases = [
        ("cpu", lambda: torch.ones(2), False),
        ("cpu, requires_grad", lambda: torch.ones(2, requires_grad=True), False),
        ("meta", lambda: torch.ones(2, device="meta"), False),
        ("meta, requires_grad", lambda: torch.ones(2, device="meta", requires_grad=True), False),
        ("nested", lambda: nested(False), False),
        ("nested, requires_grad", lambda: nested(True), False),
        ("cpu under autocast", lambda: torch.ones(2), True),
        ("cpu, requires_grad, under autocast", lambda: torch.ones(2, requires_grad=True), True),
        ("python key", lambda: PythonKeyTensor(torch.ones(2)), False),
    ]
    failures = []
    for name, make, autocast in cases:
        tensor = make()
        recorded()
        if autocast:
            with torch.autocast("cpu"):
                op(tensor)
        else:
            op(tensor)
        ran = list(recorded())
        expected = predicted(inspect, library, key_names(tensor), autocast, runtime)
        print(f"{name}: {key_names(tensor)}: ran {' -> '.join(ran)}")
        if ran != expected:
            failures.append(f"{name}: libtorch ran {ran}, resolve predicted {expected}")
    assert not failures, "\n".join(failures)


if __name__ == "__main__":
    main(*sys.argv[1:])
