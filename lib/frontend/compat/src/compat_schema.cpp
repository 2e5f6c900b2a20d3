// The signature part of compat: how one operator's schema may change without breaking callers
// written against OLD. Arguments may only widen (NEW accepts everything OLD accepted), returns may
// only narrow (NEW gives what OLD promised); names, positions, defaults and alias annotations
// stay. Arguments are matched by name first, then an unmatched pair at the same position is a
// rename; matched arguments out of their old relative order are reordered.
#include <algorithm>
#include <map>
#include <optional>
#include <span>

#include <fmt/format.h>

#include "compat_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"

namespace schemac::compat {

using diagnostics::Location, schema::AliasInfo, schema::Argument, schema::BaseType,
    schema::FunctionSchema, schema::Type, schema::print_type_without_aliases;

namespace {

// --- Types ---------------------------------------------------------------------------------------

// Whether `wide`, a leaf type, takes every value of the leaf `narrow`: the same type, or the
// symbolic form of a concrete one (SymInt takes int).
bool leaf_accepts(const Type& wide, const Type& narrow) {
  if (wide.base == narrow.base) return wide.base != BaseType::Named || wide.name == narrow.name;
  return (wide.base == BaseType::SymInt && narrow.base == BaseType::Int) ||
         (wide.base == BaseType::SymFloat && narrow.base == BaseType::Float) ||
         (wide.base == BaseType::SymBool && narrow.base == BaseType::Bool);
}

// Whether every value of type `narrow` is a value of type `wide` (alias annotations aside):
// `T` fits `T?`, `int[2]` fits `int[]`, `int` fits `SymInt`, element-wise for lists.
bool accepts(const Type& wide, const Type& narrow) {
  if (wide.is_optional())
    return accepts(wide.element(), narrow.is_optional() ? narrow.element() : narrow);
  if (narrow.is_optional() || wide.is_list() != narrow.is_list()) return false;
  if (wide.is_list()) {
    if (wide.fixed_size && wide.fixed_size != narrow.fixed_size) return false;
    return accepts(wide.element(), narrow.element());
  }
  if (wide.kind == Type::Kind::Union) {
    // A union takes a member type, or a union of some of its members.
    std::span<const Type> members =
        narrow.kind == Type::Kind::Union ? narrow.contained() : std::span<const Type>(&narrow, 1);
    return std::all_of(members.begin(), members.end(), [&](const Type& member) {
      const auto& wide_members = wide.contained();
      return std::any_of(wide_members.begin(), wide_members.end(),
                         [&](const Type& w) { return accepts(w, member); });
    });
  }
  if (wide.kind != narrow.kind) return false;
  if (wide.kind == Type::Kind::Base) return leaf_accepts(wide, narrow);
  // Tuples, dicts, futures, rrefs: their contained types must stay exactly (a dict or a future
  // is written and read through its contained types, so neither widening nor narrowing is safe).
  if (wide.item_count != narrow.item_count) return false;
  for (size_t i = 0; i < wide.item_count; ++i) {
    if (print_type_without_aliases(wide.items[i]) != print_type_without_aliases(narrow.items[i])) {
      return false;
    }
  }
  return true;
}

std::string type_text(const Type& type) { return print_type_without_aliases(type); }

// --- Alias annotations
// -----------------------------------------------------------------------------

std::string alias_text(const AliasInfo* alias) {
  return alias ? fmt::format("'{}'", schema::print_alias(*alias)) : std::string("none");
}

// Alias set names are labels: `(a!)` in OLD may be `(b!)` in NEW as long as the same values
// share a set. This records the pairing of OLD's names with NEW's as they are met and checks
// that it stays one-to-one.
class AliasSetPairing {
 public:
  bool same_annotation(const AliasInfo* old_alias, const AliasInfo* new_alias) {
    if (!old_alias || !new_alias) return old_alias == new_alias;
    if (old_alias->is_write != new_alias->is_write) return false;
    return same_sets(old_alias->before, new_alias->before) &&
           same_sets(after(*old_alias), after(*new_alias));
  }

 private:
  static std::span<const std::string_view> after(const AliasInfo& alias) {
    return alias.has_arrow ? alias.after : alias.before;
  }

