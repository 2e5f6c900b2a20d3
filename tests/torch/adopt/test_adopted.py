"""A vLLM-style bindings file adopted into a declaration file, end to end: bindings.cpp went
through `schemac parse --source --format yaml -D TORCH_EXTENSION_NAME=_C -U USE_ROCM` and
`schemac gen --target torch` (stub kernels), and was also compiled as it is with
-DTORCH_EXTENSION_NAME=_orig. Both libraries load; every operator the original registers with a
written schema must be in the generated one with the identical schema, and nothing else.

usage: python3 test_adopted.py GENERATED_LIBRARY ORIGINAL_LIBRARY YAML LEFT_OUT
"""
import re
import sys

import torch


def schemas(prefixes):
    """name -> schema text of every registered operator whose namespace is one of `prefixes`,
    with the namespace replaced by its key in `prefixes`."""
    out = {}
    for s in torch._C._jit_get_all_schemas():
        ns, _, rest = str(s).partition("::")
        if ns in prefixes:
            out[prefixes[ns] + "::" + rest.split("(", 1)[0]] = prefixes[ns] + "::" + rest
    return out


def main(generated, original, yaml_path, left_out_path):
    torch.ops.load_library(generated)
    torch.ops.load_library(original)
    funcs = re.findall(r"^- func: (.+)$", open(yaml_path).read(), re.M)
    funcs = [f[1:-1].replace('\\"', '"') if f.startswith('"') else f for f in funcs]
    adopted = schemas({"_C": "NS", "_C_cache_ops": "NS_cache"})
    written = schemas({"_orig": "NS", "_orig_cache_ops": "NS_cache"})
    # The YAML says what it left out: an operator whose schema only loading tells.
    left_out = set(re.findall(r"'_C::(\w+)' is left out of the YAML", open(left_out_path).read()))
    assert left_out == {"name_only"}, left_out
    expected = {k: v for k, v in written.items() if k.split("::")[1] not in left_out}
    assert len(funcs) == len(expected) == 7, (funcs, expected)
    for name, schema in sorted(expected.items()):
        assert adopted.get(name) == schema, f"{name}: adopted {adopted.get(name)!r}, written {schema!r}"
        print(f"ok {schema}")
    assert set(adopted) == set(expected), set(adopted) ^ set(expected)
    # Each YAML func is what PyTorch registered.
    for func in funcs:
        parsed = torch._C.parse_schema(func)
        ns, name = parsed.name.split("::")
        op = getattr(getattr(torch.ops, ns), name)
        assert str(op.default._schema) == str(parsed), (str(op.default._schema), func)
    # The generated kernels are the stubs; the original's run.
    x = torch.ones(3)
    out = torch.empty(3)
    torch.ops._orig.scaled_act_and_mul(out, x, 2.0)
    assert out.tolist() == [2.0, 2.0, 2.0]
    try:
        torch.ops._C.scaled_act_and_mul(out, x, 2.0)
    except RuntimeError as e:
        assert "scaled_act_and_mul: stub" in str(e), e
    else:
        raise AssertionError("the generated CPU kernel is not the stub")
    print(f"ok {len(expected)} operators adopted with identical schemas")


if __name__ == "__main__":
    main(*sys.argv[1:])
