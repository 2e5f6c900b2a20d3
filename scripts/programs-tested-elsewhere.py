#!/usr/bin/env python3
"""Prints the GoogleTest programs that one build's test run covers in full for another build.

scripts/test.sh builds every test program under AddressSanitizer and runs most of its tests there,
then builds the release tree, where it runs only the tests the sanitizer run left out. A test
program need not be compiled a second time for the release tree when the sanitizer run ran every
one of its tests and the program compiles the same tests in both builds. This prints those
programs, a line each, for the release build's SCHEMAC_TEST_PROGRAMS_TESTED_ELSEWHERE.

    programs-tested-elsewhere.py TESTED_BUILD OTHER_BUILD -- CTEST_SELECTION...

A program of TESTED_BUILD is printed when
  - it is a GoogleTest program (ctest runs its tests with --gtest_filter=),
  - `ctest CTEST_SELECTION` in TESTED_BUILD selects every one of its tests, and
  - its sources compile with the same preprocessor definitions in both builds (from each build's
    compile_commands.json, the build's own folder written as one placeholder): tests that
    `#ifdef` on an optional part, PyTorch or CUDA, exist only in the build that has it.
A program OTHER_BUILD does not have is not printed.
"""

import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys


def ctest_tests(build, selection):
    """The tests `ctest selection` selects in build, as ctest's JSON describes them."""
    output = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1", *selection],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)["tests"]


def gtest_programs(tests):
    """Each GoogleTest program's file name and the names of its tests."""
    programs = collections.defaultdict(set)
    for test in tests:
        command = test.get("command") or []
        if any(argument.startswith("--gtest_filter=") for argument in command[1:]):
            programs[os.path.basename(command[0])].add(test["name"])
    return programs


def target_definitions(build):
    """Each target's preprocessor definitions, over all its sources, the build folder's own path
    replaced by <build> (paths to the build's files differ between builds by that alone)."""
    root = os.path.abspath(build)
    definitions = collections.defaultdict(set)
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as file:
        entries = json.load(file)
    for entry in entries:
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        output = entry.get("output") or next(
            (arguments[i + 1] for i, argument in enumerate(arguments[:-1]) if argument == "-o"), "")
        target = re.search(r"CMakeFiles/([^/]+)\.dir/", output)
        if target:
            definitions[target.group(1)].update(
                argument.replace(root, "<build>") for argument in arguments if argument.startswith("-D"))
    return definitions


def tested_elsewhere(all_tests, selected_tests, tested_definitions, other_definitions):
    """The programs of all_tests whose every test is in selected_tests and whose definitions are
    the same in both builds, sorted."""
    selected = {test["name"] for test in selected_tests}
    return sorted(program for program, names in gtest_programs(all_tests).items()
                  if names <= selected and program in other_definitions
                  and tested_definitions.get(program) == other_definitions[program])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tested_build", help="the build whose test run is given by the selection")
    parser.add_argument("other_build", help="a configured build of the same checkout")
    parser.add_argument("selection", nargs=argparse.REMAINDER,
                        help="-- then ctest's selection options (-L, -LE, -R, -E ...)")
    args = parser.parse_args()
    selection = args.selection[1:] if args.selection[:1] == ["--"] else args.selection
    for program in tested_elsewhere(ctest_tests(args.tested_build, []),
                                     ctest_tests(args.tested_build, selection),
                                     target_definitions(args.tested_build),
                                     target_definitions(args.other_build)):
        print(program)


if __name__ == "__main__":
    sys.exit(main())
