// `--torch-version`: the rules, severities, dispatch keys, built-in tags and tag syntax of each
// torchgen release (lib/frontend/torch_releases/torch_release.h), on small files written for each fact.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/lint/file_kinds.h"
#include "schemac/lint/lint_rules.h"
#include "schemac/keys/dispatch_key_names.h"
#include "schemac/torch_releases/torch_release.h"
#include "../lint/test_support.h"

namespace schemac::schema {

using diagnostics::Diagnostic, lint::FileKind, lint::FileLintOptions, torch_releases::TorchVersion,
    torch_releases::builtin_tags, torch_releases::format_torch_version, torch_releases::kNewestTorchVersion,
    torch_releases::known_torch_versions, lint::lint_file, torch_releases::parse_torch_version;

namespace {

constexpr TorchVersion k1_12{1, 12};
constexpr TorchVersion k1_13{1, 13};
constexpr TorchVersion k2_0{2, 0};
constexpr TorchVersion k2_1{2, 1};
constexpr TorchVersion k2_3{2, 3};
constexpr TorchVersion k2_4{2, 4};
constexpr TorchVersion k2_5{2, 5};
constexpr TorchVersion k2_6{2, 6};
constexpr TorchVersion k2_7{2, 7};
constexpr TorchVersion k2_8{2, 8};
constexpr TorchVersion k2_9{2, 9};
constexpr TorchVersion k2_10{2, 10};
constexpr TorchVersion k2_12{2, 12};
constexpr TorchVersion k2_13{2, 13};
constexpr TorchVersion k2_14{2, 14};

// The diagnostics of `text` under `version`, with that release's built-in tags.
std::vector<Diagnostic> lint(const std::string& text, TorchVersion version) {
  const std::span<const std::string_view> tags = builtin_tags(version);
  lint::LintOptions options{std::vector<std::string>(tags.begin(), tags.end())};
  options.torch_version = version;
  return lint_file("ops.yaml", text, FileLintOptions{options, std::nullopt, nullptr}).diagnostics;
}

// "rule:severity" of each diagnostic, in order.
std::vector<std::string> rules(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics) out.push_back(d.rule + ":" + std::string(diagnostics::severity_name(d.severity)));
  return out;
}

using Rules = std::vector<std::string>;

TEST(TorchRelease, VersionsParseOnlyWhenKnown) {
  EXPECT_EQ(parse_torch_version("1.12"), k1_12);
  EXPECT_EQ(parse_torch_version("2.9"), k2_9);
  EXPECT_EQ(parse_torch_version("2.10"), k2_10);
  EXPECT_EQ(parse_torch_version("2.14"), kNewestTorchVersion);
  EXPECT_EQ(kNewestTorchVersion, k2_14);
  for (const char* bad : {"1.11", "3.0", "2", "2.", "2.9.1", "2.15", "x.y", "", " 2.0"})
    EXPECT_EQ(parse_torch_version(bad), std::nullopt) << bad;
  EXPECT_EQ(known_torch_versions().front(), k1_12);
  EXPECT_EQ(known_torch_versions().back(), kNewestTorchVersion);
  EXPECT_EQ(format_torch_version(k2_0), "2.0");
}

TEST(TorchRelease, EveryLimitedRuleIsInTheCatalogue) {
  for (const torch_releases::RuleRelease& rule : torch_releases::rule_releases()) {
    EXPECT_NE(lint::find_lint_rule(rule.id), nullptr) << rule.id;
    EXPECT_TRUE(std::find(known_torch_versions().begin(), known_torch_versions().end(), rule.since) !=
                known_torch_versions().end()) << rule.id;
  }
}

// torchgen 1.12 built 1.12's own file, whose factories have no dispatch section; 1.13 asserts.
TEST(TorchRelease, FactoryDispatchSince1_13) {
  const std::string factory = "- func: my_empty(int[] size, *, ScalarType? dtype=None, Layout? layout=None, "
                              "Device? device=None, bool? pin_memory=None) -> Tensor\n";
  EXPECT_EQ(rules(lint(factory, k1_12)), Rules{});
  EXPECT_EQ(rules(lint(factory, k1_13)), Rules{"factory-dispatch:error"});
  EXPECT_EQ(rules(lint(factory, kNewestTorchVersion)), Rules{"factory-dispatch:error"});
}

// An assertion in torchgen from 1.13 on (read in 1.13, 2.0, 2.1, 2.3 to 2.7, 2.9 and 2.14), not
// checked by 1.12; a warning in the extension profile, which no torchgen reads.
TEST(TorchRelease, NondeterministicSeededIsAnErrorFrom1_13) {
  const std::string random = "- func: my_rand(int[] size) -> Tensor\n  dispatch:\n    CPU: my_rand\n";
  EXPECT_EQ(rules(lint(random, k1_12)), Rules{});
  for (TorchVersion version : {k1_13, k2_0, k2_4, k2_5, k2_6, k2_9, k2_10, k2_14})
    EXPECT_EQ(rules(lint(random, version)), Rules{"nondeterministic-seeded:error"})
        << format_torch_version(version);
  const std::string extension = "- func: my_ops::my_rand(int[] size) -> Tensor\n";
  EXPECT_EQ(rules(lint(extension, kNewestTorchVersion)), Rules{"nondeterministic-seeded:warning"});
}

// torchgen 1.13 and 2.0 look for dropout in the operator's name; from 2.1 (read in 2.1, 2.3 and
// later) in argument names too.
TEST(TorchRelease, DropoutArgumentsCountAsRandomFrom2_1) {
  const std::string rnn = "- func: my_rnn(Tensor input, float dropout, bool train) -> Tensor\n"
                          "  dispatch:\n    CPU: my_rnn\n";
  for (TorchVersion version : {k1_13, k2_0})
    EXPECT_EQ(rules(lint(rnn, version)), Rules{}) << format_torch_version(version);
  for (TorchVersion version : {k2_1, k2_3, kNewestTorchVersion})
    EXPECT_EQ(rules(lint(rnn, version)), Rules{"nondeterministic-seeded:error"});
}

TEST(TorchRelease, BuiltinTagsFollowTheRelease) {
  const std::string pointwise = "- func: my_abs(Tensor self) -> Tensor\n  tags: pointwise\n";
  EXPECT_EQ(rules(lint(pointwise, k1_13)), Rules{"unknown-tag:error"});
  EXPECT_EQ(rules(lint(pointwise, k2_0)), Rules{});
  const std::span<const std::string_view> tags_1_12 = builtin_tags(k1_12);
  EXPECT_EQ(std::vector<std::string_view>(tags_1_12.begin(), tags_1_12.end()),
            (std::vector<std::string_view>{"inplace_view", "view_copy"}));
  EXPECT_EQ(builtin_tags().size(), 20u);  // 2.14's tags.yaml
  // 2.4's tags.yaml has 11 tags; 2.1's has no pt2_compliant_tag (2.3 has); 2.5 adds
  // flexible_layout, 2.6 maybe_aliasing_or_mutating, 2.8 three stride and graph tags.
  auto has = [](TorchVersion version, std::string_view tag) {
    const std::span<const std::string_view> tags = builtin_tags(version);
    return std::find(tags.begin(), tags.end(), tag) != tags.end();
  };
  EXPECT_EQ(builtin_tags(k2_4).size(), 11u);
  EXPECT_FALSE(has(k2_1, "pt2_compliant_tag"));
  EXPECT_TRUE(has(k2_3, "pt2_compliant_tag"));
  EXPECT_FALSE(has(k2_4, "flexible_layout"));
  EXPECT_TRUE(has(k2_5, "flexible_layout"));
  EXPECT_FALSE(has(k2_5, "maybe_aliasing_or_mutating"));
  EXPECT_TRUE(has(k2_6, "maybe_aliasing_or_mutating"));
  EXPECT_FALSE(has(k2_7, "needs_exact_strides"));
  EXPECT_TRUE(has(k2_8, "needs_exact_strides"));
  EXPECT_FALSE(has(k2_8, "reduction"));
  EXPECT_FALSE(has(k2_9, "out_variant"));
  EXPECT_TRUE(has(k2_10, "out_variant"));
  // inplace and out came after 2.12's branch cut; has_side_effects is a fork's, in no release.
  EXPECT_FALSE(has(k2_12, "inplace"));
  EXPECT_FALSE(has(k2_12, "out"));
  EXPECT_TRUE(has(k2_13, "inplace"));
  EXPECT_TRUE(has(k2_13, "out"));
  EXPECT_FALSE(has(kNewestTorchVersion, "has_side_effects"));
  for (TorchVersion version : known_torch_versions()) {
    const std::span<const std::string_view> tags = builtin_tags(version);
    for (std::string_view tag : tags_1_12)
      EXPECT_NE(std::find(tags.begin(), tags.end(), tag), tags.end()) << tag;
  }
}

// torchgen up to 1.13 splits a tags string at ', '; from 2.0 a string is one tag and lists are read.
TEST(TorchRelease, CommaSeparatedTagsAreSplitUpTo1_13) {
  const std::string two = "- func: my_nonzero(Tensor self) -> Tensor\n"
                          "  tags: dynamic_output_shape, data_dependent_output\n";
  EXPECT_EQ(rules(lint(two, k1_13)), Rules{});
  std::vector<Diagnostic> newest = lint(two, kNewestTorchVersion);
  ASSERT_EQ(rules(newest), Rules{"unknown-tag:error"});
  EXPECT_NE(newest[0].message.find("'dynamic_output_shape, data_dependent_output'"), std::string::npos);

  const std::vector<Diagnostic> one_bad =
      lint("- func: my_nonzero(Tensor self) -> Tensor\n  tags: dynamic_output_shape, no_such_tag\n", k1_13);
  ASSERT_EQ(rules(one_bad), Rules{"unknown-tag:error"});
  EXPECT_EQ(one_bad[0].message, "unknown tag 'no_such_tag'");
  EXPECT_EQ(one_bad[0].location.line, 2u);
  EXPECT_EQ(one_bad[0].location.column, 31u);
  EXPECT_EQ(one_bad[0].location.end_column, 42u);
}

TEST(TorchRelease, TagListsNeed2_0) {
  const std::string list = "- func: my_nonzero(Tensor self) -> Tensor\n  tags: [dynamic_output_shape]\n";
  EXPECT_EQ(rules(lint(list, k1_13)), Rules{"field-type:error"});
  EXPECT_EQ(rules(lint(list, k2_0)), Rules{});
}

// Autograd, AutogradCPU and PrivateUse1 are dispatch keys, but no release of torchgen generates
// kernels for them from native_functions.yaml.
TEST(TorchRelease, DispatchKeysOutsideTorchgensListAreErrors) {
  for (const char* key : {"Autograd", "AutogradCPU", "PrivateUse1"}) {
    const std::string text = std::string("- func: foo(Tensor self) -> Tensor\n  dispatch:\n    ") + key + ": foo\n";
    for (TorchVersion version : known_torch_versions()) {
      const std::vector<Diagnostic> diagnostics = lint(text, version);
      ASSERT_EQ(rules(diagnostics), Rules{"unsupported-dispatch-key:error"}) << key;
      EXPECT_EQ(diagnostics[0].location.line, 3u);
      EXPECT_NE(diagnostics[0].message.find("torchgen " + format_torch_version(version)), std::string::npos);
    }
  }
  const std::string xpu = "- func: foo(Tensor self) -> Tensor\n  dispatch:\n    CPU, XPU: foo\n";
  EXPECT_EQ(rules(lint(xpu, k1_13)), Rules{"unsupported-dispatch-key:error"});
  EXPECT_EQ(rules(lint(xpu, k2_4)), Rules{"unsupported-dispatch-key:error"});
  EXPECT_EQ(rules(lint(xpu, k2_5)), Rules{});
  EXPECT_EQ(rules(lint(xpu, kNewestTorchVersion)), Rules{});
}

// The keys each read release's dispatch_keys list added: 1.12 has 16, 1.13 adds the non-functional
// and nested-tensor composites and three Meta keys, 2.0 and 2.1 are 1.13's, SparseCsrMeta is in
// 2.3 (and given to 2.2), XPU in 2.5, SparseXPU and NestedTensorXPU in 2.6, MTIA and
// NestedTensorHPU in 2.8, the sparse MPS keys in 2.9.
TEST(TorchRelease, SupportedKeysFollowTheReadLists) {
  auto supports = [](TorchVersion version, std::string_view key) {
    const std::span<const std::string_view> keys = torch_releases::supported_dispatch_keys(version);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  EXPECT_EQ(torch_releases::supported_dispatch_keys(k1_12).size(), 16u);
  EXPECT_EQ(torch_releases::supported_dispatch_keys(k1_13).size(), 21u);
  for (std::string_view key : {"CompositeExplicitAutogradNonFunctional",
                               "CompositeImplicitAutogradNestedTensor", "SparseMeta",
                               "QuantizedMeta", "NestedTensorMeta"}) {
    EXPECT_FALSE(supports(k1_12, key)) << key;
    EXPECT_TRUE(supports(k1_13, key)) << key;
  }
  EXPECT_FALSE(supports(k2_1, "SparseCsrMeta"));
  EXPECT_TRUE(supports(k2_3, "SparseCsrMeta"));
  EXPECT_FALSE(supports(k2_4, "XPU"));
  EXPECT_TRUE(supports(k2_5, "XPU"));
  EXPECT_FALSE(supports(k2_5, "SparseXPU"));
  EXPECT_TRUE(supports(k2_6, "NestedTensorXPU"));
  EXPECT_FALSE(supports(k2_7, "MTIA"));
  EXPECT_FALSE(supports(k2_7, "NestedTensorHPU"));
  EXPECT_TRUE(supports(k2_8, "MTIA"));
  EXPECT_FALSE(supports(k2_8, "SparseMPS"));
  EXPECT_TRUE(supports(k2_9, "SparseMPS"));
}

// Every supported key is a dispatch key name of lib/common/keys, and each release keeps the keys of the
// one before it.
TEST(TorchRelease, SupportedKeysAreKnownKeysAndOnlyGrow) {
  std::span<const std::string_view> before;
  for (TorchVersion version : known_torch_versions()) {
    const std::span<const std::string_view> keys = torch_releases::supported_dispatch_keys(version);
    for (std::string_view key : keys) EXPECT_NE(keys::find_dispatch_key(key), nullptr) << key;
    for (std::string_view key : before)
      EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key << " in " << format_torch_version(version);
    before = keys;
  }
}

// Every key PyTorch's own newest file uses is supported by the newest release.
TEST(TorchRelease, NewestReleaseSupportsTheKeysOfThePytorchCorpus) {
  const std::string text = lint_test::read_file(std::string(SCHEMAC_CORPUS_DIR) + "/native_functions.yaml");
  lint::LintOptions options;
  for (const Diagnostic& d : lint::lint_native_functions("native_functions.yaml", text, options))
    EXPECT_NE(d.rule, "unsupported-dispatch-key") << d.message;
}

// torchgen 1.12 already reads `autogen:` (its NativeFunction has the field); the checks of the
// generated variants come with 1.13.
TEST(TorchRelease, AutogenIsReadBy1_12) {
  const std::string text = "- func: foo_(Tensor(a!) self) -> Tensor(a!)\n  autogen: foo.out\n"
                           "  dispatch:\n    CPU: foo_\n";
  EXPECT_EQ(rules(lint(text, k1_12)), Rules{});
  EXPECT_EQ(rules(lint(text, k1_13)), Rules{"autogen-group:error"});
}

// torchgen 1.12 knows no '_symint' kernels: a lone CompositeImplicitAutograd kernel is named after
// the operator there.
TEST(TorchRelease, LoneSymIntKernelNeeds1_13) {
  const std::string text = "- func: foo(Tensor self, SymInt n) -> Tensor\n  dispatch:\n"
                           "    CompositeImplicitAutograd: foo_symint\n";
  EXPECT_EQ(rules(lint(text, k1_12)), Rules{"cia-kernel-name:error"});
  EXPECT_EQ(rules(lint(text, k1_13)), Rules{});
}

// torchgen's NamespaceHelper splits a kernel name's namespaces: two at most in 1.13, three from
// 2.0 (1.12 keeps the name whole and accepts it); four is never a kernel name.
TEST(TorchRelease, KernelNamespacesFollowTheRelease) {
  auto entry = [](const std::string& kernel) {
    return "- func: foo(Tensor self) -> Tensor\n  dispatch:\n    CPU, CUDA: " + kernel + "\n";
  };
  for (TorchVersion version : known_torch_versions())
    EXPECT_EQ(rules(lint(entry("my::ops::foo_kernel"), version)), Rules{});
  const std::vector<Diagnostic> old = lint(entry("my::ops::cpu::foo_kernel"), k1_13);
  ASSERT_EQ(rules(old), Rules{"invalid-kernel-name:error"});  // once for both keys
  EXPECT_EQ(old[0].location.column, 16u);
  EXPECT_NE(old[0].message.find("at most 2 namespaces"), std::string::npos) << old[0].message;
  EXPECT_EQ(rules(lint(entry("my::ops::cpu::foo_kernel"), k1_12)), Rules{});
  EXPECT_EQ(rules(lint(entry("my::ops::cpu::foo_kernel"), k2_0)), Rules{});
  EXPECT_EQ(rules(lint(entry("my::ops::cpu::foo_kernel"), kNewestTorchVersion)), Rules{});
  EXPECT_EQ(rules(lint(entry("a::b::c::d::foo_kernel"), kNewestTorchVersion)),
            Rules{"invalid-kernel-name:error"});
}

// From 2.7 torchgen refuses use_const_ref_for_mutable_tensors on out= functions (PyTorch
// #145530, after 2.6's branch cut); other functions keep it.
TEST(TorchRelease, ConstRefOnOutFunctionsIsRefusedFrom2_7) {
  const std::string text =
      "- func: my_abs(Tensor self) -> Tensor\n  dispatch:\n    CPU: my_abs\n"
      "- func: my_abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
      "  use_const_ref_for_mutable_tensors: True\n  dispatch:\n    CPU: my_abs_out\n"
      "- func: my_neg(Tensor self) -> Tensor\n"
      "  use_const_ref_for_mutable_tensors: True\n  dispatch:\n    CPU: my_neg\n";
  EXPECT_EQ(rules(lint(text, k2_6)), Rules{});
  for (TorchVersion version : {k2_7, kNewestTorchVersion}) {
    const std::vector<Diagnostic> diagnostics = lint(text, version);
    ASSERT_EQ(rules(diagnostics), Rules{"const-ref-out:error"}) << format_torch_version(version);
    EXPECT_EQ(diagnostics[0].location.line, 5u);
    EXPECT_NE(diagnostics[0].message.find("'my_abs.out'"), std::string::npos);
  }
}

// The schema language of each release: Dimname is parsed up to 2.12; a ScalarType default written
// by dtype name from 2.5; DeviceIndex, SymBool and Await are not read by 1.13.
TEST(TorchRelease, SchemaFormsFollowTheRelease) {
  auto entry = [](const std::string& func) {
    return "- func: " + func + "\n  dispatch:\n    CPU: foo\n";
  };
  const std::string dimname = entry("foo(Tensor self, Dimname dim) -> Tensor");
  for (TorchVersion version : {k1_12, k1_13, k2_0, k2_9, k2_12})
    EXPECT_EQ(rules(lint(dimname, version)), Rules{}) << format_torch_version(version);
  for (TorchVersion version : {k2_13, k2_14}) {
    const std::vector<Diagnostic> diagnostics = lint(dimname, version);
    ASSERT_EQ(rules(diagnostics), Rules{"schema-release:error"}) << format_torch_version(version);
    EXPECT_EQ(diagnostics[0].message,
              "the Dimname type was removed in PyTorch 2.13: PyTorch " + format_torch_version(version) +
                  " rejects 'Dimname' (PyTorch 2.12 and older read it); named tensors are gone: take a "
                  "dimension as 'int', or its name as 'str'");
    EXPECT_EQ(diagnostics[0].location.line, 1u);
    EXPECT_EQ(diagnostics[0].location.column, 26u);
    EXPECT_EQ(diagnostics[0].location.end_column, 33u);
  }
  // Inside a list and an optional too, once each.
  EXPECT_EQ(rules(lint(entry("foo(Tensor self, Dimname[] dims, Dimname? d=None) -> Tensor"), k2_14)),
            (Rules{"schema-release:error", "schema-release:error"}));

  const std::string dtype = entry("foo(Tensor self, *, ScalarType dtype=bfloat16, ScalarType? t=float) -> Tensor");
  for (TorchVersion version : {k2_5, k2_14}) EXPECT_EQ(rules(lint(dtype, version)), Rules{});
  for (TorchVersion version : {k1_13, k2_4}) {
    const std::vector<Diagnostic> diagnostics = lint(dtype, version);
    ASSERT_EQ(rules(diagnostics), Rules{"schema-release:error"}) << format_torch_version(version);
    EXPECT_NE(diagnostics[0].message.find("('bfloat16') is read from PyTorch 2.5 on: PyTorch " +
                                          format_torch_version(version) + " rejects it"),
              std::string::npos)
        << diagnostics[0].message;
  }
  for (const char* func : {"foo(Tensor self, DeviceIndex i) -> Tensor", "foo(Tensor self, SymBool b) -> Tensor",
                           "foo(Tensor self, Await(Tensor) a) -> Tensor"}) {
    EXPECT_EQ(rules(lint(entry(func), k1_13)), Rules{"schema-release:error"}) << func;
    EXPECT_EQ(rules(lint(entry(func), kNewestTorchVersion)), Rules{}) << func;
  }
}

TEST(TorchRelease, NonAsciiNamesAreAccepted) {
  EXPECT_EQ(rules(lint("- func: föo(Tensor self, *, int größe=1) -> Tensor\n  dispatch:\n    CPU: foo\n",
                       kNewestTorchVersion)),
            Rules{});
}

// Ascend's op-plugin shape: a mapping of `- func:` lists with per-version fields, one of them
// named like a backend YAML key.
const char* kOpPluginShape =
    "all_version: [v2.1, v2.2]\n"
    "official:\n"
    "  - func: my_abs(Tensor self) -> Tensor\n"
    "    acl_op: all_version\n"
    "custom:\n"
    "  - func: npu_thing(Tensor self, int[2] size) -> Tensor\n"
    "    op_api: [v2.1, newest]\n"
    "  - func: npu_broken(Tensor self, int size=) -> Tensor\n"
    "    op_api: v2.2\n"
    "symint:\n"
    "  - func: npu_sym(Tensor self, SymInt[] size) -> Tensor\n"
    "    op_api: all_version\n";

TEST(TorchRelease, UnknownShapeGivesOneUnknownFormatAndChecksItsSchemas) {
  const lint::FileLint result = lint_file("op_plugin_functions.yaml", kOpPluginShape, FileLintOptions{});
  EXPECT_EQ(result.kind, FileKind::unknown);
  ASSERT_EQ(rules(result.diagnostics), (Rules{"unknown-format:error", "schema-syntax:error"}));
  EXPECT_NE(result.diagnostics[0].message.find("native_functions.yaml"), std::string::npos);
  EXPECT_NE(result.diagnostics[0].message.find("backend YAML"), std::string::npos);
  EXPECT_NE(result.diagnostics[0].message.find("executorch"), std::string::npos);
  EXPECT_EQ(result.diagnostics[1].location.line, 8u);

  FileLintOptions forced;
  forced.kind = FileKind::backend;
  const lint::FileLint backend = lint_file("op_plugin_functions.yaml", kOpPluginShape, forced);
  EXPECT_EQ(backend.kind, FileKind::backend);
  EXPECT_TRUE(std::none_of(backend.diagnostics.begin(), backend.diagnostics.end(),
                           [](const Diagnostic& d) { return d.rule == "unknown-format"; }));
}

class TorchVersionCli : public test::ToolDirTest {
 protected:
  TorchVersionCli() : ToolDirTest("schemac_torch_version_cli_") {}
  test::ToolRun schemac(const std::string& args) { return shell("'" SCHEMAC_BINARY "' " + args); }
};

TEST_F(TorchVersionCli, LintAndGenTakeAKnownRelease) {
  file("ops.yaml", "- func: my_abs(Tensor self) -> Tensor\n  tags: pointwise\n  dispatch:\n    CPU: my_abs\n");
  EXPECT_EQ(schemac("lint --torch-version 2.0 ops.yaml").status, 0);
  test::ToolRun old = schemac("lint --torch-version 1.13 ops.yaml");
  EXPECT_EQ(old.status, 1);
  EXPECT_NE(old.out.find("unknown tag 'pointwise' [unknown-tag]"), std::string::npos) << old.out;
  test::ToolRun unknown = schemac("lint --torch-version 1.11 ops.yaml");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("1.12, 1.13, 2.0"), std::string::npos) << unknown.err;
  EXPECT_EQ(schemac("lint --torch-version 1.13 --list-tags").out,
            "inplace_view\nview_copy\ndynamic_output_shape\ndata_dependent_output\ngenerated\n"
            "nondeterministic_seeded\nnondeterministic_bitwise\n");
  // gen gives lint's verdict: 'pointwise' is no tag of 1.12, so gen refuses what lint rejects.
  EXPECT_EQ(schemac("gen --torch-version 2.0 ops.yaml -o out --list-outputs").status, 0);
  test::ToolRun gen_old = schemac("gen --torch-version 1.12 ops.yaml -o out --list-outputs");
  EXPECT_EQ(gen_old.status, 1);
  EXPECT_NE(gen_old.err.find("[unknown-tag]"), std::string::npos) << gen_old.err;
  EXPECT_EQ(schemac("gen --torch-version 0.4 ops.yaml -o out").status, 2);
}

// Schemas in registration code are read by the release's parser too.
TEST_F(TorchVersionCli, RegistrationCodeSchemasFollowTheRelease) {
  file("ops.cpp", "#include <torch/library.h>\n"
                  "TORCH_LIBRARY(my_ops, m) {\n"
                  "  m.def(\"sum_dim(Tensor self, Dimname dim) -> Tensor\");\n"
                  "}\n");
  EXPECT_EQ(schemac("lint --torch-version 2.12 ops.cpp").status, 0);
  test::ToolRun newest = schemac("lint ops.cpp");
  EXPECT_EQ(newest.status, 1);
  EXPECT_NE(newest.out.find("ops.cpp:3:31: error: the Dimname type was removed in PyTorch 2.13: "
                            "PyTorch 2.14 rejects 'Dimname'"),
            std::string::npos)
      << newest.out;
}

// A custom operator's type variable is refused from 2.4 (TORCH_LIBRARY's parser reads type
// variables only in aten and prim since then); aten's own operators keep them.
TEST_F(TorchVersionCli, CustomOperatorsLoseTypeVariablesIn2_4) {
  file("ops.cpp", "#include <torch/library.h>\n"
                  "TORCH_LIBRARY(my_ops, m) {\n"
                  "  m.def(\"same(t(a) x) -> t(a)\");\n"
                  "}\n"
                  "TORCH_LIBRARY_FRAGMENT(aten, m) {\n"
                  "  m.def(\"my_same(t(a) x) -> t(a)\");\n"
                  "}\n");
  EXPECT_EQ(schemac("lint --torch-version 2.3 ops.cpp").status, 0);
  test::ToolRun newest = schemac("lint ops.cpp");
  EXPECT_EQ(newest.status, 1);
  EXPECT_NE(newest.out.find("ops.cpp:3:15: error: a type variable in an operator outside aten and "
                            "prim was removed in PyTorch 2.4: PyTorch 2.14 rejects 't'"),
            std::string::npos)
      << newest.out;
  EXPECT_NE(newest.out.find("ops.cpp:3:26: error: a type variable"), std::string::npos) << newest.out;
  EXPECT_EQ(newest.out.find("ops.cpp:6:"), std::string::npos) << newest.out;
}

// A .schemac.yaml's torch-version applies to the files below it, and --torch-version overrides it.
TEST_F(TorchVersionCli, TheConfigNamesTheRelease) {
  file("ops.yaml", "- func: my_abs(Tensor self) -> Tensor\n  tags: pointwise\n  dispatch:\n    CPU: my_abs\n");
  file(".schemac.yaml", "torch-version: '1.13'\n");
  test::ToolRun old = schemac("lint ops.yaml");
  EXPECT_EQ(old.status, 1);
  EXPECT_NE(old.out.find("unknown tag 'pointwise' [unknown-tag]"), std::string::npos) << old.out;
  EXPECT_EQ(schemac("lint --torch-version 2.9 ops.yaml").status, 0);
  file(".schemac.yaml", "torch-version: '0.4'\n");
  test::ToolRun unknown = schemac("lint ops.yaml");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("torch-version '0.4' of its .schemac.yaml"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace schemac::schema
