// The language server on PyTorch's whole native_functions.yaml (2,590 entries, 634 KB), as an
// editor drives it; every sent message is serialised and framed, as on stdout:
//   BM_lsp_diagnostics_after_edit  a one-character incremental didChange in, publishDiagnostics
//                                  out (the budget: 100 ms)
//   BM_lsp_typing_20_edits         twenty one-character edits typed into an entry's name, each
//                                  to its diagnostics: the median is the budget's figure (50 ms)
//   BM_lsp_open_document           didOpen of the whole file (its JSON text parsed) to diagnostics
//   BM_lsp_hover_func_line         a hover on the last entry's `func:` line
//   BM_baseline_lint_file          lint_file on the same text, with the same tags: the lint alone
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "schemac/lint/file_kinds.h"
#include "schemac/lsp/message_reader.h"
#include "schemac/lsp/server.h"
#include "schemac/lsp/text_positions.h"

#include "../bench_support.h"

namespace {

using nlohmann::json;
using schemac::lsp::Server;

const std::string kPath = SCHEMAC_CORPUS_DIR "/native_functions.yaml";

const std::string& corpus() { return schemac::bench::corpus_native_functions(); }

// A server that frames what it sends into `sent` (its size is the result).
struct FramingServer {
  size_t sent = 0;
  Server server{{{"file:///docs/lint-rules.md", {}}, "bench"},
                [this](const json& m) { sent += schemac::lsp::frame_message(m.dump()).size(); }};
};

std::string open_message() {
  return json{{"jsonrpc", "2.0"},
              {"method", "textDocument/didOpen"},
              {"params", {{"textDocument", {{"uri", schemac::lsp::uri_from_path(kPath)}, {"languageId", "yaml"},
                                            {"version", 1}, {"text", corpus()}}}}}}
      .dump();
}

void initialize(Server& server) {
  server.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})");
  server.handle(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
}

// Inserting and then deleting one character at the start of line 0's schema name.
std::string edit_message(int version, bool insert) {
  json range = {{"start", {{"line", 0}, {"character", 8}}}, {"end", {{"line", 0}, {"character", insert ? 8 : 9}}}};
  return json{{"jsonrpc", "2.0"},
              {"method", "textDocument/didChange"},
              {"params", {{"textDocument", {{"uri", schemac::lsp::uri_from_path(kPath)}, {"version", version}}},
                          {"contentChanges", {{{"range", range}, {"text", insert ? "x" : ""}}}}}}}
      .dump();
}

void BM_lsp_diagnostics_after_edit(benchmark::State& state) {
  FramingServer f;
  initialize(f.server);
  f.server.handle(open_message());
  const std::string insert = edit_message(2, true);
  const std::string remove = edit_message(3, false);
  bool inserting = true;
  for (auto _ : state) {
    f.server.handle(inserting ? insert : remove);
    inserting = !inserting;
  }
  benchmark::DoNotOptimize(f.sent);
}
BENCHMARK(BM_lsp_diagnostics_after_edit)->Unit(benchmark::kMillisecond);

// Typing into the name of an entry in the middle of the file, one character per edit, each edit
// followed by its diagnostics (what the server does once its debounce lets a lint run). Twenty
// repetitions of one edit each, continuing the same typing, so the aggregates are over twenty
// edits: the median is the budget's figure (50 ms).
std::string typing_message(int typed) {
  static const uint32_t line = [] {
    schemac::lsp::LineIndex index(corpus());
    uint32_t middle = index.line_count() / 2;
    while (middle < index.line_count() && !index.line(middle).starts_with("- func:")) ++middle;
    return middle;
  }();
  const uint32_t at = 8 + static_cast<uint32_t>(typed);
  json range = {{"start", {{"line", line}, {"character", at}}}, {"end", {{"line", line}, {"character", at}}}};
  return json{{"jsonrpc", "2.0"},
              {"method", "textDocument/didChange"},
              {"params", {{"textDocument", {{"uri", schemac::lsp::uri_from_path(kPath)}, {"version", 100 + typed}}},
                          {"contentChanges", {{{"range", range}, {"text", std::string(1, static_cast<char>('a' + typed % 26))}}}}}}}
      .dump();
}

void BM_lsp_typing_20_edits(benchmark::State& state) {
  static FramingServer* typing = [] {
    auto* f = new FramingServer;
    initialize(f->server);
    f->server.handle(open_message());
    return f;
  }();
  static int typed = 0;
  for (auto _ : state) typing->server.handle(typing_message(typed++));
  benchmark::DoNotOptimize(typing->sent);
}
BENCHMARK(BM_lsp_typing_20_edits)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(20)
    ->ReportAggregatesOnly(true);

void BM_lsp_open_document(benchmark::State& state) {
  FramingServer f;
  initialize(f.server);
  const std::string open = open_message();
  for (auto _ : state) f.server.handle(open);
  benchmark::DoNotOptimize(f.sent);
}
BENCHMARK(BM_lsp_open_document)->Unit(benchmark::kMillisecond);

void BM_lsp_hover_func_line(benchmark::State& state) {
  FramingServer f;
  initialize(f.server);
  f.server.handle(open_message());
  uint32_t last_func = 0;
  schemac::lsp::LineIndex index(corpus());
  for (uint32_t line = 0; line < index.line_count(); ++line) {
    if (index.line(line).starts_with("- func:")) last_func = line;
  }
  const std::string hover =
      json{{"jsonrpc", "2.0"},
           {"id", 1},
           {"method", "textDocument/hover"},
           {"params", {{"textDocument", {{"uri", schemac::lsp::uri_from_path(kPath)}}},
                       {"position", {{"line", last_func}, {"character", 10}}}}}}
          .dump();
  for (auto _ : state) f.server.handle(hover);
  benchmark::DoNotOptimize(f.sent);
}
BENCHMARK(BM_lsp_hover_func_line)->Unit(benchmark::kMillisecond);

void BM_baseline_lint_file(benchmark::State& state) {
  schemac::lint::FileLintOptions options;
  schemac::lint::TagsLoad tags = schemac::lint::load_tags(
      SCHEMAC_CORPUS_DIR "/tags.yaml", schemac::bench::read_file(SCHEMAC_CORPUS_DIR "/tags.yaml"));
  options.native.valid_tags = tags.tags;
  for (auto _ : state) {
    schemac::lint::FileLint lint = schemac::lint::lint_file(kPath, corpus(), options);
    benchmark::DoNotOptimize(lint.diagnostics.size());
  }
}
BENCHMARK(BM_baseline_lint_file)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
