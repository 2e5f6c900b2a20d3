// The --runtime switch of dispatch-inspect (runtime_switch.h).
#include "runtime_switch.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::inspect {
namespace {

constexpr std::string_view kTorchTool = "dispatch-inspect-torch";

std::filesystem::path own_directory(const char* argv0) {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) self = std::filesystem::absolute(argv0, ec);
  return self.parent_path();
}

}  // namespace

int take_runtime_option(int& argc, char** argv) {
  std::string runtime;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") {  // everything after it is positional
      while (i < argc) argv[out++] = argv[i++];
      break;
    }
    if (arg == "--runtime" && i + 1 < argc) {
      runtime = argv[++i];
      continue;
    }
    if (arg.rfind("--runtime=", 0) == 0) {
      runtime = std::string(arg.substr(10));
      continue;
    }
    argv[out++] = argv[i];
  }
  argc = out;
  argv[argc] = nullptr;
  if (runtime.empty() || runtime == "schemac") return -1;
  if (runtime != "torch") {
    std::cerr << "dispatch-inspect: error: unknown runtime '" << runtime << "' (use schemac or torch)\n";
    return 2;
  }
  std::string subcommand = argc > 1 ? argv[1] : "";
  if (subcommand != "ops" && subcommand != "table" && subcommand != "dump" && subcommand != "resolve") {
    std::cerr << "dispatch-inspect: error: --runtime torch works with ops, table, dump and resolve"
              << (subcommand.empty() ? "" : ", not '" + subcommand + "'") << "\n";
    return 2;
  }
  const std::filesystem::path tool = own_directory(argv[0]) / kTorchTool;
  std::vector<char*> args{const_cast<char*>(tool.c_str())};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(tool.c_str(), args.data());
  std::cerr << "dispatch-inspect: error: --runtime torch needs " << kTorchTool << " beside dispatch-inspect ('"
            << tool.string() << "': " << std::strerror(errno)
            << "); it is built when CMake finds libtorch (find_package(Torch))\n";
  return 2;
}

}  // namespace schemac::inspect