  bool same_sets(std::span<const std::string_view> old_sets,
                 std::span<const std::string_view> new_sets) {
    if (old_sets.size() != new_sets.size()) return false;
    for (size_t i = 0; i < old_sets.size(); ++i) {
      if (!same_set(old_sets[i], new_sets[i])) return false;
    }
    return true;
  }

  bool same_set(std::string_view old_set, std::string_view new_set) {
    if (old_set == "*" || new_set == "*") return old_set == new_set;
    auto forward = old_to_new_.find(old_set);
    auto backward = new_to_old_.find(new_set);
    if (forward == old_to_new_.end() && backward == new_to_old_.end()) {
      old_to_new_.emplace(old_set, new_set);
      new_to_old_.emplace(new_set, old_set);
      return true;
    }
    return forward != old_to_new_.end() && forward->second == new_set;
  }

  // Views into the two schemas being compared, which outlive the pairing.
  std::map<std::string_view, std::string_view> old_to_new_;
  std::map<std::string_view, std::string_view> new_to_old_;
};

// "is now written to", "is no longer written to" or "changed aliasing".
std::string alias_change(const AliasInfo* old_alias, const AliasInfo* new_alias) {
  bool old_writes = old_alias && old_alias->is_write;
  bool new_writes = new_alias && new_alias->is_write;
  if (!old_writes && new_writes) return "is now written to";
  if (old_writes && !new_writes) return "is no longer written to";
  return "changed aliasing";
}

// --- Arguments
// -------------------------------------------------------------------------------------

// An out argument: keyword-only and written to (`*, Tensor(a!) out`).
bool is_out(const Argument& argument) { return argument.kwarg_only && argument.type.is_mutable(); }

// For each OLD argument, the index of its NEW counterpart: the argument of the same name, else
// (a rename) the NEW argument at the same position when that one has no OLD counterpart either.
std::vector<std::optional<size_t>> match_arguments(const std::vector<Argument>& old_args,
                                                   const std::vector<Argument>& new_args) {
  std::vector<std::optional<size_t>> to_new(old_args.size());
  std::vector<bool> taken(new_args.size(), false);
  for (size_t i = 0; i < old_args.size(); ++i) {
    for (size_t j = 0; j < new_args.size(); ++j) {
      if (!taken[j] && new_args[j].name == old_args[i].name) {
        to_new[i] = j;
        taken[j] = true;
        break;
      }
    }
  }
  for (size_t i = 0; i < old_args.size(); ++i) {
    if (!to_new[i] && i < new_args.size() && !taken[i]) {
      to_new[i] = i;
      taken[i] = true;
    }
  }
  return to_new;
}

// The OLD indices whose counterparts are out of order: those outside one longest run of
// counterparts in increasing NEW order.
std::vector<bool> find_reordered(const std::vector<std::optional<size_t>>& to_new) {
  std::vector<size_t> matched;
  for (size_t i = 0; i < to_new.size(); ++i) {
    if (to_new[i]) matched.push_back(i);
  }
  // Longest increasing subsequence by NEW index, O(n^2): schemas have few arguments.
  std::vector<size_t> length(matched.size(), 1);
  std::vector<std::optional<size_t>> previous(matched.size());
  size_t best = 0;
  for (size_t a = 0; a < matched.size(); ++a) {
    for (size_t b = 0; b < a; ++b) {
      if (*to_new[matched[b]] < *to_new[matched[a]] && length[b] + 1 > length[a]) {
        length[a] = length[b] + 1;
        previous[a] = b;
      }
    }
    if (length[a] > length[best]) best = a;
  }
  std::vector<bool> reordered(to_new.size(), false);
  for (size_t i : matched) reordered[i] = true;
  for (std::optional<size_t> at = matched.empty() ? std::nullopt : std::optional<size_t>(best); at;
       at = previous[*at]) {
    reordered[matched[*at]] = false;
  }
  return reordered;
}

class SchemaComparison {
 public:
  SchemaComparison(const Side& old_side, const Side& new_side, Findings& findings)
      : old_(old_side), new_(new_side), findings_(findings), op_(old_side.schema().op.full()) {}

  void run() {
    compare_arguments();
    compare_returns();
  }

 private:
  const FunctionSchema& old_schema() const { return old_.schema(); }
  const FunctionSchema& new_schema() const { return new_.schema(); }

