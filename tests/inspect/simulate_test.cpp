// `dispatch-inspect simulate`: every worked example of docs/dispatch-semantics.md §7 byte for byte,
// PythonDispatcher's three errors, --registrations, --all-keys, --format json, script sessions,
// and the built CLI's exit codes.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "simulate.h"

namespace schemac::inspect {
namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome simulate(std::vector<std::string> keys, bool registrations = false, bool all_keys = false,
             inspect::TableFormat format = inspect::TableFormat::Text) {
  SimulateOptions options;
  options.keys = std::move(keys);
  options.registrations = registrations;
  options.all_keys = all_keys;
  options.format = format;
  std::ostringstream out, err;
  const int code = simulate_keys(options, out, err);
  return {code, out.str(), err.str()};
}

Outcome script(const std::string& text) {
  std::ostringstream out, err;
  const int code = simulate_script(text, "what-if.txt", inspect::TableFormat::Torch, out, err);
  return {code, out.str(), err.str()};
}

const std::string kTableHeader = "\nComputed Dispatch Table\nkey             kernel\n---------------------------\n";
const std::string kRowKeys[8] = {"CPU", "XLA", "Lazy", "FPGA", "AutogradOther", "AutogradCPU", "AutogradXLA", "AutogradLazy"};

// §7 notation: K = fn_<row key> [kernel], M = math, D = default backend, A = autograd,
// F = fallthrough fallback, ? = ambiguous, - = absent.
std::string expand(const std::string& code, const std::string& row) {
  if (code == "K") return "fn_" + row + " [kernel]";
  if (code == "M") return "fn_CompositeImplicitAutograd [math kernel]";
  if (code == "D") return "fn_CompositeExplicitAutograd [default backend kernel]";
  if (code == "A") return "fn_Autograd [autograd kernel]";
  if (code == "F") return "fallthrough [backend fallback]";
  if (code == "?") return "ambiguous_autogradother [ambiguous autogradother]";
  return "";
}

std::string expected_table(const std::array<std::string, 8>& codes) {
  std::string out = kTableHeader;
  for (size_t i = 0; i < 8; ++i) {
    if (codes[i] == "-") continue;
    std::string key = kRowKeys[i];
    key.resize(std::max<size_t>(key.size(), 15), ' ');
    out += key + " " + expand(codes[i], kRowKeys[i]) + "\n";
  }
  return out;
}

struct WorkedExample {
  std::vector<std::string> keys;
  std::array<std::string, 8> codes;  // CPU XLA Lazy FPGA AutogradOther AutogradCPU AutogradXLA AutogradLazy
};

const WorkedExample kWorkedExamples[] = {
    {{}, {"-", "-", "-", "-", "F", "F", "F", "F"}},
    {{"CPU"}, {"K", "-", "-", "-", "F", "F", "F", "F"}},
    {{"CompositeExplicitAutograd"}, {"D", "D", "D", "D", "F", "F", "F", "F"}},
    {{"CompositeImplicitAutograd"}, {"M", "M", "M", "M", "M", "M", "M", "M"}},
    {{"Autograd"}, {"-", "-", "-", "-", "A", "A", "A", "A"}},
    {{"CPU", "XLA", "Lazy", "CompositeImplicitAutograd"}, {"K", "K", "K", "M", "M", "F", "F", "F"}},
    {{"CPU", "AutogradCPU", "CompositeImplicitAutograd"}, {"K", "M", "M", "M", "M", "K", "M", "M"}},
    {{"CPU", "XLA", "CompositeImplicitAutograd", "AutogradCPU"}, {"K", "K", "M", "M", "M", "K", "F", "M"}},
    {{"CPU", "XLA", "CompositeExplicitAutograd", "AutogradCPU"}, {"K", "K", "D", "D", "F", "K", "F", "F"}},
    {{"FPGA", "CompositeImplicitAutograd"}, {"M", "M", "M", "K", "?", "M", "M", "M"}},
    {{"CPU", "FPGA", "CompositeImplicitAutograd"}, {"K", "M", "M", "K", "?", "F", "M", "M"}},
    {{"FPGA", "AutogradOther", "CompositeImplicitAutograd"}, {"M", "M", "M", "K", "K", "M", "M", "M"}},
    {{"CompositeExplicitAutograd", "Autograd"}, {"D", "D", "D", "D", "A", "A", "A", "A"}},
    {{"CPU", "Autograd"}, {"K", "-", "-", "-", "A", "A", "A", "A"}},
    {{"XLA", "Autograd", "CompositeImplicitAutograd"}, {"M", "K", "M", "M", "M", "M", "A", "M"}},
    {{"AutogradCPU"}, {"-", "-", "-", "-", "F", "K", "F", "F"}},
    {{"CompositeImplicitAutograd", "Autograd"}, {"M", "M", "M", "M", "M", "M", "M", "M"}},
};

TEST(SimulateWorkedExamples, ByteIdenticalToPythonDispatcher) {
  for (const WorkedExample& example : kWorkedExamples) {
    const Outcome run = simulate(example.keys);
    std::string label;
    for (const auto& k : example.keys) label += k + " ";
    EXPECT_EQ(run.code, 0) << label;
    EXPECT_EQ(run.out, expected_table(example.codes)) << label;
    EXPECT_EQ(run.err, "");
  }
}

TEST(Simulate, RegistrationsInDumpOrder) {
  const Outcome run = simulate({"CompositeImplicitAutograd", "AutogradCPU", "CPU", "FPGA", "Autograd"}, true);
  EXPECT_EQ(run.out,
            "\nRegistered Kernels\nkey             kernel\n---------------------------\n"
            "FPGA            fn_FPGA\n"
            "CPU             fn_CPU\n"
            "AutogradCPU     fn_AutogradCPU\n"
            "Autograd[alias] fn_Autograd\n"
            "CompositeImplicitAutograd[alias] fn_CompositeImplicitAutograd\n");
}

TEST(Simulate, PythonDispatcherErrors) {
  struct Case {
    std::vector<std::string> keys;
    std::string message;
  };
  const Case cases[] = {
      {{"CPU", "XLA", "CPU"}, "Overriden is not allowed but found duplicates in ['CPU', 'XLA', 'CPU'].\n"},
      {{"CompositeExplicitAutograd", "CompositeImplicitAutograd"},
       "Registration to both CompositeImplicitAutograd and CompositeExplicitAutograd is not allowed.\n"},
      {{"CPU", "NotAKey"},
       "NotAKey is not supported, please select a dispatch key in ['CPU', 'AutogradCPU', 'FPGA', 'AutogradOther', "
       "'XLA', 'AutogradXLA', 'Lazy', 'AutogradLazy', 'CompositeExplicitAutograd', 'Autograd', "
       "'CompositeImplicitAutograd'].\n"},
      {{"Dense"}, "Dense is not supported, please select a dispatch key in ['CPU', 'AutogradCPU', 'FPGA', "
                  "'AutogradOther', 'XLA', 'AutogradXLA', 'Lazy', 'AutogradLazy', 'CompositeExplicitAutograd', "
                  "'Autograd', 'CompositeImplicitAutograd'].\n"},
  };
  for (const Case& c : cases) {
    const Outcome run = simulate(c.keys);
    EXPECT_EQ(run.code, 1);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err, c.message);
  }
}

