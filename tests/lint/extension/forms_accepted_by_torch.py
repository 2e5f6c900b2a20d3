"""Checks that PyTorch accepts every schema of forms.yaml: each is defined with
torch.library.Library(ns, "DEF").define(...), as an extension registers it. Exit 1 naming the
rejected ones. Usage: python3 forms_accepted_by_torch.py forms.yaml"""
import re
import sys

import torch

rejected = []
library = torch.library.Library("schemac_forms_check", "DEF")
with open(sys.argv[1], encoding="utf-8") as forms:
    for line in forms:
        match = re.match(r"- func: \w+::(.*)$", line.rstrip("\n"))
        if not match:
            continue
        try:
            library.define(match.group(1))
        except RuntimeError as error:
            rejected.append(f"{match.group(1)}: {str(error).splitlines()[0]}")
for problem in rejected:
    print(f"rejected by PyTorch {torch.__version__}: {problem}")
sys.exit(1 if rejected else 0)
