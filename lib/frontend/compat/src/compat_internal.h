// Shared by the compat sources: one operator seen in both files, and the list findings go into.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/compat/compat.h"
#include "schemac/rules/rules.h"

namespace schemac::compat {

using diagnostics::Location;

// Each operator of a file by its full name ("add.Tensor"); the first entry when one is repeated.
using OperatorIndex = std::map<std::string, const native_functions::NativeFunction*, std::less<>>;

// An operator entry together with the file it is in (for locations) and that file's operators.
struct Side {
  const native_functions::NativeFunctionsFile* file = nullptr;
  const OperatorIndex* operators = nullptr;
  const native_functions::NativeFunction* function = nullptr;
  // The file was written from registration code (lib/frontend/adopt): its dispatch sections list
  // every kernel the code registers, and an entry without one has none (in a native-functions
  // file it would mean a CompositeImplicitAutograd kernel).
  bool kernels_listed = false;
  const schema::FunctionSchema& schema() const { return *function->schema; }
  // Where a part of the func string is.
  Location at(schema::TextRange range) const { return file->func_location(*function, range); }
  // Where the operator's name is written.
  Location name() const { return at(schema().op.range); }
};

class Findings {
 public:
  explicit Findings(std::vector<CompatFinding>& out) : out_(out) {}

  // Adds a finding of `rule` for OLD's operator `op`, with one note at `note_location`.
  void report(rules::Rule rule, const std::string& op, Location location, std::string message,
              Location note_location, std::string note);

 private:
  std::vector<CompatFinding>& out_;
};

// The signature changes between one operator's OLD and NEW schemas: arguments, returns, alias
// annotations, varargs (compat_schema.cpp).
void compare_schemas(const Side& old_side, const Side& new_side, Findings& findings);

// The backends an operator loses through its dispatch section (compat_dispatch.cpp).
void compare_dispatch(const Side& old_side, const Side& new_side, Findings& findings);

}  // namespace schemac::compat
