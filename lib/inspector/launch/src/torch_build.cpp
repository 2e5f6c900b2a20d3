// The torch helper built on demand (torch_build.h).
#include "schemac/launch/torch_build.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "schemac/support/version.h"

extern char** environ;

namespace schemac::launch {
namespace {

namespace fs = std::filesystem;

constexpr const char* kError = "dispatch-inspect: error: ";

// What the Python prints about its PyTorch: one JSON line.
constexpr const char* kAskTorch =
    "import json, os, torch, torch.utils\n"
    "folders = [os.path.dirname(os.path.realpath(l.split(None, 5)[5].strip())) for l in "
    "open('/proc/self/maps') if l.count(' ') >= 5 and "
    "os.path.basename(l.split(None, 5)[-1].strip()).startswith('libtorch_cpu.')]\n"
    "print(json.dumps({'version': torch.__version__, 'prefix': torch.utils.cmake_prefix_path, "
    "'folder': folders[0] if folders else ''}))\n";

// Runs `command` (looked up on PATH) with its stdout into `out` (a file when `log` is set, with
// stderr too; else captured); its exit status, or -1 when it could not be run.
int run(const std::vector<std::string>& command, std::string* out, const fs::path& log = {}) {
  int fds[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!log.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  } else if (pipe2(fds, O_CLOEXEC) == 0) {
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  }
  std::vector<char*> args;
  for (const std::string& word : command) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (fds[1] >= 0) close(fds[1]);
  if (spawned == 0 && fds[0] >= 0 && out != nullptr) {
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      out->append(buffer, static_cast<size_t>(n));
    }
  }
  if (fds[0] >= 0) close(fds[0]);
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The helper's sources and the CMake package of lib/inspector/inspect, from torch-helper.json
// beside the tool (a build tree) or in ../share/schemac/torch-helper (an installed one); paths in
// it are relative to its folder.
std::optional<std::pair<fs::path, fs::path>> helper_sources(const fs::path& tool_dir,
                                                            bool quiet = false) {
  for (const fs::path& at :
       {tool_dir / "torch-helper.json",
        tool_dir / ".." / "share" / "schemac" / "torch-helper" / "torch-helper.json"}) {
    std::ifstream in(at);
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json.contains("sources") || !json.contains("schemac")) continue;
    const fs::path folder = at.parent_path();
    return std::pair{folder / json["sources"].get<std::string>(),
                     folder / json["schemac"].get<std::string>()};
  }
  if (!quiet)
    std::cerr << kError << "no torch helper sources beside dispatch-inspect (torch-helper.json): "
              << "building one needs a build tree or an installed schemac\n";
  return std::nullopt;
}

fs::path cache_root() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
    return fs::path(xdg) / "schemac" / "torch-helpers";
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : "/tmp") / ".cache" / "schemac" / "torch-helpers";
}

// The last `count` lines of `path`.
std::string tail_of(const fs::path& path, size_t count) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string out;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
    out += "  " + lines[i] + "\n";
  return out;
}

}  // namespace

std::optional<PythonTorch> python_torch(const std::string& python) {
  std::string out;
  const int status = run({python, "-c", kAskTorch}, &out);
  const nlohmann::json json = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (status != 0 || !json.is_object()) {
    std::cerr << kError << "cannot ask '" << python << "' which PyTorch it has"
              << (status < 0 ? std::string(" (it cannot be run)")
                             : fmt::format(" (exit {})", status))
              << ": name a Python that has torch with --python EXE\n";
    return std::nullopt;
  }
  return PythonTorch{json.value("version", ""), json.value("prefix", ""), json.value("folder", "")};
}

bool can_build_torch_helper(const fs::path& tool_dir) {
  return helper_sources(tool_dir, /*quiet=*/true).has_value();
}

bool helper_matches(const fs::path& dir, const PythonTorch& torch) {
  std::ifstream in(dir / "libdispatch-inspect-torch.so.json");
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return false;
  const std::string version = json.value("torch_version", "");
  std::error_code ec;
  return !version.empty() && torch.version.rfind(version, 0) == 0 &&
         fs::equivalent(json.value("libtorch_folder", ""), torch.libtorch_folder, ec);
}

std::optional<fs::path> built_torch_helper(const std::string& torch_prefix,
                                           const fs::path& tool_dir) {
  const std::optional<std::pair<fs::path, fs::path>> sources = helper_sources(tool_dir);
  if (!sources) return std::nullopt;
  std::error_code ec;
  const fs::path prefix = fs::weakly_canonical(torch_prefix, ec);
  const std::string key = fmt::format(
      "{:016x}",
      std::hash<std::string>{}(fmt::format("{}\n{}\n{}", prefix.string(), support::kVersion,
                                           fs::weakly_canonical(sources->first, ec).string())));
  const fs::path cache = cache_root() / key;
  const fs::path ready = cache / "ready";
  if (fs::exists(ready, ec)) return cache;
  fs::create_directories(cache, ec);
  // One build at a time per cache folder: a second dispatch-inspect waits for the first's.
  const int lock = open((cache / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0 || flock(lock, LOCK_EX) != 0) {
    std::cerr << kError << "cannot make the torch helper's cache folder '" << cache.string()
              << "': " << std::strerror(errno) << "\n";
    if (lock >= 0) close(lock);
    return std::nullopt;
  }
  std::optional<fs::path> built = cache;
  if (!fs::exists(ready, ec)) {
    const fs::path log = cache / "build.log";
    fs::remove(log, ec);
    std::cerr << "dispatch-inspect: building the torch helper against the libtorch of '"
              << torch_prefix << "' into " << cache.string()
              << " (once; it takes a minute or two)\n";
    const std::vector<std::string> configure = {
        "cmake",
        "-S",
        sources->first.string(),
        "-B",
        (cache / "build").string(),
        "-DCMAKE_BUILD_TYPE=Release",
        "-DCMAKE_PREFIX_PATH=" + torch_prefix + ";" + sources->second.string(),
        "-DSCHEMAC_TORCH_HELPER_OUTPUT=" + cache.string()};
    const std::vector<std::string> build = {"cmake", "--build", (cache / "build").string(),
                                            "--parallel"};
    int status = run(configure, nullptr, log);
    if (status == 0) status = run(build, nullptr, log);
    if (status < 0) {
      std::cerr << kError << "cannot run cmake, which builds the torch helper: install CMake and "
                << "a C++ compiler\n";
      built = std::nullopt;
    } else if (status != 0) {
      std::cerr << kError << "building the torch helper against '" << torch_prefix
                << "' failed; the end of its log (" << log.string() << "):\n"
                << tail_of(log, 15);
      built = std::nullopt;
    } else {
      std::ofstream(ready) << torch_prefix << "\n";
    }
  }
  close(lock);
  return built;
}

}  // namespace schemac::launch
