// Generation for the whole PyTorch corpus (2,590 entries):
//   BM_baseline_load_native_functions  the located YAML load and every schema parse
//   BM_generate_corpus_in_memory       load + lint rules + model + every emitter (no disk)
//   BM_emit_only                       model + every emitter, from an already loaded file
//   BM_generate_extension_torch        tests/torch/extension_ops.yaml (266 extension operators)
//                                      through the torch target: load, lint, model, check, emit
// The target for BM_generate_corpus_in_memory is <= 150 ms; for BM_generate_extension_torch
// (and `schemac gen --target torch` of that file end to end) < 50 ms.
#include <fstream>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>

#include "schemac/codegen/output_files.h"
#include "schemac/codegen/target.h"
#include "schemac/generate/checked_model.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/native_functions/native_functions.h"

#include "../bench_support.h"

namespace {

using schemac::bench::read_file;

const std::string& corpus() { return schemac::bench::corpus_native_functions(); }

size_t generate(const schemac::native_functions::NativeFunctionsFile& file) {
  schemac::codegen::ModelBuild build = schemac::codegen::build_gen_model(
      {{"tests/data/pytorch/native_functions.yaml", &file}}, "aten");
  size_t bytes = 0;
  for (const auto& out : schemac::codegen::generate_files(
           build.model, *schemac::codegen::find_target("schemac"), {0, "aten"}))
    bytes += out.content.size();
  return bytes;
}

void BM_baseline_load_native_functions(benchmark::State& state) {
  for (auto _ : state) {
    auto load = schemac::native_functions::load_native_functions("native_functions.yaml", corpus());
    benchmark::DoNotOptimize(load.file.functions.size());
  }
}
BENCHMARK(BM_baseline_load_native_functions)->Unit(benchmark::kMillisecond);

// What `schemac gen` does between reading the file and writing the outputs.
void BM_generate_corpus_in_memory(benchmark::State& state) {
  for (auto _ : state) {
    auto load = schemac::native_functions::load_native_functions("native_functions.yaml", corpus());
    schemac::codegen::ModelBuild build = schemac::generate::build_checked_gen_model(
        {{"tests/data/pytorch/native_functions.yaml", &load.file}}, {},
        *schemac::codegen::find_target("schemac"), {0, "aten"});
    benchmark::DoNotOptimize(build.diagnostics.size());
    size_t bytes = 0;
    for (const auto& out : schemac::codegen::generate_files(
             build.model, *schemac::codegen::find_target("schemac"), {0, "aten"}))
      bytes += out.content.size();
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_generate_corpus_in_memory)->Unit(benchmark::kMillisecond);

void BM_emit_only(benchmark::State& state) {
  auto load = schemac::native_functions::load_native_functions("native_functions.yaml", corpus());
  size_t bytes = 0;
  for (auto _ : state) {
    bytes = generate(load.file);
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_emit_only)->Unit(benchmark::kMillisecond);

// What `schemac gen FILE --target torch --shards 4` does between reading the file and writing.
void BM_generate_extension_torch(benchmark::State& state) {
  const std::string text = read_file(SCHEMAC_EXTENSION_YAML);
  const schemac::codegen::Target& torch = *schemac::codegen::find_target("torch");
  const schemac::codegen::GenOptions options{4, "aten", true};
  for (auto _ : state) {
    auto load = schemac::native_functions::load_native_functions("extension_ops.yaml", text);
    schemac::codegen::ModelBuild build = schemac::generate::build_checked_gen_model(
        {{"tests/torch/extension_ops.yaml", &load.file}}, {}, torch, options);
    benchmark::DoNotOptimize(build.diagnostics.size());
    size_t bytes = 0;
    for (const auto& out : schemac::codegen::generate_files(build.model, torch, options))
      bytes += out.content.size();
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_generate_extension_torch)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
