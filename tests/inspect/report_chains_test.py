"""The report page's key-set box against `dispatch-inspect resolve`, and its callee links, in
headless Chromium (a test dependency, as for report_page_test.py).

  report_chains_test.py DISPATCH_INSPECT [--runtime torch] [--load LIB]... [--op OP]...

Writes the report page and a copy of it with one more script, which asks the page's own
resolveChain(OP, CALL) (the walk over the rules the C++ walk exported) for every operator (or
each --op) and every key set and call below (tensors, inference tensors, a device, autocast,
inference mode, include and exclude), and leaves the answers in the DOM; each must equal
`dispatch-inspect resolve OP OPTIONS --format json`, or be refused with resolve's own words (a
device for an operator without a Device argument, keys for one without tensors), and the page's
four preset chains must equal the ones the C++ walk embedded. On our runtime the page links an
operator to the operators its composite kernel calls: a click on such a link opens that operator.
"""
import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_page_test import FAILURES, browse, check, chromium, page_data, shown_operators  # noqa

KEY_SETS = [
    "CPU", "CUDA", "Meta", "", "AutogradCPU",
    "CPU,AutogradCPU,ADInplaceOrView",
    "CPU,ADInplaceOrView,AutogradCPU,AutocastCPU",      # what a CPU tensor carries
    "CUDA,ADInplaceOrView,AutogradCUDA,AutocastCUDA",   # and a CUDA tensor
    "CPU,AutocastCPU", "CUDA,AutocastCUDA",
    "Python,CPU", "Python,PythonTLSSnapshot,CPU,AutogradCPU",
    "NestedTensorCPU,AutogradNestedTensor", "NestedTensorCPU,AutogradNestedTensor,AutogradCPU",
    "Functionalize,CPU,AutogradCPU", "BackendSelect,Meta",
]
# Calls as resolve's options take them (wire.h's CallSpec, the page's call form).
CALLS = [
    {"tensors": ["cpu"]}, {"tensors": ["meta"]}, {"tensors": ["cuda"], "autocast": ["cuda"]},
    {"tensors": ["cpu"], "device": "meta"}, {"tensors": ["meta"], "device": "cpu"},
    {"device": "meta"}, {"device": "cuda", "inference_mode": True},
    {"inference_tensors": ["cpu"], "inference_mode": True},
    {"tensors": ["cpu"], "inference_mode": True, "autocast": ["cpu"]},
    {"inference_tensors": ["meta"]},
    {"keys": "CPU,AutogradCPU", "include": "Python", "exclude": "AutogradCPU"},
    {"tensors": ["cpu"], "exclude": "ADInplaceOrView,BackendSelect", "device": "meta"},
]


def options(call):
    """resolve's options for a call (the page's callOptions)."""
    if isinstance(call, str):
        return ["--keys", call]
    words = []
    for name, flag in [("keys", "--keys"), ("device", "--device"), ("include", "--include"),
                       ("exclude", "--exclude")]:
        if call.get(name):
            words += [flag, call[name]]
    for name, flag in [("tensors", "--tensor"), ("inference_tensors", "--inference-tensor"),
                       ("autocast", "--autocast")]:
        for value in call.get(name, []):
            words += [flag, value]
    return words + (["--inference-mode"] if call.get("inference_mode") else [])


