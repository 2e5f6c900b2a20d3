// dispatch-inspect end to end: every subcommand on the example plugin, a C++ test library and
// lib/runtime/kernels against golden files (golden/inspect/, paths normalised to <build>/ and source-
// relative; SCHEMAC_UPDATE_GOLDEN=1 rewrites them), and the error cases with their exit codes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "../common/cli_test_support.h"

namespace {

struct ToolRun {
  int exit_code;
  std::string out;
  std::string err;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ToolRun run(const std::string& args) {
  const std::string err_path =
      (std::filesystem::temp_directory_path() / fmt::format("inspect_cli_test_{}.err", ::getpid())).string();
  const std::string command = fmt::format("'{}' {} 2>'{}'", DISPATCH_INSPECT, args, err_path);
  ToolRun r{-1, {}, {}};
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = read_file(err_path);
  std::filesystem::remove(err_path);
  return r;
}

// Tables pad their columns to the widest cell, and a cell may hold a path whose length depends
// on where the tree was checked out: compare with every run of spaces inside a line as one.
std::string collapse_padding(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ' && i + 1 < text.size() && text[i + 1] == ' ' && !out.empty() && out.back() != '\n') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
    }
    out += text[i];
  }
  return out;
}

// Registration sites compiled with relative paths (ccache with CCACHE_BASEDIR, scripts/ccache-env.sh,
// hands the compiler paths relative to the build folder) written as the absolute ones would be:
// `../lib/x.cpp:7` is the source tree's, `lib/runtime/kernels/generated/y.cpp:9` the build tree's.
std::string absolute_sites(const std::string& text) {
  namespace fs = std::filesystem;
  static const std::regex kSite(R"((^|[\s("])([A-Za-z0-9_.][A-Za-z0-9_./-]*\.(?:cpp|cc|h|hpp)):(\d+))");
  std::string out;
  auto last = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), kSite), end; it != end; ++it) {
    const std::smatch& m = *it;
    const fs::path site = fs::path(INSPECT_BINARY_DIR) / m[2].str();
    out.append(last, m[2].first);
    out += fs::exists(site) ? fs::weakly_canonical(site).string() : m[2].str();
    last = m[2].second;
  }
  out.append(last, text.cend());
  return out;
}

// `text` with `dir` replaced by `by` where a path starts with it (after a space, a quote, a
// parenthesis or a line's start), not inside another path: a checkout at /src must not lose the
// "/src/" of lib/runtime/dispatch/src/.
std::string replace_path_prefix(const std::string& text, const std::string& dir,
                                const std::string& by) {
  std::string out;
  size_t from = 0;
  for (size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, from)) {
    const bool starts = at == 0 || std::string_view(" \n'\"(").find(text[at - 1]) != std::string::npos;
    out.append(text, from, at - from).append(starts ? by : dir);
    from = at + dir.size();
  }
  return out.append(text, from);
}

// Machine-specific paths out: the build tree first (it may lie inside the source tree).
std::string normalise(std::string text) {
  text = absolute_sites(text);
  text = replace_path_prefix(text, std::string(INSPECT_BINARY_DIR) + "/", "<build>/");
  return replace_path_prefix(text, std::string(INSPECT_SOURCE_DIR) + "/", "");
}

std::string q(const char* path) { return fmt::format("'{}'", path); }

void expect_golden(const std::string& name, const std::string& args) {
  const ToolRun r = run(args);
  ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  const std::string actual = normalise(r.out);
  const std::string path = std::string(INSPECT_GOLDEN_DIR) + "/" + name;
  if (schemac::test::update_golden()) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing; run with SCHEMAC_UPDATE_GOLDEN=1 to create it";
  EXPECT_EQ(collapse_padding(actual), collapse_padding(read_file(path))) << "golden " << name << " differs (SCHEMAC_UPDATE_GOLDEN=1 rewrites it)";
}

struct GoldenCase {
  const char* name;
  std::string args;
};

