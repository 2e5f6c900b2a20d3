"""`dispatch-inspect audit --runtime torch` on the example extension (examples/torch_extension),
each finding checked against what PyTorch itself does with the extension loaded: with 1.13 the
operator flagged autograd-fallthrough runs no autograd kernel of its own (the graph records only
the ATen op inside its CPU kernel; on a meta tensor that requires grad the call fails); with either
release the one flagged missing-meta fails on a meta tensor (2.14's Meta backend fallback raises),
and the one with a Meta kernel works.
usage: audit_torch_test.py DISPATCH_INSPECT LIBMYOPS"""
import json
import subprocess
import sys

import torch


def audit(inspect, library, fmt):
    run = subprocess.run([inspect, "audit", "--runtime", "torch", "--load", library, "--format", fmt],
                         capture_output=True, text=True)
    assert run.returncode == 1, f"audit exited {run.returncode}, not 1 (findings): {run.stderr}"
    return run.stdout


def expect_failure(call, words):
    try:
        call()
    except NotImplementedError as error:
        assert words in str(error), error
    else:
        raise AssertionError(f"the call ran; expected it to fail on the {words}")


def main(inspect, library):
    report = json.loads(audit(inspect, library, "json"))
    findings = {(f["rule"], f["operator"]): f for f in report["findings"]}
    assert report["operators"] == 7, report["operators"]  # the extension's, not libtorch's 3,000

    # Both releases: minmax has a CPU kernel and no Meta kernel (2.14's Meta backend fallback, which
    # only raises, is none), scale registers one, and blend's CompositeExplicitAutograd covers Meta.
    assert ("missing-meta", "myops::minmax") in findings, sorted(findings)
    assert ("missing-meta", "myops::scale") not in findings
    assert ("missing-meta", "myops::blend") not in findings
    blend = findings[("autograd-fallthrough", "myops::blend")]
    scale = findings.get(("autograd-fallthrough", "myops::scale"))
    two = int(torch.__version__.split(".")[0]) >= 2
    if two:
        # 2.x registers its autograd fallback on AutogradCPU, AutogradMeta and ten other keys: CPU
        # and Meta calls reach it, and the Autograd keys it leaves out (HIP, IPU, VE, ...) have no
        # entry at all, so blend's kernel for every backend is flagged there only.
        assert scale is None, scale
        assert blend["message"].startswith("AutogradHIP has no kernel (HIP has default backend kernel)"), blend
        assert "AutogradCPU" not in blend["message"], blend["message"]
    else:
        assert scale, f"myops::scale's autograd fallthrough is not flagged: {sorted(findings)}"
        assert scale["message"].startswith("AutogradCPU falls through (CPU has kernel)"), scale["message"]
        assert "examples/torch_extension/gen/Register_" in scale["site"], scale["site"]
        assert scale["why"].startswith("the operator has no backward"), scale["why"]
        assert "AutogradMeta has no kernel (Meta has kernel)" in scale["message"], scale["message"]
        assert blend["message"].startswith("AutogradCPU falls through (CPU has default backend kernel)"), blend

    text = audit(inspect, library, "text")
    assert "warning: myops::blend: " in text and "[autograd-fallthrough]" in text, text
    assert "warning: myops::minmax: kernels for CPU but none for Meta" in text and "[missing-meta]" in text, text
    sarif = json.loads(audit(inspect, library, "sarif"))
    assert any(r["ruleId"] == "missing-meta" for r in sarif["runs"][0]["results"])

    # What the findings claim, in PyTorch.
    torch.ops.load_library(library)
    if not two:
        x = torch.ones(3, requires_grad=True)
        # No myops node in the graph: autograd saw only the multiplication scale_cpu happens to call.
        assert torch.ops.myops.scale(x, 2.0).grad_fn.name().startswith("MulBackward"), "scale has its own autograd"
        expect_failure(lambda: torch.ops.myops.scale(torch.ones(3, device="meta", requires_grad=True), 2.0),
                       "'AutogradMeta' backend")
    with torch.inference_mode():  # past a missing AutogradMeta entry (1.13), to the Meta key
        assert torch.ops.myops.scale(torch.ones(3, device="meta"), 2.0).device.type == "meta"
        expect_failure(lambda: torch.ops.myops.minmax(torch.ones(3, device="meta")), "Meta")
    print(f"ok: {len(report['findings'])} findings, each as PyTorch behaves")


if __name__ == "__main__":
    main(*sys.argv[1:])
