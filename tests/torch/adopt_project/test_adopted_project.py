"""A multi-file binding project (bindings/, kernels/, include/) adopted end to end: its binding
files and header went through `schemac parse --source --format yaml` and `schemac gen --target
torch`, and the generated registrations were compiled with the project's own kernels (no stubs:
each dispatch line must name the project's function, namespace and all, or it does not link).
The project as written is built too. Each library is loaded in its own process (both register the
same namespaces); every operator the project registers must be in the generated library with the
identical schema, the kernels must be the project's, and an operator with no kernel in the project
must get none.

usage: python3 test_adopted_project.py GENERATED_LIBRARY ORIGINAL_LIBRARY YAML LEFT_OUT
"""
import json
import re
import subprocess
import sys

import torch

NAMESPACES = ("fastops", "fastops_legacy")


def dump(library):
    torch.ops.load_library(library)
    out = {}
    for s in torch._C._jit_get_all_schemas():
        if str(s).partition("::")[0] in NAMESPACES:
            out[s.name + ("." + s.overload_name if s.overload_name else "")] = str(s)
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    calls = {
        "prepack": torch.ops.fastops.prepack(x).tolist(),
        "matmul_prepacked": torch.ops.fastops.matmul_prepacked(x, x, 2.0).tolist(),
        "rms_norm": torch.ops.fastops.rms_norm(x)[1].flatten().tolist(),
        "add_one": torch.ops.fastops_legacy.add_one(x).tolist(),
    }
    try:
        torch.ops.fastops.fused_gelu(x)
        calls["fused_gelu"] = "ran"
    except (RuntimeError, NotImplementedError) as e:
        calls["fused_gelu"] = "no kernel" if "CPU" in str(e) else str(e)
    print(json.dumps({"schemas": out, "calls": calls}))


def load(library):
    result = subprocess.run([sys.executable, __file__, "dump", library], capture_output=True,
                            text=True, check=True)
    return json.loads(result.stdout)


def main(generated, original, yaml_path, left_out_path):
    yaml = open(yaml_path).read()
    for line in ("CPU: fastops::gemm::prepack", "CPU: fastops::gemm::matmul_prepacked",
                 "CPU: fastops::norm::rms_norm", "CPU: fastops::add_one"):
        assert line in yaml, (line, yaml)
    gelu = yaml[yaml.index("fastops::fused_gelu"):]
    assert gelu.split("\n- ")[0].count("manual_kernel_registration: True") == 1, gelu
    left_out = open(left_out_path).read()
    assert "left out" not in left_out, left_out
    adopted, written = load(generated), load(original)
    assert len(written["schemas"]) == 5, written
    assert adopted["schemas"] == written["schemas"], (adopted["schemas"], written["schemas"])
    assert adopted["calls"] == written["calls"], (adopted["calls"], written["calls"])
    assert written["calls"]["fused_gelu"] == "no kernel", written["calls"]
    for schema in sorted(written["schemas"].values()):
        print(f"ok {schema}")
    print(f"ok {len(written['schemas'])} operators adopted from 2 binding files, identical schemas, "
          "the project's kernels")


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2])
    else:
        main(*sys.argv[1:])