TEST(InspectGolden, ExamplePlugin) {
  const std::string load = "--load " + q(INSPECT_EXAMPLE_PLUGIN);
  const GoldenCase cases[] = {
      {"plugin-ops.txt", "ops " + load},
      {"plugin-ops.json", "ops --format json " + load},
      {"plugin-table-scale.txt", "table example_plugin::scale " + load},
      {"plugin-table-scale.torch.txt", "table example_plugin::scale --format torch " + load},
      {"plugin-table-scale.json", "table example_plugin::scale --format json " + load},
      {"plugin-dump-count.txt", "dump example_plugin::count " + load},
      {"plugin-dump-count.json", "dump example_plugin::count --format json " + load},
      {"plugin-resolve-scale.txt", "resolve example_plugin::scale --keys CPU,ADInplaceOrView,AutogradCPU " + load},
      {"plugin-resolve-scale.json", "resolve example_plugin::scale --keys CPU,AutogradCPU --format json " + load},
      {"plugin-trace-scale_twice.txt", "trace example_plugin::scale_twice --arg cpu:float32[2,3] --arg 2.5 " + load},
      {"plugin-trace-scale_twice.json",
       "trace example_plugin::scale_twice --arg cpu:float32[2,3] --arg 2.5 --format json " + load},
  };
  for (const GoldenCase& c : cases) expect_golden(c.name, c.args);
}

TEST(InspectGolden, CppLibraryLayering) {
  const std::string load = "--load " + q(INSPECT_CPP_OPS_LIBRARY);
  const GoldenCase cases[] = {
      {"cpp-table-twice.txt", "table inspect_test::twice " + load},
      {"cpp-dump-twice.txt", "dump inspect_test::twice " + load},
      {"cpp-resolve-twice.txt", "resolve inspect_test::twice --keys CPU,ADInplaceOrView,AutogradCPU " + load},
      {"cpp-trace-twice.txt", "trace inspect_test::twice --arg cpu:float32[2] " + load},
      {"cpp-trace-decomposed.txt", "trace inspect_test::decomposed --arg cpu:float32[2] " + load},
  };
  for (const GoldenCase& c : cases) expect_golden(c.name, c.args);
}

// Operators with tuple, dict and None arguments (containers_library.cpp), called with nested
// value specs.
TEST(InspectGolden, ContainerArguments) {
  const std::string load = "--load " + q(INSPECT_CONTAINERS_LIBRARY);
  const GoldenCase cases[] = {
      {"containers-trace-pick.txt",
       "trace inspect_containers::pick --arg cpu:float32[2] --arg \"{'a': cpu:float32[2,2], 'b': cpu:int64[3]}\" "
       "--arg \"'b'\" --arg '(2, 3)' " + load},
      {"containers-trace-pick-default.json",
       "trace inspect_containers::pick --arg cpu:float32[1] --arg \"{\\\"k\\\": cpu:float32[2]}\" --arg key=\"'k'\" "
       "--format json " + load},
      {"containers-trace-source_sizes.txt",
       "trace inspect_containers::source_sizes --arg \"{'user': 3, 'item': 2.5}\" "
       "--arg \"[('user', 'rates'), ('tag', 'of')]\" --arg None " + load},
  };
  for (const GoldenCase& c : cases) expect_golden(c.name, c.args);
}

struct ErrorCase {
  const char* name;
  std::string args;
  int exit_code;
  std::vector<std::string> stderr_parts;
};

#ifdef INSPECT_KERNELS_LIBRARY
// lib/runtime/kernels registers its CUDA kernels only in builds that have them (sanitizer builds do not):
// the goldens that list kernels per key come once per kernel set, ".nocuda" before the extension
// for the builds without.
std::string kernel_set_golden(std::string name) {
#ifndef INSPECT_KERNELS_HAVE_CUDA
  name.insert(name.rfind('.'), ".nocuda");
#endif
  return name;
}

TEST(InspectGolden, Kernels) {
  const std::string load = "--load " + q(INSPECT_KERNELS_LIBRARY);
  ASSERT_NE(run("ops " + load).out.find("aten::add.Tensor"), std::string::npos)
      << "lib/runtime/kernels registers no aten::add.Tensor: its generated registration is missing";
  const std::string table = kernel_set_golden("kernels-table-add.txt");
  const std::string table_torch = kernel_set_golden("kernels-table-add.torch.txt");
  const std::string dump = kernel_set_golden("kernels-dump-add.txt");
  const GoldenCase cases[] = {
      {"kernels-ops.txt", "ops " + load},
      {table.c_str(), "table aten::add.Tensor " + load},
      {table_torch.c_str(), "table aten::add.Tensor --format torch " + load},
      {dump.c_str(), "dump aten::add.Tensor " + load},
      {"kernels-resolve-add.txt", "resolve aten::add.Tensor --keys CPU,ADInplaceOrView,AutogradCPU " + load},
      {"kernels-trace-add.txt", "trace aten::add.Tensor --arg cpu:float32[2,3] --arg cpu:float32[2,3] " + load},
  };
  for (const GoldenCase& c : cases) expect_golden(c.name, c.args);
}

#endif

