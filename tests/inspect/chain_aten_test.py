"""`dispatch-inspect resolve --runtime torch` for the calls users ask about, checked against
PyTorch itself (whichever version this Python has): chain_aten_library.cpp puts a recording kernel
on every key a CPU or Meta tensor reaches of aten::_to_copy (what .to() calls), the factory
aten::zeros, and aten::empty_like and aten::new_zeros (no BackendSelect kernel), leaving PyTorch's
own BackendSelect kernels in place. Each call below runs in PyTorch (under torch.inference_mode()
and torch.autocast where it says), and the recorded chain must equal the one resolve predicts from
the options a user would give it: --tensor, --inference-tensor, --device, --inference-mode,
--autocast (autocast_tls_test.py checks that those options make the key sets PyTorch's tensors and
thread-local state make). The calls that cannot happen are refused with the reason.
usage: chain_aten_test.py DISPATCH_INSPECT LIBRARY"""
import json
import subprocess
import sys

import torch


def resolve(inspect, library, op, options, expect_exit=(0,)):
    command = [inspect, "resolve", op, "--runtime", "torch", "--load", library, "--format", "json",
               *options]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode in expect_exit, f"{' '.join(command)}: exit {run.returncode}: {run.stderr}"
    return run


def predicted(inspect, library, op, options):
    run = resolve(inspect, library, op, options)
    answer = json.loads(run.stdout)
    return [f"{op} {step['key']}" for step in answer["chain"] if step["key"] in RECORDING], answer


# The keys chain_aten_library.cpp records; BackendSelect is PyTorch's own kernel (it records
# nothing: where the next recorded key lies is what it chose).
RECORDING = {"CPU", "Meta", "AutogradCPU", "AutogradMeta", "ADInplaceOrView", "AutocastCPU"}


def main(inspect, library):
    torch.ops.load_library(library)
    recorded = torch.ops.inspect_chain_aten.recorded
    aten = torch.ops.aten
    cpu = lambda: torch.ones(2)
    meta = lambda: torch.ones(2, device="meta")
    # (name, how the call is made in PyTorch, its tensor when it takes one, the modes it runs
    # under, the operator and resolve's options for it)
    cases = [
        (".to('meta') of a CPU tensor", lambda x: x.to("meta"), cpu, "",
         "aten::_to_copy", ["--tensor", "cpu", "--device", "meta"]),
        ("_to_copy(cpu, device=meta), requires_grad",
         lambda x: aten._to_copy(x, device="meta"), lambda: torch.ones(2, requires_grad=True), "",
         "aten::_to_copy", ["--tensor", "cpu", "--device", "meta"]),
        (".to('cpu') of a Meta tensor", lambda x: x.to("cpu"), meta, "",
         "aten::_to_copy", ["--tensor", "meta", "--device", "cpu"]),
        (".to(float64) of a CPU tensor (no device)", lambda x: x.to(torch.float64), cpu, "",
         "aten::_to_copy", ["--tensor", "cpu"]),
        (".to(float64) of a Meta tensor (no device)", lambda x: x.to(torch.float64), meta, "",
         "aten::_to_copy", ["--tensor", "meta"]),
        ("aten.zeros([2])", lambda _: aten.zeros([2]), None, "", "aten::zeros", []),
        ("aten.zeros([2], device=meta)", lambda _: aten.zeros([2], device="meta"), None, "",
         "aten::zeros", ["--device", "meta"]),
        # torch.zeros and torch.empty_like are torch::'s variable factories, which call the
        # operator under AutoDispatchBelowADInplaceOrView: ADInplaceOrView and autograd excluded.
        ("torch.zeros(2, device=meta)", lambda _: torch.zeros(2, device="meta"), None, "",
         "aten::zeros", ["--device", "meta", "--exclude", "ADInplaceOrView"]),
        ("aten.empty_like(cpu, device=meta)", lambda x: aten.empty_like(x, device="meta"), cpu,
         "", "aten::empty_like", ["--tensor", "cpu", "--device", "meta"]),
        ("torch.empty_like(cpu, device=meta)", lambda x: torch.empty_like(x, device="meta"), cpu,
         "", "aten::empty_like",
         ["--tensor", "cpu", "--device", "meta", "--exclude", "ADInplaceOrView,AutogradCPU"]),
        ("new_zeros(cpu, device=meta)", lambda x: x.new_zeros(2, device="meta"), cpu, "",
         "aten::new_zeros", ["--tensor", "cpu", "--device", "meta"]),
        (".to('meta') under inference mode", lambda x: x.to("meta"), cpu, "inference",
         "aten::_to_copy", ["--tensor", "cpu", "--device", "meta", "--inference-mode"]),
        (".to('meta') of an inference tensor under inference mode", lambda x: x.to("meta"),
         "inference cpu", "inference",
         "aten::_to_copy", ["--inference-tensor", "cpu", "--device", "meta", "--inference-mode"]),
        (".to(float64) of an inference tensor outside inference mode",
         lambda x: x.to(torch.float64), "inference cpu", "",
         "aten::_to_copy", ["--inference-tensor", "cpu"]),
        ("aten.zeros([2], device=meta) under inference mode",
         lambda _: aten.zeros([2], device="meta"), None, "inference", "aten::zeros",
         ["--device", "meta", "--inference-mode"]),
        (".to('meta') under autocast('cpu')", lambda x: x.to("meta"), cpu, "autocast",
         "aten::_to_copy", ["--tensor", "cpu", "--device", "meta", "--autocast", "cpu"]),
        (".to('meta') under autocast('cpu') and inference mode", lambda x: x.to("meta"), cpu,
         "autocast inference",
         "aten::_to_copy",
         ["--tensor", "cpu", "--device", "meta", "--autocast", "cpu", "--inference-mode"]),
    ]
    failures = []
    for name, call, make, modes, op, options in cases:
        if make == "inference cpu":
            with torch.inference_mode():
                tensor = torch.ones(2)
        else:
            tensor = make() if make else None
        recorded()
        with torch.inference_mode(mode="inference" in modes), \
                torch.autocast("cpu", enabled="autocast" in modes):
            call(tensor)
        ran = list(recorded())
        expected, answer = predicted(inspect, library, op, options)
        print(f"{name}: ran {' -> '.join(ran)}; resolve {' '.join(options)}: "
              f"{' -> '.join(s['key'] for s in answer['chain'])}")
        if ran != expected:
            failures.append(f"{name}: PyTorch ran {ran}, resolve {' '.join(options)} predicted "
                            f"{expected}")
    # Calls that cannot happen are refused (exit 2) with the reason.
    for op, options, words in [
        ("aten::empty.memory_format", ["--tensor", "cuda", "--device", "meta"],
         "takes no tensor argument"),
        ("aten::zeros", ["--keys", "CPU"], "takes no tensor argument"),
        ("aten::add.Tensor", ["--tensor", "cpu", "--device", "meta"], "takes no Device argument"),
    ]:
        run = resolve(inspect, library, op, options, expect_exit=(2,))
        if words not in run.stderr:
            failures.append(f"resolve {op} {' '.join(options)}: {run.stderr!r} lacks {words!r}")
    assert not failures, "\n".join(failures)
    print("ok")


if __name__ == "__main__":
    main(*sys.argv[1:])
