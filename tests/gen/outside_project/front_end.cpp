// The front-end libraries from an installed schemac: parse a schema (schemac::schema), lint a
// native-functions text (schemac::lint) and print the diagnostics as JSON (schemac::diagnostics).
// Exits 0 when each step gave what it should.
#include <cstdio>
#include <string>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#include "schemac/support/version.h"

int main() {
  using namespace schemac::diagnostics;
  using namespace schemac::lint;
  using namespace schemac::schema;
  ParseResult parsed = parse_schema("twice(Tensor self)->Tensor");
  if (!parsed.ok()) return 1;
  const std::string canonical = print_schema(*parsed.schema);
  std::vector<Diagnostic> diagnostics =
      lint_native_functions("ops.yaml", "- func: twice(Tensor self) -> Tensor\n  dispach: {CPU: twice}\n", {});
  const std::string json = render_json(diagnostics);
  std::printf("schemac %s: %s\n%s", std::string(schemac::support::kVersion).c_str(), canonical.c_str(), json.c_str());
  const bool found_typo = json.find("\"rule\":\"unknown-field\"") != std::string::npos;
  return canonical == "twice(Tensor self) -> Tensor" && found_typo ? 0 : 1;
}
