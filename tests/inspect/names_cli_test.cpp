// dispatch-inspect end to end on lib/runtime/kernels: operator names as PyTorch writes them
// (aten.add.Tensor, torch.ops.aten.relu.default, add.Tensor, the overload packet aten::add), and
// the calls resolve refuses with the reason (a device for an operator without a Device argument,
// tensors for one without tensor arguments), with did-you-means only of what is accepted.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../common/cli_test_support.h"

namespace {

struct ToolRun {
  int exit_code;
  std::string out;
  std::string err;
};

// dispatch-inspect ARGS: its exit status, standard output and standard error.
ToolRun run(const std::string& args) {
  const std::string err_path = (std::filesystem::temp_directory_path() /
                                fmt::format("inspect_names_test_{}.err", ::getpid()))
                                   .string();
  ToolRun r{-1, {}, {}};
  FILE* pipe = popen(fmt::format("'{}' {} 2>'{}'", DISPATCH_INSPECT, args, err_path).c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = schemac::test::read_file(err_path);
  std::filesystem::remove(err_path);
  return r;
}

std::string q(const char* path) { return fmt::format("'{}'", path); }

struct ErrorCase {
  const char* name;
  std::string args;
  int exit_code;
  std::vector<std::string> stderr_parts;
};

// Names as PyTorch writes them find the operator; an overload packet stands for its overloads; a
// call an operator cannot take is refused with the reason (and, among several, skipped).
TEST(InspectNames, PyTorchSpellingsPacketsAndRefusedCalls) {
  const std::string load = " --load " + q(INSPECT_KERNELS_LIBRARY);
  for (const char* typed : {"aten.add.Tensor", "torch.ops.aten.add.Tensor", "add.Tensor"}) {
    const ToolRun r = run(std::string("resolve ") + typed + " --tensor cpu" + load);
    EXPECT_EQ(r.exit_code, 0) << typed << "\n" << r.err;
    EXPECT_EQ(r.out.rfind("operator: aten::add.Tensor\n", 0), 0u) << typed << "\n" << r.out;
  }
  const ToolRun relu = run("table aten.relu.default --format json" + load);
  EXPECT_EQ(relu.out.rfind(R"({"operator":"aten::relu",)", 0), 0u) << relu.err;
  // aten::add: both overloads, each its own section, and a note that says so.
  const ToolRun add = run("resolve aten::add --tensor cpu --format json" + load);
  EXPECT_EQ(add.exit_code, 0) << add.err;
  EXPECT_NE(add.err.find("note: 'aten::add' is an overload packet: its 2 overloads follow "
                         "(aten::add.Tensor, aten::add.out)"),
            std::string::npos)
      << add.err;
  EXPECT_NE(add.out.find(R"("operator":"aten::add.Tensor")"), std::string::npos) << add.out;
  EXPECT_NE(add.out.find(R"("operator":"aten::add.out")"), std::string::npos) << add.out;
  const ErrorCase refused[] = {
      {"tensor keys for a factory",
       "resolve aten::empty.memory_format --tensor cuda --device meta" + load, 2,
       {"dispatch-inspect: error: 'aten::empty.memory_format' takes no tensor argument"}},
      {"a device for an operator without one", "resolve aten::mm --tensor cpu --device meta" + load,
       2, {"'aten::mm' takes no Device argument, so --device does not apply"}},
      {"every overload refuses", "resolve aten::add --tensor cpu --device meta" + load, 2,
       {"note: skipped aten::add.Tensor: 'aten::add.Tensor' takes no Device argument",
        "error: none of the operators 'aten::add' names can take this call"}},
      {"a misspelt spelling", "table aten.ad.Tensor" + load, 1,
       {"unknown operator 'aten::ad.Tensor'", "did you mean 'aten::add.Tensor'"}},
      {"a misspelt key suggests a runtime key only", "resolve aten::mm --keys CPU,Autgrad" + load,
       2, {"unknown dispatch key 'Autgrad'"}},
  };
  for (const ErrorCase& c : refused) {
    const ToolRun r = run(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << "\n" << r.err;
    for (const std::string& part : c.stderr_parts)
      EXPECT_NE(r.err.find(part), std::string::npos) << c.name << ": '" << part << "' not in:\n" << r.err;
  }
  EXPECT_EQ(run("resolve aten::mm --keys CPU,Autgrad" + load).err.find("'Autograd'"),
            std::string::npos);
  // The factory's device is its options': BackendSelect sends it to Meta.
  const ToolRun meta = run("resolve aten::empty.memory_format --device meta" + load);
  EXPECT_EQ(meta.exit_code, 1) << meta.out << meta.err;  // no Meta kernel in lib/runtime/kernels
  EXPECT_NE(meta.out.find("chain: BackendSelect -> Meta\n"), std::string::npos) << meta.out;
}
}  // namespace
