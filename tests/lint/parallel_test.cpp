// run_tasks (parallel.h) and the readers built on it, also run under ThreadSanitizer (label tsan):
// every task runs once, exceptions come back, and the corpus (whose funcs are parsed on every
// core) reads without diagnostics.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "schemac/native_functions/native_functions.h"
#include "schemac/support/parallel.h"
#include "schemac/native_functions/yaml_loader.h"

namespace schemac::schema {
namespace {

TEST(RunTasks, RunsEveryTaskOnceWithAndWithoutThreads) {
  for (bool threads : {false, true}) {
    for (size_t count : {0u, 1u, 2u, 7u, 1000u}) {
      std::vector<std::atomic<int>> runs(count);
      run_tasks(count, [&](size_t i) { runs[i].fetch_add(1); }, threads);
      for (size_t i = 0; i < count; ++i) EXPECT_EQ(runs[i].load(), 1) << i;
    }
  }
}

TEST(RunTasks, RethrowsTheLowestNumberedTasksException) {
  std::atomic<int> finished{0};
  try {
    run_tasks(50, [&](size_t i) {
      if (i == 7 || i == 30) throw std::runtime_error("task " + std::to_string(i));
      finished.fetch_add(1);
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 7");
  }
  EXPECT_EQ(finished.load(), 48);  // the other tasks still ran
}

std::string corpus() {
  std::ifstream file(std::string(SCHEMAC_CORPUS_DIR) + "/native_functions.yaml", std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

TEST(ParallelReaders, CorpusReadsEveryEntryWithoutDiagnostics) {
  const std::string text = corpus();
  const YamlLoadResult yaml = load_yaml("f.yaml", text);
  ASSERT_TRUE(yaml.document.root);
  const NativeFunctionsLoad load = load_native_functions("f.yaml", text);
  EXPECT_EQ(load.file.functions.size(), yaml.document.root->items.size());
  EXPECT_TRUE(load.diagnostics.empty());
}

}  // namespace
}  // namespace schemac::schema
