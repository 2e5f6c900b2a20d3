// Our runtime's operator definitions (definitions_emitter.h).
#include "schemac/codegen/definitions_emitter.h"

#include <fmt/format.h>

#include "schemac/codegen/emit_util.h"

namespace schemac::codegen {

std::string emit_definition_block(std::string_view ns, const std::vector<const GenOperator*>& ops,
                                  DefinitionKind kind) {
  std::string out = fmt::format(
      "{}({}, m) {{\n",
      kind == DefinitionKind::library ? "SCHEMAC_LIBRARY" : "SCHEMAC_LIBRARY_FRAGMENT", ns);
  size_t prefix = ns.size() + 2;  // the schema is written without its namespace
  for (const GenOperator* op : ops) {
    fmt::format_to(std::back_inserter(out), "  m.def({});\n",
                   cpp_string_literal(std::string_view(op->canonical).substr(prefix)));
  }
  out += "}\n";
  return out;
}

}  // namespace schemac::codegen
