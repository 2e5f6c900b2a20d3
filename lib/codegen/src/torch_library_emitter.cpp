// The TORCH_LIBRARY block of the PyTorch target (torch_emitters.h).
#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/torch_emitters.h"

namespace schemac::gen {

std::string emit_torch_library_block(std::string_view ns, const std::vector<const GenOperator*>& ops) {
  std::string out = fmt::format("TORCH_LIBRARY({}, m) {{\n", ns);
  const size_t prefix = ns.size() + 2;  // the schema is written without its namespace
  for (const GenOperator* op : ops) {
    std::string schema = cpp_string_literal(std::string_view(op->canonical).substr(prefix));
    if (op->tags.empty()) {
      fmt::format_to(std::back_inserter(out), "  m.def({});\n", schema);
      continue;
    }
    std::vector<std::string> tags;
    for (const std::string& tag : op->tags) tags.push_back("at::Tag::" + tag);
    fmt::format_to(std::back_inserter(out), "  m.def({}, {{{}}});\n", schema, fmt::join(tags, ", "));
  }
  return out + "}\n";
}

}  // namespace schemac::gen
