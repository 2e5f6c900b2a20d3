// The torch helper built on demand against a libtorch chosen at run time (`--torch-lib DIR`, or
// the PyTorch of a Python: `--python EXE`), into a cache folder, with the CMake and compiler the
// user has, from the helper's sources and the lib/inspector/inspect that the build tree exports
// or `cmake --install` installs (torch-helper.json beside dispatch-inspect, or in
// share/schemac/torch-helper, says where both are). Built once per libtorch, then reused.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace schemac::launch {

// A Python's PyTorch, as that Python says: torch.__version__, torch.utils.cmake_prefix_path, and
// the folder of the libtorch it loaded.
struct PythonTorch {
  std::string version, cmake_prefix, libtorch_folder;
};
// Asks `python` (run once); nullopt after saying why not on stderr.
std::optional<PythonTorch> python_torch(const std::string& python);

// Whether the sources to build a torch helper are there for the dispatch-inspect in `tool_dir`.
bool can_build_torch_helper(const std::filesystem::path& tool_dir);

// Whether the helper in `dir` was built against that libtorch (its
// libdispatch-inspect-torch.so.json).
bool helper_matches(const std::filesystem::path& dir, const PythonTorch& torch);

// The folder with the torch helper built against the libtorch that find_package(Torch) finds at
// `torch_prefix` (a CMake prefix: a libtorch folder, or torch.utils.cmake_prefix_path), building
// it first unless the cache has it ($XDG_CACHE_HOME, else ~/.cache, then
// schemac/torch-helpers/<release>-<hash>); nullopt after saying why not (no sources beside
// `tool_dir`, a failed build with the end of its log).
std::optional<std::filesystem::path> built_torch_helper(const std::string& torch_prefix,
                                                        const std::filesystem::path& tool_dir);

}  // namespace schemac::launch
