// Registration state in torch's format and JSON (render.h).
#include <fmt/format.h>

#include "schemac/inspect/render.h"

namespace schemac::inspect::report {

std::string dump_torch(const Dump& dump) {
  std::string out = fmt::format("name: {}\n", dump.name);
  if (dump.has_schema) {
    out += fmt::format("schema: {}\ndebug: {}\nalias analysis kind: {}\n", dump.schema, dump.debug,
                       dump.alias_analysis);
  } else {
    out += "schema: (none)\n";
  }
  for (const DumpKernel& k : dump.kernels)
    out += fmt::format("{}{}{}: {} :: {} [ {}]\n", k.key, k.alias ? "[alias]" : "",
                       k.active ? "" : " (inactive)", k.debug,
                       k.has_inferred ? k.inferred : "(none)", k.kinds);
  return out;
}

Json dump_json(const Dump& dump) {
  auto when_schema = [&](const std::string& text) { return dump.has_schema ? Json(text) : Json(); };
  Json kernels = Json::array();
  for (const DumpKernel& k : dump.kernels) {
    kernels.push_back(Json{{"key", k.key},
                           {"alias", k.alias},
                           {"active", k.active},
                           {"debug", k.debug},
                           {"site", k.site},
                           {"inferred", k.has_inferred ? Json(k.inferred) : Json()}});
  }
  return Json{{"name", dump.name},
              {"schema", when_schema(dump.schema)},
              {"debug", when_schema(dump.debug)},
              {"site", when_schema(dump.site)},
              {"alias_analysis", when_schema(dump.alias_analysis)},
              {"kernels", std::move(kernels)}};
}

}  // namespace schemac::inspect::report
