// The schemac subcommands, in the order --help lists them: each one's name, one-line
// description and --help footer (examples, exit codes). The options, the bind function that adds
// them and the run function stand in the subcommand's own file (parse_command.cpp, ...).
#include "commands.h"

namespace schemac::tool {

std::span<const cli::Command> schemac_commands() {
  static const cli::Command commands[] = {
      {{"parse", "Parse function schemas and print their canonical form (or JSON)",
        R"schemac(Examples:
  schemac parse 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor'
  grep -h '^- func:' native_functions.yaml | cut -c9- | schemac parse --json
  schemac parse --source csrc/torch_bindings.cpp ops.py --json
Exit codes: 0 every schema parsed, 1 some schema has an error (or, with --werror, a
warning), 2 usage error.)schemac"},
       bind_parse_command},
      {{"lint",
        "Check operator YAML files (native_functions.yaml, backend and executorch YAMLs) and the "
        "schemas in C++/Python registration code: every problem, with its line, column and rule id",
        R"schemac(Output (stdout): file:line:col: error|warning: message [rule-id], the source line and a caret,
then a summary; a clean run says what it checked on stderr (-q: nothing). Colour per --color.
FILE may be a folder (searched for YAML, C++ and Python files) or '-' (stdin, named by
--stdin-filename). A .schemac.yaml at or above each input configures rules; a comment
'# schemac: ignore[rule-id]' ('//' in C++) silences a rule on its line or entry.
Exit codes: 0 clean, 1 errors (or warnings with --werror), 2 usage or I/O errors.
Examples:
  schemac lint --fix native_functions.yaml
  schemac lint --fix --diff ops.yaml
  schemac lint --select retired-field --format github src/
  schemac lint --format sarif native_functions.yaml > lint.sarif)schemac"},
       bind_lint_command},
      {{"compat",
        "Report the changes between two versions of a native-functions file that break old callers",
        R"schemac(Operators are matched by name and overload. Each breaking change is reported in NEW (in OLD
for removals) with a note pointing at the other file: file:line:col: error: message [rule-id].
Additions that keep old calls working (new operators, new overloads, new trailing arguments
with defaults, wider argument types) are not reported.
Exit codes: 0 compatible, 1 breaking changes (or bad input, or an expired allow-list entry),
2 usage or I/O errors.
Examples:
  schemac compat old/native_functions.yaml native_functions.yaml
  schemac compat <(git show main:ops.yaml) ops.yaml --allow compat-allow.yaml
  schemac compat --format sarif old.yaml new.yaml > compat.sarif
Allow-list example:
  - operator: add.Tensor
    rule: renamed-argument
    reason: the old name was a typo; no release shipped it
    expires: 2026-06-30)schemac"},
       bind_compat_command},
      {{"gen", "Generate registration code, kernel declarations and operator handles",
        R"schemac(Writes NativeFunctions.h, Operators.h, RegisterSchema.cpp, Register<KEY>.cpp per dispatch
key (or Register_<i>of<N>.cpp with --shards N) and RegisterAll.cpp. Lint runs first: on any
error nothing is written. A file is replaced (atomically) only when its bytes change.
Register_<i>of<N>.cpp files in DIR that the run does not write (left by a run with another
--shards) are removed; --list-outputs lists only what a run writes, and removes nothing.
--target torch writes NativeFunctions.h (kernels with torchgen's native signatures),
RegisterSchema.cpp (TORCH_LIBRARY) and the TORCH_LIBRARY_IMPL blocks in Register<KEY>.cpp
(or Register_<i>of<N>.cpp); a kernel `ns::fn` is ns::fn, an unqualified `fn` <op ns>::native::fn.
Exit codes: 0 success, 1 errors in the input, 2 usage or I/O errors.
Examples:
  schemac gen examples/ops.yaml -o build/gen
  schemac gen ops.yaml -o gen --shards 4 --depfile gen/ops.d --source-root ..
  schemac gen ops.yaml -o gen --list-outputs
  schemac gen --target torch my_ops.yaml -o gen)schemac"},
       bind_gen_command},
      {{"lsp",
        "Serve the lint diagnostics, quick fixes, hover and completion to an editor (Language "
        "Server Protocol on stdin/stdout)",
        R"schemac(Speaks LSP over stdin/stdout for YAML (native_functions, backend, executorch), C++ and Python
registration files; docs/editor.md shows the set-up for neovim, VS Code and Emacs.
Exit codes: 0 after shutdown and exit, 1 when the input ends without them, 2 usage error.)schemac"},
       bind_lsp_command},
  };
  return commands;
}

}  // namespace schemac::tool
