// The readers built on run_tasks (parallel.h), also run under ThreadSanitizer (label tsan): the
// corpus (whose funcs are parsed on every core) reads without diagnostics.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "schemac/native_functions/native_functions.h"
#include "schemac/yaml/yaml_loader.h"

namespace schemac::schema {
namespace {

std::string corpus() {
  std::ifstream file(std::string(SCHEMAC_CORPUS_DIR) + "/native_functions.yaml", std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

TEST(ParallelReaders, CorpusReadsEveryEntryWithoutDiagnostics) {
  const std::string text = corpus();
  const yaml::YamlLoadResult yaml = yaml::load_yaml("f.yaml", text);
  ASSERT_TRUE(yaml.document.root);
  const native_functions::NativeFunctionsLoad load = native_functions::load_native_functions("f.yaml", text);
  EXPECT_EQ(load.file.functions.size(), yaml.document.root->items.size());
  EXPECT_TRUE(load.diagnostics.empty());
}

}  // namespace
}  // namespace schemac::schema
