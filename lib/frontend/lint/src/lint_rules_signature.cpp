// Rules about one entry's schema: canonical form, out= and in-place conventions,
// returns, methods, argument names, and the fields that name arguments.
#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::FixHint, diagnostics::Location, diagnostics::Note,
    native_functions::NativeFunction, yaml::ScalarStyle, schema::AliasInfo, schema::Argument,
    schema::BaseType, schema::TextRange;

namespace {

bool is_plain_tensor(const schema::Type& type) { return type.is_base(BaseType::Tensor); }

std::string alias_text(const Argument& a) {
  const AliasInfo* alias = a.type.any_alias();
  return alias ? schema::print_alias(*alias) : std::string("(none)");
}

bool same_alias(const Argument& a, const Argument& b) {
  const AliasInfo* x = a.type.any_alias();
  const AliasInfo* y = b.type.any_alias();
  if (!x || !y) return !x && !y;
  return *x == *y;
}

bool is_out_style_name(std::string_view name) {
  if (name == "out") return true;
  if (!name.starts_with("out") || name.size() == 3) return false;
  return std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class SignatureRules {
 public:
  SignatureRules(Reporter& reporter, const NativeFunction& f)
      : r_(reporter), f_(f), s_(*f.schema), facts_(signature_facts(*f.schema)) {}

  void run() {
    if (f_.func_node) canonical_form();  // registration code has no func text to rewrite
    out_arguments();
    inplace();
    mutable_returns();
    method_self();
    python_keywords();
    cpp_no_default_args();
    precomputed();
  }

 private:
  Location at(TextRange range) const { return r_.func_location(f_, range); }
  Location at(const Argument& a) const { return at(a.range); }
  Location returns_at() const {
    return s_.returns.empty()
               ? at(s_.returns_range)
               : at(TextRange{s_.returns.front().range.begin, s_.returns.back().range.end});
  }

  // The func with out argument `a` written as `Tensor(x!)`, and, when the return at its place is
  // an anonymous `Tensor!`, that return too: x is the set of a written return that no argument
  // names yet (the return the out argument is), else the first letter the schema does not use.
  // Only for a plain Tensor (an optional or list out argument is left to its author).
  std::optional<FixHint> out_annotation_fix(const Argument& a) const {
    if (!a.type.is_base(BaseType::Tensor) || a.default_value != nullptr) return std::nullopt;
    std::set<std::string_view> in_arguments, in_returns;
    auto collect = [](std::set<std::string_view>& into, const Argument& x) {
      if (const AliasInfo* alias = x.type.any_alias(); alias && !alias->is_fresh) {
        into.insert(alias->before.begin(), alias->before.end());
        into.insert(alias->after.begin(), alias->after.end());
      }
    };
    for (const Argument& x : s_.arguments) collect(in_arguments, x);
    for (const Argument& x : s_.returns) collect(in_returns, x);
    std::string set;
    for (const Argument& r : s_.returns) {
      const AliasInfo* alias = r.type.any_alias();
      if (set.empty() && alias && alias->is_write && !alias->is_fresh &&
          alias->before.size() == 1 && !in_arguments.contains(alias->before.front())) {
        set = alias->before.front();
      }
    }
    for (char c = 'a'; set.empty() && c <= 'z'; ++c) {
      if (!in_arguments.contains(std::string_view(&c, 1)) &&
          !in_returns.contains(std::string_view(&c, 1)))
        set = c;
    }
    if (set.empty() || f_.func.empty()) return std::nullopt;
    const std::string annotated = fmt::format("Tensor({}!)", set);
    // The edits inside the func text, in order: the argument's type, then maybe a return.
    std::vector<std::pair<TextRange, std::string>> edits;
    uint32_t type_end = a.name_range.begin;
    while (type_end > a.range.begin && f_.func[type_end - 1] == ' ') --type_end;
    edits.push_back({TextRange{a.range.begin, type_end}, annotated});
    const size_t position = static_cast<size_t>(
        std::find(facts_.out.begin(), facts_.out.end(), &a) - facts_.out.begin());
    if (position < s_.returns.size()) {
      const Argument& r = s_.returns[position];
      const AliasInfo* alias = r.type.any_alias();
      if (r.type.is_base(BaseType::Tensor) && alias && alias->is_fresh && r.name.empty()) {
        edits.push_back({r.range, annotated});
      }
    }
    std::string func = f_.func;
    for (auto it = edits.rbegin(); it != edits.rend(); ++it) {
      func.replace(it->first.begin, it->first.end - it->first.begin, it->second);
    }
    return FixHint{at(TextRange{0, static_cast<uint32_t>(f_.func.size())}), func,
                   func_fix_unsafe(func)};
  }

  // Why replacing the whole func text with `replacement` is not exact, or "".
  std::string func_fix_unsafe(const std::string& replacement) const {
    const Location whole = at(TextRange{0, static_cast<uint32_t>(f_.func.size())});
    const ScalarStyle style = f_.func_node ? f_.func_node->style : ScalarStyle::plain;
    if (whole.end_line != whole.line || style == ScalarStyle::literal ||
        style == ScalarStyle::folded) {
      return "func spans several lines; write it by hand";
    }
    if ((style == ScalarStyle::double_quoted &&
         replacement.find_first_of("\"\\") != std::string::npos) ||
        (style == ScalarStyle::single_quoted && replacement.find('\'') != std::string::npos)) {
      return "the new func holds its own quote character";
    }
    return "";
  }

  void canonical_form() {
    std::string canonical = schema::print_schema(s_);
    // torchgen forgives spaces (only spaces) before and after the schema.
    std::string_view written = f_.func;
    while (written.starts_with(' ')) written.remove_prefix(1);
    while (written.ends_with(' ')) written.remove_suffix(1);
    if (canonical == written) return;
    auto diff = std::mismatch(canonical.begin(), canonical.end(), f_.func.begin(), f_.func.end());
    uint32_t offset = static_cast<uint32_t>(diff.second - f_.func.begin());
    Diagnostic& d = r_.report(rules::func_not_canonical,
                              at(TextRange{offset, static_cast<uint32_t>(f_.func.size())}),
                              "func is not written in canonical form");
    d.notes.push_back(Note{{}, fmt::format("canonical form: {}", canonical)});
    d.fix = FixHint{at(TextRange{0, static_cast<uint32_t>(f_.func.size())}), canonical,
                    func_fix_unsafe(canonical)};
  }

  void out_arguments() {
    // A keyword-only tensor named like an out argument but not written to: a missing `(a!)`.
    for (const Argument& a : s_.arguments) {
      if (a.kwarg_only && is_out_style_name(a.name) && a.type.leaf().is_base(BaseType::Tensor) &&
          !a.type.is_mutable()) {
        Diagnostic& d = r_.report(
            rules::out_annotation, at(a),
            fmt::format("keyword-only argument '{}' looks like an out argument but is not "
                        "marked as written; write it as Tensor(a!) {}",
                        a.name, a.name));
        d.fix = out_annotation_fix(a);
        unnamed_out_ = true;
      }
    }
    if (facts_.out.empty()) return;
    for (const Argument* a : facts_.out) {
      const AliasInfo* alias = a->type.any_alias();
      if (alias && (alias->before.empty() || alias->is_fresh)) {
        Diagnostic& d = r_.report(
            rules::out_annotation, at(*a),
            fmt::format("out argument '{}' needs a named alias set, like Tensor(a!)", a->name));
        d.fix = out_annotation_fix(*a);
        // What the returns must alias is unknown until the annotation is written: the return
        // rules would only repeat this error in other words.
        unnamed_out_ = true;
      }
    }
    bool seen_out = false;
    for (const Argument& a : s_.arguments) {
      if (!a.kwarg_only) continue;
      seen_out = seen_out || a.type.is_mutable();
      if (seen_out && !a.type.is_mutable()) {
        Diagnostic& d = r_.report(rules::out_position, at(a),
                                  fmt::format("keyword-only argument '{}' comes after the out "
                                              "arguments; out arguments must come last",
                                              a.name));
        d.notes.push_back(
            Note{at(*facts_.out.front()),
                 fmt::format("first out argument '{}' is here", facts_.out.front()->name)});
      }
    }
    out_names();
    out_returns();
  }

  void out_names() {
    if (facts_.out.size() != 1) return;
    const Argument& a = *facts_.out.front();
    if (a.name == "out" || a.name == s_.op.overload || a.name.starts_with("_scratch_")) return;
    r_.report(
        rules::out_name, at(a.name_range),
        fmt::format("the out argument is named '{}'; name a single out argument 'out'", a.name));
  }

  void out_returns() {
    if (unnamed_out_) return;
    bool tensor_outs = std::all_of(facts_.out.begin(), facts_.out.end(),
                                   [](const Argument* a) { return is_plain_tensor(a->type); });
    if (!tensor_outs) {
      if (!s_.returns.empty()) {
        r_.report(rules::out_return, returns_at(),
                  "an out= function with tensor-list out arguments must return nothing: '()'");
      }
      return;
    }
    std::vector<const Argument*> returned;
    for (const Argument* a : facts_.out) {
      if (!a->name.starts_with("_scratch_")) returned.push_back(a);
    }
    if (returned.size() != s_.returns.size()) {
      r_.report(
          rules::out_return, returns_at(),
          fmt::format("an out= function returns its {} out argument{}, but this one returns {} "
                      "value{}",
                      returned.size(), returned.size() == 1 ? "" : "s", s_.returns.size(),
                      s_.returns.size() == 1 ? "" : "s"));
      return;
    }
    for (size_t i = 0; i < returned.size(); ++i) {
      if (same_alias(*returned[i], s_.returns[i])) continue;
      Diagnostic& d = r_.report(rules::out_return, at(s_.returns[i]),
                                fmt::format("return {} must alias out argument '{}' with the same "
                                            "annotation {}",
                                            i, returned[i]->name, alias_text(*returned[i])));
      d.notes.push_back(
          Note{at(*returned[i]), fmt::format("'{}' is declared here", returned[i]->name)});
    }
  }

  void inplace() {
    if (!facts_.inplace) return;
    std::string_view name = s_.op.base_name();
    if (!facts_.out.empty()) {
      r_.report(rules::inplace_self, at(*facts_.out.front()),
                fmt::format("in-place function '{}' cannot also have out arguments", name));
      return;
    }
    const Argument* self = facts_.self;
    if (!self || !self->type.is_mutable()) {
      r_.report(
          rules::inplace_self, self ? at(*self) : at(s_.op.range),
          fmt::format("in-place function '{}' (its name ends in '_') must take 'Tensor(a!) self'",
                      name));
      return;
    }
    if (is_plain_tensor(self->type)) {
      if (s_.returns.size() != 1 || !same_alias(*self, s_.returns.front())) {
        Diagnostic& d =
            r_.report(rules::inplace_self, returns_at(),
                      fmt::format("in-place function '{}' must return self as 'Tensor{}'", name,
                                  alias_text(*self)));
        d.notes.push_back(Note{at(*self), "self is declared here"});
      }
    } else if (!s_.returns.empty()) {
      r_.report(
          rules::inplace_self, returns_at(),
          fmt::format("in-place function '{}' with a non-Tensor self must return nothing: '()'",
                      name));
    }
  }

  void mutable_returns() {
    if (unnamed_out_) return;
    const Argument* a_mutable = nullptr;
    const Argument* an_immutable = nullptr;
    for (const Argument& ret : s_.returns) {
      (ret.type.is_mutable() ? a_mutable : an_immutable) = &ret;
    }
    if (a_mutable && an_immutable) {
      Diagnostic& d =
          r_.report(rules::mutable_return, at(*an_immutable),
                    "returns must be all mutable or all immutable; this one is immutable");
      d.notes.push_back(Note{at(*a_mutable), "this return is mutable"});
      return;
    }
    for (const Argument& ret : s_.returns) {
      if (!ret.type.is_mutable()) continue;
      bool aliases = facts_.self && same_alias(*facts_.self, ret);
      for (const Argument* out : facts_.out) aliases = aliases || same_alias(*out, ret);
      if (!aliases) {
        r_.report(rules::mutable_return, at(ret),
                  fmt::format("mutable return {} aliases neither an out argument nor self; did you "
                              "forget to make an out argument keyword-only?",
                              schema::print_type(ret.type)));
      }
    }
  }

  void method_self() {
    if (!f_.method_variant) return;
    if (facts_.self && facts_.self->type.is_base(BaseType::Tensor)) return;
    Location where = facts_.self ? at(*facts_.self) : r_.file().field_location(f_, "variants");
    r_.report(rules::method_self, where,
              fmt::format("'{}' has a method variant but no 'Tensor self' argument", s_.op.full()));
  }

  void python_keywords() {
    static constexpr auto kKeywords = std::to_array<std::string_view>(
        {"False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
         "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
         "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
         "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"});
    for (const Argument& a : s_.arguments) {
      if (std::find(kKeywords.begin(), kKeywords.end(), a.name) != kKeywords.end()) {
        r_.report(
            rules::python_keyword_argument, at(a.name_range),
            fmt::format("argument name '{}' is a Python keyword; Python callers cannot pass it "
                        "by name",
                        a.name));
      }
    }
  }

  const Argument* argument(std::string_view name) const {
    for (const Argument& a : s_.arguments) {
      if (a.name == name) return &a;
    }
    return nullptr;
  }

  void cpp_no_default_args() {
    for (const native_functions::LocatedName& n : f_.cpp_no_default_args) {
      const Argument* a = argument(n.name);
      if (!a) {
        r_.report(rules::cpp_no_default_args, n.location,
                  fmt::format("cpp_no_default_args names '{}', which is not an argument of '{}'",
                              n.name, s_.op.full()));
      } else if (!a->default_value) {
        Diagnostic& d =
            r_.report(rules::cpp_no_default_args, n.location,
                      fmt::format("cpp_no_default_args names '{}', which has no default", n.name));
        d.notes.push_back(Note{at(*a), fmt::format("'{}' is declared here", n.name)});
      }
    }
  }

  void precomputed() {
    for (const native_functions::LocatedName& n : f_.precomputed_arguments) {
      if (!argument(n.name)) {
        r_.report(rules::precomputed_argument, n.location,
                  fmt::format("precomputed replaces '{}', which is not an argument of '{}'", n.name,
                              s_.op.full()));
      }
    }
  }

  Reporter& r_;
  const NativeFunction& f_;
  bool unnamed_out_ = false;  // an out argument without a named alias set was reported
  const schema::FunctionSchema& s_;
  SignatureFacts facts_;
};

}  // namespace

void check_signature_rules(Reporter& reporter, const NativeFunction& function) {
  if (!function.schema) return;
  SignatureRules(reporter, function).run();
}

}  // namespace schemac::lint
