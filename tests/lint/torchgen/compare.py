#!/usr/bin/python3
"""Runs torchgen (the one /usr/bin/python3 imports; Debian's python3-torch gives 1.13) on every
case of tests/lint/torchgen/{accept,reject} and says where its verdict differs from the folder
the case is in, and so from what lint must say (tests/lint/torchgen_verdicts_test.cpp).

    /usr/bin/python3 tests/lint/torchgen/compare.py
"""
import glob
import os
import sys

import torchgen.gen as gen

here = os.path.dirname(os.path.abspath(__file__))
tags = os.path.join(here, "tags.yaml")
differ = 0
paths = sorted(glob.glob(os.path.join(here, "accept", "*.yaml")) + glob.glob(os.path.join(here, "reject", "*.yaml")))
for path in paths:
    gen._GLOBAL_PARSE_NATIVE_YAML_CACHE.clear()
    try:
        gen.get_grouped_native_functions(gen.parse_native_yaml(path, tags).native_functions)
        verdict, why = "accept", ""
    except BaseException as e:  # torchgen asserts, raises RuntimeError or a YAML error
        verdict, why = "reject", " ".join(str(e).split())[:160]
    expected = os.path.basename(os.path.dirname(path))
    if verdict != expected:
        differ += 1
        print(f"{os.path.relpath(path, here)}: torchgen says {verdict} {why}")
print(f"{len(paths) - differ} of {len(paths)} cases agree with torchgen")
sys.exit(0)