// The pictures are valid Graphviz: `dot -Tsvg` renders the table and the chain, and the table's
// picture names every kernel of the table (graphviz is a test dependency, scripts/install-deps.sh).
TEST(InspectPictures, DotRendersAndNamesEveryKernel) {
  const std::string load = " --load " + q(INSPECT_CPP_OPS_LIBRARY);
  const ToolRun svg = run("table inspect_test::twice --format dot" + load + " | dot -Tsvg");
  ASSERT_EQ(svg.exit_code, 0) << svg.err;
  EXPECT_NE(svg.out.find("<svg"), std::string::npos);
  for (const char* kernel : {"twice_cpu", "twice_autograd", "twice_inplace_or_view"})
    EXPECT_NE(svg.out.find(kernel), std::string::npos) << kernel << " is not in the picture";
  const ToolRun chain = run("resolve inspect_test::twice --tensor cpu --format dot" + load + " | dot -Tsvg");
  ASSERT_EQ(chain.exit_code, 0) << chain.err;
  EXPECT_NE(chain.out.find("twice_autograd"), std::string::npos);
  EXPECT_NE(chain.out.find("DispatchKeySet(CPU)"), std::string::npos);
  const ToolRun mermaid = run("resolve inspect_test::twice --tensor cpu --format mermaid" + load);
  EXPECT_EQ(mermaid.out.rfind("flowchart TD\n", 0), 0u) << mermaid.out;
  EXPECT_NE(mermaid.out.find("-->|redispatch|"), std::string::npos) << mermaid.out;
}

