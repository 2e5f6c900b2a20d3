// The schemac subcommands, in the order --help lists them: each one's name, one-line
// description and --help footer (examples, exit codes). The options, the bind function that adds
// them and the run function stand in the subcommand's own file (parse_command.cpp, ...).
#include "commands.h"

namespace schemac::tool {

std::span<const cli::Command> schemac_commands() {
  static const cli::Command commands[] = {
      {{"parse", "Parse function schemas and print their canonical form (or JSON)",
        "Examples:\n"
        "  schemac parse 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor'\n"
        "  grep -h '^- func:' native_functions.yaml | cut -c9- | schemac parse --json\n"
        "  schemac parse --source csrc/torch_bindings.cpp ops.py --json\n"
        "Exit codes: 0 every schema parsed, 1 some schema has an error (or, with --werror, a\n"
        "warning), 2 usage error."},
       bind_parse_command},
      {{"lint",
        "Check operator YAML files (native_functions.yaml, backend and executorch YAMLs) and the "
        "schemas in C++/Python registration code: every problem, with its line, column and rule id",
        "Output (stdout): file:line:col: error|warning: message [rule-id], the source line and a "
        "caret,\n"
        "then a summary. Colour per --color (auto: on a terminal, unless NO_COLOR is set).\n"
        "FILE may be a folder (searched for YAML, C++ and Python files) or '-' (stdin, named by\n"
        "--stdin-filename). A .schemac.yaml at or above each input configures rules; a comment\n"
        "'# schemac: ignore[rule-id]' ('//' in C++) silences a rule on its line or entry.\n"
        "Exit codes: 0 clean, 1 errors (or warnings with --werror), 2 usage or I/O errors.\n"
        "Examples:\n"
        "  schemac lint --fix native_functions.yaml\n"
        "  schemac lint --fix --diff ops.yaml\n"
        "  schemac lint --select retired-field --format github src/\n"
        "  schemac lint --format sarif native_functions.yaml > lint.sarif"},
       bind_lint_command},
      {{"compat",
        "Report the changes between two versions of a native-functions file that break old callers",
        "Operators are matched by name and overload. Each breaking change is reported in NEW (in "
        "OLD\n"
        "for removals) with a note pointing at the other file: file:line:col: error: message "
        "[rule-id].\n"
        "Additions that keep old calls working (new operators, new overloads, new trailing "
        "arguments\n"
        "with defaults, wider argument types) are not reported.\n"
        "Exit codes: 0 compatible, 1 breaking changes (or bad input, or an expired allow-list "
        "entry),\n"
        "2 usage or I/O errors.\n"
        "Examples:\n"
        "  schemac compat old/native_functions.yaml native_functions.yaml\n"
        "  schemac compat <(git show main:ops.yaml) ops.yaml --allow compat-allow.yaml\n"
        "  schemac compat --format sarif old.yaml new.yaml > compat.sarif\n"
        "Allow-list example:\n"
        "  - operator: add.Tensor\n"
        "    rule: renamed-argument\n"
        "    reason: the old name was a typo; no release shipped it\n"
        "    expires: 2026-06-30"},
       bind_compat_command},
      {{"gen", "Generate registration code, kernel declarations and operator handles",
        "Writes NativeFunctions.h, Operators.h, RegisterSchema.cpp, Register<KEY>.cpp per "
        "dispatch\n"
        "key (or Register_<i>of<N>.cpp with --shards N) and RegisterAll.cpp. Lint runs first: on "
        "any\n"
        "error nothing is written. A file is replaced (atomically) only when its bytes change.\n"
        "Register_<i>of<N>.cpp files in DIR that the run does not write (left by a run with "
        "another\n"
        "--shards) are removed; --list-outputs lists only what a run writes, and removes nothing.\n"
        "--target torch writes NativeFunctions.h (kernels with torchgen's native signatures),\n"
        "RegisterSchema.cpp (TORCH_LIBRARY) and the TORCH_LIBRARY_IMPL blocks in "
        "Register<KEY>.cpp\n"
        "(or Register_<i>of<N>.cpp); a kernel `ns::fn` is ns::fn, an unqualified `fn` <op "
        "ns>::native::fn.\n"
        "Exit codes: 0 success, 1 errors in the input, 2 usage or I/O errors.\n"
        "Examples:\n"
        "  schemac gen examples/ops.yaml -o build/gen\n"
        "  schemac gen ops.yaml -o gen --shards 4 --depfile gen/ops.d --source-root ..\n"
        "  schemac gen ops.yaml -o gen --list-outputs\n"
        "  schemac gen --target torch my_ops.yaml -o gen"},
       bind_gen_command},
      {{"lsp",
        "Serve the lint diagnostics, quick fixes, hover and completion to an editor (Language "
        "Server Protocol on stdin/stdout)",
        "Speaks LSP over stdin/stdout for YAML (native_functions, backend, executorch), C++ and "
        "Python\n"
        "registration files; docs/editor.md shows the set-up for neovim, VS Code and Emacs.\n"
        "Exit codes: 0 after shutdown and exit, 1 when the input ends without them, 2 usage "
        "error."},
       bind_lsp_command},
  };
  return commands;
}

}  // namespace schemac::tool
