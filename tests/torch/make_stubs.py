"""Writes a stub definition for every kernel a generated NativeFunctions.h (schemac gen --target
torch) declares: the same signature with unnamed parameters and a body that throws
"<kernel>: stub", so that the registrations compile, link and load, and a call shows which kernel
the dispatcher reached.

usage: python3 make_stubs.py NATIVE_FUNCTIONS_H OUT_CPP
"""
import re
import sys


def split_params(params):
    """The parameters of a declaration, split at the commas outside <...> and (...)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(params):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(params[start:i].strip())
            start = i + 1
    if params.strip():
        out.append(params[start:].strip())
    return out


def main(header, out_path):
    declaration = re.compile(r"^(?P<ret>.+?) (?P<name>\w+)\((?P<params>.*)\);$")
    lines = ["// Stub kernels for the declarations of " + header.rsplit("/", 1)[-1] + " (make_stubs.py).",
             '#include <stdexcept>', "", '#include "NativeFunctions.h"', ""]
    count = 0
    for line in open(header):
        line = line.rstrip("\n")
        if line.startswith("namespace ") or line.startswith("}  // namespace"):
            lines.append(line)
            continue
        if line.startswith("//") or line.startswith("#"):
            continue
        match = declaration.match(line)
        if not match:
            continue
        # Each parameter is "TYPE NAME": the type is everything before the last space.
        types = [p.rsplit(" ", 1)[0] for p in split_params(match["params"])]
        lines.append(f'{match["ret"]} {match["name"]}({", ".join(types)}) {{ '
                     f'throw std::runtime_error("{match["name"]}: stub"); }}')
        count += 1
    if count == 0:
        sys.exit(f"make_stubs.py: no declaration found in {header}")
    with open(out_path, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
