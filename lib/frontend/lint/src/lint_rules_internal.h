// Shared between the lint rule files: where rules report, and facts about a schema that several
// rules need (which arguments are out arguments, which one is self, is it in-place).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/lint/lint_rules.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Location, native_functions::NativeFunction,
    native_functions::NativeFunctionsFile, schema::Argument, schema::FunctionSchema,
    schema::TextRange;

// Appends a diagnostic of `rule` with the rule's catalogue severity to `out`, and returns it.
Diagnostic& report_rule(std::vector<Diagnostic>& out, std::string_view rule, Location location,
                        std::string message);

class Reporter {
 public:
  Reporter(const NativeFunctionsFile& file, std::vector<Diagnostic>& out)
      : file_(file), out_(out) {}

  // Adds a diagnostic with the rule's catalogue severity.
  Diagnostic& report(std::string_view rule, Location location, std::string message);
  const NativeFunctionsFile& file() const { return file_; }

  // Where bytes `range` of an entry's schema text are: in its func string, or where the locator
  // set for schemas found in registration code says.
  Location func_location(const NativeFunction& function, TextRange range) const {
    return locate_schema_ ? locate_schema_(range) : file_.func_location(function, range);
  }
  void set_schema_locator(std::function<Location(TextRange)> locate) {
    locate_schema_ = std::move(locate);
  }

 private:
  const NativeFunctionsFile& file_;
  std::vector<Diagnostic>& out_;
  std::function<Location(TextRange)> locate_schema_;
};

// What a schema is, in torchgen's terms.
struct SignatureFacts {
  std::vector<const Argument*> out;  // keyword-only arguments from the first mutable one on
  const Argument* self = nullptr;    // the positional argument named `self`
  bool inplace = false;              // `abs_`, or an augmented dunder like `__iadd__`
  std::string out_of_place_name;     // the base name without the in-place marking
};
SignatureFacts signature_facts(const FunctionSchema& schema);

// The declared operators of a file, by full name (`add.Tensor`) and by name (`add`).
struct OperatorIndex {
  std::map<std::string, const NativeFunction*, std::less<>> by_full_name;
  std::map<std::string_view, std::vector<const NativeFunction*>, std::less<>> by_name;
};
OperatorIndex index_operators(const NativeFunctionsFile& file);

void check_signature_rules(Reporter& reporter, const NativeFunction& function);
void check_entry_rules(Reporter& reporter, const NativeFunction& function,
                       const LintOptions& options);
void check_operator_rules(Reporter& reporter, const OperatorIndex& index);
// torchgen's rejections of one entry (lint_rules_torchgen.cpp) and of groups of related entries
// (lint_rules_groups.cpp). check_group_rules says whether the file is a vendor's subset of
// PyTorch's operators (most of its out= functions, five or more, stand alone).
void check_torchgen_entry_rules(Reporter& reporter, const NativeFunction& function,
                                const LintOptions& options);
bool check_group_rules(Reporter& reporter);
// The rules that depend on the torchgen release (lint_rules_release.cpp).
void check_release_entry_rules(Reporter& reporter, const NativeFunction& function,
                               const LintOptions& options);
// schema-release alone: the forms of the entry's schema `version`'s parser does not read (also
// for schemas in registration code).
void check_schema_release_forms(Reporter& reporter, const NativeFunction& function,
                                torch_releases::TorchVersion version);
// The tags an entry names as `options.torch_version`'s torchgen reads them: up to 1.13 one
// string of names separated by ', ', each with its own place.
struct TagUse {
  std::string name;
  Location location;
};
std::vector<TagUse> tag_uses(const NativeFunction& function, torch_releases::TorchVersion version);
// What torchgen groups related variants by (functional, in-place, mutable, out=): equal keys,
// one group.
std::string signature_group_key(const FunctionSchema& schema);
// ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory: keyword-only and in this
// order, as torchgen groups them into TensorOptions (empty when the schema has none).
std::vector<const Argument*> tensor_options(const FunctionSchema& schema);
// The C++ name torchgen gives an operator's kernel: the base name, plus '_out' for out= ones.
std::string cpp_function_name(const FunctionSchema& schema);

}  // namespace schemac::lint
