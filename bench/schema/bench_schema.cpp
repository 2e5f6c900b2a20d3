// Parsing speed over the real corpus: every `- func:` of native_functions.yaml (2,590 schemas).
// BM_parse_schema parses one schema per iteration, cycling through the corpus, so its time is
// the nanoseconds per schema. The baseline copies each schema into a std::string: the cost of
// touching the text once and one allocation, measured in the same run.
#include <fstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace {

const std::vector<std::string>& corpus() {
  static const std::vector<std::string> schemas = [] {
    std::vector<std::string> out;
    std::ifstream file(SCHEMAC_CORPUS_FILE);
    const std::string prefix = "- func: ";
    for (std::string line; std::getline(file, line);) {
      if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
    }
    return out;
  }();
  return schemas;
}

// Runs `body` on one schema per iteration, cycling through the corpus.
template <typename Body>
void per_schema(benchmark::State& state, Body body) {
  const auto& schemas = corpus();
  if (schemas.empty()) {
    state.SkipWithError("corpus not found: " SCHEMAC_CORPUS_FILE);
    return;
  }
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const std::string& text = schemas[i];
    body(text);
    bytes += static_cast<int64_t>(text.size());
    if (++i == schemas.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
}

void BM_baseline_copy_schema(benchmark::State& state) {
  per_schema(state, [](const std::string& text) {
    std::string copy(text);
    benchmark::DoNotOptimize(copy.data());
  });
}
BENCHMARK(BM_baseline_copy_schema);

// Grammar, model and semantic checks: what every caller pays.
void BM_parse_schema(benchmark::State& state) {
  per_schema(state, [](const std::string& text) {
    auto result = schemac::schema::parse_schema(text);
    benchmark::DoNotOptimize(result);
  });
}
BENCHMARK(BM_parse_schema);

void BM_parse_schema_syntax_only(benchmark::State& state) {
  per_schema(state, [](const std::string& text) {
    auto result = schemac::schema::parse_schema_syntax(text);
    benchmark::DoNotOptimize(result);
  });
}
BENCHMARK(BM_parse_schema_syntax_only);

void BM_print_schema(benchmark::State& state) {
  std::vector<schemac::schema::FunctionSchema> parsed;
  for (const std::string& text : corpus()) parsed.push_back(*schemac::schema::parse_schema(text).schema);
  size_t i = 0;
  for (auto _ : state) {
    std::string printed = schemac::schema::print_schema(parsed[i]);
    benchmark::DoNotOptimize(printed.data());
    if (++i == parsed.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_print_schema);

// The whole corpus per iteration, to see the figure without cycling effects.
void BM_parse_whole_corpus(benchmark::State& state) {
  for (auto _ : state) {
    for (const std::string& text : corpus()) {
      auto result = schemac::schema::parse_schema(text);
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(corpus().size()));
}
BENCHMARK(BM_parse_whole_corpus)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
