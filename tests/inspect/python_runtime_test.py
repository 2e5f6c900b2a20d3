"""`dispatch-inspect --runtime python` against the Python that runs this test (PyTorch 1.13 on
bookworm, 2.14 in the sid root): what Python registered is there and `--runtime torch` lacks it.
- a user's own operators, imported with --import: a torch.library.custom_op on PyTorch 2.x (its
  fake kernel too), torch.library.Library(...).define/impl on 1.13; their tables equal
  torch._C._dispatch_dump_table here, and the kernels say they were registered from Python;
- aten::relu on a meta tensor reaches the Meta kernel PyTorch registers from Python, where the
  C++-only runtime reaches none (1.13) or the Meta fallback (2.x); prims::log exists only here;
- every output says which PyTorch answered (text, JSON, pictures, the page; stderr for
  --format torch), and the C++-only runtime says that Python's registrations are not in it;
- the errors: a module that fails to import, a Python that cannot be run, --import without
  --runtime python.
usage: python_runtime_test.py DISPATCH_INSPECT"""
import json
import os
import re
import subprocess
import sys
import tempfile

import torch

MODULE = "inspect_py_ops"
CUSTOM_OP = hasattr(torch.library, "custom_op")
SOURCE_2X = '''import torch

@torch.library.custom_op("inspect_py::scale", mutates_args=())
def scale(x: torch.Tensor, factor: float) -> torch.Tensor:
    return x * factor

@scale.register_fake
def _(x, factor):
    return torch.empty_like(x)
'''
SOURCE_1_13 = '''import torch

lib = torch.library.Library("inspect_py", "DEF")
lib.define("scale(Tensor x, float factor) -> Tensor")
lib.impl("scale", lambda x, factor: x * factor, "CPU")
'''
FAILURES = []


def check(what, ok, detail=""):
    print(("ok " if ok else "FAIL ") + what)
    if not ok:
        FAILURES.append(f"{what}\n{detail}")


def from_python(site):
    """A site PyTorch records for a Python registration: a .py file, or 1.13's /dev/null."""
    return bool(site) and (re.search(r"\.py:\d+$", site) is not None or site.startswith("/dev/null"))


