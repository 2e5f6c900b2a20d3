// Unit tests of the gen emitters: C++ types from schemas, default kernel names, the stable hash,
// and the text of the definition and implementation blocks.
#include <gtest/gtest.h>

#include <string>

#include "schemac/kernel_types/cpp_types.h"
#include "schemac/codegen/definitions_emitter.h"
#include "schemac/codegen/emit_util.h"
#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/registrations_emitter.h"
#include "schemac/schema/parser.h"

namespace schemac::gen {

using kernel_types::CppSignature, codegen::GenModel, codegen::GenOperator, codegen::default_kernel_name,
    codegen::emit_impl_block, codegen::fnv1a_64, kernel_types::has_unboxed_signature,
    kernel_types::native_signature;

namespace {

schema::FunctionSchema parse(const std::string& text) {
  schema::ParseResult result = schema::parse_schema(text);
  EXPECT_TRUE(result.ok()) << text << ": " << (result.error ? result.error->message : "");
  return result.schema.value_or(schema::FunctionSchema{});
}

struct SignatureCase {
  std::string schema;
  bool const_ref_for_mutable;
  std::string expected;  // function type with parameter names and defaults
};

TEST(CppTypes, NativeSignatures) {
  const SignatureCase cases[] = {
      {"add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", false,
       "Tensor(const Tensor& self, const Tensor& other, const Scalar& alpha = 1)"},
      {"add_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", false,
       "Tensor&(Tensor& self, const Tensor& other)"},
      {"resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)", true,
       "const Tensor&(const Tensor& self, IntArrayRef size)"},
      {"f(Tensor? w, Tensor[] ts, Tensor?[] idx) -> ()", false,
       "void(const std::optional<Tensor>& w, TensorList ts, ArrayRef<std::optional<Tensor>> idx)"},
      {"f(int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", false,
       "Tensor(std::optional<IntArrayRef> dim, bool keepdim = false, "
       "std::optional<ScalarType> dtype = std::nullopt)"},
      {"f(float p, str mode=\"mean\", Generator? g=None) -> Tensor", false,
       "Tensor(double p, std::string_view mode = \"mean\", "
       "const std::optional<Generator>& g = std::nullopt)"},
      {"f(Tensor self, int dim) -> (Tensor values, Tensor indices)", false,
       "std::tuple<Tensor, Tensor>(const Tensor& self, int64_t dim)"},
      {"f(Tensor self, *, Tensor(a!) v, Tensor(b!) i) -> (Tensor(a!), Tensor(b!))", false,
       "std::tuple<Tensor&, Tensor&>(const Tensor& self, Tensor& v, Tensor& i)"},
      {"f(Tensor self, int[2] size=[0, 1], MemoryFormat m=contiguous_format) -> SymInt[]", false,
       "std::vector<int64_t>(const Tensor& self, IntArrayRef size = IntArrayRef({0, 1}), "
       "MemoryFormat m = MemoryFormat::Contiguous)"},
      // A default without a faithful C++ form stops the trailing defaults there.
      {"f(Tensor self, int[2] stride=1, bool flag=True) -> Tensor", false,
       "Tensor(const Tensor& self, IntArrayRef stride, bool flag = true)"},
      {"f(Tensor self, int default, Device device) -> float", false,
       "double(const Tensor& self, int64_t default_, Device device)"},
  };
  for (const SignatureCase& c : cases) {
    schema::FunctionSchema s = parse(c.schema);
    ASSERT_TRUE(has_unboxed_signature(s)) << c.schema;
    CppSignature sig = native_signature(s, c.const_ref_for_mutable);
    EXPECT_EQ(sig.return_type + "(" + sig.param_list(true) + ")", c.expected) << c.schema;
  }
}

// Every list parameter is a view (ArrayRef); a list return owns its elements.
TEST(CppTypes, ListParametersAreViews) {
  const SignatureCase cases[] = {
      {"f(int[] a, SymInt[2] b) -> ()", false, "void(IntArrayRef a, IntArrayRef b)"},
      {"f(Tensor[] a) -> Tensor[]", false, "std::vector<Tensor>(TensorList a)"},
      {"f(Tensor(a!)[] a) -> ()", false, "void(TensorList a)"},
      {"f(Tensor?[] a) -> ()", false, "void(ArrayRef<std::optional<Tensor>> a)"},
      {"f(float[] a) -> float[]", false, "std::vector<double>(ArrayRef<double> a)"},
      {"f(bool[3] a) -> bool[]", false, "std::vector<bool>(ArrayRef<bool> a)"},
      {"f(str[] a) -> str[]", false, "std::vector<std::string>(ArrayRef<std::string_view> a)"},
      {"f(Dimname[] a) -> ()", false, "void(ArrayRef<std::string_view> a)"},
      {"f(Scalar[] a) -> Scalar[]", false, "std::vector<Scalar>(ArrayRef<Scalar> a)"},
      {"f(ScalarType[] a, Device[] d) -> ()", false,
       "void(ArrayRef<ScalarType> a, ArrayRef<Device> d)"},
      {"f(int[1]? a, Tensor[]? b, float[]? c) -> ()", false,
       "void(std::optional<IntArrayRef> a, std::optional<TensorList> b, "
       "std::optional<ArrayRef<double>> c)"},
      {"f(float[]? scales=None) -> ()", false,
       "void(std::optional<ArrayRef<double>> scales = std::nullopt)"},
  };
  for (const SignatureCase& c : cases) {
    schema::FunctionSchema s = parse(c.schema);
    ASSERT_TRUE(has_unboxed_signature(s)) << c.schema;
    CppSignature sig = native_signature(s, c.const_ref_for_mutable);
    EXPECT_EQ(sig.return_type + "(" + sig.param_list(true) + ")", c.expected) << c.schema;
  }
}

// Tuples, dicts and None are owned values: containers by const reference, None as
// std::monostate. (Forms seen in vLLM's csrc/torch_bindings.cpp, `(int, int)? group_shape=None`;
// pyg-lib's `(str, str, str)[] edge_types`; sglang's `Dict(str, Tensor)`.)
TEST(CppTypes, TuplesDictsAndNone) {
  const SignatureCase cases[] = {
      {"f(Tensor x, (int, int)? group_shape=None) -> Tensor", false,
       "Tensor(const Tensor& x, const std::optional<std::tuple<int64_t, int64_t>>& group_shape = "
       "std::nullopt)"},
      {"f(Dict(str, Tensor) seed_dict, (int, float) p) -> ()", false,
       "void(const Dict<std::string, Tensor>& seed_dict, const std::tuple<int64_t, double>& p)"},
      {"f((str, str, str)[] edge_types) -> Dict(str, int[][])", false,
       "Dict<std::string, std::vector<std::vector<int64_t>>>("
       "ArrayRef<std::tuple<std::string, std::string, std::string>> edge_types)"},
      {"f(Dict(str, Tensor)? x=None) -> Dict(int, Tensor)?", false,
       "std::optional<Dict<int64_t, Tensor>>(const std::optional<Dict<std::string, Tensor>>& x = "
       "std::nullopt)"},
      // PyTorch takes `None` as a type but no default for it.
      {"f(Tensor x, None amax) -> None", false, "std::monostate(const Tensor& x, std::monostate amax)"},
      {"f(Tensor x) -> (Tensor, (int, int))", false,
       "std::tuple<Tensor, std::tuple<int64_t, int64_t>>(const Tensor& x)"},
      {"f((Tensor, Tensor, Tensor)? frames=None) -> ()", false,
       "void(const std::optional<std::tuple<Tensor, Tensor, Tensor>>& frames = std::nullopt)"},
  };
  for (const SignatureCase& c : cases) {
    schema::FunctionSchema s = parse(c.schema);
    ASSERT_TRUE(has_unboxed_signature(s)) << c.schema << ": " << kernel_types::boxed_only_reason(s);
    CppSignature sig = native_signature(s, c.const_ref_for_mutable);
    EXPECT_EQ(sig.return_type + "(" + sig.param_list(true) + ")", c.expected) << c.schema;
  }
}

// Types with no C++ counterpart that the boxing layer converts, and varargs, make an operator
// boxed-only, with the reason the generated declaration states.
TEST(CppTypes, BoxedOnlySchemas) {
  const struct {
    const char* schema;
    const char* reason;
  } cases[] = {
      {"f(Tensor self) -> QScheme", "'QScheme' has no C++ type"},
      {"f(Any x) -> Tensor", "'Any' has no C++ type"},
      {"f(Tensor self, Storage s) -> Tensor", "'Storage' has no C++ type"},
      {"f(...) -> ...", "varargs"},
      {"f(Union(int, str) x) -> ()", "'Union(int, str)' has no C++ type"},
      {"f(Future(Tensor) x) -> ()", "'Future(Tensor)' has no C++ type"},
      {"f(RRef(Tensor) x) -> ()", "'RRef(Tensor)' has no C++ type"},
      {"f(Tensor x) -> (int, int)", ""},  // two returns, not a tuple
      {"f(Tensor x) -> ((int, int) shape)", "a lone tuple return"},
  };
  for (const auto& c : cases) {
    schema::FunctionSchema s = parse(c.schema);
    EXPECT_EQ(kernel_types::boxed_only_reason(s), c.reason) << c.schema;
    EXPECT_EQ(has_unboxed_signature(s), std::string_view(c.reason).empty()) << c.schema;
  }
}

TEST(GenModel, DefaultKernelNames) {
  EXPECT_EQ(default_kernel_name(parse("matmul(Tensor self, Tensor other) -> Tensor")), "matmul");
  EXPECT_EQ(default_kernel_name(parse("matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")),
            "matmul_out");
  EXPECT_EQ(default_kernel_name(parse("relu_(Tensor(a!) self) -> Tensor(a!)")), "relu_");
}

TEST(GenModel, Fnv1aIsTheStandardHash) {
  EXPECT_EQ(fnv1a_64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a_64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a_64("foobar"), 0x85944171f73967e8ULL);
}

GenOperator make_op(const std::string& text, std::vector<codegen::KernelBinding> kernels) {
  GenOperator op;
  op.schema = parse(text);
  op.ns = "demo";
  op.name = op.schema.op.base_name();
  op.overload = op.schema.op.overload;
  schema::set_operator_name(op.schema, "demo::" + op.name);
  op.full_name = op.schema.op.full();
  op.canonical = "demo::" + text;
  op.boxed_only = !has_unboxed_signature(op.schema);
  if (!op.boxed_only) op.signature = native_signature(op.schema, false);
  op.kernels = std::move(kernels);
  return op;
}

TEST(Emitters, DefinitionBlock) {
  GenOperator a = make_op("twice(Tensor self, str mode=\"x\") -> Tensor", {});
  EXPECT_EQ(codegen::emit_definition_block("demo", {&a}, codegen::DefinitionKind::library),
            "SCHEMAC_LIBRARY(demo, m) {\n"
            "  m.def(\"twice(Tensor self, str mode=\\\"x\\\") -> Tensor\");\n"
            "}\n");
  EXPECT_EQ(codegen::emit_definition_block("demo", {}, codegen::DefinitionKind::fragment),
            "SCHEMAC_LIBRARY_FRAGMENT(demo, m) {\n}\n");
}

TEST(Emitters, ImplBlocks) {
  GenOperator a = make_op("twice.x(Tensor self) -> Tensor", {{"CPU", "twice_cpu", ""}, {"CUDA", "twice_cuda", ""}});
  GenOperator b = make_op("q(Tensor self) -> QScheme", {{"CPU", "q_boxed", ""}});
  EXPECT_EQ(emit_impl_block("demo", "CPU", {&a, &b}),
            "SCHEMAC_LIBRARY_IMPL(demo, CPU, m) {\n"
            "  m.impl(\"twice.x\", static_cast<Tensor (*)(const Tensor&)>(&demo::native::twice_cpu), "
            "\"twice_cpu\");\n"
            "  m.impl(\"q\", ::schemac::dispatch::KernelFunction::make_from_boxed("
            "static_cast<::schemac::dispatch::BoxedKernelFn>(&demo::native::q_boxed)), \"q_boxed\");\n"
            "}\n");
  std::string cuda = emit_impl_block("demo", "CUDA", {&a, &b});
  EXPECT_EQ(cuda.rfind("#ifdef SCHEMAC_HAVE_CUDA\n", 0), 0u) << cuda;
  EXPECT_EQ(emit_impl_block("demo", "Meta", {&a, &b}), "");
}

TEST(Emitters, HandleNamesAreUnique) {
  GenModel model;
  model.operators.push_back(make_op("foo_bar(Tensor self) -> Tensor", {}));
  model.operators.push_back(make_op("foo.bar(Tensor self) -> Tensor", {}));
  model.operators.push_back(make_op("delete(Tensor self) -> Tensor", {}));
  std::vector<std::string> names = codegen::handle_struct_names(model);
  EXPECT_EQ(names, (std::vector<std::string>{"foo_bar", "foo_bar_", "delete_"}));
}

}  // namespace
}  // namespace schemac::gen
