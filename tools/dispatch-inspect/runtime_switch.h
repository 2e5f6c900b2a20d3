// `--runtime schemac|torch`, taken out of the command line before it is parsed. With
// `--runtime torch`, dispatch-inspect runs dispatch-inspect-torch from its own directory with the
// other arguments (that program links libtorch; this one does not), so every subcommand's
// options stay as they are.
#pragma once

namespace schemac::inspect {

// Removes `--runtime X` / `--runtime=X` from argv (updating argc). For `torch`, replaces this
// process with dispatch-inspect-torch (only the subcommands ops, table, dump and resolve) and
// returns only on failure, with an exit code after saying why. Returns -1 to go on (no
// --runtime, or --runtime schemac), or an exit code (2) after a usage error.
int take_runtime_option(int& argc, char** argv);

}  // namespace schemac::inspect
