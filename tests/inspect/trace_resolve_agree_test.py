"""`trace` and `resolve` agree on every operator of a library: for each operator `ops` lists (none
hard-coded), arguments are built from its schema (CPU tensors of shape [2, 2], small values), the
call is traced, and `resolve` predicts it from the key set trace says the first kernel was
dispatched on (`--keys`) and from the tensors alone (`--tensor cpu`, `--device cpu`). The kernels
trace shows at the top level (the outer call and its redispatches; nested calls of other operators
are left out) must equal resolve's chain step by step: key, kernel, reason and the key set each
step receives. Each case runs plainly, with AutogradCPU excluded, under `--autocast cpu` and under
`--inference-mode`, with the same thread-local options given to both subcommands.
usage: trace_resolve_agree_test.py DISPATCH_INSPECT LIBRARY [--cuda]"""
import json
import shutil
import subprocess
import sys

TENSOR = "cpu:float32[2,2]"
# The thread-local options of each case, given alike to trace and resolve.
CASES = [("plain", []), ("no autograd", ["--exclude", "AutogradCPU"]), ("autocast cpu", ["--autocast", "cpu"]),
         ("inference mode", ["--inference-mode"])]


def split_top_level(text):
    """Splits a schema's argument list at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([" and 1 or c in ")]" and -1 or 0
        if c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip() and p.strip() != "*"]


def argument_specs(schema, device):
    """A value spec for each argument without a default, by its type; None when a type has no
    small value here (the operator is then reported, which fails the test)."""
    inner = schema[schema.index("(") + 1:schema.rindex(") ->")]
    specs = []
    for argument in split_top_level(inner):
        if "=" in argument:
            continue
        type_text, name = argument.rsplit(" ", 1)
        base = type_text.split("(")[0]  # Tensor(a!) -> Tensor
        if base.endswith("?"):
            value = "None"
        elif base == "Tensor":
            value = TENSOR.replace("cpu:", device + ":")
        elif base in ("int", "SymInt"):
            value = "0"
        elif base in ("float", "Scalar"):
            value = "1"
        elif base == "bool":
            value = "False"
        elif base.startswith(("int[", "SymInt[")):
            value = "[2,2]"
        elif base == "Tensor[]":
            value = f"[{TENSOR.replace('cpu:', device + ':')}]"
        else:
            return None
        specs.append(f"{name}={value}")
    return specs


def run(inspect, args):
    done = subprocess.run([inspect, *args, "--format", "json"], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def top_level(calls, op):
    """The outer call and its redispatches: each a call of `op` one level below the previous."""
    steps = []
    for call in calls:
        depth = steps[-1]["depth"] + 1 if steps else 0
        if call["operator"] == op and call["depth"] == depth:
            steps.append(call)
    return steps


def step_text(step):
    return f"{step['key']}: {step['kernel']} [{step['reason']}] with {step['key_set']}"


def compare(inspect, library, op, specs, device, case, options, takes_tensors):
    """None when trace and resolve agree, else the reason with both outputs."""
    code, out, err = run(inspect, ["trace", op, "--load", library, *options, *[f"--arg={s}" for s in specs]])
    if code != 0 and not out:
        return f"trace failed ({code}): {err}"
    traced = top_level(json.loads(out)["calls"], op)
    if not traced:
        return f"trace shows no call of {op}: {out}"
    first_keys = traced[0]["key_set"]
    first_keys = first_keys[first_keys.index("(") + 1:first_keys.rindex(")")].replace(" ", "")
    # An operator without tensor arguments takes no keys (resolve refuses them): its device only.
    requests = [["--keys", first_keys], ["--tensor", device]] if takes_tensors else \
        [["--device", device]]
    for request in requests:
        code, rout, rerr = run(inspect, ["resolve", op, "--load", library, "--allow-missing", *options, *request])
        if code != 0:
            return f"resolve {' '.join(request)} failed ({code}): {rerr}"
        chain = json.loads(rout)["chain"]
        predicted = [step_text(s) for s in chain]
        ran = [step_text(s) for s in traced]
        if predicted != ran:
            return (f"resolve {' '.join(request)} predicts\n    " + "\n    ".join(predicted) +
                    "\n  trace ran\n    " + "\n    ".join(ran) + f"\n  trace output: {out}\n  resolve output: {rout}")
    return None


def main(inspect, library, cuda):
    code, out, err = run(inspect, ["ops", "--load", library])
    if code != 0:
        raise SystemExit(f"ops failed: {err}")
    operators = [o for o in json.loads(out)["operators"] if o.get("schema")]
    devices = ["cpu"]
    if cuda and shutil.which("nvidia-smi") and subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0:
        devices.append("cuda")
    elif cuda:
        print("skipped cuda: the library has CUDA kernels but this machine has no GPU")
    else:
        print("skipped cuda: the library was built without CUDA kernels")
    print("skipped meta: value specs make cpu and cuda tensors only")
    failures, compared = [], 0
    for o in operators:
        for device in devices:
            specs = argument_specs(o["schema"], device)
            if specs is None:
                failures.append(f"{o['name']}: no value spec for an argument of {o['schema']}")
                continue
            takes_tensors = "Tensor" in o["schema"][:o["schema"].rindex(") ->")]
            for case, options in CASES:
                problem = compare(inspect, library, o["name"], specs, device, case, options, takes_tensors)
                compared += 1
                if problem:
                    failures.append(f"{o['name']} ({device}, {case}): {problem}")
                else:
                    print(f"ok {o['name']} ({device}, {case})")
    print(f"compared {compared} cases over {len(operators)} operators: {len(failures)} disagree")
    for failure in failures:
        print("FAIL", failure)
    if not operators or failures:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--cuda" in sys.argv[3:])
