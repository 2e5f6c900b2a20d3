"""dispatch-inspect's thread-local model against libtorch's own: for each tensor device and
autocast setting, the key set `resolve --tensor DEVICE [--autocast DEVICE]` dispatches on (ours and
--runtime torch) equals (keys of such a tensor | TLS include set) - TLS exclude set as PyTorch
computes it inside torch.autocast. usage: autocast_tls_test.py DISPATCH_INSPECT PLUGIN"""
import contextlib
import json
import subprocess
import sys

import torch


def names(key_set):
    text = str(key_set)
    return set(k.strip() for k in text[text.index("(") + 1:text.rindex(")")].split(",") if k.strip())


def torch_set(device, autocast):
    keys = names(torch._C._dispatch_keys(torch.ones(2, device=device)))
    with torch.autocast(autocast) if autocast else contextlib.nullcontext():
        include = names(torch._C._dispatch_tls_local_include_set())
        exclude = names(torch._C._dispatch_tls_local_exclude_set())
    return (keys | include) - exclude


def inspect_set(inspect, args):
    out = subprocess.run([inspect, "resolve", *args, "--format", "json", "--allow-missing"], check=True,
                         capture_output=True, text=True).stdout
    return names(json.loads(out)["key_set"])


def main(inspect, plugin):
    for device, autocast in [("cpu", None), ("cpu", "cpu"), ("meta", None), ("meta", "cpu")]:
        args = ["--tensor", device] + (["--autocast", autocast] if autocast else [])
        expected = torch_set(device, autocast)
        ours = inspect_set(inspect, ["example_plugin::scale", "--load", plugin, *args])
        theirs = inspect_set(inspect, ["aten::mm", "--runtime", "torch", *args])
        for who, got in [("ours", ours), ("torch", theirs)]:
            if got != expected:
                raise AssertionError(f"{device} autocast={autocast} ({who}): {sorted(got)} != {sorted(expected)}")
        print(f"ok {device} autocast={autocast}: {sorted(expected)}")
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
