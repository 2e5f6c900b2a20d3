// Lint of the whole PyTorch corpus (2,590 entries, 634 KB), end to end and by stage:
//   BM_baseline_yaml_cpp_node_load  yaml-cpp's YAML::Load of the file (what a Node-based loader pays)
//   BM_yaml_event_tree              our located tree from yaml-cpp's event parser
//   BM_load_native_functions        the tree plus the field reader and every schema parse
//   BM_lint_corpus_end_to_end       read both files from disk, load tags, lint through the engine
//                                   `schemac lint` runs (lib/frontend/engine: config lookup, rules,
//                                   suppressions, config), render the text
//   BM_lint_extension_282_end_to_end  an extension YAML of 282 namespaced operators (the forms of
//                                   tests/lint/extension/forms.yaml, renamed) in the extension
//                                   profile: load, lint, the rules across files, render the text
//   BM_lint_wide_schema_yaml/N      one `func:` of N `Tensor aI` arguments: lint and render (linear
//   BM_lint_wide_schema_cpp/N       in N: tests/robustness/linear_growth_test.cpp checks the growth)
//   BM_lint_garbage_line_yaml/N     one `func:` line of N bytes of punctuation and names
//   BM_lint_macro_bomb_cpp          a namespace macro that doubles 40 times (2^40 tokens): the
//                                   expansion stops at its budget with a located error
//   BM_lint_alias_bomb_yaml         ten lines of YAML aliases each copying the last ten times
//                                   (10^10 nodes): the load stops at its bound with a located error
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <yaml-cpp/yaml.h>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/engine/engine.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_inputs.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/yaml/yaml_loader.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"

#include "../bench_support.h"

namespace {

const std::string kNativeFunctions = SCHEMAC_CORPUS_DIR "/native_functions.yaml";
const std::string kTags = SCHEMAC_CORPUS_DIR "/tags.yaml";
const std::string kExtensionForms = SCHEMAC_LINT_TEST_DIR "/extension/forms.yaml";

using schemac::bench::read_file;

const std::string& corpus() { return schemac::bench::corpus_native_functions(); }

void BM_baseline_yaml_cpp_node_load(benchmark::State& state) {
  for (auto _ : state) {
    YAML::Node node = YAML::Load(corpus());
    benchmark::DoNotOptimize(node.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().size()));
}
BENCHMARK(BM_baseline_yaml_cpp_node_load)->Unit(benchmark::kMillisecond);

void BM_yaml_event_tree(benchmark::State& state) {
  for (auto _ : state) {
    schemac::yaml::YamlLoadResult r = schemac::yaml::load_yaml("native_functions.yaml", corpus());
    benchmark::DoNotOptimize(r.document.root);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().size()));
}
BENCHMARK(BM_yaml_event_tree)->Unit(benchmark::kMillisecond);

void BM_load_native_functions(benchmark::State& state) {
  for (auto _ : state) {
    schemac::native_functions::NativeFunctionsLoad r =
        schemac::native_functions::load_native_functions("native_functions.yaml", corpus());
    benchmark::DoNotOptimize(r.file.functions.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().size()));
}
BENCHMARK(BM_load_native_functions)->Unit(benchmark::kMillisecond);

void BM_lint_corpus_end_to_end(benchmark::State& state) {
  using namespace schemac::diagnostics;
  for (auto _ : state) {
    std::string text = read_file(kNativeFunctions);
    SourceFiles sources;
    sources.add(kNativeFunctions, text);
    schemac::config::ConfigProvider configs;
    schemac::engine::Options options;
    options.tags_file = kTags;
    std::vector<schemac::engine::Document> documents;
    documents.emplace_back(kNativeFunctions, std::move(text));
    std::vector<Diagnostic> diagnostics =
        schemac::engine::lint(std::move(documents), &configs, options).diagnostics;
    sort_diagnostics(diagnostics);
    std::string out = render_text(diagnostics, sources) + render_summary(count_diagnostics(diagnostics));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus().size()));
}
BENCHMARK(BM_lint_corpus_end_to_end)->Unit(benchmark::kMillisecond);

// 282 operators: the entries of forms.yaml repeated in namespaces kx0, kx1, ...
const std::string& extension_282() {
  static const std::string text = [] {
    const std::string forms = read_file(kExtensionForms);
    std::vector<std::string> entries;
    for (size_t at = forms.find("- func: "); at != std::string::npos;) {
      const size_t next = forms.find("\n- func: ", at);
      entries.push_back(forms.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at));
      at = next == std::string::npos ? next : next + 1;
    }
    std::string out;
    for (size_t i = 0; i < 282; ++i) {
      std::string entry = entries[i % entries.size()];
      entry.replace(entry.find("kx::"), 4, "kx" + std::to_string(i / entries.size()) + "::");
      out += entry;
    }
    return out;
  }();
  return text;
}

