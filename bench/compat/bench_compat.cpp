// compat of the whole PyTorch corpus (2,590 entries) against a copy with three breaking edits:
//   BM_baseline_load_both_files     load_native_functions of OLD and NEW (the floor for compat)
//   BM_compare_loaded_files         compare_native_functions alone, on files loaded once
//   BM_compat_end_to_end            check_compat: both loads, the comparison, an allow-list, sort
#include <fstream>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>

#include "schemac/compat/compat.h"
#include "schemac/native_functions/native_functions.h"

#include "../bench_support.h"

namespace {

using namespace schemac::compat;
using namespace schemac::native_functions;

using schemac::bench::read_file;

const std::string& old_text() { return schemac::bench::corpus_native_functions(); }

// The corpus with a renamed argument, a renamed overload and a dropped backend.
const std::string& new_text() {
  static const std::string text = [] {
    std::string t = old_text();
    auto edit = [&t](const std::string& from, const std::string& to) {
      size_t at = t.find(from);
      if (at != std::string::npos) t.replace(at, from.size(), to);
    };
    edit("- func: add.Tensor(Tensor self, Tensor other, *", "- func: add.Tensor(Tensor self, Tensor rhs, *");
    edit("- func: max.dim(Tensor self,", "- func: max.by_dim(Tensor self,");
    edit("    CPU, CUDA, MPS, XPU: relu\n", "    CPU, MPS, XPU: relu\n");
    return t;
  }();
  return text;
}

const char* kAllowList = "- operator: add.Tensor\n  rule: renamed-argument\n  reason: bench\n";

void BM_baseline_load_both_files(benchmark::State& state) {
  for (auto _ : state) {
    NativeFunctionsLoad old_load = load_native_functions("old.yaml", old_text());
    NativeFunctionsLoad new_load = load_native_functions("new.yaml", new_text());
    benchmark::DoNotOptimize(old_load.file.functions.size() + new_load.file.functions.size());
  }
}
BENCHMARK(BM_baseline_load_both_files)->Unit(benchmark::kMillisecond);

void BM_compare_loaded_files(benchmark::State& state) {
  NativeFunctionsLoad old_load = load_native_functions("old.yaml", old_text());
  NativeFunctionsLoad new_load = load_native_functions("new.yaml", new_text());
  for (auto _ : state) {
    std::vector<CompatFinding> findings = compare_native_functions(old_load.file, new_load.file);
    benchmark::DoNotOptimize(findings.size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * old_load.file.functions.size()));
}
BENCHMARK(BM_compare_loaded_files)->Unit(benchmark::kMillisecond);

void BM_compat_end_to_end(benchmark::State& state) {
  for (auto _ : state) {
    CompatReport report = check_compat({"old.yaml", old_text()}, {"new.yaml", new_text()},
                                       CompatInput{"allow.yaml", kAllowList}, Date{2026, 1, 1});
    if (report.diagnostics.size() != 2 || report.allowed != 1) state.SkipWithError("unexpected findings");
    benchmark::DoNotOptimize(report.diagnostics.size());
  }
}
BENCHMARK(BM_compat_end_to_end)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