  void report(rules::Rule rule, Location location, std::string message, Location note_location,
              std::string note) {
    findings_.report(rule, op_, std::move(location), std::move(message), std::move(note_location),
                     std::move(note));
  }

  // A finding at an argument or a return of NEW, with a note at its counterpart in OLD: "OLD
  // declares 'int x' here" (`old_verb` is declares or returns).
  void report_counterparts(rules::Rule rule, const Argument& old_item, const Argument& new_item,
                           std::string message, std::string_view old_verb) {
    report(rule, new_.at(new_item.range), std::move(message), old_.at(old_item.range),
           fmt::format("OLD {} '{}' here", old_verb, schema::print_argument(old_item)));
  }

  void report_argument(rules::Rule rule, const Argument& old_arg, const Argument& new_arg,
                       std::string message) {
    report_counterparts(rule, old_arg, new_arg, std::move(message), "declares");
  }

  void compare_arguments() {
    const std::vector<Argument>& old_args = old_schema().arguments;
    const std::vector<Argument>& new_args = new_schema().arguments;
    std::vector<std::optional<size_t>> to_new = match_arguments(old_args, new_args);
    std::vector<bool> reordered = find_reordered(to_new);
    std::vector<bool> has_old(new_args.size(), false);
    for (size_t i = 0; i < old_args.size(); ++i) {
      if (!to_new[i]) {
        report(rules::removed_argument, new_.name(),
               fmt::format("argument '{}' of '{}' was removed", old_args[i].name, op_),
               old_.at(old_args[i].range),
               fmt::format("OLD declares '{}' here", schema::print_argument(old_args[i])));
        continue;
      }
      has_old[*to_new[i]] = true;
      compare_argument(old_args[i], i, new_args[*to_new[i]], *to_new[i], reordered[i]);
    }
    for (size_t j = 0; j < new_args.size(); ++j) {
      if (!has_old[j]) check_added_argument(new_args, j, has_old);
    }
    if (old_schema().is_vararg != new_schema().is_vararg) {
      report(rules::changed_varargs, new_.name(),
             fmt::format("'{}' {} variable arguments ('...')", op_,
                         new_schema().is_vararg ? "now takes" : "no longer takes"),
             old_.name(), "OLD declares the operator here");
    }
  }

  // What an argument and a return are both checked for: the type (an argument's may only widen,
  // a return's only narrow) and the alias annotation. `what` names it: "argument 'x'", "return 1".
  void compare_type_and_alias(const Argument& old_item, const Argument& new_item,
                              const std::string& what, bool is_return) {
    const std::string_view old_verb = is_return ? "returns" : "declares";
    if (is_return ? !accepts(old_item.type, new_item.type)
                  : !accepts(new_item.type, old_item.type)) {
      report_counterparts(is_return ? rules::retyped_return : rules::retyped_argument, old_item,
                          new_item,
                          fmt::format("{} of '{}' changed type from '{}' to '{}'", what, op_,
                                      type_text(old_item.type), type_text(new_item.type)),
                          old_verb);
    }
    const AliasInfo* old_alias = old_item.type.any_alias();
    const AliasInfo* new_alias = new_item.type.any_alias();
    if (!alias_sets_.same_annotation(old_alias, new_alias)) {
      report_counterparts(rules::changed_alias, old_item, new_item,
                          fmt::format("{} of '{}' {}: alias annotation {} in OLD, {} in NEW", what,
                                      op_, alias_change(old_alias, new_alias),
                                      alias_text(old_alias), alias_text(new_alias)),
                          old_verb);
    }
  }

