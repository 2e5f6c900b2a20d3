// Linear cost in the size of every input (issue 37.5): one schema with thousands of arguments,
// a line of megabytes, in YAML, C++ and Python, with and without findings, through lint and the
// text renderer. Each case runs at size n and 8n and compares the cost:
//   - bytes allocated, counted exactly by this binary's operator new (deterministic): 8n may
//     cost at most 16 times n's;
//   - the thread's CPU time, the least of three runs: at most 32 times n's (a quadratic part
//     costs 64 times, and did: the duplicate-name check compared every argument with every
//     earlier one).
// The speed figures themselves are in bench/lint (BM_lint_wide_schema_*, BM_lint_garbage_line_yaml).
#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>

#include <gtest/gtest.h>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/lint/file_kinds.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/sources/scan.h"

namespace {

std::atomic<size_t> g_allocated{0};

}  // namespace

void* operator new(size_t size) {
  g_allocated.fetch_add(size, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// Every form that the deletes above may free: the library's nothrow news (std::stable_sort's
// temporary buffer) and the array forms, so that allocation and release always pair up (an
// AddressSanitizer build checks it).
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  g_allocated.fetch_add(size, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
// Not inlined: g++ -O1 inlines a delete into gtest's `new TestClass` and takes the free of the
// malloc made inside the replaced new for a mismatched pair (-Wmismatched-new-delete).
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace schemac {
namespace {

struct Cost {
  size_t bytes = 0;
  double cpu_seconds = 0;
};

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// What linting `text` as `path` costs, rendering the findings as text included. The best of three
// runs measures the work: glibc hands a large block (past its mmap threshold) back to the kernel
// when it is freed, so each run of a large input would pay the first touch of fresh pages again
// while a small one reuses warm heap; keeping freed blocks makes both sizes reuse theirs.
Cost cost_of(const std::string& path, const std::string& text) {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  Cost best{0, 1e9};
  for (int run = 0; run < 3; ++run) {
    size_t before = g_allocated.load();
    double start = thread_cpu_seconds();
    std::vector<diagnostics::Diagnostic> found;
    if (std::optional<sources::Language> language = sources::language_for_path(path)) {
      sources::ScannedFile file{path, sources::scan_source(text, *language)};
      found = sources::lint_sources(std::span(&file, 1));
    } else {
      found = lint::lint_file(path, text, {}).diagnostics;
    }
    diagnostics::SourceFiles sources;
    sources.add(path, text);
    std::string rendered = diagnostics::render_text(found, sources);
    // A report never echoes a huge line: each excerpt is a window around its caret.
    EXPECT_LT(rendered.size(), 2000 + found.size() * 1000) << path;
    best.cpu_seconds = std::min(best.cpu_seconds, thread_cpu_seconds() - start);
    best.bytes = g_allocated.load() - before;
  }
  return best;
}

void expect_linear(const std::string& path, const std::function<std::string(size_t)>& input, size_t n) {
  const std::string small = input(n);
  const std::string large = input(8 * n);
  Cost a = cost_of(path, small);
  Cost b = cost_of(path, large);
  EXPECT_LE(b.bytes, 16 * a.bytes + (1u << 20)) << path << ": " << a.bytes << " bytes for " << small.size()
                                                << " bytes of input, " << b.bytes << " for " << large.size();
  EXPECT_LE(b.cpu_seconds, 32 * a.cpu_seconds + 0.05)
      << path << ": " << a.cpu_seconds << " s for " << small.size() << " bytes of input, " << b.cpu_seconds << " for "
      << large.size();
}

std::string arguments(size_t n, const char* type, const char* suffix = "") {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += type;
    out += " a" + std::to_string(i) + suffix;
  }
  return out;
}

// Printable bytes that are no schema: a deterministic mix of punctuation and names.
std::string garbage(size_t n) {
  const std::string alphabet = "abc(),[]->? =!|*xyz0123456789";
  std::string out;
  uint32_t x = 12345;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    out += alphabet[(x >> 16) % alphabet.size()];
  }
  return out;
}

std::string yaml(const std::string& schema) { return "- func: " + schema + "\n  variants: function\n"; }
std::string cpp(const std::string& schema) { return "TORCH_LIBRARY(ns, m) {\n  m.def(\"" + schema + "\");\n}\n"; }
std::string python(const std::string& schema) {
  return "import torch\nlib = torch.library.Library('ns', 'DEF')\nlib.define('" + schema + "')\n";
}

TEST(LinearGrowth, ManyArguments) {
  for (const auto& [path, wrap_function] :
       {std::pair{"ops.yaml", &yaml}, std::pair{"ops.cpp", &cpp}, std::pair{"ops.py", &python}}) {
    auto* wrap = wrap_function;  // a structured binding is not captured (clang 14)
    expect_linear(path, [wrap](size_t n) { return wrap("wide(" + arguments(n, "Tensor") + ") -> Tensor"); }, 2000);
  }
}

TEST(LinearGrowth, ManyArgumentsEachWithAFinding) {
  expect_linear("ops.yaml", [](size_t n) { return yaml("wide(" + arguments(n, "Tensorr") + ") -> Tensor"); }, 1000);
  expect_linear("ops.cpp", [](size_t n) { return cpp("wide(" + arguments(n, "Tensorr") + ") -> Tensor"); }, 1000);
  expect_linear("ops.yaml", [](size_t n) { return yaml("wide(" + arguments(n, "int", "=1") + ", Tensor x) -> Tensor"); },
                1000);
}

TEST(LinearGrowth, ALongFlowListInANonAsciiFile) {
  // libyaml counts columns in characters: each node's byte column is walked on from the last one.
  expect_linear("ops.yaml", [](size_t n) {
    std::string tags;
    for (size_t i = 0; i < n; ++i) tags += i > 0 ? ", pointwise" : "pointwise";
    return "- func: f(Tensor x) -> Tensor  # \xc3\xa9\n  tags: [" + tags + "]\n";
  }, 2000);
}

TEST(LinearGrowth, ALineOfGarbage) {
  expect_linear("ops.yaml", [](size_t n) { return yaml("f(" + garbage(n) + ") -> Tensor"); }, 100000);
  expect_linear("ops.cpp", [](size_t n) { return cpp("f(" + garbage(n) + ") -> Tensor"); }, 100000);
  expect_linear("ops.py", [](size_t n) { return python("f(" + garbage(n) + ") -> Tensor"); }, 100000);
  expect_linear("ops.cpp", [](size_t n) { return garbage(n) + "\n"; }, 100000);
}

}  // namespace
}  // namespace schemac
