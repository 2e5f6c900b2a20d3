#!/usr/bin/env python3
"""Tests of scripts/programs-tested-elsewhere.py: a test program is left out of the release build
only when the sanitizer run ran every test of it and both builds compile it alike."""

import importlib.util
import json
import os
import sys
import tempfile
import unittest

SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "..", "scripts", "programs-tested-elsewhere.py")
spec = importlib.util.spec_from_file_location("programs_tested_elsewhere", SCRIPT)
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)


def gtest(name, program):
    return {"name": name, "command": [f"/b/tests/{program}", f"--gtest_filter={name}",
                                      "--gtest_also_run_disabled_tests"]}


def command_test(name, program):
    return {"name": name, "command": [f"/b/tools/{program}", "lint", "x.yaml"]}


ALL = [gtest("A.one", "a_test"), gtest("A.two", "a_test"), gtest("B.one", "b_test"),
       gtest("C.one", "c_test"), gtest("D.one", "d_test"), command_test("schemac_lint", "schemac")]
SAME = {"-DNDEBUG", "-DTOOL=\"<build>/tools/schemac\""}


class TestedElsewhere(unittest.TestCase):
    def test_a_program_whose_every_test_ran_and_that_compiles_alike_is_listed(self):
        definitions = {"a_test": SAME, "b_test": SAME, "c_test": SAME, "d_test": SAME}
        self.assertEqual(script.tested_elsewhere(ALL, ALL, definitions, definitions),
                         ["a_test", "b_test", "c_test", "d_test"])

    def test_a_program_with_a_test_that_did_not_run_is_kept(self):
        selected = [test for test in ALL if test["name"] != "A.two"]
        definitions = {"a_test": SAME, "b_test": SAME, "c_test": SAME, "d_test": SAME}
        self.assertNotIn("a_test", script.tested_elsewhere(ALL, selected, definitions, definitions))

    def test_a_program_compiled_with_other_definitions_is_kept(self):
        tested = {"a_test": SAME, "b_test": SAME, "c_test": SAME, "d_test": SAME}
        other = dict(tested, b_test=SAME | {"-DHAVE_TORCH=1"}, c_test={"-DNDEBUG"})
        self.assertEqual(script.tested_elsewhere(ALL, ALL, tested, other), ["a_test", "d_test"])

    def test_a_program_the_other_build_lacks_is_not_listed(self):
        tested = {"a_test": SAME, "b_test": SAME, "c_test": SAME, "d_test": SAME}
        other = {"a_test": SAME}
        self.assertEqual(script.tested_elsewhere(ALL, ALL, tested, other), ["a_test"])

    def test_programs_that_are_not_googletest_programs_are_never_listed(self):
        definitions = {"schemac": SAME}
        self.assertEqual(script.tested_elsewhere([command_test("schemac_lint", "schemac")],
                                                 [command_test("schemac_lint", "schemac")],
                                                 definitions, definitions), [])


class TargetDefinitions(unittest.TestCase):
    def test_definitions_are_read_per_target_with_the_build_folder_as_a_placeholder(self):
        with tempfile.TemporaryDirectory() as build:
            entries = [
                {"directory": build, "file": "x.cxx",
                 "command": f"/usr/bin/c++ -DNDEBUG -DTOOL=\\\"{build}/tools/schemac\\\" -I{build}/inc "
                            "-O2 -o tests/a/CMakeFiles/a_test.dir/Unity/unity_0_cxx.cxx.o -c x.cxx"},
                {"directory": build, "file": "y.cxx",
                 "arguments": ["/usr/bin/c++", "-DHAVE_TORCH=1", "-o",
                               "tests/a/CMakeFiles/a_test.dir/y.cxx.o", "-c", "y.cxx"]},
                {"directory": build, "file": "z.cxx",
                 "command": "/usr/bin/c++ -DLIB -o lib/CMakeFiles/lib.dir/z.cxx.o -c z.cxx"},
            ]
            with open(os.path.join(build, "compile_commands.json"), "w", encoding="utf-8") as file:
                json.dump(entries, file)
            definitions = script.target_definitions(build)
        self.assertEqual(definitions["a_test"],
                         {"-DNDEBUG", "-DTOOL=\"<build>/tools/schemac\"", "-DHAVE_TORCH=1"})
        self.assertEqual(definitions["lib"], {"-DLIB"})


if __name__ == "__main__":
    unittest.main()