  void compare_argument(const Argument& old_arg, size_t old_index, const Argument& new_arg,
                        size_t new_index, bool reordered) {
    if (old_arg.name != new_arg.name) {
      report_argument(rules::renamed_argument, old_arg, new_arg,
                      fmt::format("argument '{}' of '{}' was renamed to '{}'", old_arg.name, op_,
                                  new_arg.name));
    }
    if (reordered) {
      report_argument(rules::reordered_argument, old_arg, new_arg,
                      fmt::format("argument '{}' of '{}' moved from position {} to {}",
                                  new_arg.name, op_, old_index + 1, new_index + 1));
    }
    compare_type_and_alias(old_arg, new_arg, fmt::format("argument '{}'", new_arg.name), false);
    if (!old_arg.kwarg_only && new_arg.kwarg_only) {
      report_argument(
          rules::kwarg_only_argument, old_arg, new_arg,
          fmt::format("argument '{}' of '{}' is keyword-only in NEW but positional in OLD",
                      new_arg.name, op_));
    }
    if (old_arg.default_value && !new_arg.default_value) {
      report_argument(rules::removed_default, old_arg, new_arg,
                      fmt::format("argument '{}' of '{}' lost its default '{}'", new_arg.name, op_,
                                  old_arg.default_value->text));
    } else if (old_arg.default_value &&
               old_arg.default_value->text != new_arg.default_value->text) {
      report_argument(
          rules::changed_default, old_arg, new_arg,
          fmt::format("argument '{}' of '{}' changed its default from '{}' to '{}'", new_arg.name,
                      op_, old_arg.default_value->text, new_arg.default_value->text));
    }
  }

  // A NEW argument breaks old calls when it has no default, or when it is inserted before an
  // argument that old calls pass by position (everything but out arguments, which the C++ API
  // takes first and Python by keyword).
  void check_added_argument(const std::vector<Argument>& new_args, size_t j,
                            const std::vector<bool>& has_old) {
    const Argument& added = new_args[j];
    Location note = old_.at(old_schema().op.range);
    if (!added.default_value) {
      report(rules::added_argument, new_.at(added.range),
             fmt::format("new argument '{}' of '{}' has no default, so calls written for OLD do "
                         "not pass it",
                         added.name, op_),
             note, "OLD declares the operator here");
      return;
    }
    for (size_t k = j + 1; k < new_args.size(); ++k) {
      if (has_old[k] && !is_out(new_args[k])) {
        report(rules::added_argument, new_.at(added.range),
               fmt::format("new argument '{}' of '{}' is inserted before existing argument '{}', "
                           "so positional calls written for OLD shift",
                           added.name, op_, new_args[k].name),
               note, "OLD declares the operator here");
        return;
      }
    }
  }

  // --- Returns
  // -------------------------------------------------------------------------------------

  std::string return_label(const Argument& ret, size_t index) const {
    return ret.name.empty() ? fmt::format("return {}", index + 1)
                            : fmt::format("return {} ('{}')", index + 1, ret.name);
  }

  void report_return(rules::Rule rule, const Argument& old_ret, const Argument& new_ret,
                     std::string message) {
    report_counterparts(rule, old_ret, new_ret, std::move(message), "returns");
  }

  void compare_returns() {
    const std::vector<Argument>& old_returns = old_schema().returns;
    const std::vector<Argument>& new_returns = new_schema().returns;
    if (old_returns.size() != new_returns.size() ||
        old_schema().is_varret != new_schema().is_varret) {
      auto count = [](const FunctionSchema& s) {
        return s.is_varret
                   ? std::string("a variable number of values")
                   : fmt::format("{} value{}", s.returns.size(), s.returns.size() == 1 ? "" : "s");
      };
      report(rules::changed_return_count, new_.at(new_schema().returns_range),
             fmt::format("'{}' returns {} in NEW but {} in OLD", op_, count(new_schema()),
                         count(old_schema())),
             old_.at(old_schema().returns_range), "OLD returns here");
      return;
    }
    for (size_t i = 0; i < old_returns.size(); ++i) {
      const Argument& old_ret = old_returns[i];
      const Argument& new_ret = new_returns[i];
      compare_type_and_alias(old_ret, new_ret, return_label(new_ret, i), true);
      if (!old_ret.name.empty() && old_ret.name != new_ret.name) {
        report_return(
            rules::renamed_return, old_ret, new_ret,
            new_ret.name.empty()
                ? fmt::format("return {} of '{}' lost its name '{}'", i + 1, op_, old_ret.name)
                : fmt::format("return {} of '{}' was renamed from '{}' to '{}'", i + 1, op_,
                              old_ret.name, new_ret.name));
      }
    }
  }

  const Side& old_;
  const Side& new_;
  Findings& findings_;
  std::string op_;
  AliasSetPairing alias_sets_;
};

}  // namespace

void compare_schemas(const Side& old_side, const Side& new_side, Findings& findings) {
  SchemaComparison(old_side, new_side, findings).run();
}

}  // namespace schemac::compat
