// The dispatch-inspect subcommands that are not about one operator, in the order --help lists
// them: each one's name, one-line description and --help footer. The options, the bind function
// and the run function stand in the subcommand's own file. The subcommands about one operator
// (table, dump, resolve, trace, and diff, which compares two tables of one operator) describe
// themselves through add_operator_command (operator_command.h), which writes their footers from
// one pattern.
#include "commands.h"

namespace schemac::inspect {

std::span<const cli::Command> general_commands() {
  static const cli::Command commands[] = {
      {{"simulate",
        "Register fn_KEY for each KEY on a fresh operator and print its dispatch table, as "
        "PythonDispatcher does",
        "Examples:\n"
        "  dispatch-inspect simulate CPU AutogradCPU CompositeImplicitAutograd\n"
        "  dispatch-inspect simulate --registrations CPU Autograd\n"
        "  dispatch-inspect simulate --all-keys --format json CompositeExplicitAutograd\n"
        "  dispatch-inspect simulate --script what-if.txt\n"
        "Exit status: 0 success, 1 a rejected registration or failed step, 2 usage or I/O error."},
       bind_simulate_command},
      {{"ops", "List the operators known after loading, with their schemas",
        "Example:\n  dispatch-inspect ops --load build/lib/runtime/kernels/libschemac_kernels.so\n"
        "Exit status: 0 success, 1 a library failed to load, 2 usage error."},
       bind_ops_command},
      {{"audit",
        "Check the operators the loaded libraries registered (all when none is loaded) for "
        "dispatch mistakes",
        "Examples:\n"
        "  dispatch-inspect audit --load build/examples/plugin/libschemac_example_plugin.so\n"
        "  dispatch-inspect audit --runtime torch --load libmyops.so --format sarif\n"
        "Rules: autograd-fallthrough, missing-meta, composite-implicit-with-backend, "
        "ambiguous-kernel,\n"
        "unreachable-kernel. --op GLOB audits only the operators it matches.\n"
        "(docs/dispatch-inspect.md says why each matters).\n"
        "Exit status: 0 no findings, 1 findings or a library failed to load, 2 usage error."},
       bind_audit_command},
      {{"report",
        "Write one self-contained HTML page with every operator's table, registrations and "
        "redispatch chains",
        "Examples:\n"
        "  dispatch-inspect report --load build/lib/runtime/kernels/libschemac_kernels.so -o "
        "kernels.html\n"
        "  dispatch-inspect report --runtime torch -o torch.html\n"
        "The page fetches nothing: open it in any browser. Its filter takes words such as add,\n"
        "key:AutogradCPU, kernel:RegisterCPU and reason:fallthrough (docs/dispatch-inspect.md).\n"
        "Exit status: 0 success, 1 a library failed to load, 2 usage error or FILE cannot be "
        "written."},
       bind_report_command},
  };
  return commands;
}

}  // namespace schemac::inspect
