// Where libtorch's adapter runs (torch_helpers.h).
#include "schemac/launch/torch_helpers.h"

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "schemac/launch/torch_build.h"

namespace schemac::launch {
namespace {

namespace fs = std::filesystem;

// The Python helper's exit status when the adapter library beside it was built against another
// PyTorch than the Python's (it then says nothing: a matching one is built and asked instead).
constexpr int kOtherPyTorch = 3;

constexpr const char* kBuiltWithTorch =
    "; they are built beside dispatch-inspect when CMake finds libtorch (find_package(Torch)), "
    "or on demand with --torch-lib DIR";

// The helper's command line, from the helpers in `dir`, or empty after saying what is missing.
std::vector<std::string> helper_command(const TorchHelperChoice& choice, const fs::path& dir,
                                        bool quiet_mismatch) {
  if (!choice.in_python) return {(dir / "dispatch-inspect-torch").string(), "--serve"};
  const fs::path script = dir / "dispatch_inspect_python.py";
  const fs::path library = dir / "libdispatch-inspect-torch.so";
  std::error_code ec;
  if (!fs::exists(script, ec) || !fs::exists(library, ec)) {
    std::cerr << "dispatch-inspect: error: --runtime python needs " << script.filename() << " and "
              << library.filename() << " beside dispatch-inspect" << kBuiltWithTorch << "\n";
    return {};
  }
  std::vector<std::string> command = {choice.python, script.string(), "--library",
                                      library.string()};
  for (const std::string& module : choice.imports) {
    command.push_back("--import");
    command.push_back(module);
  }
  if (quiet_mismatch) {
    command.push_back("--other-pytorch-exit");
    command.push_back(std::to_string(kOtherPyTorch));
  }
  return command;
}

// The folder of the helpers for `choice` (torch_build.h), or nullopt after saying why not.
std::optional<fs::path> helper_folder(const TorchHelperChoice& choice, const fs::path& tool_dir) {
  if (!choice.torch_lib.empty()) return built_torch_helper(choice.torch_lib, tool_dir);
  if (choice.in_python || !choice.python_given) return tool_dir;
  const std::optional<PythonTorch> torch = python_torch(choice.python);
  if (!torch) return std::nullopt;
  if (helper_matches(tool_dir, *torch)) return tool_dir;
  return built_torch_helper(torch->cmake_prefix, tool_dir);
}

struct Slot {
  std::unique_ptr<Helper> helper;
  bool failed = false;
};

}  // namespace

report::Response ask_torch_helper(const TorchHelperChoice& choice,
                                  const std::vector<std::string>& libraries,
                                  const fs::path& tool_dir, const report::Request& request) {
  static std::map<std::pair<bool, std::vector<std::string>>, Slot> slots;
  Slot& slot = slots[{choice.in_python, libraries}];
  report::Response response;
  response.status = 2;
  if (slot.failed) return response;
  // The Python helper beside the tool may find its Python's PyTorch another: then one is built.
  const bool may_rebuild =
      choice.in_python && choice.torch_lib.empty() && can_build_torch_helper(tool_dir);
  if (!slot.helper) {
    const std::optional<fs::path> dir = helper_folder(choice, tool_dir);
    std::vector<std::string> command =
        dir ? helper_command(choice, *dir, may_rebuild) : std::vector<std::string>{};
    if (command.empty()) {
      slot.failed = true;
      return response;
    }
    const std::string hint = choice.in_python
                                 ? "--runtime python cannot run '" + choice.python +
                                       "': name a Python that has torch with --python EXE"
                                 : std::string(
                                       "--runtime torch needs dispatch-inspect-torch beside "
                                       "dispatch-inspect") +
                                       kBuiltWithTorch;
    slot.helper = std::make_unique<Helper>(std::move(command), hint);
  }
  response = slot.helper->ask(request);
  if (response.status != kOtherPyTorch || !may_rebuild) return response;
  const std::optional<PythonTorch> torch = python_torch(choice.python);
  const std::optional<fs::path> built =
      torch ? built_torch_helper(torch->cmake_prefix, tool_dir) : std::nullopt;
  // Without one, the helper beside the tool is asked again to say which PyTorch it was built for.
  std::vector<std::string> command =
      helper_command(choice, built ? *built : tool_dir, /*quiet_mismatch=*/false);
  if (command.empty()) {
    slot.failed = true;
    response.status = 2;
    return response;
  }
  slot.helper = std::make_unique<Helper>(std::move(command), "");
  return slot.helper->ask(request);
}

}  // namespace schemac::launch
