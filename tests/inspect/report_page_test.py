"""dispatch-inspect report end to end, in a real browser (headless Chromium, a test dependency:
scripts/install-deps.sh installs it, and a missing chromium fails this test).

  report_page_test.py DISPATCH_INSPECT [--runtime torch] [--load LIB]... [--expect-fallthrough OP]
      [--bad-input]

Writes the report page, then checks: no outside resource (no URL, no <link>, no src=, no url());
Chromium runs its scripts (every operator of the embedded data is an element in the dumped DOM);
a screenshot of an expanded operator is not blank; the filter (#filter=... in the address, read
at load) leaves exactly the operators it should; an expanded operator shows its matrix, its
registrations and one chain per key set. --bad-input adds the error rows (no -o, an unwritable
-o, an unknown --runtime, a library that fails to load), each leaving no output behind.
"""
import argparse
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL: " + message)
    return condition


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    sys.exit("FAIL: no chromium on PATH: it is a test dependency (scripts/install-deps.sh)")


def browse(page, fragment, profile, *extra):
    """Chromium's output for `page#fragment`: the DOM after scripts, or a screenshot."""
    url = "file://" + urllib.parse.quote(os.path.abspath(page))
    url += "#" + fragment if fragment else ""
    command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--user-data-dir=" + profile, "--window-size=1280,900", *extra, url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    check(done.returncode == 0, f"chromium exit {done.returncode}: {done.stderr[-2000:]}")
    # The elements only: the page's script and data hold the same markup as text.
    return re.sub(r"<script\b.*?</script>", "", done.stdout, flags=re.S)


def shown_operators(dom):
    return [html.unescape(m) for m in re.findall(r'<details class="op" data-op="([^"]*)"', dom)]


def page_data(text):
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    check(m is not None, "the page embeds its data")
    return json.loads(m.group(1))


def png_colours(path):
    """The number of distinct RGB(A) pixels of an 8-bit PNG (no library needed)."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour_type = header[:4]
    check(depth == 8 and colour_type in (2, 6), f"an 8-bit RGB(A) PNG ({depth}, {colour_type})")
    bpp = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    previous, colours = bytearray(stride), set()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                paeth = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + paeth) & 255
        if y % 4 == 0:
            colours.update(bytes(line[x:x + 3]) for x in range(0, stride, bpp * 4))
        previous = line
    return len(colours)


def expected_by_filter(data, key, fallthrough):
    """Operators with a row for `key` that is (not) a fallthrough: what key:KEY reason:fallthrough
    leaves, from the embedded data rather than the page's script."""
    strings, out = data["strings"], []
    for op in data["operators"]:
        if any(strings[r[0]] == key and bool(r[4]) == fallthrough for r in op["rows"]):
            out.append(op["name"])
    return out


