// The Python scanner on each literal form and each call form. Forms are written for these tests;
// a comment names the project where each was seen.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"

namespace schemac::sources::test {
namespace {

using ::testing::ElementsAre;

TEST(PythonScanner, LibraryObjectGivesTheNamespace) {
  // Seen in executorch and bitsandbytes: a module-level Library and lib.define(...).
  ScanResult r = scan_python(
      "import torch\nlib = torch.library.Library(\"myops\", \"DEF\")\n"
      "lib.define(\"relu(Tensor x) -> Tensor\")\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].library_namespace, "myops");
  EXPECT_EQ(at(r.schemas[0].position), "3:12");
  EXPECT_EQ(at(r.schemas[0].library_position), "2:21");
}

TEST(PythonScanner, AnnotatedAttributeAndDirectLibraries) {
  ScanResult r = scan_python(
      "self._lib: Library = Library(ns=\"a\", kind=\"FRAGMENT\")\n"
      "self._lib.define('f(Tensor x) -> Tensor')\n"
      "Library(\"b\", \"DEF\").define('g(Tensor x) -> Tensor')\n"
      "unknown.define('h(Tensor x) -> Tensor')\n");
  ASSERT_EQ(r.schemas.size(), 3u);
  EXPECT_EQ(r.schemas[0].library_namespace, "a");
  EXPECT_EQ(r.schemas[1].library_namespace, "b");
  EXPECT_EQ(r.schemas[2].library_namespace, "");
}

TEST(PythonScanner, DotCallAtTheStartOfTheFileHasNoReceiver) {
  // Found by the source_scanner fuzz campaign: `.define(` as the file's first tokens read the
  // token before the first one.
  ScanResult r = scan_python(".define(\"f(Tensor x) -> Tensor\")\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].library_namespace, "");
}

TEST(PythonScanner, ImplicitPlusAndTripleQuotedStrings) {
  ScanResult r = scan_python(
      "lib = Library('n', 'DEF')\n"
      "lib.define(\n    'a(Tensor x, '  # comment\n    \"Tensor y) -> Tensor\"\n)\n"
      "lib.define('b(Tensor x, ' + 'int n) -> Tensor')\n"
      "lib.define(\"\"\"\n    c(Tensor x,\n      int n) -> Tensor\n\"\"\")\n");
  EXPECT_THAT(texts(r),
              ElementsAre("a(Tensor x, Tensor y) -> Tensor", "b(Tensor x, int n) -> Tensor",
                          "\n    c(Tensor x,\n      int n) -> Tensor\n"));
  EXPECT_EQ(at(r.schemas[0].position), "3:5");
  EXPECT_EQ(at(r.schemas[0].text.position(12)), "4:6");  // 'T' of the second literal
  EXPECT_EQ(at(r.schemas[2].text.position(5)), "8:5");   // 'c' inside the triple quotes
}

TEST(PythonScanner, PrefixesAndEscapes) {
  ScanResult r = scan_python(
      "lib = Library('n', 'DEF')\n"
      "lib.define(r'raw(Tensor x) -> Tensor')\n"
      "lib.define(u'uni(Tensor x) -> Tensor')\n"
      "lib.define('esc(str s=\"\\x41\") -> Tensor')\n"
      "lib.define(f'plain_f(Tensor x) -> Tensor')\n"
      "lib.define(f'{name}(Tensor x) -> Tensor')\n"
      "lib.define('dedented(Tensor x) -> Tensor'.strip())\n");
  EXPECT_THAT(texts(r), ElementsAre("raw(Tensor x) -> Tensor", "uni(Tensor x) -> Tensor",
                                    "esc(str s=\"A\") -> Tensor", "plain_f(Tensor x) -> Tensor",
                                    "dedented(Tensor x) -> Tensor"));
  EXPECT_EQ(at(r.schemas[2].text.position(11)), "4:24");  // 'A' from \x41
  ASSERT_EQ(r.skipped.size(), 1u);                        // the f-string with a replacement field
  EXPECT_EQ(r.skipped[0].position.line, 6u);
}

TEST(PythonScanner, LibraryDefineWithNameAndSchema) {
  // Seen in bitsandbytes _ops.py: torch.library.define("ns::name", "(...) -> ...").
  ScanResult r = scan_python(
      "torch.library.define(\n    \"bnb::mm\",\n    \"(Tensor A, Tensor B) -> Tensor\")\n");
  ASSERT_EQ(r.schemas.size(), 1u);
  EXPECT_EQ(r.schemas[0].text.text(), "bnb::mm(Tensor A, Tensor B) -> Tensor");
  EXPECT_EQ(at(r.schemas[0].position), "3:5");
  EXPECT_EQ(at(r.schemas[0].text.position(0)), "2:6");  // the name's literal
  EXPECT_EQ(at(r.schemas[0].text.position(7)), "3:6");  // '(' of the signature
}

TEST(PythonScanner, LibraryDefineKeywordsAndModuleAliases) {
  ScanResult r = scan_python(
      "import torch.library as tl\n"
      "tl.define(\"a::f\", \"(Tensor x) -> Tensor\")\n"
      "torch.library.define(qualname=\"a::g\", schema=\"(Tensor x) -> Tensor\")\n"
      "lib = Library('a', 'DEF')\nlib.define(schema='h(Tensor x) -> Tensor')\n");
  EXPECT_THAT(texts(r), ElementsAre("a::f(Tensor x) -> Tensor", "a::g(Tensor x) -> Tensor",
                                    "h(Tensor x) -> Tensor"));
}

TEST(PythonScanner, CustomOpWithAndWithoutSchema) {
  ScanResult r = scan_python(
      "@torch.library.custom_op(\"ns::a\", mutates_args=(), schema=\"(Tensor x) -> Tensor\")\n"
      "def a(x): ...\n"
      "@custom_op(\"ns::b\", mutates_args=())\n"
      "def b(x: Tensor) -> Tensor: ...\n"
      "@torch.library.register_fake(\"ns::b\")\n"
      "def _(x): ...\n");
  EXPECT_THAT(texts(r), ElementsAre("ns::a(Tensor x) -> Tensor", "ns::b(Tensor x) -> Tensor"));
  EXPECT_FALSE(r.schemas[0].inferred);
  EXPECT_TRUE(r.schemas[1].inferred);
  ASSERT_EQ(r.implementations.size(), 1u);
  EXPECT_EQ(r.implementations[0].name, "ns::b");
}

TEST(PythonScanner, StringsAndCommentsHideCalls) {
  // Seen in flashinfer's tests: registration code inside a script string for a subprocess.
  ScanResult r = scan_python(
      "# lib.define('a(Tensor x) -> Tensor')\n"
      "script = '''\nlib.define('b(Tensor x) -> Tensor')\n'''\n"
      "cu.define('def forward(self, x):\\n  return x')\n");
  EXPECT_TRUE(r.schemas.empty());
  ASSERT_EQ(r.skipped.size(), 1u);  // TorchScript source: listed, not linted
}

TEST(PythonScanner, BrokenInputNeverCrashes) {
  for (const char* text :
       {"lib.define(", "lib.define('open", "'''never closed", "x = (\n", "lib.define(f'{')",
        "custom_op(", "Library(", "\\", "lib.define('\\N{x}')"}) {
    ScanResult r = scan_python(text);
    for (const FoundSchema& s : r.schemas) EXPECT_FALSE(s.text.empty());
  }
}

}  // namespace
}  // namespace schemac::sources::test