TEST(InspectErrors, BadLibrariesAndNames) {
  const std::string cpp = q(INSPECT_CPP_OPS_LIBRARY);
  const std::string containers = q(INSPECT_CONTAINERS_LIBRARY);
  const ErrorCase cases[] = {
      {"missing file", "ops --load /nonexistent/libnothing.so", 1,
       {"dispatch-inspect: error: cannot load '/nonexistent/libnothing.so': No such file or directory"}},
      {"not a library", "ops --load " + q(INSPECT_SOURCE_DIR "/README.md"), 1,
       {"dispatch-inspect: error: cannot load '", "README.md': not a shared library: no ELF header"}},
      {"unresolved symbol", "ops --load " + q(INSPECT_UNRESOLVED_LIBRARY), 1,
       {"undefined symbol: schemac_inspect_test_symbol_that_nobody_defines"}},
      {"registration throws", "ops --load " + q(INSPECT_THROWING_LIBRARY), 1,
       {"registration block at", "boom: this registration block throws on purpose"}},
      {"duplicate across libraries", "table inspect_test::twice --load " + cpp + " --load " + q(INSPECT_DUPLICATE_LIBRARY), 1,
       {"with the same name and overload name multiple times", "cpp_ops_library.cpp:", "duplicate_library.cpp:"}},
      {"newer ABI", "ops --load " + q(INSPECT_NEWER_ABI_PLUGIN), 1, {"refusing plugin", "1.7"}},
      {"unknown operator", "table inspect_test::twise --load " + cpp, 1,
       {"dispatch-inspect: error: unknown operator 'inspect_test::twise'", "note: did you mean 'inspect_test::twice'?"}},
      {"unknown operator, nothing loaded", "dump aten::add", 1,
       {"unknown operator 'aten::add'", "no operators are registered; load a library with --load LIB"}},
      {"unknown key", "resolve inspect_test::twice --keys CPU,AutogradCPX --load " + cpp, 2,
       {"unknown dispatch key 'AutogradCPX'", "did you mean 'AutogradCPU'?"}},
      {"alias key in a key set", "resolve inspect_test::twice --keys Autograd --load " + cpp, 2,
       {"'Autograd' is not a runtime key"}},
      {"call would fail", "resolve inspect_test::twice --tensor cuda --load " + cpp, 1,
       {}},  // the chain, on stdout, ends "no kernel for CUDA: the call fails here"
      {"unknown autocast device", "resolve inspect_test::twice --tensor cpu --autocast gpu --load " + cpp, 2,
       {"--autocast"}},
      // Help lists cpu, cuda, xpu (PyTorch 1.13's autocast keys): mps is refused on both runtimes.
      {"autocast device help does not list", "resolve inspect_test::twice --tensor cpu --autocast mps --load " + cpp, 2,
       {"--autocast"}},
      {"unknown option device", "resolve inspect_test::twice --device tpu --load " + cpp, 2, {"--device"}},
      {"a library that registers nothing", "ops --load " + q(INSPECT_EMPTY_LIBRARY), 1,
       {"dispatch-inspect: error: '", "empty_library.so' registered nothing with the schemac runtime"}},
      {"trace under torch", "--runtime torch trace inspect_test::twice --arg 1 --load " + cpp, 2,
       {"dispatch-inspect: error: --runtime torch works with ops, table, dump, resolve, diff, audit and report, not 'trace'"}},
      {"bad tensor device", "resolve inspect_test::twice --tensor tpu --load " + cpp, 2, {"--tensor"}},
      {"unknown simulate key", "simulate CPUU", 1, {"CPUU is not supported", "note: did you mean 'CPU'?"}},
      {"simulate under torch", "simulate CPU --runtime torch", 2,
       {"--runtime torch works with ops, table, dump, resolve, diff, audit and report, not 'simulate'"}},
      {"bad value spec", "trace inspect_test::twice --arg cpu:float99[2] --load " + cpp, 2,
       {"argument 'self': cpu:float99[2]:1: unknown element type 'float99'"}},
      {"missing argument", "trace inspect_test::twice --load " + cpp, 2,
       {"argument 'self' (Tensor) has no value and no default"}},
      {"too many arguments", "trace inspect_test::twice --arg 1 --arg 2 --load " + cpp, 2, {"too many arguments"}},
      {"bad format", "table inspect_test::twice --format yaml --load " + cpp, 2, {"--format"}},
      {"malformed dict spec", "trace inspect_containers::pick --arg cpu:float32[2] --arg \"{'a': 1,\" --load " + containers, 2,
       {"argument 'seed_dict': {'a': 1,:1: '{' is never closed"}},
      {"malformed tuple spec", "trace inspect_containers::pick --arg cpu:float32[2] --arg \"{}\" --arg \"'a'\" "
       "--arg \"(1 2)\" --load " + containers, 2,
       {"argument 'group_shape': (1 2):4: expected ',' or ')', found '2'"}},
      {"dict value of the wrong type", "trace inspect_containers::pick --arg cpu:float32[2] --arg \"{'a': 5}\" "
       "--arg \"'a'\" --load " + containers, 2,
       {"argument 'seed_dict': {'a': 5} does not fit 'Dict(str, Tensor)': 5 is not a Tensor"}},
      {"tuple of the wrong length", "trace inspect_containers::pick --arg cpu:float32[2] --arg \"{}\" "
       "--arg \"'a'\" --arg \"(1, 2, 3)\" --load " + containers, 2,
       {"argument 'group_shape': (1, 2, 3) does not fit '(int, int)?'"}},
      {"not None", "trace inspect_containers::source_sizes --arg \"{}\" --arg [] --arg 3 --load " + containers, 2,
       {"argument 'unused': 3 does not fit 'None': 3 is not None"}},
  };
  for (const ErrorCase& c : cases) {
    const ToolRun r = run(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << "\n" << r.err;
    for (const std::string& part : c.stderr_parts)
      EXPECT_NE(r.err.find(part), std::string::npos) << c.name << ": '" << part << "' not in:\n" << r.err;
  }
}

// Global options before or after the subcommand, in both spellings; help that offers only what
// is accepted; one error prefix.
TEST(InspectOptions, GlobalOptionsAnywhereAndHelpThatAgrees) {
  const std::string load = " --load " + q(INSPECT_CPP_OPS_LIBRARY);
  for (const std::string& args :
       {"--runtime schemac table inspect_test::twice" + load, "--runtime=schemac table inspect_test::twice" + load,
        "table inspect_test::twice --runtime schemac" + load, "--color never table inspect_test::twice" + load}) {
    const ToolRun r = run(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    EXPECT_NE(r.out.find("twice_cpu"), std::string::npos) << args;
  }
  for (const char* command : {"trace --help", "simulate --help"})
    EXPECT_EQ(run(command).out.find("--runtime"), std::string::npos) << command;
  EXPECT_NE(run("resolve --help").out.find("--runtime"), std::string::npos);
  const std::string diff_help = run("diff --help").out;
  EXPECT_NE(schemac::test::words(diff_help).find("Exit status (as diff(1)): 0 the tables are equal, 1 they differ, 2 a "
                           "library failed to"),
            std::string::npos)
      << diff_help;
  const ToolRun mermaid = run("diff 'inspect_test::*' --format mermaid --right-load " + q(INSPECT_CPP_OPS_LIBRARY));
  EXPECT_EQ(mermaid.exit_code, 2);
  EXPECT_EQ(mermaid.err.rfind("dispatch-inspect: error: ", 0), 0u) << mermaid.err;
}

// The thread-local state and BackendSelect, on our runtime's kernels.
#ifdef INSPECT_KERNELS_LIBRARY
TEST(InspectResolve, FactoryOperatorsAndThreadLocalNotes) {
  const std::string load = " --load " + q(INSPECT_KERNELS_LIBRARY);
  const ToolRun empty = run("resolve aten::empty.memory_format" + load);
  EXPECT_EQ(empty.exit_code, 0) << empty.out << empty.err;
  EXPECT_NE(empty.out.find("chain: BackendSelect -> CPU\n"), std::string::npos) << empty.out;
  const ToolRun autocast = run("resolve aten::add.Tensor --keys CPU,AutocastCPU" + load);
  EXPECT_NE(autocast.out.find("dropped by thread-local state: AutocastCPU (the excluded set; "
                              "autocast is off: --autocast DEVICE turns it on)"),
            std::string::npos)
      << autocast.out;
}
#endif

#ifdef INSPECT_HAVE_TORCH
// libtorch's runtime: the same options, errors and chains by PyTorch's rules.
TEST(InspectTorch, OptionsErrorsAndChains) {
  const ToolRun before = run("--runtime torch table aten::add.Tensor --format torch");
  EXPECT_EQ(before.exit_code, 0) << before.err;
  EXPECT_NE(before.out.find("AutogradCPU: registered at"), std::string::npos);
  const ToolRun typo = run("table aten::add.Tensr --runtime torch");
  EXPECT_EQ(typo.exit_code, 1);
  EXPECT_NE(typo.err.find("note: did you mean 'aten::add.Tensor'"), std::string::npos) << typo.err;
  const ToolRun ours = run("table aten::add.Tensr --load " + q(INSPECT_KERNELS_LIBRARY));
  EXPECT_NE(ours.err.find("note: did you mean 'aten::add.Tensor'"), std::string::npos) << ours.err;

  const ToolRun wrong = run("table inspect_test::twice --runtime torch --load " + q(INSPECT_CPP_OPS_LIBRARY));
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_NE(wrong.err.find("registered nothing with the torch runtime: it seems built for the schemac "
                           "runtime (try --runtime schemac)"),
            std::string::npos)
      << wrong.err;
  const ToolRun diff = run("diff inspect_test::twice --right-runtime torch --load " + q(INSPECT_CPP_OPS_LIBRARY));
  EXPECT_EQ(diff.exit_code, 2) << diff.out;

  const std::string truncated =
      (std::filesystem::temp_directory_path() / fmt::format("inspect_truncated_{}.so", ::getpid())).string();
  std::filesystem::copy_file(INSPECT_CPP_OPS_LIBRARY, truncated,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(truncated, 4096);
  const ToolRun cut = run("ops --runtime torch --load " + q(truncated.c_str()));
  std::filesystem::remove(truncated);
  EXPECT_EQ(cut.exit_code, 1) << cut.err;
  EXPECT_NE(cut.err.find("not a shared library: truncated"), std::string::npos) << cut.err;
  EXPECT_EQ(cut.err.find("Bus error"), std::string::npos) << cut.err;

  // Nested tensors: one autograd kernel, then the nested backend kernel ends the chain.
  const ToolRun nested = run("resolve aten::add.Tensor --runtime torch --keys "
                             "NestedTensorCPU,AutogradNestedTensor,ADInplaceOrView,AutogradCPU");
  EXPECT_EQ(nested.exit_code, 0) << nested.out << nested.err;
  EXPECT_NE(nested.out.find("chain: AutogradNestedTensor -> NestedTensorCPU\n"), std::string::npos) << nested.out;
  EXPECT_NE(nested.out.find("end: a backend kernel"), std::string::npos) << nested.out;
  // Factory operators: BackendSelect computes the backend from the options, as torch.empty does.
  const ToolRun empty = run("resolve aten::empty.memory_format --runtime torch");
  EXPECT_EQ(empty.exit_code, 0) << empty.out << empty.err;
  EXPECT_NE(empty.out.find("chain: BackendSelect -> CPU\n"), std::string::npos) << empty.out;
  EXPECT_NE(empty.out.find("  2. CPU: registered at"), std::string::npos) << empty.out;
  const ToolRun meta = run("resolve aten::empty.memory_format --runtime torch --device meta");
  EXPECT_NE(meta.out.find("chain: BackendSelect -> Meta\n"), std::string::npos) << meta.out;
  // What the thread-local sets did is said.
  const ToolRun cuda = run("resolve aten::add.Tensor --runtime torch --keys CUDA,AutocastCUDA --allow-missing");
  EXPECT_NE(cuda.out.find("dropped by thread-local state: AutocastCUDA"), std::string::npos) << cuda.out;
  EXPECT_EQ(run("resolve aten::add.Tensor --runtime torch --keys CPU --autocast mps").exit_code, 2);
}
#endif

TEST(InspectErrors, AFailingCallPrintsTheKernelsThatRanAndTheError) {
  const ToolRun r = run("trace example_plugin::scale --arg cpu:int64[2] --arg 2.0 --load " + q(INSPECT_EXAMPLE_PLUGIN));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("example_plugin::scale CPU:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("supports contiguous float32 tensors only"), std::string::npos)
      << r.out;
}

// audit on our runtime: the example plugin's scale has a CPU kernel and no autograd kernel (the
// AutogradCPU entry is the backend fallback's fallthrough) and no Meta kernel.
TEST(InspectAudit, FlagsTheExamplePluginsAutogradFallthrough) {
  const std::string load = "--load " + q(INSPECT_EXAMPLE_PLUGIN);
  const ToolRun text = run("audit " + load);
  EXPECT_EQ(text.exit_code, 1) << text.err;
  const std::string out = normalise(text.out);
  EXPECT_NE(out.find("examples/plugin/plugin.cpp:54: warning: example_plugin::scale: AutogradCPU falls through (CPU "
                     "has kernel): no autograd kernel runs [autograd-fallthrough]\n"
                     "  why: the operator has no backward"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("example_plugin::scale: kernels for CPU but none for Meta"), std::string::npos) << out;
  // count is CompositeImplicitAutograd alone: it decomposes, so it needs neither.
  EXPECT_EQ(out.find("example_plugin::count"), std::string::npos) << out;
  EXPECT_NE(out.find("4 findings in 3 operators"), std::string::npos) << out;

  const ToolRun json = run("audit --format json " + load);
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_NE(json.out.find(R"({"rule":"autograd-fallthrough","operator":"example_plugin::scale","site":")"),
            std::string::npos)
      << json.out;
  const ToolRun sarif = run("audit --format sarif " + load);
  EXPECT_EQ(sarif.exit_code, 1);
  EXPECT_NE(sarif.out.find(R"("ruleId":"autograd-fallthrough")"), std::string::npos) << sarif.out;
  EXPECT_NE(sarif.out.find(R"("startLine":54)"), std::string::npos) << sarif.out;
}

TEST(InspectAudit, CleanLibraryExitsZeroAndOnlyItsOperatorsAreAudited) {
  // The duplicate library defines operators without kernels: nothing to flag. The cpp library's
  // twice has a CPU kernel and an autograd kernel but no Meta kernel.
  const ToolRun clean = run("audit --load " + q(INSPECT_DUPLICATE_LIBRARY));
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_EQ(clean.out, "0 findings in 2 operators\n");
  const ToolRun flagged = run("audit --load " + q(INSPECT_CPP_OPS_LIBRARY));
  EXPECT_EQ(flagged.exit_code, 1);
  EXPECT_NE(flagged.out.find("inspect_test::twice: kernels for CPU but none for Meta"), std::string::npos)
      << flagged.out;
  EXPECT_EQ(run("audit --format xml").exit_code, 2);
  EXPECT_EQ(run("audit --load /nonexistent/libnothing.so").exit_code, 1);
}

TEST(InspectHelp, SaysThatLoadingRunsCode) {
  for (const char* sub : {"ops", "table", "dump", "resolve", "trace", "diff"}) {
    const ToolRun r = run(fmt::format("{} --help", sub));
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(schemac::test::words(r.out).find("loading a library runs its code"), std::string::npos)
        << sub << "\n" << r.out;
  }
  EXPECT_NE(schemac::test::words(run("--help").out).find("loading a library runs its code"), std::string::npos);
}

// Globs: every operator subcommand takes `ns::*`-style patterns, one section per match (JSON: an
// array); a pattern that matches nothing is an error with a did-you-mean on the namespace.
TEST(InspectGlobs, EveryOperatorSubcommandTakesAGlob) {
  const std::string load = " --load " + q(INSPECT_CPP_OPS_LIBRARY);
  const ToolRun table = run("table 'inspect_test::*'" + load);
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out.rfind("inspect_test::decomposed\nkey", 0), 0u) << table.out;
  EXPECT_NE(table.out.find("\n\ninspect_test::twice\nkey"), std::string::npos) << table.out;
  // One operator without a glob: exactly as before.
  EXPECT_EQ(run("table inspect_test::twice" + load).out, run("table 'inspect_test::tw*'" + load).out);
  const ToolRun json = run("dump 'inspect_test::*' --format json" + load);
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.rfind("[{\"name\":\"inspect_test::decomposed\"", 0), 0u) << json.out;
  EXPECT_NE(json.out.find("},{\"name\":\"inspect_test::twice\""), std::string::npos) << json.out;
  EXPECT_EQ(json.out.substr(json.out.size() - 3), "}]\n");
  const ToolRun torch = run("table 'inspect_test::*' --format torch" + load);
  EXPECT_NE(torch.out.find("\ninspect_test::twice\nCPU: twice_cpu [kernel]\n"), std::string::npos) << torch.out;
  // decomposed has a math kernel, twice a CPU kernel: both calls resolve.
  const ToolRun resolve = run("resolve 'inspect_test::*' --tensor cpu" + load);
  EXPECT_EQ(resolve.exit_code, 0) << resolve.err;
  EXPECT_NE(resolve.out.find("operator: inspect_test::decomposed"), std::string::npos) << resolve.out;
  EXPECT_NE(resolve.out.find("\n\noperator: inspect_test::twice"), std::string::npos) << resolve.out;
  const ToolRun trace = run("trace 'inspect_test::*' --arg cpu:float32[2]" + load);
  EXPECT_EQ(trace.exit_code, 0) << trace.err;
  EXPECT_NE(trace.out.find("trace: inspect_test::decomposed(Tensor self) -> Tensor"), std::string::npos) << trace.out;
  EXPECT_NE(trace.out.find("\n\ntrace: inspect_test::twice(Tensor self) -> Tensor"), std::string::npos) << trace.out;
  const ToolRun dot = run("table 'inspect_test::*' --format dot" + load + " | dot -Tsvg -o /dev/null");
  EXPECT_EQ(dot.exit_code, 0) << dot.err;
}

// Several OP arguments: one run, sections as given, each operator once; an unknown one fails.
TEST(InspectGlobs, SeveralOperatorsInOneRun) {
  const std::string load = " --load " + q(INSPECT_CPP_OPS_LIBRARY);
  const ToolRun table = run("table inspect_test::twice 'inspect_test::d*' inspect_test::twice" + load);
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out.rfind("inspect_test::twice\nkey", 0), 0u) << table.out;
  EXPECT_NE(table.out.find("\n\ninspect_test::decomposed\nkey"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("twice", table.out.find("decomposed")), std::string::npos) << table.out;
  const ToolRun json = run("resolve inspect_test::decomposed inspect_test::twice --keys CPU --format json" + load);
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.rfind("[{\"operator\":\"inspect_test::decomposed\"", 0), 0u) << json.out;
  const ToolRun typo = run("table inspect_test::twice inspect_test::twise" + load);
  EXPECT_EQ(typo.exit_code, 1);
  EXPECT_EQ(typo.out, "");
  EXPECT_NE(typo.err.find("unknown operator 'inspect_test::twise'"), std::string::npos) << typo.err;
}

// unreachable-kernel on a built library: a CompositeImplicitAutograd kernel beside a
// CompositeExplicitAutograd one, and a CPU kernel registered twice (unreachable_library.cpp).
TEST(InspectAudit, FlagsKernelsNoCallCanReach) {
  const ToolRun r = run("audit --format json --load " + q(INSPECT_UNREACHABLE_LIBRARY));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find(R"({"rule":"unreachable-kernel","operator":"inspect_unreachable::both","site":")"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("unreachable_library.cpp:32\",\"message\":\"the CompositeImplicitAutograd kernel both_math "
                       "fills no entry of the computed table: a CompositeExplicitAutograd kernel stops math "
                       "kernels on every key\""),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"message\":\"the CPU kernel twice_old is shadowed by a newer registration (twice_new): "
                       "it never runs\""),
            std::string::npos)
      << r.out;
  // fine: one CompositeExplicitAutograd and one Autograd kernel, both in the table.
  EXPECT_EQ(r.out.find("inspect_unreachable::fine"), std::string::npos) << r.out;
}

