// libFuzzer target for the type-hint inference of Python custom ops (lib/frontend/custom_op_inference,
// through lib/frontend/sources' scan): the input's first line is custom_op's mutates_args, the rest the
// decorated function from its parameters on, inside a file that imports torch and typing.
// Nothing may crash, leak or hang; every inferred schema names the op and maps each byte inside
// the file; every problem and every diagnostic is located inside the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"

using namespace schemac::custom_op_inference;
using namespace schemac::sources;
using namespace schemac::tokens;

namespace {

constexpr std::string_view kHead =
    "import torch\nfrom typing import List, Optional, Sequence, Tuple, Union\n"
    "from torch import Tensor\nAlias = list[Optional[Tensor]]\nCONST = 3\n"
    "@torch.library.custom_op(\"fz::op\", mutates_args=";

bool inside(SourcePosition p, uint32_t lines) { return p.line >= 1 && p.line <= lines && p.column >= 1; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t newline = input.find('\n');
  std::string_view mutates = input.substr(0, newline);
  std::string_view rest = newline == std::string_view::npos ? "" : input.substr(newline + 1);
  std::string text = std::string(kHead) + std::string(mutates) + ")\ndef f(" + std::string(rest);
  uint32_t lines = 1;
  for (char c : text) lines += c == '\n';
  ScanResult result = scan_source(text, Language::python);
  for (const FoundSchema& found : result.schemas) {
    if (found.inferred && found.text.text().rfind("fz::op(", 0) != 0) __builtin_trap();
    for (size_t i = 0; i <= found.text.size(); ++i) {
      if (!inside(found.text.position(i), lines)) __builtin_trap();
    }
  }
  for (const InferenceProblem& problem : result.inference_problems) {
    if (!inside(problem.position, lines) || problem.message.empty()) __builtin_trap();
  }
  std::vector<ScannedFile> files{{"input.py", std::move(result)}};
  for (const schemac::diagnostics::Diagnostic& d : lint_sources(files)) {
    if (d.rule.empty() || d.location.line < 1 || d.location.line > lines) __builtin_trap();
  }
  return 0;
}
