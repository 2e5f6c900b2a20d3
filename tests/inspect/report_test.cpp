// The report library alone: its renderers on hand-built models (both runtimes' shapes), and the
// wire form a request and a response take between dispatch-inspect and dispatch-inspect-torch.
#include <gtest/gtest.h>

#include <algorithm>

#include "schemac/inspect/names.h"
#include "schemac/inspect/render.h"
#include "schemac/inspect/wire.h"

namespace schemac::inspect::report {
namespace {

Table two_rows(bool kernel_names) {
  return {"ns::op",
          kernel_names,
          {{"CPU", true, "registered at a.cpp:3", Reason::Kernel, false, "a.cpp:3"},
           {"AutogradCPU", true, "autograd_fallthrough", Reason::BackendFallback, true, ""},
           {"CUDA", false, "", Reason::Missing, false, ""}}};
}

TEST(ReportRender, TableTextNamesKernelsWhereTheRuntimeKeepsThem) {
  EXPECT_EQ(table_text(two_rows(true)),
            "ns::op\n"
            "key          kernel                 reason                          site\n"
            "CPU          registered at a.cpp:3  kernel                          a.cpp:3\n"
            "AutogradCPU  autograd_fallthrough   backend fallback (fallthrough)  -\n"
            "CUDA         -                      missing                         -\n");
  // libtorch keeps no kernel names: where each was registered stands in the last column.
  EXPECT_EQ(table_text(two_rows(false)),
            "ns::op\n"
            "key          reason                          registered\n"
            "CPU          kernel                          a.cpp:3\n"
            "AutogradCPU  backend fallback (fallthrough)  autograd_fallthrough\n"
            "CUDA         missing                         -\n");
}

TEST(ReportRender, TableTorchAndJson) {
  EXPECT_EQ(table_torch(two_rows(false)),
            "CPU: registered at a.cpp:3 [kernel]\nAutogradCPU: fallthrough autograd_fallthrough "
            "[backend fallback]\n");
  EXPECT_EQ(json_text(table_json(two_rows(true))["entries"][2]),
            R"({"key":"CUDA","kernel":null,"reason":"missing","fallthrough":false,"site":null})");
}

TEST(ReportRender, DumpWithAndWithoutSchema) {
  Dump dump{
      "ns::op",
      true,
      "ns::op(Tensor x) -> Tensor",
      "registered at a.cpp:1",
      "a.cpp:1",
      "CONSERVATIVE (default)",
      {{"CPU", false, true, "fn", "a.cpp:2", true, "(Tensor _0) -> Tensor _0", "boxed unboxed "},
       {"CPU", false, false, "old", "a.cpp:9", false, "", "boxed "},
       {"CompositeImplicitAutograd", true, true, "math", "", false, "", "boxed "}}};
  EXPECT_EQ(dump_torch(dump),
            "name: ns::op\nschema: ns::op(Tensor x) -> Tensor\ndebug: registered at a.cpp:1\n"
            "alias analysis kind: CONSERVATIVE (default)\n"
            "CPU: fn :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
            "CPU (inactive): old :: (none) [ boxed ]\n"
            "CompositeImplicitAutograd[alias]: math :: (none) [ boxed ]\n");
  dump.has_schema = false;
  dump.kernels.clear();
  EXPECT_EQ(dump_torch(dump), "name: ns::op\nschema: (none)\n");
  EXPECT_EQ(
      json_text(dump_json(dump)),
      R"({"name":"ns::op","schema":null,"debug":null,"site":null,"alias_analysis":null,"kernels":[]})");
}

TEST(ReportWire, RequestAndResponseSurviveTheTrip) {
  Request request;
  request.kind = "resolve";
  request.libraries = {"a.so", "b.so"};
  request.op = "ns::op";
  request.all_keys = true;
  request.call = {"CPU", {"cpu"}, {"meta"}, "AutogradCPU", "", {"cpu"}, true, "meta"};
  request.several = true;
  request.calls = {request.call, {}};
  Request request_back;
  ASSERT_TRUE(from_wire(to_wire(request).dump(), request_back));
  EXPECT_EQ(to_wire(request_back), to_wire(request));
  Response response;
  response.status = 1;
  response.table = two_rows(false);
  response.resolution = {"ns::op",
                         "DispatchKeySet(CPU)",
                         {"AutogradCPU"},
                         {{"CPU", "DispatchKeySet(CPU)", true, "k", Reason::Kernel, "a.cpp:3"}},
                         "a backend kernel",
                         false,
                         {"added by thread-local state: BackendSelect (the included set)"},
                         {"--device meta: a note"}};
  response.refused = "a reason";
  Response back;
  ASSERT_TRUE(from_wire(to_wire(response).dump(), back));
  EXPECT_EQ(to_wire(back), to_wire(response));
  EXPECT_EQ(table_text(back.table), table_text(response.table));
  EXPECT_FALSE(from_wire("not json", back));
  EXPECT_FALSE(from_wire(R"({"status":"one"})", back));
  // A fraction (out of an int's range here) is refused, not converted (fuzz_table_diff found it).
  EXPECT_FALSE(from_wire(R"({"status":1e70})", back));
  EXPECT_FALSE(from_wire(R"({"table":{"rows":[{"key":"CPU","has_kernel":true}],"op":0.5}})", back));
}

TEST(ReportWire, ALibraryStreamsAnOperatorALine) {
  Response response;
  for (const char* name : {"ns::a", "ns::b"}) {
    OperatorState op;
    op.summary.name = name;
    op.table = two_rows(false);
    op.table.op = name;
    response.library.operators.push_back(op);
  }
  std::string stream;
  for (const OperatorState& op : response.library.operators) stream += operator_line(op);
  Response rest = response;
  rest.library.operators.clear();
  stream += response_line(rest);
  EXPECT_EQ(std::count(stream.begin(), stream.end(), '\n'), 3);
  Response back;
  ASSERT_TRUE(from_wire(stream, back));
  EXPECT_EQ(to_wire(back), to_wire(response));
  // A stream that stops before the response (the helper died) is no answer, nor is a line after it.
  EXPECT_FALSE(from_wire(operator_line(response.library.operators[0]), back));
  EXPECT_FALSE(from_wire(stream + operator_line(response.library.operators[0]), back));
  EXPECT_FALSE(from_wire(R"({"operator":{"table":{"op":0.5}}})"
                         "\n" +
                             response_line(rest),
                         back));
}

}  // namespace
}  // namespace schemac::inspect::report

namespace schemac::inspect::report {
namespace {

// Did-you-mean ranks the same whatever order a runtime lists its operators in: same-named
// operators first, the nearest spelling first.
TEST(Names, SimilarOperatorsRankByDistanceOnEveryRuntime) {
  std::vector<std::string> known = {"quantized::add",   "_quantized::add",  "aten::add.out",
                                    "aten::add.Scalar", "aten::add.Tensor", "_quantized::add.out",
                                    "aten::sub.Tensor"};
  const std::vector<std::string> first = similar_operator_names(known, "aten::add.Tensr");
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.front(), "aten::add.Tensor");
  std::reverse(known.begin(), known.end());
  EXPECT_EQ(similar_operator_names(known, "aten::add.Tensr"), first);
}

}  // namespace
}  // namespace schemac::inspect::report
