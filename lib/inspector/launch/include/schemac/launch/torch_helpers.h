// Where libtorch's adapter runs for `--runtime torch` and `--runtime python`: the torch helper
// (the program dispatch-inspect-torch; the same adapter as libdispatch-inspect-torch.so, with the
// Python helper dispatch_inspect_python.py that loads it into a Python after import torch), built
// beside dispatch-inspect against the libtorch CMake found, or on demand against another
// (torch_build.h): `--torch-lib DIR`, a `--python EXE` whose PyTorch is another.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "schemac/launch/helper.h"

namespace schemac::launch {

struct TorchHelperChoice {
  bool in_python = false;            // --runtime python (else torch)
  std::string python = "python3";    // the Python: the one to run in (in_python), else whose
  bool python_given = false;         // PyTorch the helper is built against (when given)
  std::vector<std::string> imports;  // modules the Python imports after torch (in_python)
  std::string torch_lib;             // a libtorch (CMake prefix) to build the helper against
};

// The answer of the helper for `choice` with `libraries` loaded. Each helper is started on its
// first request and kept for the process's life (one per runtime and list of libraries: a diff's
// two sides load different ones). Which one: built against `torch_lib` when given; for torch with
// a --python, the one beside the tool when that Python's PyTorch is the one it was built against,
// else one built against that Python's; for python, the one beside the tool, or, when the
// Python's PyTorch is another, one built against the Python's, then asked again. Errors as
// Helper's (status 2 after saying why).
report::Response ask_torch_helper(const TorchHelperChoice& choice,
                                  const std::vector<std::string>& libraries,
                                  const std::filesystem::path& tool_dir,
                                  const report::Request& request);

}  // namespace schemac::launch