TEST(InspectGlobs, AuditTakesAnOperatorGlob) {
  const ToolRun one = run("audit --op 'inspect_test::tw*' --load " + q(INSPECT_CPP_OPS_LIBRARY));
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_NE(one.out.find("in 1 operator\n"), std::string::npos) << one.out;
  const ToolRun none = run("audit --op 'inspect_tst::*' --load " + q(INSPECT_CPP_OPS_LIBRARY));
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no namespace 'inspect_tst'; did you mean 'inspect_test'?"), std::string::npos) << none.err;
}

// diff: before and after loading a library that overrides a kernel and adds a Meta one.
TEST(InspectDiff, BeforeAndAfterALoad) {
  const std::string args = "diff inspect_test::twice --load " + q(INSPECT_CPP_OPS_LIBRARY) + " --right-load " +
                           q(INSPECT_OVERRIDE_LIBRARY);
  const ToolRun text = run(args);
  EXPECT_EQ(text.exit_code, 1) << text.err;
  const std::string out = normalise(text.out);
  EXPECT_NE(out.find("--- inspect_test::twice: schemac after loading libinspect_cpp_ops_library.so\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\nCPU   twice_cpu  kernel   twice_cpu_fast  kernel\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nMeta  -          missing  twice_meta      kernel\n"), std::string::npos) << out;
  EXPECT_NE(out.find(" keys differ\n"), std::string::npos) << out;
  const ToolRun json = run(args + " --format json");
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_NE(json.out.find(R"("changes":[{"key":"CPU","left":{"kernel":"twice_cpu")"), std::string::npos) << json.out;
  const ToolRun dot = run(args + " --format dot | dot -Tsvg");
  EXPECT_EQ(dot.exit_code, 0) << dot.err;
  EXPECT_NE(dot.out.find("twice_cpu_fast"), std::string::npos);
  const ToolRun mermaid = run(args + " --format mermaid");
  EXPECT_NE(mermaid.out.find("class key0 changed"), std::string::npos) << mermaid.out;
  // A library that does not touch the operator: equal, exit 0.
  const ToolRun same = run("diff inspect_test::twice --load " + q(INSPECT_CPP_OPS_LIBRARY) + " --right-load " +
                           q(INSPECT_CONTAINERS_LIBRARY));
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("inspect_test::twice: equal ("), std::string::npos) << same.out;
  // An operator only the right side has: every entry added.
  const ToolRun added = run("diff 'inspect_test::*' --right-load " + q(INSPECT_CPP_OPS_LIBRARY));
  EXPECT_EQ(added.exit_code, 1) << added.err;
  EXPECT_NE(added.out.find("--- inspect_test::decomposed: schemac (no such operator)"), std::string::npos)
      << added.out;
}