def page_answers(page, work, questions):
    """resolveChain's answer to each (op, keys), from a copy of the page run in Chromium."""
    probe = os.path.join(work, "probe.html")
    asked = json.dumps(questions).replace("<", "\\u003c")
    script = ("<script>\nconst asked = " + asked + ";\nconst answers = asked.map(([op, keys]) => "
              "resolveChain(op, keys));\nconst text = JSON.stringify(answers);\n"
              "document.body.insertAdjacentHTML('beforeend', '<pre id=\"answers\">' + "
              "btoa(unescape(encodeURIComponent(text))) + '</pre>');\n</script>\n")
    text = open(page, encoding="utf-8").read()
    with open(probe, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", script + "</body>"))
    dom = browse(probe, "", os.path.join(work, "profile"), "--dump-dom")
    m = re.search(r'<pre id="answers">([A-Za-z0-9+/=]*)</pre>', dom)
    if not check(m is not None, "the probe script ran and left its answers"):
        return [None] * len(questions)
    return json.loads(base64.b64decode(m.group(1)).decode("utf-8"))


def resolved_all(tool, runtime, load, ops, call):
    """resolve's answer for each of `ops` under one call, from one process (OP... answers several
    in one run, which loads the runtime once): {op: answer}, where an operator that cannot take
    the call is {"error"} with resolve's words (its note when several are asked, its error when
    one is)."""
    r = subprocess.run([tool, "resolve", *ops, "--runtime", runtime, *load, *options(call),
                        "--format", "json"], capture_output=True, text=True, timeout=600)
    answers = {}
    for line in r.stderr.splitlines():
        m = re.match(r"note: skipped (\S+): (.*)$", line)
        if m:
            answers[m.group(1)] = {"error": m.group(2)}
        elif line.startswith("dispatch-inspect: error: ") and "takes no" in line and len(ops) == 1:
            answers[ops[0]] = {"error": line.removeprefix("dispatch-inspect: error: ")}
    every_one_refused = len(answers) == len(ops)
    # Exit 1: a chain ends where the call would fail (still answered); 2: none could take it.
    check(r.returncode in (0, 1) and r.stdout or r.returncode == 2 and every_one_refused,
          f"resolve {' '.join(ops)} {' '.join(options(call))}: exit {r.returncode} {r.stderr[-2000:]}")
    if r.stdout:
        chains = json.loads(r.stdout)
        for chain in chains if isinstance(chains, list) else [chains]:
            answers[chain["operator"]] = chain
    return answers


def preset_call(op, preset):
    """A preset as the operator takes it (the page's presetCall)."""
    if not op.get("factory"):
        return preset["call"]
    return preset["factory"] if op.get("device") else preset["bare"]


def compare_chains(tool, runtime, load, data, page, work, ops):
    by_name = {o["name"]: o for o in data["operators"]}
    questions = [[op, call] for op in ops for call in KEY_SETS + CALLS]
    presets = [[op, preset_call(by_name[op], p)] for op in ops for p in data["presets"]]
    typos = ["CPUU", "autogradcpu", "Autgrad", "NestedTensorCPX", "AutocastCUDa", "Xyzzy"]
    ops = [o for o in ops if not by_name[o].get("factory")] + \
        [o for o in ops if by_name[o].get("factory")]  # one that takes keys first
    unknown = [[ops[0], "CPU,AutogradCPUU"], [ops[0], "CPU,Autograd"]] + [
        [ops[0], t] for t in typos]
    answers = page_answers(page, work, questions + presets + unknown)
    by_call = [resolved_all(tool, runtime, load, ops, call) for call in KEY_SETS + CALLS]
    calls = len(KEY_SETS + CALLS)
    differ = 0
    refused = 0
    for index, ((op, call), got) in enumerate(zip(questions, answers)):
        want = by_call[index % calls].get(op)
        if want is not None:
            want.pop("runtime", None)  # who answered: the page says it once, in its title
        if got is not None:
            got.pop("fails", None)
            got.pop("suggestion", None) if "error" in got else None
        refused += bool(want and "error" in want)
        if got != want:
            differ += 1
            if differ <= 5:
                print(f"page:    {json.dumps(got)}\nresolve: {json.dumps(want)}")
        check(got == want, f"{op} {' '.join(options(call))}: the page's chain equals resolve's")
    # The preset chains the page draws from the embedded C++ chains, against the page's walk.
    strings = data["strings"]
    for index, ((op, call), got) in enumerate(zip(presets, answers[len(questions):])):
        embedded = by_name[op]["chains"][index % len(data["presets"])]
        steps = [[strings[s[0]], strings[s[1]]] for s in embedded[2]]
        check(got and [[s["key"], s["key_set"]] for s in got["chain"]] == steps and
              got["end"] == strings[embedded[3]], f"{op} preset {call} equals the embedded chain")
    refusals = [a or {} for a in answers[len(questions) + len(presets):]]
    bad = refusals[0]
    check("AutogradCPUU" in bad.get("error", "") and bad.get("suggestion") == "AutogradCPU",
          f"an unknown key gets a did-you-mean: {bad}")
    # The page's refusals and did-you-means are resolve's own (its error line and its note).
    for (op, keys), got in zip(unknown, refusals):
        r = subprocess.run([tool, "resolve", op, "--runtime", runtime, *load, "--keys", keys],
                           capture_output=True, text=True, timeout=300)
        lines = r.stderr.splitlines()
        first = lines[0] if lines else ""
        note = re.search(r"did you mean '([^']*)'", r.stderr)
        check(r.returncode == 2 and first.endswith(got.get("error", "?")) and
              (note.group(1) if note else "") == (got.get("suggestion") or ""),
              f"--keys '{keys}': the page says {got}, resolve {lines}")
    print(f"chains: {len(questions)} compared ({refused} refused alike), {differ} differ")


def check_callee_links(data, page, work):
    strings = data["strings"]
    calling = [o for o in data["operators"] if o.get("calls")]
    if not check(calling, "some operator's composite kernel calls another (lib/runtime/kernels' have)"):
        return
    names = {o["name"] for o in data["operators"]}
    op = next((o for o in calling if any(strings[c] in names for c in o["calls"])), calling[0])
    callee = next(strings[c] for c in op["calls"] if strings[c] in names)
    print(f"callees: {op['name']} calls {[strings[c] for c in op['calls']]}")
    # A click on the callee's link, with a filter that hides the callee: it opens.
    probe = os.path.join(work, "click.html")
    script = ("<script>\nsetTimeout(() => {\n  document.querySelector('details[data-op=" +
              json.dumps(op["name"]) + "] a.goto[data-goto=" + json.dumps(callee) +
              "]').click();\n  document.body.dataset.clicked = '1';\n}, 50);\n</script>\n")
    text = open(page, encoding="utf-8").read()
    with open(probe, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", script + "</body>"))
    fragment = "filter=" + op["name"] + "&open=" + op["name"]
    dom = browse(probe, fragment, os.path.join(work, "profile"), "--dump-dom",
                 "--virtual-time-budget=2000")
    check('data-clicked="1"' in dom, "the click script ran")
    opened = re.findall(r'<details class="op" data-op="([^"]*)"[^>]*open=""', dom)
    check(callee in opened, f"a click on {callee} under {op['name']} opens it ({opened})")
    check(callee in shown_operators(dom), f"{callee} is shown after the click")
    check("called by:" in dom, "the callee says who calls it")
    unknown = [o for o in data["operators"] if "calls_unknown" in o]
    for o in unknown:
        print(f"callees unknown: {o['name']}: {strings[o['calls_unknown']]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("--runtime", default="schemac")
    parser.add_argument("--load", action="append", default=[])
    parser.add_argument("--op", action="append", default=[])
    args = parser.parse_args()
    chromium()
    work = tempfile.mkdtemp(prefix="report_chains_test.")
    load = [a for lib in args.load for a in ("--load", lib)]
    page = os.path.join(work, "page.html")
    r = subprocess.run([args.tool, "report", "--runtime", args.runtime, *load, "-o", page],
                       capture_output=True, text=True, timeout=600)
    if not check(r.returncode == 0, f"report: exit {r.returncode}: {r.stderr[-500:]}"):
        sys.exit(1)
    data = page_data(open(page, encoding="utf-8").read())
    ops = args.op or [o["name"] for o in data["operators"]]
    compare_chains(args.tool, args.runtime, load, data, page, work, ops)
    if args.runtime == "schemac":
        check_callee_links(data, page, work)
    else:
        check(data["calls_note"] and not any("calls" in o or "calls_unknown" in o
                                             for o in data["operators"]),
              "without trace the page says so once, not per operator")
    if not FAILURES:
        shutil.rmtree(work, ignore_errors=True)
        print("ok")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