def main(tool):
    work = tempfile.mkdtemp(prefix="inspect_python_runtime_")
    with open(os.path.join(work, MODULE + ".py"), "w", encoding="utf-8") as f:
        f.write(SOURCE_2X if CUSTOM_OP else SOURCE_1_13)
    env = dict(os.environ, PYTHONPATH=work + os.pathsep + os.environ.get("PYTHONPATH", ""))
    sys.path.insert(0, work)
    __import__(MODULE)
    python = ["--runtime", "python", "--python", sys.executable]

    def run(*args):
        return subprocess.run([tool, *args], capture_output=True, text=True, env=env)

    # A user's own operators, as this process has them.
    table = run("table", "inspect_py::scale", *python, "--import", MODULE, "--format", "torch")
    theirs = torch._C._dispatch_dump_table("inspect_py::scale")
    check("table --format torch equals _dispatch_dump_table for the imported operator",
          table.returncode == 0 and table.stdout == theirs, f"{table.stderr}\n{table.stdout}---\n{theirs}")
    check("--format torch says who answered on stderr",
          f"note: answered by PyTorch {torch.__version__} in Python" in table.stderr, table.stderr)
    dump = json.loads(run("dump", "inspect_py::scale", *python, "--import", MODULE, "--format", "json").stdout)
    check("the operator's kernels were registered from Python",
          dump["kernels"] and all(from_python(k["site"]) for k in dump["kernels"]), json.dumps(dump))
    check("JSON says who answered", dump["runtime"]["runtime"] == "python"
          and dump["runtime"]["torch_version"] == torch.__version__
          and dump["runtime"]["imports"] == [MODULE] and dump["runtime"]["python_registrations"], json.dumps(dump["runtime"]))
    resolved = run("resolve", "inspect_py::scale", "--tensor", "cpu", *python, "--import", MODULE)
    check("resolve reaches a kernel registered from Python", resolved.returncode == 0
          and "(registered from Python)" in resolved.stdout, resolved.stdout + resolved.stderr)
    check("text starts with who answered", resolved.stdout.startswith(
        f"# answered by PyTorch {torch.__version__} in Python "), resolved.stdout)
    without = run("table", "inspect_py::scale", *python)
    check("without --import the operator is unknown", without.returncode == 1, without.stderr)
    if CUSTOM_OP:
        fake = run("resolve", "inspect_py::scale", "--tensor", "meta", *python, "--import", MODULE, "--format", "json")
        meta = json.loads(fake.stdout)
        check("custom_op's fake kernel answers a meta tensor",
              fake.returncode == 0 and meta["chain"][-1]["key"] == "Meta" and from_python(meta["chain"][-1]["site"]),
              fake.stdout + fake.stderr)

    # PyTorch's own Python registrations: Meta kernels of aten operators, prims.
    meta_py = run("resolve", "aten::relu", "--tensor", "meta", *python, "--format", "json")
    meta_cpp = run("resolve", "aten::relu", "--tensor", "meta", "--runtime", "torch", "--format", "json", "--allow-missing")
    py_step = json.loads(meta_py.stdout)["chain"][-1]
    cpp_step = json.loads(meta_cpp.stdout)["chain"][-1]
    check("aten::relu on a meta tensor reaches the Meta kernel Python registered",
          meta_py.returncode == 0 and py_step["key"] == "Meta" and py_step["reason"] == "kernel"
          and from_python(py_step["site"]), meta_py.stdout + meta_py.stderr)
    check("--runtime torch reaches no such kernel", cpp_step["key"] != "Meta" or cpp_step["reason"] != "kernel"
          or not from_python(cpp_step["site"] or ""), meta_cpp.stdout)
    check("--runtime torch's JSON says Python's registrations are not in it",
          json.loads(meta_cpp.stdout)["runtime"]["python_registrations"] is False, meta_cpp.stdout)
    torch_text = run("resolve", "aten::relu", "--tensor", "cpu", "--runtime", "torch")
    check("--runtime torch's text says Python's registrations are not in it",
          torch_text.stdout.startswith("# answered by PyTorch ") and "--runtime python reads it" in torch_text.stdout.splitlines()[0],
          torch_text.stdout)
    ops_py = {o["name"] for o in json.loads(run("ops", *python, "--format", "json").stdout)["operators"]}
    ops_cpp = {o["name"] for o in json.loads(run("ops", "--runtime", "torch", "--format", "json").stdout)["operators"]}
    check("prims::log exists in Python only", "prims::log" in ops_py and "prims::log" not in ops_cpp,
          f"python: {'prims::log' in ops_py}, torch: {'prims::log' in ops_cpp}")
    prims = run("table", "prims::log", *python, "--format", "torch")
    check("prims::log's table equals _dispatch_dump_table",
          prims.stdout == torch._C._dispatch_dump_table("prims::log"), prims.stdout + prims.stderr)

    # Pictures and the page say who answered.
    dot = run("table", "aten::relu", *python, "--format", "dot").stdout
    check("DOT's title says who answered", f"PyTorch {torch.__version__} in Python" in dot, dot[:400])
    mermaid = run("resolve", "aten::relu", "--tensor", "cpu", *python, "--format", "mermaid").stdout
    check("Mermaid's title says who answered", mermaid.startswith("---\ntitle: \"PyTorch "), mermaid[:200])
    page_path = os.path.join(work, "page.html")
    page = run("report", *python, "--import", MODULE, "-o", page_path)
    with open(page_path, encoding="utf-8") as f:
        html = f.read() if page.returncode == 0 else ""
    check("the page says who answered and has the imported operator",
          page.returncode == 0 and f"PyTorch {torch.__version__} in Python" in html and "inspect_py::scale" in html,
          page.stdout + page.stderr)

    # Errors.
    broken = run("ops", *python, "--import", "inspect_no_such_module")
    check("a module that fails to import: exit 1, said", broken.returncode == 1
          and "--import inspect_no_such_module: ModuleNotFoundError" in broken.stderr, broken.stderr)
    nowhere = run("ops", "--runtime", "python", "--python", os.path.join(work, "no-python"))
    check("a Python that cannot be run: exit 2, said", nowhere.returncode == 2
          and "--runtime python cannot run" in nowhere.stderr, nowhere.stderr)
    misplaced = run("ops", "--runtime", "torch", "--import", MODULE)
    check("--import without --runtime python: exit 2", misplaced.returncode == 2
          and "--import works with --runtime python" in misplaced.stderr, misplaced.stderr)
    if FAILURES:
        sys.exit("\n\n".join(FAILURES))


if __name__ == "__main__":
    main(sys.argv[1])
