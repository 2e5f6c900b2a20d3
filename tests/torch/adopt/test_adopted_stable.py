"""A stable-ABI bindings file adopted, end to end: stable_bindings.cpp went through `schemac parse
--source --format yaml -D TORCH_EXTENSION_NAME=_S`, whose YAML carries the stable-ABI marker, and
`schemac gen --target torch`, which wrote it with STABLE_TORCH_LIBRARY blocks and TORCH_BOX (stub
kernels); the file was also compiled as it is with -DTORCH_EXTENSION_NAME=_orig_stable. Both load;
every operator the original defines is in the generated one with the identical schema, except the
one taking a Scalar (the stable ABI cannot convert it: adoption leaves it out and says why).

usage: python3 test_adopted_stable.py GENERATED_LIBRARY ORIGINAL_LIBRARY YAML LEFT_OUT GEN_DIR
"""
import os
import re
import sys

import torch


def schemas(ns):
    out = {}
    for s in torch._C._jit_get_all_schemas():
        text = str(s)
        if text.startswith(ns + "::"):
            out[text.split("(", 1)[0].split("::")[1]] = "NS::" + text.split("::", 1)[1]
    return out


def main(generated, original, yaml_path, left_out_path, gen_dir):
    yaml = open(yaml_path).read()
    assert yaml.startswith("# schemac: stable-abi\n"), yaml[:80]
    registrations = open(os.path.join(gen_dir, "RegisterSchema.cpp")).read()
    assert "STABLE_TORCH_LIBRARY(_S, m)" in registrations, registrations
    impls = [name for name in os.listdir(gen_dir) if name.startswith("Register") and
             name != "RegisterSchema.cpp"]
    assert any("TORCH_BOX(" in open(os.path.join(gen_dir, name)).read() for name in impls), impls
    left_out_text = open(left_out_path).read()
    left_out = set(re.findall(r"'_S::(\w+)' is left out of the YAML", left_out_text))
    assert left_out == {"clamp_min_scalar"}, left_out_text
    assert "[stable-abi]" in left_out_text, left_out_text
    # The raw kernel over the stack is not a typed kernel: its operator has no dispatch section.
    assert re.search(r"- func: _S::count_raw\(Tensor x\) -> int\n(?!  dispatch)", yaml), yaml

    torch.ops.load_library(generated)
    torch.ops.load_library(original)
    adopted, written = schemas("_S"), schemas("_orig_stable")
    expected = {k: v for k, v in written.items() if k not in left_out}
    assert len(expected) == 4, written
    for name, schema in sorted(expected.items()):
        assert adopted.get(name) == schema, f"{name}: adopted {adopted.get(name)!r}, written {schema!r}"
        print(f"ok {schema}")
    assert set(adopted) == set(expected), set(adopted) ^ set(expected)

    x = torch.ones(3)
    out = torch.empty(3)
    torch.ops._orig_stable.silu_and_mul(out, x)
    assert out.tolist() == [2.0, 2.0, 2.0]
    assert torch.ops._orig_stable.count_raw(x) == 3
    try:
        torch.ops._S.silu_and_mul(out, x)
    except RuntimeError as e:
        assert "silu_and_mul: stub" in str(e), e
    else:
        raise AssertionError("the generated CPU kernel is not the stub")
    print(f"ok {len(expected)} stable-ABI operators adopted with identical schemas")


if __name__ == "__main__":
    main(*sys.argv[1:])
