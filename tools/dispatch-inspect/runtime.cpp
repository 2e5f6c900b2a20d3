// Asking a runtime's adapter (runtime.h): ours in-process, libtorch's through a helper that
// answers every request of the subcommand (lib/inspector/launch's torch_helper:
// dispatch-inspect-torch, or a Python running dispatch_inspect_python.py, beside this program).
#include "runtime.h"

#include <filesystem>
#include <iostream>

#include "schemac/inspect/answer.h"
#include "schemac/inspect/render.h"
#include "schemac/launch/helper.h"
#include "schemac/launch/torch_helpers.h"
#include "schemac_adapter.h"

namespace schemac::inspect {
namespace {

namespace fs = std::filesystem;

struct RuntimeOptions {
  std::vector<std::string> runtimes;  // every --runtime given: one at most
  std::string python = "python3";
  bool python_given = false;
  std::vector<std::string> imports;
  std::string torch_lib;
};

RuntimeOptions& options() {
  static RuntimeOptions o;
  return o;
}

report::RuntimeInfo& answerer() {
  static report::RuntimeInfo info;
  return info;
}

fs::path own_directory() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path();
}

// An answer of status 2 (the reason said already).
report::Response failed() {
  report::Response response;
  response.status = 2;
  return response;
}

// 0, or 2 after saying why the options do not fit the runtime: --import needs a Python, --python
// and --torch-lib a PyTorch runtime.
int check_options(RuntimeKind kind) {
  const RuntimeOptions& o = options();
  std::string misplaced = "--import", needs = "python (the dispatcher inside that Python)";
  if (kind == RuntimeKind::Python || o.imports.empty()) {
    needs = "torch or python";
    misplaced = kind != RuntimeKind::Schemac ? ""
                : o.python_given             ? "--python"
                : !o.torch_lib.empty()       ? "--torch-lib"
                                             : "";
  }
  if (misplaced.empty()) return 0;
  std::cerr << kErrorPrefix << misplaced << " works with --runtime " << needs
            << ", not with --runtime " << runtime_name(kind) << "\n";
  return 2;
}

report::Response ask_helper(const report::Request& request, RuntimeKind kind) {
  if (check_options(kind) != 0) return failed();
  const RuntimeOptions& o = options();
  report::Response response = launch::ask_torch_helper(
      {kind == RuntimeKind::Python, o.python, o.python_given, o.imports, o.torch_lib},
      request.libraries, own_directory(), request);
  answerer() = response.runtime;
  return response;
}

}  // namespace

void add_runtime_option(CLI::App* command, bool hidden) {
  RuntimeOptions& o = options();
  const size_t before = command->get_options().size();
  command
      ->add_option_function<std::vector<std::string>>(
          "--runtime",
          [](const std::vector<std::string>& given) {
            std::vector<std::string>& all = options().runtimes;
            all.insert(all.end(), given.begin(), given.end());
            if (all.size() > 1)
              throw CLI::ValidationError("--runtime", "given " + std::to_string(all.size()) +
                                                          " times ('" + all.front() + "', then '" +
                                                          all.back() + "'): name one runtime");
          },
          "whose dispatcher to report on: schemac (ours, the default), torch (libtorch's own, its "
          "C++ registrations, after loading PyTorch extensions with --load) or python (libtorch's "
          "inside a Python, with what Python registered: --python, --import); not for simulate "
          "and trace")
      ->check(CLI::IsMember({"schemac", "torch", "python"}))
      ->allow_extra_args(false)
      ->type_name("RUNTIME");
  command->add_option_function<std::string>(
      "--python",
      [](const std::string& python) {
        options().python = python;
        options().python_given = true;
      },
      "--runtime python: the Python to ask (default python3 on PATH; it must import torch); "
      "--runtime torch: read that Python's libtorch (a helper is built against it if need be)");
  command
      ->add_option("--torch-lib", o.torch_lib,
                   "--runtime torch|python: the libtorch to read, a CMake prefix where "
                   "find_package(Torch) finds it (an unpacked libtorch, or a Python's "
                   "torch.utils.cmake_prefix_path): a helper is built against it once, into "
                   "~/.cache/schemac")
      ->type_name("DIR");
  command
      ->add_option("--import", o.imports,
                   "--runtime python: a module to import after torch, before reading the "
                   "dispatcher (its registrations are then in it); repeatable")
      ->allow_extra_args(false)
      ->delimiter(',')
      ->type_name("MODULE");
  if (hidden)
    for (size_t i = before; i < command->get_options().size(); ++i)
      command->get_options()[i]->group("");
}

RuntimeKind chosen_runtime() {
  const std::vector<std::string>& given = options().runtimes;
  return given.empty() ? RuntimeKind::Schemac
                       : parse_runtime_name(given.front()).value_or(RuntimeKind::Schemac);
}

int require_our_runtime(const char* command) {
  if (chosen_runtime() == RuntimeKind::Schemac) return check_options(RuntimeKind::Schemac);
  std::cerr << kErrorPrefix << "--runtime " << runtime_name(chosen_runtime())
            << " works with ops, table, dump, resolve, diff, audit and report, not '" << command
            << "'\n";
  return 2;
}

report::Response ask(const report::Request& request) {
  if (chosen_runtime() != RuntimeKind::Schemac) return ask_helper(request, chosen_runtime());
  if (check_options(RuntimeKind::Schemac) != 0) return failed();
  report::Response response = answer(schemac_runtime(), request, std::cerr);
  answerer() = response.runtime;
  return response;
}

report::Response ask_separately(const report::Request& request, RuntimeKind runtime) {
  if (runtime != RuntimeKind::Schemac) return ask_helper(request, runtime);
  return launch::ask_forked([&] { return answer(schemac_runtime(), request, std::cerr); });
}

const report::RuntimeInfo& last_answerer() { return answerer(); }

std::string with_answerer(std::string out, std::string_view format) {
  return report::with_runtime(std::move(out), format, {answerer()}, std::cerr);
}

}  // namespace schemac::inspect
