// torchgen's grouping of related entries (native_function_generation.py and
// NativeFunctionsGroup in model.py): the functional, in-place, mutable and out= variants of one
// operator share a signature (name without '_' or '_functional', no overload, arguments without
// out= and without alias annotations, returns plus written inputs). torchgen generates a
// missing functional or out= variant of a group and requires:
//   * an out= function has another variant to group with (group-out-alone),
//   * a group with an in-place, mutable or out= variant has a functional one, declared or
//     generated (group-no-functional),
//   * what it generates is exactly what the group's `autogen:` lines list (autogen-group).
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint_rules_internal.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/printer.h"

namespace schemac::lint {

using diagnostics::Diagnostic, native_functions::LocatedName, native_functions::NativeFunction,
    schema::AliasInfo, schema::Argument, schema::FunctionSchema, schema::print_type_without_aliases;

namespace {

enum class Kind { functional, inplace, mutable_, out };

// torchgen's short lists of operators that do not group; they are accepted as they are.
constexpr std::string_view kOutOpsNotGrouped[] = {"adaptive_avg_pool3d_backward.grad_input",
                                                  "_slow_conv2d_backward.grad_input"};
// clang-format off
constexpr std::string_view kCannotGetOut[] = {
    "_cummax_helper", "_cummin_helper", "_assert_async", "_dimI", "_dimV",
    "_has_same_storage_numel", "_linalg_check_errors", "_local_scalar_dense",
    "_nested_tensor_from_mask_left_aligned", "_nnz", "_use_cudnn_ctc_loss",
    "_use_cudnn_ctc_loss.Tensor", "_validate_compressed_sparse_indices", "allclose", "dense_dim",
    "equal", "is_coalesced", "is_pinned", "is_same_size", "is_set_to", "q_per_channel_axis",
    "q_scale", "q_zero_point", "qscheme", "record_stream", "sparse_dim", "_nested_tensor_offsets",
    "_chunk_grad_outputs_efficient_attention", "_fused_sdp_choice", "_print", "_sink_tokens",
    "_nested_get_ragged_idx", "_assert_scalar", "_functional_assert_scalar",
    "_assert_tensor_metadata", "_nested_compute_contiguous_strides_offsets", "sym_constrain_range",
    "sym_constrain_range_for_size", "_functional_sym_constrain_range",
    "_functional_sym_constrain_range_for_size", "_make_dep_token", "_functional_assert_async.msg",
    "_nested_tensor_storage_offsets", "_cslt_sparse_mm_search", "_use_miopen_ctc_loss",
    "_use_miopen_ctc_loss.Tensor"
};
// clang-format on
constexpr std::string_view kInplaceNotGrouped[] = {"polygamma_"};

template <size_t N>
bool listed(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

struct Member {
  const NativeFunction* f;
  Kind kind;
  std::string base;  // out-of-place base name: "add" for add_, add.out, add_functional
};

bool is_written(const Argument& a) { return a.type.is_mutable(); }

Kind kind_of(const FunctionSchema& s, const SignatureFacts& facts) {
  if (!facts.out.empty()) return Kind::out;
  if (facts.inplace) return Kind::inplace;
  for (const Argument& a : s.arguments)
    if (is_written(a)) return Kind::mutable_;
  return Kind::functional;
}

std::string signature_key(const FunctionSchema& s, const SignatureFacts& facts,
                          std::string_view base) {
  std::string key(base);
  key += '(';
  bool kwarg = false;
  const std::vector<const Argument*> options = tensor_options(s);
  for (const Argument& a : s.arguments) {
    if (std::find(facts.out.begin(), facts.out.end(), &a) != facts.out.end()) continue;
    if (std::find(options.begin(), options.end(), &a) != options.end())
      continue;  // dropped by torchgen
    if (a.kwarg_only && !kwarg) {
      key += "*,";
      kwarg = true;
    }
    key += print_type_without_aliases(a.type);
    key += ' ';
    key += a.name;
    if (a.default_value) {
      key += '=';
      key += a.default_value->text;
    }
    key += ',';
  }
  if (s.op.base_name() == "bernoulli" &&
      s.op.overload == "p") {  // torchgen's Note [bernoulli.p schema]
    const size_t at = key.find("float p,");
    if (at != std::string::npos) key.replace(at, 8, "float p=0.5,");
  }
  key += ")->(";
  for (const Argument& r : s.returns) key += print_type_without_aliases(r.type) + ",";
  // Written inputs that no return aliases come back as extra returns in torchgen's signature.
  auto returned = [&](const Argument& a) {
    const AliasInfo* alias = a.type.any_alias();
    return std::any_of(s.returns.begin(), s.returns.end(), [&](const Argument& r) {
      const AliasInfo* ra = r.type.any_alias();
      return ra && alias && *ra == *alias;
    });
  };
  const bool has_self = facts.self != nullptr;
  bool self_seen = false;
  for (const Argument& a : s.arguments) {
    const bool out = std::find(facts.out.begin(), facts.out.end(), &a) != facts.out.end();
    const bool self_or_after = a.name == "self" || (!a.kwarg_only && self_seen);
    self_seen = self_seen || a.name == "self";
    if ((out || self_or_after || !has_self) && is_written(a) && !returned(a))
      key += print_type_without_aliases(a.type) + ",";
  }
  return key + ")";
}

bool is_view(const NativeFunction& f) {
  const FunctionSchema& s = *f.schema;
  for (const Argument& r : s.returns) {
    const AliasInfo* a = r.type.any_alias();
    if (a && !a->is_write) return true;
  }
  const bool inplace_view = std::any_of(
      f.tags.begin(), f.tags.end(), [](const LocatedName& t) { return t.name == "inplace_view"; });
  if (inplace_view && s.op.base_name() != "resize_") return true;
  for (const Argument& a : s.arguments) {
    const AliasInfo* alias = a.type.any_alias();
    if (alias && std::find(alias->after.begin(), alias->after.end(), "*") != alias->after.end())
      return true;
  }
  return false;
}

bool composite_implicit(const NativeFunction& f) {
  if (!f.has_dispatch) return !f.structured && !f.structured_delegate;
  return std::any_of(f.dispatch.begin(), f.dispatch.end(),
                     [](const native_functions::DispatchEntry& e) {
                       return e.key.name == "CompositeImplicitAutograd";
                     });
}

class GroupRules {
 public:
  explicit GroupRules(Reporter& reporter) : r_(reporter) {}

  bool run() {
    std::map<std::string, std::map<Kind, Member>> groups;
    for (const NativeFunction& f : r_.file().functions) {
      if (!f.schema) continue;
      const SignatureFacts facts = signature_facts(*f.schema);
      std::string base = facts.out_of_place_name;
      if (base.ends_with("_functional")) base.resize(base.size() - 11);
      const Kind kind = kind_of(*f.schema, facts);
      groups[signature_key(*f.schema, facts, base)][kind] = Member{&f, kind, base};
    }
    // A file most of whose out= functions (five or more) group with no other variant is a
    // vendor's subset of PyTorch's operators: it is read with torchgen's grouping workarounds, so
    // the group rules only warn there (their registry entries say subset_warning; the caller
    // decides their severity with the others).
    size_t alone = 0, grouped = 0;
    for (const auto& [key, group] : groups) {
      if (!group.contains(Kind::out)) continue;
      (group.size() == 1 ? alone : grouped) += 1;
    }
    subset_file_ = alone >= 5 && alone > grouped;
    for (const auto& [key, group] : groups) check(group);
    return subset_file_;
  }

 private:
  static std::string overload_of(const Member& m) { return std::string(m.f->schema->op.overload); }

  void check(const std::map<Kind, Member>& d) {
    const bool has_functional = d.contains(Kind::functional);
    const bool has_out = d.contains(Kind::out);
    const bool all_manual = std::all_of(
        d.begin(), d.end(), [](const auto& m) { return m.second.f->manual_cpp_binding; });
    const bool has_view = std::any_of(d.begin(), d.end(), [](const auto& m) {
      return is_view(*m.second.f) && m.second.f->schema->op.base_name() != "set_";
    });
    const bool all_cia = std::all_of(d.begin(), d.end(),
                                     [](const auto& m) { return composite_implicit(*m.second.f); });
    if (all_manual || has_view || all_cia) {
      if (d.size() > 1 && !has_functional) no_functional(d);
      return;
    }
    if (has_out && d.size() == 1) {
      const Member& out = d.at(Kind::out);
      if (!listed(kOutOpsNotGrouped, out.f->schema->op.full())) {
        std::string overload(out.f->schema->op.overload);
        if (overload == "out") overload.clear();
        if (overload.ends_with("_out")) overload.resize(overload.size() - 4);
        const std::string functional = overload.empty() ? out.base : out.base + "." + overload;
        // The note is checked against the whole file: a functional declared with another
        // signature is pointed at, not asked for.
        const NativeFunction* declared = nullptr;
        for (const NativeFunction& f : r_.file().functions) {
          if (!declared && f.schema && f.schema->op.full() == functional) declared = &f;
        }
        Diagnostic& diag =
            declared == nullptr
                ? r_.report(
                      rules::group_out_alone, out.f->location,
                      fmt::format("'{}' is an out= function with no functional variant (the same "
                                  "signature without out=), so torchgen cannot group it; declare "
                                  "'{}' too",
                                  out.f->schema->op.full(), functional))
                : r_.report(
                      rules::group_out_alone, out.f->location,
                      fmt::format(
                          "'{}' is an out= function whose functional variant '{}' has another "
                          "signature (it must be the same without out=), so torchgen cannot "
                          "group them",
                          out.f->schema->op.full(), functional));
        if (declared != nullptr)
          diag.notes.push_back(diagnostics::Note{declared->location,
                                                 fmt::format("'{}' is declared here", functional)});
      }
      return;
    }
    if (d.contains(Kind::inplace) &&
        listed(kInplaceNotGrouped, d.at(Kind::inplace).f->schema->op.base_name()))
      return;
    // Newer torchgen starts from the mutable variant when there is one (1.13 from the in-place
    // one; no 1.13 file has both), so a generated functional of a mutable op is `name_functional`.
    const Member& base = d.contains(Kind::mutable_)  ? d.at(Kind::mutable_)
                         : d.contains(Kind::inplace) ? d.at(Kind::inplace)
                         : has_out                   ? d.at(Kind::out)
                                                     : d.at(Kind::functional);
    const FunctionSchema& bs = *base.f->schema;
    const bool base_valid = base.kind == Kind::inplace ||
                            std::any_of(bs.returns.begin(), bs.returns.end(),
                                        [](const Argument& r) { return r.type.is_tensor_like(); });
    const bool needs_out =
        std::any_of(base.f->autogen.begin(), base.f->autogen.end(),
                    [](const LocatedName& n) { return n.name.find("out") != std::string::npos; });
    const bool gets_out = !has_out && base_valid && needs_out;
    if (!has_out && !base_valid) {
      const std::string full = bs.op.full();
      if (!listed(kCannotGetOut, full) && !listed(kCannotGetOut, bs.op.base_name())) {
        r_.report(
            rules::group_no_out, base.f->location,
            fmt::format(
                "torchgen cannot generate an out= variant for '{}' (it returns no tensor and is "
                "not in-place), and refuses such operators unless they are on its own short list "
                "(FUNCTIONAL_OPS_THAT_CANNOT_GET_AN_OUT_VARIANT)",
                full));
      }
      return;
    }
    std::set<std::string> generated;
    const std::string ov = overload_of(base);
    if (gets_out)
      generated.insert(fmt::format("{}.{}", base.base, ov.empty() ? "out" : ov + "_out"));
    if (!has_functional && (has_out || gets_out)) {
      const std::string name = base.base + (base.kind == Kind::mutable_ ? "_functional" : "");
      generated.insert(ov.empty() ? name : name + "." + ov);
    }
    if (!has_out && !gets_out) {  // nothing is generated and no group is formed
      if (d.size() > 1 && !has_functional) no_functional(d);
      return;
    }
    std::set<std::string> listed_names;
    const Member* first_autogen = nullptr;
    for (const auto& [kind, m] : d) {
      for (const LocatedName& n : m.f->autogen) listed_names.insert(n.name);
      if (!first_autogen && !m.f->autogen.empty()) first_autogen = &m;
    }
    if (listed_names == generated) return;
    const std::string want = fmt::format("{}", fmt::join(generated, ", "));
    const std::string have = fmt::format("{}", fmt::join(listed_names, ", "));
    const Member& at = first_autogen ? *first_autogen : base;
    const diagnostics::Location loc =
        first_autogen ? r_.file().field_location(*at.f, "autogen") : at.f->location;
    if (listed_names.empty()) {
      r_.report(
          rules::autogen_group, loc,
          fmt::format("torchgen generates '{}' for '{}' and needs it listed: add 'autogen: {}'",
                      want, bs.op.full(), want));
    } else {
      r_.report(
          rules::autogen_group, loc,
          fmt::format(
              "torchgen generates {} for this group of '{}', but its autogen lines list '{}'",
              generated.empty() ? std::string("nothing") : "'" + want + "'", base.base, have));
    }
  }

  void no_functional(const std::map<Kind, Member>& d) {
    const Member& m = d.begin()->second;
    r_.report(rules::group_no_functional, m.f->location,
              fmt::format(
                  "'{}' has in-place, mutable or out= variants but no functional variant with the "
                  "same signature; torchgen requires one: declare '{}'",
                  m.base, m.base));
  }

  Reporter& r_;
  bool subset_file_ = false;
};

}  // namespace

bool check_group_rules(Reporter& reporter) { return GroupRules(reporter).run(); }

std::string signature_group_key(const FunctionSchema& schema) {
  const SignatureFacts facts = signature_facts(schema);
  std::string base = facts.out_of_place_name;
  if (base.ends_with("_functional")) base.resize(base.size() - 11);
  return signature_key(schema, facts, base);
}

}  // namespace schemac::lint
