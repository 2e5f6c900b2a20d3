"""Every operator's table, not a sample: `dispatch-inspect table '*' --format torch` (one command,
one helper process) against torch._C._dispatch_dump_table in this one Python process, for both
PyTorch runtimes.
- --runtime python (the helper runs in a Python like this one, after import torch): every
  operator this process has, and each table byte for byte;
- --runtime torch (libtorch's C++ registrations only): every operator that has no registration
  from Python, each table byte for byte; left out (and counted) are those Python registered a
  kernel for, and those a library that only Python loads (libtorch_python: aten::get_gradients)
  registered a C++ kernel (or the operator itself) for: what libtorch alone lacks.
Both outputs must say which PyTorch answered (on stderr: --format torch is PyTorch's printing).
usage: torch_tables_test.py DISPATCH_INSPECT [--runtime torch|python]..."""
import json
import re
import subprocess
import sys
import time

import torch


def all_operators():
    if hasattr(torch._C, "_dispatch_get_all_op_names"):
        return set(torch._C._dispatch_get_all_op_names())
    return set(torch._C._dispatch_get_registrations_for_dispatch_key(""))


def python_registered(dump):
    """Whether a _dispatch_dump names a registration made from Python (a .py site, or 1.13's
    /dev/null, where it records no file)."""
    return re.search(r"registered at (/dev/null:\d+|\S+\.py:\d+)", dump) is not None


def sections(text):
    """{operator: its table} from a glob's --format torch output: sections a blank line apart,
    each the operator's name, then its table."""
    tables = {}
    for section in text[:-1].split("\n\n"):
        if not section.strip():
            continue
        name, _, table = section.partition("\n")
        tables[name] = table + "\n" if table else ""
    return tables


def dump_keys(dump):
    """The keys with a kernel in a _dispatch_dump, alias keys written as `ops` writes them."""
    keys = set()
    for line in dump.splitlines()[1:]:
        key = line.split(": ", 1)[0]
        if ": " in line and not key.startswith(("schema", "debug", "alias analysis")):
            keys.add(key.replace("[alias]", "").replace(" (inactive)", ""))
    return keys


def cpp_keys(tool):
    """{operator: its keys with kernels} under --runtime torch (`ops --format json`)."""
    run = subprocess.run([tool, "ops", "--runtime", "torch", "--format", "json"], capture_output=True,
                         text=True, check=True)
    return {op["name"]: set(op["keys"]) for op in json.loads(run.stdout)["operators"]}


def compare(tool, runtime):
    command = [tool, "table", "*", "--runtime", runtime, "--format", "torch"]
    if runtime == "python":
        command += ["--python", sys.executable]
    started = time.monotonic()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - started
    assert run.returncode == 0, f"{' '.join(command)}: exit {run.returncode}\n{run.stderr[-2000:]}"
    release = re.match(r"\d+\.\d+\.\d+", torch.__version__).group()
    assert f"note: answered by PyTorch {release}" in run.stderr, run.stderr[-500:]
    ours = sections(run.stdout)
    here = all_operators()
    failures, compared, python_only, python_libraries = [], 0, 0, []
    cpp = cpp_keys(tool) if runtime == "torch" else {}
    for op in sorted(here):
        theirs = torch._C._dispatch_dump_table(op)
        if runtime == "torch" and python_registered(torch._C._dispatch_dump(op)):
            python_only += 1
            continue
        # Registered (or given kernels) by a C++ library only Python loads (libtorch_python:
        # aten::get_gradients, 2.14's inductor::resize_storage_bytes_): not libtorch's alone.
        if runtime == "torch" and (op not in cpp or dump_keys(torch._C._dispatch_dump(op)) != cpp[op]):
            python_libraries.append(op)
            continue
        compared += 1
        if op not in ours:
            failures.append(f"{op}: not in dispatch-inspect's output")
        elif ours[op] != theirs:
            failures.append(f"{op}: differs\n--- dispatch-inspect\n{ours[op]}--- PyTorch\n{theirs}")
    extra = sorted(set(ours) - here)
    if extra:
        failures.append(f"operators PyTorch here does not have: {extra[:10]}")
    left_out = (f"{python_only} with registrations from Python left out, {len(python_libraries)} with "
                f"C++ registrations of libraries only Python loads ({' '.join(python_libraries[:5])}); "
                if runtime == "torch" else "")
    print(f"--runtime {runtime}: {compared} of {len(here)} operators compared, all equal"
          if not failures else f"--runtime {runtime}: {len(failures)} of {compared} differ",
          f"({left_out}{seconds:.1f} s for one command)")
    return failures


def main(tool, runtimes):
    failures = []
    for runtime in runtimes or ["torch", "python"]:
        failures += compare(tool, runtime)
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} failures)"


if __name__ == "__main__":
    main(sys.argv[1], [a for a in sys.argv[2:] if a != "--runtime"])