TEST(InspectErrors, DiffAndGlobUsage) {
  const std::string cpp = q(INSPECT_CPP_OPS_LIBRARY);
  const ErrorCase cases[] = {
      {"diff of a side with itself", "diff inspect_test::twice --load " + cpp, 2, {"both sides are the same"}},
      {"diff of an unknown operator", "diff inspect_test::twise --right-load " + cpp, 2,
       {"unknown operator 'inspect_test::twise'", "did you mean 'inspect_test::twice'?"}},
      {"diff with a bad runtime", "diff inspect_test::twice --left-runtime pytorch --right-load " + cpp, 2,
       {"--left-runtime"}},
      {"diff of a library that fails to load", "diff inspect_test::twice --right-load /nonexistent/lib.so", 2,
       {"cannot load '/nonexistent/lib.so'"}},
      {"glob matching nothing", "table 'inspect_tset::*' --load " + cpp, 1,
       {"no operator matches 'inspect_tset::*'", "did you mean 'inspect_test'?"}},
      {"glob with a bad character", "table 'inspect_test::[tw]*' --load " + cpp, 1,
       {"'[' (column 15) is not allowed in an operator pattern"}},
      {"several operators as one mermaid picture", "table 'inspect_test::*' --format mermaid --load " + cpp, 2,
       {"--format mermaid draws one operator, and 'inspect_test::*' matches 2"}},
      {"audit --op that is unknown", "audit --op inspect_test::twise --load " + cpp, 1,
       {"unknown operator 'inspect_test::twise'"}},
  };
  for (const ErrorCase& c : cases) {
    const ToolRun r = run(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.name;
    for (const std::string& part : c.stderr_parts)
      EXPECT_NE(r.err.find(part), std::string::npos) << c.name << ": '" << part << "' not in:\n" << r.err;
  }
}

// Text tables fit 100 columns unless --wide, which keeps today's full width.
TEST(InspectTables, FitOneHundredColumnsUnlessWide) {
  const std::string load = " --load " + q(INSPECT_CPP_OPS_LIBRARY);
  const ToolRun narrow = run("table inspect_test::twice" + load);
  std::istringstream lines(narrow.out);
  for (std::string line; std::getline(lines, line);) {
    size_t columns = 0;
    for (char c : line) columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    EXPECT_LE(columns, 100u) << line;
  }
  const ToolRun wide = run("table inspect_test::twice --wide" + load);
  EXPECT_NE(wide.out.find("registered at "), std::string::npos) << wide.out;
  EXPECT_NE(wide.out.find("backend fallback (fallthrough)"), std::string::npos) << wide.out;
}

}  // namespace
