// The operator part of compat: match OLD's operators with NEW's by name and overload, compare
// each pair (compat_schema.cpp, compat_dispatch.cpp), and explain the ones NEW lacks: a renamed
// overload (the same signature under another overload name), a removed overload (the name has
// other overloads left) or a removed operator.
#include <map>
#include <set>

#include <fmt/format.h>

#include "compat_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"

namespace schemac::compat {

using diagnostics::Location, native_functions::NativeFunction,
    native_functions::NativeFunctionsFile;

void Findings::report(rules::Rule rule, const std::string& op, Location location,
                      std::string message, Location note_location, std::string note) {
  diagnostics::Diagnostic diagnostic{rule.def().severity, rule, std::move(location),
                                     std::move(message),  {},   {}};
  diagnostic.notes.push_back(diagnostics::Note{std::move(note_location), std::move(note)});
  out_.push_back(CompatFinding{op, std::move(diagnostic)});
}

namespace {

OperatorIndex index_operators(const NativeFunctionsFile& file) {
  OperatorIndex index;
  for (const NativeFunction& function : file.functions) {
    if (function.schema) index.emplace(function.schema->op.full(), &function);
  }
  return index;
}

// The schema printed without its overload name: equal for an overload that was only renamed.
std::string signature_without_overload(const schema::FunctionSchema& schema) {
  schema::FunctionSchema copy = schema;
  copy.op.overload = {};
  return schema::print_schema(copy);
}

class FileComparison {
 public:
  FileComparison(const NativeFunctionsFile& old_file, const NativeFunctionsFile& new_file,
                 KernelsListed listed, std::vector<CompatFinding>& out)
      : listed_(listed),
        old_file_(old_file),
        new_file_(new_file),
        old_index_(index_operators(old_file)),
        new_index_(index_operators(new_file)),
        findings_(out) {
    for (const auto& [full_name, function] : new_index_) {
      new_by_name_[function->schema->op.name].push_back(function);
    }
  }

  void run() {
    for (const NativeFunction& function : old_file_.functions) {
      if (!function.schema) continue;
      auto first = old_index_.find(function.schema->op.full());
      if (first->second != &function) continue;  // a repeated definition; lint reports it
      Side old_side{&old_file_, &old_index_, &function, listed_.old_file};
      auto counterpart = new_index_.find(function.schema->op.full());
      if (counterpart == new_index_.end()) {
        report_missing(old_side);
        continue;
      }
      Side new_side{&new_file_, &new_index_, counterpart->second, listed_.new_file};
      compare_schemas(old_side, new_side, findings_);
      compare_dispatch(old_side, new_side, findings_);
    }
  }

 private:
  void report_missing(const Side& old_side) {
    const schema::OperatorName& op = old_side.schema().op;
    auto same_name = new_by_name_.find(op.name);
    if (same_name == new_by_name_.end()) {
      findings_.report(rules::removed_operator, op.full(), old_side.name(),
                       fmt::format("operator '{}' was removed", op.full()),
                       Location{new_file_.document.file, 0, 0, 0, 0},
                       fmt::format("NEW has no operator named '{}'", op.name));
      return;
    }
    std::string signature = signature_without_overload(old_side.schema());
    for (const NativeFunction* candidate : same_name->second) {
      const std::string candidate_name = candidate->schema->op.full();
      if (old_index_.count(candidate_name) || renamed_to_.count(candidate_name)) continue;
      if (signature_without_overload(*candidate->schema) != signature) continue;
      renamed_to_.insert(candidate_name);
      Side new_side{&new_file_, &new_index_, candidate};
      findings_.report(rules::renamed_overload, op.full(), new_side.name(),
                       fmt::format("overload '{}' was renamed to '{}'", op.full(), candidate_name),
                       old_side.name(), fmt::format("OLD declares '{}' here", op.full()));
      return;
    }
    std::string remaining;
    for (const NativeFunction* other : same_name->second) {
      remaining += remaining.empty() ? "" : ", ";
      remaining += fmt::format("'{}'", other->schema->op.full());
    }
    Side first_remaining{&new_file_, &new_index_, same_name->second.front()};
    findings_.report(
        rules::removed_overload, op.full(), old_side.name(),
        fmt::format("overload '{}' was removed; NEW still has {}", op.full(), remaining),
        first_remaining.name(),
        fmt::format("NEW declares '{}' here", same_name->second.front()->schema->op.full()));
  }

  KernelsListed listed_;
  const NativeFunctionsFile& old_file_;
  const NativeFunctionsFile& new_file_;
  OperatorIndex old_index_;
  OperatorIndex new_index_;
  std::map<std::string_view, std::vector<const NativeFunction*>> new_by_name_;
  std::set<std::string> renamed_to_;
  Findings findings_;
};

}  // namespace

std::vector<CompatFinding> compare_native_functions(const NativeFunctionsFile& old_file,
                                                    const NativeFunctionsFile& new_file,
                                                    KernelsListed listed) {
  std::vector<CompatFinding> findings;
  compat::FileComparison(old_file, new_file, listed, findings).run();
  return findings;
}

}  // namespace schemac::compat
