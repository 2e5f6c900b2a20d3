// Asking a runtime's adapter (runtime.h): ours in-process, libtorch's in dispatch-inspect-torch,
// its response read from the pipe on the child's file descriptor 3.
#include "runtime.h"

#include <filesystem>
#include <iostream>

#include "child.h"
#include "schemac/inspect/answer.h"
#include "schemac_adapter.h"

namespace schemac::inspect {
namespace {

constexpr const char* kTorchTool = "dispatch-inspect-torch";

std::string chosen_runtime_text = "schemac";

std::filesystem::path own_directory() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
}

report::Response ask_torch(const report::Request& request) {
  return ask_program((own_directory() / kTorchTool).string(), request,
                     std::string("--runtime torch needs ") + kTorchTool +
                         " beside dispatch-inspect; it is built when CMake finds libtorch "
                         "(find_package(Torch))");
}

}  // namespace

void add_runtime_option(CLI::App* command) {
  command
      ->add_option("--runtime", chosen_runtime_text,
                   "whose dispatcher to report on: schemac (ours, the default) or torch "
                   "(libtorch's own, after loading PyTorch extensions with --load; not for "
                   "simulate and trace)")
      ->check(CLI::IsMember({"schemac", "torch"}));
}

RuntimeKind chosen_runtime() {
  return parse_runtime_name(chosen_runtime_text).value_or(RuntimeKind::Schemac);
}

int require_our_runtime(const char* command) {
  if (chosen_runtime() == RuntimeKind::Schemac) return 0;
  std::cerr << kErrorPrefix
            << "--runtime torch works with ops, table, dump, resolve, diff, audit and report, not '"
            << command << "'\n";
  return 2;
}

report::Response ask(const report::Request& request) {
  return chosen_runtime() == RuntimeKind::Torch ? ask_torch(request)
                                                : answer(schemac_runtime(), request, std::cerr);
}

report::Response ask_separately(const report::Request& request, RuntimeKind runtime) {
  if (runtime == RuntimeKind::Torch) return ask_torch(request);
  return ask_forked([&] { return answer(schemac_runtime(), request, std::cerr); });
}

}  // namespace schemac::inspect
