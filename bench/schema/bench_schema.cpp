// Parsing speed over the real corpus: every `- func:` of native_functions.yaml (2,590 schemas).
// BM_parse_schema parses one schema per iteration, cycling through the corpus, so its time is
// the nanoseconds per schema. Two baselines, measured in the same run: copying each schema into a
// std::string (touching the text once and one allocation), and the PEGTL grammar alone (what the
// schemas the fast path declines go through, without building the model).
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "../bench_support.h"
#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#include "schema_errors.h"
#include "schema_grammar.h"
#include "fast_parser.h"

namespace {

const std::vector<std::string>& corpus() {
  static const std::vector<std::string> schemas = schemac::bench::corpus_schemas();
  return schemas;
}

// Runs `body` on one item per iteration, cycling through `items` (the corpus, as text or parsed).
template <typename Item, typename Body>
void cycle_through(benchmark::State& state, const std::vector<Item>& items, Body body) {
  if (items.empty()) {
    state.SkipWithError("corpus not found: " SCHEMAC_CORPUS_DIR "/native_functions.yaml");
    return;
  }
  size_t i = 0;
  for (auto _ : state) {
    body(items[i]);
    if (++i == items.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// Runs `body` on one schema text per iteration, counting the bytes read.
template <typename Body>
void per_schema(benchmark::State& state, Body body) {
  int64_t bytes = 0;
  cycle_through(state, corpus(), [&](const std::string& text) {
    body(text);
    bytes += static_cast<int64_t>(text.size());
  });
  if (bytes > 0) state.SetBytesProcessed(bytes);
}

void BM_baseline_copy_schema(benchmark::State& state) {
  per_schema(state, [](const std::string& text) {
    std::string copy(text);
    benchmark::DoNotOptimize(copy.data());
  });
}
BENCHMARK(BM_baseline_copy_schema);

// The PEGTL grammar alone, with no actions (so no model), over the same texts: the floor under
// the grammar's path (BM_parse_schema_syntax_grammar_path). BM_parse_schema reads nearly all of
// the corpus by the hand-written fast path in front of the grammar, and is below this floor. The texts are padded as parse_schema pads its own copy (schema_grammar.h).
void BM_baseline_grammar_only(benchmark::State& state) {
  namespace pegtl = tao::pegtl;
  namespace g = schemac::schema::grammar;
  static const std::vector<std::string> padded = [] {
    std::vector<std::string> out;
    for (const std::string& text : corpus()) out.push_back(text + std::string(g::kInputPadding, '\0'));
    return out;
  }();
  per_schema(state, [](const std::string& text) {
    const std::string& input = padded[&text - corpus().data()];
    pegtl::memory_input<pegtl::tracking_mode::lazy> in(input.data(), input.size() - g::kInputPadding,
                                                        "schema");
    bool ok = pegtl::parse<g::schema, pegtl::nothing, pegtl::must_if<g::errors>::control>(in);
    benchmark::DoNotOptimize(ok);
  });
}
BENCHMARK(BM_baseline_grammar_only);

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

// The corpus parsed once (syntax only: the checks are what BM_check_schema times), for the
// benchmarks of what reads a parsed schema.
const std::vector<schemac::schema::FunctionSchema>& parsed_corpus() {
  static const std::vector<schemac::schema::FunctionSchema> parsed = [] {
    std::vector<schemac::schema::FunctionSchema> out;
    for (const std::string& text : corpus()) out.push_back(*schemac::schema::parse_schema_syntax(text).schema);
    return out;
  }();
  return parsed;
}

// The semantic checks alone (check.h), over schemas parsed beforehand: BM_parse_schema less
// BM_parse_schema_syntax_only, without the model having just been written.
void BM_check_schema(benchmark::State& state) {
  cycle_through(state, parsed_corpus(), [](const schemac::schema::FunctionSchema& schema) {
    auto problems = schemac::schema::check_schema(schema);
    benchmark::DoNotOptimize(problems);
  });
}
BENCHMARK(BM_check_schema);

void BM_print_schema(benchmark::State& state) {
  cycle_through(state, parsed_corpus(), [](const schemac::schema::FunctionSchema& schema) {
    std::string printed = schemac::schema::print_schema(schema);
    benchmark::DoNotOptimize(printed.data());
  });
}
BENCHMARK(BM_print_schema);

// The syntax through the PEGTL grammar alone, skipping the fast path (fast_parser.h): what the
// schemas the fast path declines cost.
void BM_parse_schema_syntax_grammar_path(benchmark::State& state) {
  per_schema(state, [](const std::string& text) {
    auto result = schemac::schema::detail::parse_schema_syntax(
        text, schemac::schema::detail::ParserPath::Grammar);
    benchmark::DoNotOptimize(result);
  });
}
BENCHMARK(BM_parse_schema_syntax_grammar_path);

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