void BM_lint_extension_282_end_to_end(benchmark::State& state) {
  using namespace schemac::diagnostics;
  using namespace schemac::lint;
  using namespace schemac::native_functions;
  const std::string path = "extension_282.yaml";
  for (auto _ : state) {
    std::string text = extension_282();
    SourceFiles sources;
    sources.add(path, text);
    FileLint linted = lint_file(path, std::move(text), FileLintOptions{});
    const NativeFunctionsFile* files[] = {linted.native.get()};
    for (Diagnostic& d : check_duplicates_across_files(files, {})) linted.diagnostics.push_back(std::move(d));
    std::string out = render_text(linted.diagnostics, sources) + render_summary(count_diagnostics(linted.diagnostics));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * extension_282().size()));
}
BENCHMARK(BM_lint_extension_282_end_to_end)->Unit(benchmark::kMillisecond);

std::string wide_arguments(int64_t n) {
  std::string out;
  for (int64_t i = 0; i < n; ++i) out += (i > 0 ? ", Tensor a" : "Tensor a") + std::to_string(i);
  return out;
}

// Lints `text` as `path` (YAML, or registration code by its extension) and renders the findings.
void lint_and_render(benchmark::State& state, const std::string& path, const std::string& text) {
  for (auto _ : state) {
    std::vector<schemac::diagnostics::Diagnostic> found;
    if (path.ends_with(".cpp")) {
      schemac::sources::ScannedFile file{path, schemac::sources::scan_source(text, schemac::sources::Language::cpp)};
      found = schemac::sources::lint_sources(std::span(&file, 1));
    } else {
      found = schemac::lint::lint_file(path, text, {}).diagnostics;
    }
    schemac::diagnostics::SourceFiles sources;
    sources.add(path, text);
    benchmark::DoNotOptimize(schemac::diagnostics::render_text(found, sources).size());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}

void BM_lint_wide_schema_yaml(benchmark::State& state) {
  lint_and_render(state, "wide.yaml", "- func: wide(" + wide_arguments(state.range(0)) + ") -> Tensor\n");
}
BENCHMARK(BM_lint_wide_schema_yaml)->Arg(4000)->Arg(32000)->Unit(benchmark::kMillisecond);

void BM_lint_wide_schema_cpp(benchmark::State& state) {
  lint_and_render(state, "wide.cpp",
                  "TORCH_LIBRARY(ns, m) {\n  m.def(\"wide(" + wide_arguments(state.range(0)) + ") -> Tensor\");\n}\n");
}
BENCHMARK(BM_lint_wide_schema_cpp)->Arg(4000)->Arg(32000)->Unit(benchmark::kMillisecond);

void BM_lint_garbage_line_yaml(benchmark::State& state) {
  const std::string alphabet = "abc(),[]->? =!|*xyz0123456789";
  std::string line;
  uint32_t x = 12345;
  for (int64_t i = 0; i < state.range(0); ++i) {
    x = x * 1103515245u + 12345u;
    line += alphabet[(x >> 16) % alphabet.size()];
  }
  lint_and_render(state, "garbage.yaml", "- func: f(" + line + ") -> Tensor\n");
}
BENCHMARK(BM_lint_garbage_line_yaml)->Arg(6 << 20)->Unit(benchmark::kMillisecond);

void BM_lint_macro_bomb_cpp(benchmark::State& state) {
  std::string text = "#define A0 x\n";
  for (int i = 1; i <= 40; ++i)
    text += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
  text += "#define NS A40\nTORCH_LIBRARY_EXPAND(NS, m) {\n  m.def(\"f(Tensor x) -> Tensor\");\n}\n";
  lint_and_render(state, "bomb.cpp", text);
}
BENCHMARK(BM_lint_macro_bomb_cpp)->Unit(benchmark::kMillisecond);

void BM_lint_alias_bomb_yaml(benchmark::State& state) {
  std::string text = "- func: f(Tensor self) -> Tensor\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 10; ++level) {
    text += "  a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? ", *a" : "*a") + std::to_string(level - 1);
    text += "]\n";
  }
  lint_and_render(state, "laughs.yaml", text);
}
BENCHMARK(BM_lint_alias_bomb_yaml)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