def bad_input(tool, work, load):
    def expect(what, code, words, *args):
        r = subprocess.run([tool, "report", *args], capture_output=True, text=True, timeout=300)
        check(r.returncode == code and all(w in r.stderr for w in words),
              f"{what}: exit {r.returncode} (expected {code}), stderr {r.stderr!r}")

    expect("report without -o", 2, ["--output"], *load)
    expect("-o in a missing directory", 2, ["cannot write", "missing-dir"],
           *load, "-o", os.path.join(work, "missing-dir", "page.html"))
    expect("-o a directory", 2, ["cannot write", "is a directory"], *load, "-o", work)
    expect("an unknown --runtime", 2, ["--runtime", "tensorflow"],
           *load, "--runtime", "tensorflow", "-o", os.path.join(work, "x.html"))
    # A library that fails to load: exit 1, and the file that was there is untouched.
    kept = os.path.join(work, "kept.html")
    with open(kept, "w") as f:
        f.write("old page")
    expect("a library that fails to load", 1, ["cannot load"],
           "--load", os.path.join(work, "no-such-library.so"), "-o", kept)
    check(open(kept).read() == "old page", "a failed report leaves the old file as it was")
    left = [f for f in os.listdir(work) if ".tmp" in f]
    check(not left, f"no temporary file is left behind: {left}")
    print("bad input: ok")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("--runtime", default="schemac")
    parser.add_argument("--load", action="append", default=[])
    parser.add_argument("--expect-fallthrough", default="")
    parser.add_argument("--bad-input", action="store_true")
    args = parser.parse_args()
    chromium()
    work = tempfile.mkdtemp(prefix="report_page_test.")
    load = [a for lib in args.load for a in ("--load", lib)]
    page = os.path.join(work, "page.html")
    started = time.monotonic()
    r = subprocess.run([args.tool, "report", "--runtime", args.runtime, *load, "-o", page],
                       capture_output=True, text=True, timeout=600)
    seconds = time.monotonic() - started
    # How long it took is printed for the log; the figure itself is README.md's (Benchmarks).
    print(f"report: exit {r.returncode} in {seconds:.1f} s: {r.stdout.strip()}", r.stderr[-500:])
    if not check(r.returncode == 0 and os.path.exists(page), "report writes the page"):
        sys.exit(1)
    text = open(page, encoding="utf-8").read()
    for pattern in (r"https?:", r"<link\b", r"\bsrc\s*=", r"\bhref\s*=", r"url\(", r"@import"):
        check(re.search(pattern, text, re.I) is None, f"no outside resource: found {pattern}")
    data = page_data(text)
    names = [op["name"] for op in data["operators"]]
    check(len(names) > 0 and f"wrote {page}: {len(names)} operators" in r.stdout,
          "the summary line")
    listed = subprocess.run([args.tool, "ops", "--runtime", args.runtime, *load,
                             "--format", "json"], capture_output=True, text=True, timeout=300)
    known = {op["name"] for op in json.loads(listed.stdout)["operators"]}
    check(set(names) <= known, "every operator of the page is one the runtime knows")
    if not args.load:
        check(set(names) == known, "with nothing loaded, the page has every operator")
    profile = os.path.join(work, "profile")

    # Scripts ran: every operator is an element, and the page counted them.
    dom = browse(page, "", profile, "--dump-dom")
    check(sorted(shown_operators(dom)) == sorted(names),
          f"every operator in the DOM after scripts ({len(shown_operators(dom))} of {len(names)})")
    check(f'data-operators="{len(names)}"' in dom, "the script counted the operators")

    # The filter, from the address: an operator's name, then a key and a reason.
    first = names[0]
    dom = browse(page, "filter=" + urllib.parse.quote(first), profile, "--dump-dom")
    check(sorted(shown_operators(dom)) == sorted(n for n in names if first.lower() in n.lower()),
          f"filter by operator '{first}'")
    check(len(shown_operators(dom)) < len(names) or len(names) == 1, "the filter leaves some out")
    key = "AutogradCPU"
    for reason, fallthrough in (("fallthrough", True), ("", False)):
        words = f"key:{key}" + (f" reason:{reason}" if reason else "")
        dom = browse(page, "filter=" + urllib.parse.quote(words), profile, "--dump-dom")
        expected = expected_by_filter(data, key, fallthrough) if reason else [
            op["name"] for op in data["operators"]
            if any(data["strings"][row[0]] == key for row in op["rows"])]
        check(sorted(shown_operators(dom)) == sorted(expected),
              f"filter '{words}': {len(expected)} expected")
    if args.expect_fallthrough:
        check(args.expect_fallthrough in expected_by_filter(data, key, True),
              f"{args.expect_fallthrough} falls through on {key}")

    # An expanded operator: its matrix, registrations, the call form's chain and one chain per
    # preset, drawn.
    opened = "filter=" + urllib.parse.quote(first) + "&open=" + urllib.parse.quote(first)
    dom = browse(page, opened, profile, "--dump-dom")
    check('<table class="matrix">' in dom and '<table class="regs">' in dom,
          "matrix and registrations")
    check(dom.count('<div class="chain') == len(data["presets"]) + 1 and
          len(data["presets"]) == 4, "the form's chain and a chain per preset")
    check(dom.count("<svg") >= 4 and "<rect" in dom, "the chains are drawn")
    check(f"$ dispatch-inspect resolve {html.escape(first)}" in dom,
          "the form's chain says its command line")
    # Counts read as words ("12 direct"); an empty entry is "no kernel", not a failure, unless a
    # call the operator needs reaches it ("would fail", from the C++ audit's failing_entries).
    check(re.search(r'class="chip r-[a-z-]+"[^>]*>\d+ [a-z]+</span>', dom) is not None,
          "labelled counts")
    op = data["operators"][names.index(first)]
    empty = len(data["keys"]) - len(op["rows"]) - len(op["needs"])
    check(empty == 0 or f">{empty} no kernel</span>" in dom, f"{empty} keys without a kernel")
    check(not op["needs"] or f'>{len(op["needs"])} would fail</span>' in dom,
          f"{len(op['needs'])} entries that would fail")
    check(">missing<" not in dom.split('id="legend"')[-1].split("</summary>")[0],
          "no red 'missing' count")
    # Kernel columns are headed by the kernel's own short name, not K1, K2, ...
    # (a fallthrough or a backend fallback takes one cell across them instead)
    kernels = {data["strings"][r[1]] for r in op["rows"]
               if r[1] >= 0 and not r[4] and data["strings"][r[2]] != "backend fallback"}
    check('<th class="kernel" title="' in dom and ">K1</th>" not in dom, "named kernel columns")
    short = lambda k: k.rsplit("/", 1)[-1] if k.startswith("registered at ") else k
    check(all(f"<span>{html.escape(short(k))}</span></th>" in dom for k in kernels
              if data["strings"][0] is not None and "fallback" not in k),
          "each kernel column is headed by its name")
    # The form fills from the address, and the chain follows it: a Meta tensor under inference
    # mode, say.
    with_call = opened + "&tensor=meta&inference_tensor=1&inference_mode=1"
    dom = browse(page, with_call, profile, "--dump-dom")
    check("--inference-tensor meta --inference-mode" in dom, "the call form from the address")
    shot = os.path.join(work, "page.png")
    browse(page, opened, profile, "--screenshot=" + shot, "--hide-scrollbars")
    check(os.path.exists(shot) and os.path.getsize(shot) > 10000, "a screenshot")
    if os.path.exists(shot):
        colours = png_colours(shot)
        check(colours > 20, f"the screenshot is not blank ({colours} colours)")
    if args.bad_input:
        bad_input(args.tool, work, load)
    if not FAILURES:
        shutil.rmtree(work, ignore_errors=True)
        print(f"ok: {len(names)} operators")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
