// Operator lists in text and JSON (render.h).
#include "schemac/inspect/render.h"

namespace schemac::inspect::report {

std::string operators_text(const Operators& operators) {
  std::string out;
  for (const OperatorSummary& op : operators.operators)
    out +=
        (op.has_schema ? op.schema : op.name + " (no schema: only kernels are registered)") + "\n";
  return out;
}

Json operators_json(const Operators& operators) {
  Json list = Json::array();
  for (const OperatorSummary& op : operators.operators) {
    list.push_back(Json{{"name", op.name},
                        {"schema", op.has_schema ? Json(op.schema) : Json()},
                        {"site", op.has_schema ? Json(op.site) : Json()},
                        {"keys", op.keys}});
  }
  return Json{{"operators", std::move(list)}};
}

}  // namespace schemac::inspect::report
