// Unit tests of the PyTorch target's emitters: torchgen's native signatures, the TORCH_LIBRARY
// and TORCH_LIBRARY_IMPL blocks, dispatch key names, and kernels that keep their namespace.
#include <gtest/gtest.h>

#include <string>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/registrations_emitter.h"
#include "schemac/codegen/torch_emitters.h"
#include "schemac/kernel_types/torch_types.h"
#include "schemac/native_functions/native_functions.h"
#include "schemac/schema/parser.h"

namespace schemac::gen {

using codegen::GenModel, codegen::GenOperator, codegen::GenOptions, kernel_types::TorchSignature,
    codegen::check_torch_model, codegen::emit_torch_impl_block, codegen::torch_key_name,
    kernel_types::torch_native_signature;

namespace {

schema::FunctionSchema parse(const std::string& text) {
  schema::ParseResult result = schema::parse_schema(text);
  EXPECT_TRUE(result.ok()) << text << ": " << (result.error ? result.error->message : "");
  return result.schema.value_or(schema::FunctionSchema{});
}

std::string render(const TorchSignature& sig) {
  std::string out = sig.return_type + "(";
  for (size_t i = 0; i < sig.params.size(); ++i) {
    out += (i ? ", " : "") + sig.params[i].type + " " + sig.params[i].name;
  }
  return out + ")";
}

struct TorchCase {
  std::string schema;
  bool symint;
  std::string expected;
};

// The expected signatures are what PyTorch 1.13's torchgen (torchgen.api.native.arguments and
// returns_type) prints for each schema, with `T &` written `T&` and ", " between tuple elements.
TEST(TorchTypes, TorchgenNativeSignatures) {
  const TorchCase cases[] = {
      {"scale(Tensor self, float factor) -> Tensor", false,
       "at::Tensor(const at::Tensor& self, double factor)"},
      {"scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)", false,
       "at::Tensor&(const at::Tensor& self, double factor, at::Tensor& out)"},
      {"scale_(Tensor(a!) self, float factor) -> Tensor(a!)", false,
       "at::Tensor&(at::Tensor& self, double factor)"},
      {"mix(Tensor self, int[] dims, Tensor? other=None, Scalar alpha=1, bool flag=False, str "
       "mode=\"sum\") -> Tensor",
       false,
       "at::Tensor(const at::Tensor& self, at::IntArrayRef dims, const c10::optional<at::Tensor>& "
       "other, "
       "const at::Scalar& alpha, bool flag, c10::string_view mode)"},
      {"sized(Tensor self, SymInt[] size, SymInt n, SymInt[]? s2, int[1]? o) -> Tensor", false,
       "at::Tensor(const at::Tensor& self, at::IntArrayRef size, int64_t n, "
       "at::OptionalIntArrayRef s2, "
       "at::OptionalIntArrayRef o)"},
      {"sized(Tensor self, SymInt[] size, SymInt n, SymInt[]? s2, int[1]? o) -> Tensor", true,
       "at::Tensor(const at::Tensor& self, c10::SymIntArrayRef size, c10::SymInt n, "
       "at::OptionalSymIntArrayRef s2, "
       "at::OptionalIntArrayRef o)"},
      {"two(Tensor self) -> (Tensor, Tensor)", false,
       "::std::tuple<at::Tensor, at::Tensor>(const at::Tensor& self)"},
      {"many(Tensor[] a, Tensor?[] b, Scalar[] c, float[] d, Dimname[] e, str[] f, bool[3] g, "
       "Scalar? h, "
       "ScalarType? i, Generator? j, Layout k, Device? l, MemoryFormat m, int? n, float? o, str? "
       "p) -> "
       "(Tensor[], int, float, bool, ScalarType, Scalar)",
       false,
       "::std::tuple<::std::vector<at::Tensor>, int64_t, double, bool, at::ScalarType, at::Scalar>("
       "at::TensorList a, const c10::List<c10::optional<at::Tensor>>& b, at::ArrayRef<at::Scalar> "
       "c, "
       "at::ArrayRef<double> d, at::DimnameList e, at::ArrayRef<c10::string_view> f, "
       "::std::array<bool,3> g, "
       "const c10::optional<at::Scalar>& h, c10::optional<at::ScalarType> i, "
       "c10::optional<at::Generator> j, "
       "at::Layout k, c10::optional<at::Device> l, at::MemoryFormat m, c10::optional<int64_t> n, "
       "c10::optional<double> o, c10::optional<c10::string_view> p)"},
      {"mo.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
       false,
       "::std::tuple<at::Tensor&, at::Tensor&>(const at::Tensor& self, at::Tensor& out0, "
       "at::Tensor& out1)"},
      {"nothing(Tensor(a!) self, Tensor(b!)? x) -> ()", false,
       "void(at::Tensor& self, const c10::optional<at::Tensor>& x)"},
      {"fac(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? "
       "pin_memory=None) "
       "-> Tensor",
       false,
       "at::Tensor(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, "
       "c10::optional<at::Layout> layout, "
       "c10::optional<at::Device> device, c10::optional<bool> pin_memory)"},
  };
  for (const TorchCase& c : cases) {
    std::optional<TorchSignature> sig = torch_native_signature(parse(c.schema), false, c.symint);
    ASSERT_TRUE(sig.has_value()) << c.schema;
    EXPECT_EQ(render(*sig), c.expected) << c.schema;
    EXPECT_FALSE(sig->reordered()) << c.schema;
  }
}

TEST(TorchTypes, OutArgumentsGoLast) {
  // torchgen's native order: every non-out argument, then the out arguments.
  std::optional<TorchSignature> sig = torch_native_signature(
      parse("f.out(Tensor self, *, Tensor(a!) out, int n=1) -> Tensor(a!)"), false, false);
  ASSERT_TRUE(sig.has_value());
  EXPECT_EQ(render(*sig), "at::Tensor&(const at::Tensor& self, int64_t n, at::Tensor& out)");
  EXPECT_TRUE(sig->reordered());
}

TEST(TorchTypes, ConstRefForMutableTensors) {
  std::optional<TorchSignature> sig = torch_native_signature(
      parse("resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)"), true, false);
  ASSERT_TRUE(sig.has_value());
  EXPECT_EQ(render(*sig), "const at::Tensor&(const at::Tensor& self, at::IntArrayRef size)");
}

TEST(TorchTypes, NoNativeSignature) {
  std::string why;
  EXPECT_FALSE(torch_native_signature(parse("f(Any x) -> Tensor"), false, false, &why));
  EXPECT_NE(why.find("'x'"), std::string::npos) << why;
  EXPECT_FALSE(
      torch_native_signature(parse("f(Tensor x, Generator g) -> Tensor"), false, false, &why));
  EXPECT_NE(why.find("PyTorch infers 'Generator?' from at::Generator"), std::string::npos) << why;
}

// torchgen has no tuples or dicts; these are the types PyTorch 1.13's kernel boxing
// (make_boxed_from_unboxed_functor.h) unboxes them to and infer_schema maps back to the schema's
// types (tests/torch/containers.yaml loads such kernels into PyTorch).
TEST(TorchTypes, TuplesAndDicts) {
  const TorchCase cases[] = {
      {"f(Tensor self, Dict(str, Tensor) w, (int, int)? window) -> Tensor", false,
       "at::Tensor(const at::Tensor& self, const c10::Dict<std::string, at::Tensor>& w, "
       "const c10::optional<::std::tuple<int64_t, int64_t>>& window)"},
      {"g((int, str) tag, (float, float)[] spans, Dict(str, int)? counts) -> Dict(str, int)", false,
       "c10::Dict<std::string, int64_t>(const ::std::tuple<int64_t, std::string>& tag, "
       "at::ArrayRef<::std::tuple<double, double>> spans, const "
       "c10::optional<c10::Dict<std::string, int64_t>>& counts)"},
      {"h(Tensor self, (int, int) at) -> (Tensor, (int, int))", false,
       "::std::tuple<at::Tensor, ::std::tuple<int64_t, int64_t>>(const at::Tensor& self, "
       "const ::std::tuple<int64_t, int64_t>& at)"},
      {"k(Dict(int, (str, int[], Tensor?, bool[2])) d) -> ((int, int)? r)", false,
       "c10::optional<::std::tuple<int64_t, int64_t>>(const c10::Dict<int64_t, "
       "::std::tuple<std::string, "
       "c10::List<int64_t>, c10::optional<at::Tensor>, c10::List<bool>>>& d)"},
  };
  for (const TorchCase& c : cases) {
    std::optional<TorchSignature> sig = torch_native_signature(parse(c.schema), false, c.symint);
    ASSERT_TRUE(sig.has_value()) << c.schema;
    EXPECT_EQ(render(*sig), c.expected) << c.schema;
  }
}

// What c10 registers beyond torchgen: optional returns of any type, str returns as std::string.
TEST(TorchTypes, OptionalAndStringReturns) {
  const TorchCase cases[] = {
      {"subgraph(Tensor rowptr, Tensor col, Tensor nodes, bool return_edge_id) -> (Tensor, Tensor, "
       "Tensor?)",
       false,
       "::std::tuple<at::Tensor, at::Tensor, c10::optional<at::Tensor>>(const at::Tensor& rowptr, "
       "const at::Tensor& col, const at::Tensor& nodes, bool return_edge_id)"},
      {"f(Tensor self) -> Tensor?", false, "c10::optional<at::Tensor>(const at::Tensor& self)"},
      {"g(Tensor self) -> (Tensor, Tensor[]?, int?)", false,
       "::std::tuple<at::Tensor, c10::optional<::std::vector<at::Tensor>>, c10::optional<int64_t>>"
       "(const at::Tensor& self)"},
      {"h(str name, ScalarType? t) -> (str, str[])", false,
       "::std::tuple<std::string, ::std::vector<std::string>>(c10::string_view name, "
       "c10::optional<at::ScalarType> t)"},
      {"k(Tensor! out, Tensor!? lse, int?[] sizes, int[][] handles, bool[] mask, bool[]? keep) -> "
       "()",
       false,
       "void(at::Tensor& out, const c10::optional<at::Tensor>& lse, "
       "at::ArrayRef<c10::optional<int64_t>> sizes, "
       "at::ArrayRef<c10::List<int64_t>> handles, const c10::List<bool>& mask, "
       "const c10::optional<c10::List<bool>>& keep)"},
  };
  for (const TorchCase& c : cases) {
    std::optional<TorchSignature> sig = torch_native_signature(parse(c.schema), false, c.symint);
    ASSERT_TRUE(sig.has_value()) << c.schema;
    EXPECT_EQ(render(*sig), c.expected) << c.schema;
  }
}

TEST(TorchTypes, NoneAndLoneTuplesHaveNoNativeSignature) {
  std::string why;
  EXPECT_FALSE(torch_native_signature(parse("f(Tensor self, NoneType x) -> Tensor"), false, false,
                                      &why, torch_releases::TorchVersion{2, 10}));
  EXPECT_NE(
      why.find("argument 'x' of type 'NoneType': PyTorch 2.10 kernels have no C++ type for None"),
      std::string::npos)
      << why;
  EXPECT_FALSE(torch_native_signature(parse("f((int, None) x) -> Tensor"), false, false, &why));
  EXPECT_NE(why.find("no C++ type for None"), std::string::npos) << why;
  EXPECT_FALSE(
      torch_native_signature(parse("f(Tensor self) -> ((int, int) shape)"), false, false, &why));
  EXPECT_NE(why.find("a lone tuple-typed return"), std::string::npos) << why;
  EXPECT_FALSE(
      torch_native_signature(parse("f(Dict(str, Scalar[]) x) -> Tensor"), false, false, &why));
  EXPECT_NE(why.find("'Dict(str, Scalar[])' has no C++ native type"), std::string::npos) << why;
  EXPECT_FALSE(
      torch_native_signature(parse("f(Dict(Scalar, int) x) -> Tensor"), false, false, &why));
  EXPECT_FALSE(
      torch_native_signature(parse("f(Tensor x) -> Dict(str, Scalar)"), false, false, &why));
  EXPECT_NE(why.find("a return of type 'Dict(str, Scalar)'"), std::string::npos) << why;
}

// What PyTorch checks a kernel's SymInt types against, by release (tests/torch loads kernels of
// these shapes into 1.13 and 2.14): arguments by their fake type (int64_t or c10::SymInt, as the
// kernel's name says), a SymInt inside a list element as SymInt, inside a tuple as int; returns as
// int in 1.13 and as SymInt from 2.0, whatever the kernel's name.
TEST(TorchTypes, SymIntAsEachReleaseChecksIt) {
  const torch_releases::TorchVersion v1_13{1, 13}, v2_14{2, 14};
  struct ReleaseCase {
    std::string schema;
    bool symint;
    torch_releases::TorchVersion release;
    std::string expected;
  };
  const ReleaseCase cases[] = {
      {"f(Tensor x) -> (Tensor, SymInt)", false, v1_13,
       "::std::tuple<at::Tensor, int64_t>(const at::Tensor& x)"},
      {"f(Tensor x) -> (Tensor, SymInt)", false, v2_14,
       "::std::tuple<at::Tensor, c10::SymInt>(const at::Tensor& x)"},
      // 1.13 infers SymInt[] only from std::vector<c10::SymInt> (torch_extension_ops loads it).
      {"f(Tensor x, SymInt n) -> SymInt[]", true, v1_13,
       "::std::vector<c10::SymInt>(const at::Tensor& x, c10::SymInt n)"},
      {"f(Tensor x, SymInt n) -> SymInt[]",
       false,
       {2, 0},
       "::std::vector<c10::SymInt>(const at::Tensor& x, int64_t n)"},
      {"f(Tensor x) -> (SymInt?, SymInt[]?)", false, v2_14,
       "::std::tuple<c10::optional<c10::SymInt>, c10::optional<::std::vector<c10::SymInt>>>(const "
       "at::Tensor& x)"},
      {"f(Tensor x, SymInt?[] a, SymInt[][] b, (SymInt, int) t) -> (Tensor, (SymInt, int))", false,
       v1_13,
       "::std::tuple<at::Tensor, ::std::tuple<int64_t, int64_t>>(const at::Tensor& x, "
       "at::ArrayRef<c10::optional<c10::SymInt>> a, at::ArrayRef<c10::List<c10::SymInt>> b, "
       "const ::std::tuple<int64_t, int64_t>& t)"},
      {"f(Tensor x, (SymInt, int) t, Dict(str, SymInt) d) -> Dict(str, SymInt)", true, v2_14,
       "c10::Dict<std::string, int64_t>(const at::Tensor& x, const ::std::tuple<int64_t, int64_t>& "
       "t, "
       "const c10::Dict<std::string, int64_t>& d)"},
      {"f(Tensor x) -> (bool[], int)", false, v2_14,
       "::std::tuple<c10::List<bool>, int64_t>(const at::Tensor& x)"},
  };
  for (const ReleaseCase& c : cases) {
    std::optional<TorchSignature> sig =
        torch_native_signature(parse(c.schema), false, c.symint, nullptr, c.release);
    ASSERT_TRUE(sig.has_value()) << c.schema;
    EXPECT_EQ(render(*sig), c.expected)
        << c.schema << " for " << torch_releases::format_torch_version(c.release);
  }
  EXPECT_FALSE(kernel_types::symint_returns_are_symint(v1_13));
  EXPECT_TRUE(kernel_types::symint_returns_are_symint({2, 0}));
  // c10 refuses std::vector<at::Scalar> as an output: a Scalar list return is boxed.
  std::string why;
  EXPECT_FALSE(torch_native_signature(parse("f(Tensor x) -> Scalar[]"), false, false, &why, v2_14));
  EXPECT_NE(why.find("refuses std::vector<at::Scalar>"), std::string::npos) << why;
}

GenOperator make_op(const std::string& text, std::vector<codegen::KernelBinding> kernels) {
  GenOperator op;
  op.schema = parse(text);
  op.ns = "myops";
  op.name = op.schema.op.base_name();
  op.overload = op.schema.op.overload;
  schema::set_operator_name(op.schema, "myops::" + op.name);
  op.full_name = op.schema.op.full();
  op.canonical = "myops::" + text;
  op.handle_name = op.name + (op.overload.empty() ? "" : "_" + op.overload);
  op.kernels = std::move(kernels);
  op.needs_backend_select = codegen::needs_backend_select(op);
  return op;
}

TEST(TorchEmitters, KeyNames) {
  EXPECT_EQ(torch_key_name("CPU"), "CPU");
  EXPECT_EQ(torch_key_name("CompositeImplicitAutograd"), "CompositeImplicitAutograd");
  EXPECT_EQ(torch_key_name("DefaultBackend"), "CompositeExplicitAutograd");
  EXPECT_EQ(torch_key_name("CPUTensorId"), "CPU");
  EXPECT_EQ(torch_key_name("CatchAll"), "CompositeImplicitAutograd");
  EXPECT_EQ(torch_key_name("AutogradCPU"), "AutogradCPU");
}

TEST(TorchEmitters, LibraryBlockWithTags) {
  GenOperator a = make_op("scale(Tensor self, float factor) -> Tensor", {});
  a.tags = {"pointwise", "core"};
  GenOperator b = make_op("name(Tensor self, str s=\"x\") -> Tensor", {});
  EXPECT_EQ(codegen::emit_torch_library_block("myops", {&a, &b}),
            "TORCH_LIBRARY(myops, m) {\n"
            "  m.def(\"scale(Tensor self, float factor) -> Tensor\", {at::Tag::pointwise, "
            "at::Tag::core});\n"
            "  m.def(\"name(Tensor self, str s=\\\"x\\\") -> Tensor\");\n"
            "}\n");
}

TEST(TorchEmitters, ImplBlockKeepsKernelNamespaces) {
  GenOperator a = make_op("scale(Tensor self, float factor) -> Tensor",
                          {{"CPU", "scale_cpu", "myops"}, {"Meta", "scale_meta", ""}});
  GenOperator b = make_op("scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)",
                          {{"CPU", "scale_out", "other::detail"}});
  GenModel model;
  model.operators = {a, b};
  EXPECT_EQ(emit_torch_impl_block("myops", "CPU", {&a, &b}, model),
            "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
            "  m.impl(\"scale\", TORCH_FN(myops::scale_cpu));\n"
            "  m.impl(\"scale.out\", TORCH_FN(other::detail::scale_out));\n"
            "}\n");
  EXPECT_EQ(emit_torch_impl_block("myops", "Meta", {&a, &b}, model),
            "TORCH_LIBRARY_IMPL(myops, Meta, m) {\n"
            "  m.impl(\"scale\", TORCH_FN(myops::native::scale_meta));\n"
            "}\n");
  EXPECT_EQ(emit_torch_impl_block("myops", "CUDA", {&a, &b}, model), "");
}

TEST(TorchEmitters, OverloadedKernelsAreCast) {
  GenOperator a = make_op("f.a(Tensor self) -> Tensor", {{"CPU", "f", "myops"}});
  GenOperator b = make_op("f.b(Tensor self, int n) -> Tensor", {{"CPU", "f", "myops"}});
  GenModel model;
  model.operators = {a, b};
  EXPECT_EQ(
      emit_torch_impl_block("myops", "CPU", {&a, &b}, model),
      "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
      "  m.impl(\"f.a\", TORCH_FN(static_cast<at::Tensor (*)(const at::Tensor&)>(&myops::f)));\n"
      "  m.impl(\"f.b\", TORCH_FN(static_cast<at::Tensor (*)(const at::Tensor&, "
      "int64_t)>(&myops::f)));\n"
      "}\n");
}

TEST(TorchEmitters, ReorderingWrapper) {
  GenOperator a = make_op("f.out(Tensor self, *, Tensor(a!) out, int n=1) -> Tensor(a!)",
                          {{"CPU", "f_out", "myops"}});
  GenModel model;
  model.operators = {a};
  EXPECT_EQ(emit_torch_impl_block("myops", "CPU", {&a}, model),
            "namespace {\n\n"
            "// myops::f.out(Tensor self, *, Tensor(a!) out, int n=1) -> Tensor(a!): the schema's "
            "argument order\n"
            "at::Tensor& wrapper_CPU_f_out(const at::Tensor& self, at::Tensor& out, int64_t n) {\n"
            "  return myops::f_out(self, n, out);\n"
            "}\n\n"
            "}  // namespace\n\n"
            "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
            "  m.impl(\"f.out\", TORCH_FN(wrapper_CPU_f_out));\n"
            "}\n");
}

TEST(TorchEmitters, DeclarationsInTheKernelsNamespaces) {
  GenOperator a = make_op("scale(Tensor self, float factor) -> Tensor",
                          {{"CPU", "scale_cpu", "myops"}, {"Meta", "scale_meta", ""}});
  GenModel model;
  model.operators = {a};
  const std::string header = codegen::emit_torch_declarations(model);
  EXPECT_NE(
      header.find("namespace myops {\n\n// myops::scale(Tensor self, float factor) -> Tensor\n"
                  "at::Tensor scale_cpu(const at::Tensor& self, double factor);\n"),
      std::string::npos)
      << header;
  EXPECT_NE(
      header.find(
          "namespace myops::native {\n\n// myops::scale(Tensor self, float factor) -> Tensor\n"
          "at::Tensor scale_meta(const at::Tensor& self, double factor);\n"),
      std::string::npos)
      << header;
}

TEST(TorchEmitters, BackendSelectForFactories) {
  GenOperator factory = make_op(
      "filled(int[] size, Scalar value, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, "
      "bool? pin_memory=None) -> Tensor",
      {{"CPU", "filled_cpu", "myops"}});
  GenOperator like = make_op("filled_like(Tensor self, *, Device? device=None) -> Tensor",
                             {{"CPU", "fl", "myops"}});
  GenOperator composite = make_op("ones(int[] size, *, Device? device=None) -> Tensor",
                                  {{"CompositeExplicitAutograd", "ones", "myops"}});
  EXPECT_TRUE(factory.needs_backend_select);
  EXPECT_FALSE(like.needs_backend_select) << "it has a Tensor argument";
  EXPECT_FALSE(composite.needs_backend_select) << "no backend kernel to select";
  EXPECT_EQ(
      codegen::emit_torch_backend_select("myops", {&factory, &like, &composite}),
      "namespace {\n\n"
      "// myops::filled(int[] size, Scalar value, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor: the backend its dtype, layout and "
      "device name\n"
      "at::Tensor backend_select_filled(at::IntArrayRef size, const at::Scalar& value, "
      "c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, "
      "c10::optional<at::Device> device, "
      "c10::optional<bool> pin_memory) {\n"
      "  static const auto op = c10::Dispatcher::singleton()\n"
      "      .findSchemaOrThrow(\"myops::filled\", \"\")\n"
      "      .typed<at::Tensor(at::IntArrayRef, const at::Scalar&, c10::optional<at::ScalarType>, "
      "c10::optional<at::Layout>, c10::optional<at::Device>, c10::optional<bool>)>();\n"
      "  const c10::DispatchKeySet ks(c10::computeDispatchKey(dtype, layout, device));\n"
      "  return op.redispatch(ks, size, value, dtype, layout, device, pin_memory);\n"
      "}\n\n"
      "}  // namespace\n\n"
      "TORCH_LIBRARY_IMPL(myops, BackendSelect, m) {\n"
      "  m.impl(\"filled\", TORCH_FN(backend_select_filled));\n"
      "}\n");
}

// What c10 cannot infer from a C++ signature gets a boxed kernel, declared and registered as such.
TEST(TorchEmitters, BoxedKernels) {
  GenOperator none = make_op("scatter(Tensor(a!) out, Tensor src, Tensor index) -> None",
                             {{"CPU", "scatter_cpu", "myops"}});
  GenOperator any = make_op("pick(Any x) -> Any", {{"CPU", "pick", ""}});
  GenOperator typed = make_op("pick.int(int x) -> int", {{"CPU", "pick", ""}});
  GenModel model;
  model.operators = {none, any, typed};
  EXPECT_EQ(
      emit_torch_impl_block("myops", "CPU", {&none, &any, &typed}, model),
      "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
      "  m.impl(\"scatter\", torch::CppFunction::makeFromBoxedFunction<&myops::scatter_cpu>());\n"
      "  m.impl(\"pick\", torch::CppFunction::makeFromBoxedFunction<&myops::native::pick>());\n"
      "  m.impl(\"pick.int\", TORCH_FN(static_cast<int64_t (*)(int64_t)>(&myops::native::pick)));\n"
      "}\n");
  const std::string header =
      codegen::emit_torch_declarations(model, torch_releases::TorchVersion{1, 13});
  EXPECT_NE(
      header.find("#include <ATen/core/dispatch/Dispatcher.h>\n#include <ATen/core/stack.h>\n"),
      std::string::npos)
      << header;
  EXPECT_NE(
      header.find(
          "// boxed (a return of type 'None': PyTorch 1.13 kernels have no C++ type for None"),
      std::string::npos)
      << header;
  EXPECT_NE(
      header.find("void scatter_cpu(const c10::OperatorHandle& op, torch::jit::Stack* stack);\n"),
      std::string::npos)
      << header;
  EXPECT_NE(
      header.find(
          "int64_t pick(int64_t x);\n// boxed (argument 'x' of type 'Any' has no C++ native type)"),
      std::string::npos)
      << header;
}

TEST(TorchEmitters, FragmentInNamespacesLibtorchDefines) {
  GenOperator a = make_op("scale(Tensor self, float factor) -> Tensor", {});
  a.ns = "aten";
  a.canonical = "aten::scale(Tensor self, float factor) -> Tensor";
  EXPECT_EQ(codegen::emit_torch_library_block("aten", {&a}),
            "TORCH_LIBRARY_FRAGMENT(aten, m) {\n  m.def(\"scale(Tensor self, float factor) -> "
            "Tensor\");\n}\n");
  EXPECT_TRUE(codegen::is_libtorch_namespace("prim"));
  EXPECT_FALSE(codegen::is_libtorch_namespace("myops"));
}

TEST(TorchEmitters, OperatorsWithoutNamespaceNeedOne) {
  GenOperator a = make_op("scale(Tensor self, float factor) -> Tensor", {});
  GenOperator b = make_op("shift(Tensor self, float by) -> Tensor", {});
  a.location.line = 3;
  b.location.line = 1;
  GenModel model;
  model.operators = {a, b};
  std::vector<diagnostics::Diagnostic> errors = check_torch_model(model, GenOptions{});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "torch-namespace");
  EXPECT_EQ(errors[0].location.line, 1u);
  EXPECT_NE(errors[0].message.find("operator 'shift' (and 1 more) has no namespace"),
            std::string::npos)
      << errors[0].message;
  EXPECT_TRUE(check_torch_model(model, GenOptions{0, "myops", true}).empty());
  model.operators[0].namespace_written = model.operators[1].namespace_written = true;
  EXPECT_TRUE(check_torch_model(model, GenOptions{}).empty());
}

// Our runtime keeps a kernel's namespace too: `CPU: myops::scale_cpu` registers myops::scale_cpu.
TEST(Emitters, ImplBlockKeepsKernelNamespaces) {
  GenOperator a =
      make_op("scale(Tensor self, float factor) -> Tensor", {{"CPU", "scale_cpu", "myops"}});
  a.signature = kernel_types::native_signature(a.schema, false);
  EXPECT_EQ(
      codegen::emit_impl_block("myops", "CPU", {&a}),
      "SCHEMAC_LIBRARY_IMPL(myops, CPU, m) {\n"
      "  m.impl(\"scale\", static_cast<Tensor (*)(const Tensor&, double)>(&myops::scale_cpu), "
      "\"myops::scale_cpu\");\n"
      "}\n");
}

}  // namespace
}  // namespace schemac::gen
