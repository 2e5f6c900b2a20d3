// libFuzzer target for the schema parser. Any input must give a schema or an error (never a
// crash, leak or hang); a schema must print to a canonical text that parses back to itself, and
// every error must point inside the input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

using namespace schemac::schema;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ParseResult syntax = parse_schema_syntax(text);
  if (!syntax.ok()) {
    if (!syntax.error || syntax.error->offset > size || syntax.error->message.empty()) {
      __builtin_trap();
    }
    return 0;
  }
  for (const SchemaError& error : check_schema(*syntax.schema)) {
    if (error.offset > size || error.rule.empty()) __builtin_trap();
  }
  // The canonical form is a fixed point of parse + print.
  std::string printed = print_schema(*syntax.schema);
  ParseResult again = parse_schema_syntax(printed);
  if (!again.ok() || print_schema(*again.schema) != printed) __builtin_trap();
  ParseResult full = parse_schema(text);
  if (full.ok() == (full.error.has_value())) __builtin_trap();
  return 0;
}