TEST(Simulate, OtherKeysGetTheirOwnRows) {
  const Outcome run = simulate({"CompositeImplicitAutograd", "QuantizedCPU"});
  EXPECT_NE(run.out.find("QuantizedCPU    fn_QuantizedCPU [kernel]\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("AutogradOther   ambiguous_autogradother [ambiguous autogradother]\n"), std::string::npos);
  // Raw table order: QuantizedCPU sits between FPGA and AutogradOther.
  EXPECT_LT(run.out.find("FPGA "), run.out.find("QuantizedCPU"));
  EXPECT_LT(run.out.find("QuantizedCPU"), run.out.find("AutogradOther"));
}

TEST(Simulate, AllKeys) {
  const Outcome run = simulate({"CPU"}, false, true);
  // The key column is as wide as the longest key shown (FuncTorchDynamicLayerFrontMode, 30).
  EXPECT_NE(run.out.find("\nkey                            kernel\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nBackendSelect                  fallthrough [backend fallback]\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nPython                         [backend fallback]\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nFuncTorchDynamicLayerFrontMode [backend fallback]\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nAutogradMeta                   fallthrough [backend fallback]\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("\nXLA "), std::string::npos);  // missing entries stay absent
}

TEST(Simulate, Json) {
  const Outcome run = simulate({"CPU"}, false, false, inspect::TableFormat::Json);
  EXPECT_EQ(run.out.rfind("{\"registered\":[\"CPU\"],\"table\":{\"operator\":\"__test__::foo\",\"entries\":["
                          "{\"key\":\"CPU\",\"kernel\":\"fn_CPU\",\"reason\":\"kernel\",\"fallthrough\":false,",
                          0),
            0u)
      << run.out;
  EXPECT_EQ(run.out.find("BackendSelect"), std::string::npos);
  const Outcome regs = simulate({"CPU"}, true, false, inspect::TableFormat::Json);
  EXPECT_NE(regs.out.find("\"registrations\":{\"name\":\"__test__::foo\""), std::string::npos) << regs.out;
}

TEST(Simulate, StripFallbackSite) {
  EXPECT_EQ(strip_fallback_site("AutogradCPU: fallthrough registered at /x/VariableFallbackKernel.cpp:1 [backend fallback]"),
            "AutogradCPU: fallthrough [backend fallback]");
  EXPECT_EQ(strip_fallback_site("CPU: registered at my.cpp:3 [kernel]"), "CPU: registered at my.cpp:3 [kernel]");
}

TEST(SimulateScript, SessionWithDropAndErrors) {
  const Outcome run = script(
      "# a what-if session\n"
      "def myops::foo(Tensor x) -> Tensor\n"
      "impl base myops::foo CPU base_cpu\n"
      "impl patch myops::foo CPU patched_cpu\n"
      "impl patch myops::foo AutogradCPU fallthrough\n"
      "table myops::foo\n"
      "drop patch\n"
      "table myops::foo\n"
      "impl base myops::foo CPUU oops\n"
      "def myops::foo(Tensor x) -> Tensor\n"
      "fallback base XLA fallthrough\n"
      "fallback base XLA fallthrough\n"
      "frobnicate\n"
      "dump myops::foo\n"
      "table myops::nothing\n");
  EXPECT_EQ(run.code, 1);
  std::istringstream lines(run.out);
  EXPECT_EQ(run.out.rfind("CPU: patched_cpu [kernel]\n", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("\nAutogradCPU: fallthrough registered at what-if.txt:5 [kernel]\n"), std::string::npos);
  const size_t after_drop = run.out.find("CPU: base_cpu [kernel]\n");
  EXPECT_NE(after_drop, std::string::npos) << run.out;
  EXPECT_NE(run.out.find("AutogradCPU: fallthrough registered at lib/runtime/dispatch/src/dispatch_default_fallbacks.cpp:",
                         after_drop),
            std::string::npos);
  EXPECT_NE(run.out.find("name: myops::foo\nschema: myops::foo(Tensor x) -> Tensor\ndebug: registered at what-if.txt:2\n"
                         "alias analysis kind: FROM_SCHEMA\nCPU: base_cpu :: (none) [ boxed ]\n"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.err,
            "what-if.txt:9: error: unknown dispatch key 'CPUU'; did you mean 'CPU'?\n"
            "what-if.txt:10: error: tried to register an operator (myops::foo(Tensor x) -> Tensor) with the same name "
            "and overload name multiple times; first registered at what-if.txt:2, again at what-if.txt:10\n"
            "what-if.txt:12: error: tried to register multiple backend fallbacks for the same dispatch key XLA; "
            "previous registration at what-if.txt:11, new registration at what-if.txt:12\n"
            "what-if.txt:13: error: unknown step 'frobnicate'; expected def, impl, fallback, drop, table or dump\n"
            "what-if.txt:15: error: no operator named 'myops::nothing'\n");
}

// Keys beyond PythonDispatcher's widen the registrations' key column, so the kernels line up.
TEST(Simulate, RegistrationsOfOtherKeysAreAligned) {
  const Outcome run = simulate({"CPU", "AutogradNestedTensor", "CompositeExplicitAutogradNonFunctional"}, true);
  EXPECT_NE(run.out.find("\nAutogradNestedTensor                          fn_AutogradNestedTensor\n"
                         "CPU                                           fn_CPU\n"
                         "CompositeExplicitAutogradNonFunctional[alias] fn_CompositeExplicitAutogradNonFunctional\n"),
            std::string::npos)
      << run.out;
}

// A script's table and dump steps take globs: one section per operator, named.
TEST(SimulateScript, GlobsInTableAndDump) {
  const Outcome run = script(
      "def ns::a(Tensor x) -> Tensor\ndef ns::b(Tensor x) -> Tensor\nimpl L ns::a CPU fa\n"
      "impl L ns::b CUDA fb\ntable ns::*\ndump ns::?\ntable nz::*\n");
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.out.rfind("ns::a:\nCPU: fa [kernel]\n", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("\nns::b:\nCUDA: fb [kernel]\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("ns::b:\nname: ns::b\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.err, "what-if.txt:7: error: no operator matches 'nz::*'; no namespace 'nz'; did you mean 'ns'?\n");
}

TEST(SimulateScript, CatchAllAndCleanRun) {
  // An OP without a namespace takes LIB as its namespace.
  const Outcome run = script("impl ns op catchall fn_any\ntable ns::op\n");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("Undefined: fn_any [math kernel]\nCPU: fn_any [math kernel]\n"), std::string::npos) << run.out;
}

TEST(SimulateScript, BadStepShapes) {
  const Outcome run = script("impl lib\ndrop\ndrop nobody\nfallback lib Autograd fallthrough\n");
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("what-if.txt:1: error: 'impl' takes 4 words: impl LIB OP KEY KERNEL"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("what-if.txt:3: error: nothing is registered under library 'nobody'"), std::string::npos);
  EXPECT_NE(run.err.find("what-if.txt:4: error: a backend fallback must be registered for a runtime key"),
            std::string::npos);
}

// The built tool: exit codes and streams.
Outcome run_cli(const std::string& args) {
  const std::string command = std::string(SCHEMAC_DISPATCH_INSPECT) + " " + args + " 2>/dev/null";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {-1, "", ""};
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), out, ""};
}

TEST(SimulateCli, ExitCodesAndOutput) {
  const Outcome ok = run_cli("simulate CPU AutogradCPU");
  EXPECT_EQ(ok.code, 0);
  EXPECT_EQ(ok.out, expected_table({"K", "-", "-", "-", "F", "K", "F", "F"}));
  EXPECT_EQ(run_cli("simulate CPU CPU").code, 1);
  EXPECT_EQ(run_cli("simulate --format yaml CPU").code, 2);
  EXPECT_EQ(run_cli("simulate --script /nonexistent/what-if.txt").code, 2);
  EXPECT_EQ(run_cli("").code, 2);
  const Outcome help = run_cli("simulate --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("Examples:"), std::string::npos);
}

TEST(SimulateCli, Script) {
  const std::string path = ::testing::TempDir() + "/simulate_cli_script.txt";
  std::ofstream(path) << "def a::b(Tensor x) -> Tensor\nimpl a b CPU k\ntable a::b\n";
  const Outcome run = run_cli("simulate --script " + path);
  EXPECT_EQ(run.code, 0);
  EXPECT_EQ(run.out.rfind("CPU: k [kernel]\n", 0), 0u) << run.out;
}

}  // namespace
}  // namespace schemac::inspect
