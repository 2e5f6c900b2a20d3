"""dispatch-inspect's thread-local model against libtorch's own: for each tensor device, autocast
and inference-mode setting, the key set `resolve --tensor DEVICE [--autocast DEVICE]
[--inference-mode]` dispatches on (ours and --runtime torch) equals (keys of such a tensor | TLS
include set) - TLS exclude set as PyTorch computes it inside torch.autocast and
torch.inference_mode; `--inference-tensor DEVICE` stands for a tensor made under inference mode.
usage: autocast_tls_test.py DISPATCH_INSPECT PLUGIN"""
import contextlib
import json
import subprocess
import sys

import torch


def names(key_set):
    text = str(key_set)
    return set(k.strip() for k in text[text.index("(") + 1:text.rindex(")")].split(",") if k.strip())


def torch_set(device, autocast, inference_mode, inference_tensor):
    with torch.inference_mode(inference_tensor):
        tensor = torch.ones(2, device=device)
    keys = torch._C._dispatch_keys(tensor)
    with torch.autocast(autocast) if autocast else contextlib.nullcontext(), \
            torch.inference_mode(inference_mode):
        include = torch._C._dispatch_tls_local_include_set()
        exclude = torch._C._dispatch_tls_local_exclude_set()
    # c10's own DispatchKeySet arithmetic: the exclude set's AutogradFunctionality bit (which it
    # does not print) takes AutogradCPU away.
    return names((keys | include) - exclude)


def inspect_set(inspect, args):
    out = subprocess.run([inspect, "resolve", *args, "--format", "json", "--allow-missing"], check=True,
                         capture_output=True, text=True).stdout
    return names(json.loads(out)["key_set"])


def main(inspect, plugin):
    cases = [(device, autocast, False, False) for device, autocast in
             [("cpu", None), ("cpu", "cpu"), ("meta", None), ("meta", "cpu")]]
    cases += [("cpu", None, True, False), ("cpu", None, True, True), ("cpu", "cpu", True, True),
              ("meta", None, True, True), ("cpu", None, False, True)]
    for device, autocast, inference_mode, inference_tensor in cases:
        args = ["--inference-tensor" if inference_tensor else "--tensor", device]
        args += (["--autocast", autocast] if autocast else []) + \
            (["--inference-mode"] if inference_mode else [])
        expected = torch_set(device, autocast, inference_mode, inference_tensor)
        ours = inspect_set(inspect, ["example_plugin::scale", "--load", plugin, *args])
        theirs = inspect_set(inspect, ["aten::mm", "--runtime", "torch", *args])
        for who, got in [("ours", ours), ("torch", theirs)]:
            if got != expected:
                raise AssertionError(f"{' '.join(args)} ({who}): {sorted(got)} != {sorted(expected)}")
        print(f"ok {' '.join(args)}: {sorted(expected)}")
    # A CPU tensor under autocast('cpu') reaches the AutocastCPU kernel of aten::mm, never a CUDA one.
    out = subprocess.run([inspect, "resolve", "aten::mm", "--runtime", "torch", "--tensor", "cpu", "--autocast", "cpu",
                          "--format", "json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(out)["winner"] == "AutocastCPU", out
    out = subprocess.run([inspect, "resolve", "aten::mm", "--runtime", "torch", "--keys", "CPU,AutogradCPU",
                          "--include", "AutocastCUDA", "--format", "json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(out)["winner"] == "AutogradCPU", out
    print("ok autocast winners")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
