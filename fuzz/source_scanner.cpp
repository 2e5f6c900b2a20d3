// libFuzzer target for lib/frontend/sources: any bytes, read as C++ and as Python, must scan
// without a crash, leak or hang; every schema found must be non-empty and map each of its bytes to
// a place inside the input; linting what was found must give diagnostics located inside the input.
// The scan knows a few project helpers (custom-op-helpers) and settles their namespaces first. Each
// input is also grown into a chain of doubling macros (macro_chain), which expansion must bound.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"

using namespace schemac::sources;
using namespace schemac::tokens;

namespace {

// The number of lines of `text`, and the length of the longest, bound every valid position.
struct Bounds {
  uint32_t lines = 1;
  uint32_t longest = 0;
};

Bounds bounds_of(std::string_view text) {
  Bounds b;
  uint32_t length = 0;
  for (char c : text) {
    if (c == '\n') {
      ++b.lines;
      length = 0;
    } else {
      ++length;
    }
    b.longest = std::max(b.longest, length);
  }
  return b;
}

void check_position(SourcePosition p, const Bounds& b) {
  if (p.line < 1 || p.line > b.lines || p.column < 1 || p.column > b.longest + 2) __builtin_trap();
}

void check(std::string_view text, Language language) {
  Bounds b = bounds_of(text);
  // Project helpers of each kind, as .schemac.yaml's custom-op-helpers declares them.
  ScanOptions options;
  options.helpers = {{"reg", HelperKind::direct_register_custom_op, "fz"},
                     {"deco", HelperKind::custom_op, ""},
                     {"tri", HelperKind::triton_op, "fz"},
                     {"defn", HelperKind::define, "fz"}};
  ScanResult result = scan_source(text, language, options);
  for (const FoundSchema& found : result.schemas) {
    if (found.text.empty()) __builtin_trap();
    check_position(found.position, b);
    for (size_t i = 0; i <= found.text.size(); ++i) check_position(found.text.position(i), b);
  }
  for (const SkippedCall& skipped : result.skipped) check_position(skipped.position, b);
  std::vector<ScannedFile> files{{"input", std::move(result)}};
  resolve_across_files(files);  // helpers' namespaces: problems stay located in the input
  for (const auto& problem : files[0].scan.inference_problems) check_position(problem.position, b);
  for (const schemac::diagnostics::Diagnostic& d : lint_sources(files)) {
    if (d.rule.empty() || d.location.file != "input") __builtin_trap();
    check_position({d.location.line, d.location.column}, b);
  }
}

// The input grown into a macro chain: the first byte picks how many doublings (up to 63: past
// every bound), the second whether the chain is object-like or function-like; the rest of the
// input is the innermost body, and the chain is used as a block's namespace and in a def's
// argument. Expansion must stop at its bounds, located, whatever the depth.
std::string macro_chain(std::string_view text) {
  if (text.size() < 2) return {};
  const int depth = static_cast<unsigned char>(text[0]) % 64;
  const bool function_like = (text[1] & 1) != 0;
  std::string out = "#define A0 " + std::string(text.substr(2)) + "\n";
  for (int i = 1; i <= depth; ++i) {
    std::string prev = "A" + std::to_string(i - 1);
    out += function_like ? "#define A" + std::to_string(i) + "(x) " + prev + "(x) " + prev + "(x)\n"
                         : "#define A" + std::to_string(i) + " " + prev + " " + prev + "\n";
  }
  std::string use = "A" + std::to_string(depth) + (function_like ? "(y)" : "");
  return out + "TORCH_LIBRARY_EXPAND(" + use + ", m) {\n  m.def(" + use + ");\n}\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  check(text, Language::cpp);
  check(text, Language::python);
  if (std::string chain = macro_chain(text); !chain.empty()) check(chain, Language::cpp);
  return 0;
}
