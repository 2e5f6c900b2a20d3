// Every `- func:` of PyTorch's native_functions.yaml parses, passes the checks, and prints back
// byte for byte (the round trip torchgen demands).
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"

namespace schemac::schema {
namespace {

std::vector<std::string> corpus_schemas() {
  std::ifstream file(SCHEMAC_CORPUS_FILE);
  std::vector<std::string> schemas;
  const std::string prefix = "- func: ";
  for (std::string line; std::getline(file, line);) {
    if (line.rfind(prefix, 0) == 0) schemas.push_back(line.substr(prefix.size()));
  }
  return schemas;
}

TEST(Corpus, EveryFuncRoundTripsByteForByte) {
  std::vector<std::string> schemas = corpus_schemas();
  ASSERT_EQ(schemas.size(), 2590u) << "corpus file " << SCHEMAC_CORPUS_FILE;
  size_t failures = 0;
  for (const std::string& text : schemas) {
    ParseResult result = parse_schema(text);
    if (!result.ok()) {
      ADD_FAILURE() << text << "\n  column " << result.error->offset + 1 << ": "
                    << result.error->message << " [" << result.error->rule << "]";
    } else {
      EXPECT_EQ(print_schema(*result.schema), text);
    }
    if (!result.ok() && ++failures > 20) break;
  }
}

}  // namespace
}  // namespace schemac::schema
