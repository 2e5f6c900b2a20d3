// The TORCH_LIBRARY (or TORCH_LIBRARY_FRAGMENT) block of the PyTorch target (torch_emitters.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/torch_emitters.h"

namespace schemac::codegen {

bool is_libtorch_namespace(std::string_view ns) {
  // The namespaces PyTorch's own libraries define with TORCH_LIBRARY (1.13 and later releases);
  // a second TORCH_LIBRARY of one of them fails when the extension loads.
  static constexpr std::string_view kDefined[] = {"_c10d_functional",
                                                  "_c10d_functional_autograd",
                                                  "_dtensor",
                                                  "_quantized",
                                                  "_test",
                                                  "aten",
                                                  "c10d",
                                                  "cuda",
                                                  "debugprims",
                                                  "inductor",
                                                  "mkldnn",
                                                  "mkldnn_prepacked",
                                                  "nvprims",
                                                  "onednn",
                                                  "prepacked",
                                                  "prim",
                                                  "prims",
                                                  "profiler",
                                                  "quantized",
                                                  "quantized_decomposed",
                                                  "rngprims",
                                                  "sparse",
                                                  "static_runtime",
                                                  "vulkan_prepack",
                                                  "xnnpack"};
  for (std::string_view defined : kDefined)
    if (defined == ns) return true;
  return false;
}

std::string emit_torch_library_block(std::string_view ns,
                                     const std::vector<const GenOperator*>& ops) {
  std::string out = fmt::format(
      "{}({}, m) {{\n", is_libtorch_namespace(ns) ? "TORCH_LIBRARY_FRAGMENT" : "TORCH_LIBRARY", ns);
  const size_t prefix = ns.size() + 2;  // the schema is written without its namespace
  for (const GenOperator* op : ops) {
    std::string schema = cpp_string_literal(std::string_view(op->canonical).substr(prefix));
    if (op->tags.empty()) {
      fmt::format_to(std::back_inserter(out), "  m.def({});\n", schema);
      continue;
    }
    std::vector<std::string> tags;
    for (const std::string& tag : op->tags) tags.push_back("at::Tag::" + tag);
    fmt::format_to(std::back_inserter(out), "  m.def({}, {{{}}});\n", schema,
                   fmt::join(tags, ", "));
  }
  return out + "}\n";
}

}  // namespace schemac::codegen
