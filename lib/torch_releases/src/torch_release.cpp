// The per-release facts of torchgen that lint follows (torch_release.h); docs/releases.md gives
// the source of each.
#include "schemac/torch_releases/torch_release.h"

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

namespace schemac::torch_releases {

using diagnostics::Diagnostic;

namespace {

constexpr TorchVersion v(int major, int minor) { return TorchVersion{major, minor}; }

// clang-format off
constexpr auto kVersions = std::to_array<TorchVersion>({
    v(1, 12), v(1, 13), v(2, 0), v(2, 1), v(2, 2), v(2, 3), v(2, 4), v(2, 5), v(2, 6), v(2, 7),
    v(2, 8), v(2, 9), v(2, 10),
});
// clang-format on
static_assert(kVersions.back() == kNewestTorchVersion);

// Sorted by id.
constexpr auto kRuleReleases = std::to_array<RuleRelease>({
    // native_function_generation.py's checks of the variants it adds. 1.12 reads `autogen:` but
    // not with these rules: its own file breaks them 75 times.
    {"autogen-group", v(1, 13), std::nullopt, std::nullopt},
    {"autogen-name", v(1, 13), std::nullopt, std::nullopt},
    // NativeFunction.from_yaml refuses the flag on out= functions from 2.7 (PyTorch #145530).
    {"const-ref-out", v(2, 7), std::nullopt, std::nullopt},
    // The factory-function assertion of NativeFunction.from_yaml came with 1.13: torchgen 1.12
    // built 1.12's own file, which has factories without a dispatch section.
    {"factory-dispatch", v(1, 13), std::nullopt, std::nullopt},
    {"group-no-out", v(1, 13), std::nullopt, std::nullopt},
    {"group-out-alone", v(1, 13), std::nullopt, std::nullopt},
    // NativeFunction.__post_init__ asserts the tag from 1.13 through 2.9 (read in 1.13, 2.0, 2.1,
    // 2.3, 2.4, 2.5, 2.6, 2.7 and 2.9); PyTorch's file after 2.9 carries an untagged random
    // operator (_philox_randint_), which its torchgen accepts, so lint warns from 2.10.
    {"nondeterministic-seeded", v(1, 13), std::nullopt, v(2, 9)},
});

// What a release added to a list of names (tags.yaml's tags, torchgen's `dispatch_keys`): each
// release's list is every name added up to it. No release of either list removed a name.
struct NamesAdded {
  TorchVersion since;
  std::array<std::string_view, 16> names;  // "" ends the list
};

// torchgen's `dispatch_keys` (model.py), read for 1.12, 1.13, 2.0, 2.1, 2.3 to 2.9. 2.2 sits
// between two lists that differ only in SparseCsrMeta and gets the later one, so that no key it
// may allow is refused. docs/releases.md lists what was read where.
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
    {v(2, 9), {"reduction"}},  // not in 2.8, in main after 2.9
    {v(2, 10), {"inplace", "out", "out_variant", "has_side_effects"}},
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

}  // namespace

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

std::span<const RuleRelease> rule_releases() { return kRuleReleases; }

const RuleRelease* find_rule_release(std::string_view id) {
  auto it = std::find_if(kRuleReleases.begin(), kRuleReleases.end(),
                         [&](const RuleRelease& rule) { return rule.id == id; });
  return it != kRuleReleases.end() ? &*it : nullptr;
}

void apply_torch_version(std::vector<Diagnostic>& diagnostics, TorchVersion version) {
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    const RuleRelease* rule = find_rule_release(d.rule);
    return rule && (version < rule->since || (rule->until && *rule->until < version));
  });
  for (Diagnostic& d : diagnostics) {
    const RuleRelease* rule = find_rule_release(d.rule);
    if (rule && rule->error_until && version <= *rule->error_until)
      d.severity = diagnostics::Severity::error;
  }
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

// 1.12 keeps the name whole (the generated code calls at::native::<name>), 1.13 splits off two
// namespaces at most and 2.0 three; lint holds 1.12 to the parser's three.
int kernel_namespace_levels(TorchVersion version) { return version == v(1, 13) ? 2 : 3; }

}  // namespace schemac::torch_releases
