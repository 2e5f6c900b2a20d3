// Shared between the lint rule files: where rules report, and facts about a schema that several
// rules need (which arguments are out arguments, which one is self, is it in-place).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/lint/lint_rules.h"

namespace schemac::schema::lint {

class Reporter {
 public:
  Reporter(const NativeFunctionsFile& file, std::vector<Diagnostic>& out) : file_(file), out_(out) {}

  // Adds a diagnostic with the rule's catalogue severity.
  Diagnostic& report(std::string_view rule, Location location, std::string message);
  const NativeFunctionsFile& file() const { return file_; }

 private:
  const NativeFunctionsFile& file_;
  std::vector<Diagnostic>& out_;
};

// What a schema is, in torchgen's terms.
struct SignatureFacts {
  std::vector<const Argument*> out;    // keyword-only arguments from the first mutable one on
  const Argument* self = nullptr;      // the positional argument named `self`
  bool inplace = false;                // `abs_`, or an augmented dunder like `__iadd__`
  std::string out_of_place_name;       // the base name without the in-place marking
};
SignatureFacts signature_facts(const FunctionSchema& schema);

// The declared operators of a file, by full name (`add.Tensor`) and by name (`add`).
struct OperatorIndex {
  std::map<std::string, const NativeFunction*, std::less<>> by_full_name;
  std::map<std::string_view, std::vector<const NativeFunction*>, std::less<>> by_name;
};
OperatorIndex index_operators(const NativeFunctionsFile& file);

void check_signature_rules(Reporter& reporter, const NativeFunction& function);
void check_entry_rules(Reporter& reporter, const NativeFunction& function, const LintOptions& options);
void check_operator_rules(Reporter& reporter, const OperatorIndex& index);

}  // namespace schemac::schema::lint
