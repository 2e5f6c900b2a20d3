// The per-release facts of torchgen that lint follows (torch_release.h); docs/releases.md gives
// the source of each.
#include "schemac/torch_releases/torch_release.h"

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

namespace schemac::torch_releases {

namespace {

constexpr TorchVersion v(int major, int minor) { return TorchVersion{major, minor}; }

// clang-format off
constexpr auto kVersions = std::to_array<TorchVersion>({
    v(1, 12), v(1, 13), v(2, 0), v(2, 1), v(2, 2), v(2, 3), v(2, 4), v(2, 5), v(2, 6), v(2, 7),
    v(2, 8), v(2, 9), v(2, 10), v(2, 11), v(2, 12), v(2, 13), v(2, 14),
});
// clang-format on
static_assert(kVersions.back() == kNewestTorchVersion);

// The rules whose releases are limited: the registry's release column (rule_table.h), sorted by
// id; docs/releases.md says where each window was read.
const std::vector<RuleRelease>& rule_release_table() {
  static const std::vector<RuleRelease> table = [] {
    auto version = [](std::optional<rules::Release> r) -> std::optional<TorchVersion> {
      if (!r) return std::nullopt;
      return TorchVersion{r->major, r->minor};
    };
    std::vector<RuleRelease> out;
    for (const rules::RuleDef& rule : rules::all_rules()) {
      if (!rule.releases.limited()) continue;
      out.push_back(RuleRelease{rule.id, version(rule.releases.since).value_or(kVersions.front()),
                                version(rule.releases.until), version(rule.releases.error_until)});
    }
    std::sort(out.begin(), out.end(),
              [](const RuleRelease& a, const RuleRelease& b) { return a.id < b.id; });
    return out;
  }();
  return table;
}

// What a release added to a list of names (tags.yaml's tags, torchgen's `dispatch_keys`): each
// release's list is every name added up to it. No release of either list removed a name.
struct NamesAdded {
  TorchVersion since;
  std::array<std::string_view, 16> names;  // "" ends the list
};

// torchgen's `dispatch_keys` (model.py), read for 1.12, 1.13, 2.0, 2.1, 2.3 to 2.9 and 2.14. 2.2
// sits between two lists that differ only in SparseCsrMeta and gets the later one, so that no key
// it may allow is refused; 2.10 to 2.13 sit between 2.9 and 2.14, whose lists are equal.
// docs/releases.md lists what was read where.
constexpr auto kKeysAdded = std::to_array<NamesAdded>({
    {v(1, 12),
     {"CPU", "SparseCPU", "SparseCsrCPU", "MkldnnCPU", "CUDA", "MPS", "SparseCUDA", "SparseCsrCUDA",
      "QuantizedCPU", "QuantizedCUDA", "CompositeImplicitAutograd", "CompositeExplicitAutograd",
      "NestedTensorCPU", "NestedTensorCUDA", "Meta", "ZeroTensor"}},
    {v(1, 13),
     {"CompositeImplicitAutogradNestedTensor", "CompositeExplicitAutogradNonFunctional",
      "SparseMeta", "QuantizedMeta", "NestedTensorMeta"}},
    {v(2, 2), {"SparseCsrMeta"}},  // in 2.3, not in 2.1
    {v(2, 5), {"XPU"}},
    {v(2, 6), {"SparseXPU", "NestedTensorXPU"}},
    {v(2, 7), {"SparseCsrXPU"}},  // in 2.8; 2.7 unknown, so allowed
    {v(2, 8), {"NestedTensorHPU", "MTIA"}},
    {v(2, 9), {"SparseMPS", "SparseCsrMPS"}},
});

// The tags each release's tags.yaml added, in the order of the file.
constexpr auto kTagsAdded = std::to_array<NamesAdded>({
    {v(1, 12), {"inplace_view", "view_copy"}},
    {v(1, 13),
     {"dynamic_output_shape", "data_dependent_output", "generated", "nondeterministic_seeded",
      "nondeterministic_bitwise"}},
    {v(2, 0), {"core", "pointwise"}},
    {v(2, 2), {"pt2_compliant_tag", "needs_fixed_stride_order"}},  // read in 2.3, not in 2.1
    {v(2, 5), {"flexible_layout"}},
    {v(2, 6), {"maybe_aliasing_or_mutating"}},
    {v(2, 8), {"needs_exact_strides", "needs_contiguous_strides", "cudagraph_unsafe"}},
    {v(2, 9), {"reduction"}},        // not in 2.8, in main after 2.9
    {v(2, 10), {"out_variant"}},     // "added in PyTorch 2.10" (PyTorch #180851)
    {v(2, 13), {"inplace", "out"}},  // PyTorch #181099, #180851: after 2.12's cut; read in 2.14

});

// Each known release's list (in kVersions' order): the names added up to it, in order.
std::vector<std::vector<std::string_view>> lists_by_release(std::span<const NamesAdded> added) {
  std::vector<std::vector<std::string_view>> out;
  for (TorchVersion release : kVersions) {
    std::vector<std::string_view>& names = out.emplace_back();
    for (const NamesAdded& step : added) {
      if (release < step.since) break;
      for (std::string_view name : step.names)
        if (!name.empty()) names.push_back(name);
    }
  }
  return out;
}

// `version`'s list among `lists` (the newest release's for an unknown version).
std::span<const std::string_view> list_of(const std::vector<std::vector<std::string_view>>& lists,
                                          TorchVersion version) {
  const auto it = std::find(kVersions.begin(), kVersions.end(), version);
  return lists[static_cast<size_t>(it == kVersions.end() ? kVersions.size() - 1
                                                         : it - kVersions.begin())];
}

// The forms of the schema language whose releases differ, in SchemaForm's order; docs/releases.md
// says where each was read. Arrivals that were not read are placed at the earliest release they
// may have come with (a missed error at worst, never a false one).
constexpr auto kSchemaForms = std::to_array<SchemaFormReleases>({
    // Parsed up to 2.12; 2.13 removed named tensors (PyTorch #173895), read in 2.14.
    {SchemaForm::dimname_type, "the Dimname type", std::nullopt, v(2, 13)},
    // PyTorch #129189, after 2.4's branch cut: not in 1.13, read in 2.14.
    {SchemaForm::dtype_name_default, "a ScalarType default written by dtype name", v(2, 5),
     std::nullopt},
    // Not in 1.13, read in 2.14; the arrivals are placed at 2.0.
    {SchemaForm::device_index_type, "the DeviceIndex type", v(2, 0), std::nullopt},
    {SchemaForm::sym_bool_type, "the SymBool type", v(2, 0), std::nullopt},
    {SchemaForm::await_type, "the Await type", v(2, 0), std::nullopt},
});
static_assert([] {
  for (size_t i = 0; i < kSchemaForms.size(); ++i)
    if (static_cast<size_t>(kSchemaForms[i].form) != i) return false;
  return true;
}());

}  // namespace

const SchemaFormReleases& schema_form_releases(SchemaForm form) {
  return kSchemaForms[static_cast<size_t>(form)];
}

bool reads_schema_form(TorchVersion version, SchemaForm form) {
  const SchemaFormReleases& releases = schema_form_releases(form);
  return !(releases.since && version < *releases.since) &&
         !(releases.removed_in && *releases.removed_in <= version);
}

std::span<const TorchVersion> known_torch_versions() { return kVersions; }

std::string format_torch_version(TorchVersion version) {
  return fmt::format("{}.{}", version.major, version.minor);
}

std::optional<TorchVersion> parse_torch_version(std::string_view text) {
  TorchVersion version;
  const char* end = text.data() + text.size();
  auto [dot, major_error] = std::from_chars(text.data(), end, version.major);
  if (major_error != std::errc{} || dot == end || *dot != '.') return std::nullopt;
  auto [rest, minor_error] = std::from_chars(dot + 1, end, version.minor);
  if (minor_error != std::errc{} || rest != end) return std::nullopt;
  if (std::find(kVersions.begin(), kVersions.end(), version) == kVersions.end())
    return std::nullopt;
  return version;
}

std::string known_torch_versions_text() {
  std::string out;
  for (TorchVersion version : kVersions)
    out += (out.empty() ? "" : ", ") + format_torch_version(version);
  return out;
}

std::string unknown_torch_version(std::string_view text) {
  if (parse_torch_version(text)) return "";
  return fmt::format("unknown PyTorch release '{}'; known: {}", text, known_torch_versions_text());
}

std::span<const RuleRelease> rule_releases() { return rule_release_table(); }

const RuleRelease* find_rule_release(std::string_view id) {
  const std::vector<RuleRelease>& table = rule_release_table();
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const RuleRelease& rule) { return rule.id == id; });
  return it != table.end() ? &*it : nullptr;
}

rules::Release release_of(TorchVersion version) {
  return rules::Release{version.major, version.minor};
}

std::span<const std::string_view> builtin_tags(TorchVersion version) {
  static const std::vector<std::vector<std::string_view>> by_release = lists_by_release(kTagsAdded);
  return list_of(by_release, version);
}

std::span<const std::string_view> supported_dispatch_keys(TorchVersion version) {
  static const std::vector<std::vector<std::string_view>> by_release = lists_by_release(kKeysAdded);
  return list_of(by_release, version);
}

bool tags_are_comma_separated(TorchVersion version) { return version < v(2, 0); }

bool dropout_arguments_are_random(TorchVersion version) { return version >= v(2, 1); }

bool custom_op_tags_shape_schema(TorchVersion version) { return version >= v(2, 13); }

// 1.12 keeps the name whole (the generated code calls at::native::<name>), 1.13 splits off two
// namespaces at most and 2.0 three; lint holds 1.12 to the parser's three.
int kernel_namespace_levels(TorchVersion version) { return version == v(1, 13) ? 2 : 3; }

}  // namespace schemac::torch_releases
