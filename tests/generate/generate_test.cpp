// generate, write_outputs and depfile_text (generate.h) called directly, in a temporary folder.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "schemac/codegen/target.h"
#include "schemac/generate/generate.h"

namespace schemac::generate {
namespace {

namespace fs = std::filesystem;

constexpr const char* kOps =
    "- func: scale(Tensor self, float factor) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: scale_cpu\n";

Request request_for(const std::string& text, int shards = 0) {
  Request request;
  request.inputs.push_back({"ops.yaml", text});
  request.target = codegen::find_target("schemac");
  request.gen = {shards, "myops", true};
  return request;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A writer that counts what it writes (the command line passes an atomic replace).
struct CountingWriter {
  int writes = 0;
  WriteFile writer() {
    return [this](const fs::path& path, std::string_view content) -> std::optional<std::string> {
      ++writes;
      std::ofstream(path, std::ios::binary) << content;
      return std::nullopt;
    };
  }
};

TEST(Generate, AnErrorInTheInputMakesNoFiles) {
  Result result = generate(request_for("- func: scale(Tensor self -> Tensor\n"));
  EXPECT_GT(result.counts.errors, 0u);
  EXPECT_TRUE(result.files.empty());
  ASSERT_FALSE(result.diagnostics.empty());
  EXPECT_EQ(result.diagnostics[0].location.file, "ops.yaml");
}

TEST(Generate, WritesOnlyWhatChangesAndRemovesStaleShards) {
  const fs::path dir = fs::temp_directory_path() / "schemac_generate_test";
  fs::remove_all(dir);
  Result result = generate(request_for(kOps, 2));
  ASSERT_EQ(result.counts.errors, 0u);
  ASSERT_FALSE(result.files.empty());
  CountingWriter counting;
  WriteOptions options{(dir / "gen.d").string(), "", {"ops.yaml"}, counting.writer()};
  fs::create_directories(dir);
  std::ofstream(dir / "Register_3of4.cpp") << "// left by a run with --shards 4\n";
  std::ofstream(dir / "notes.txt") << "not ours\n";
  ASSERT_EQ(write_outputs(dir.string(), result.files, options), std::nullopt);
  EXPECT_EQ(counting.writes, static_cast<int>(result.files.size()) + 1);  // and the depfile
  EXPECT_FALSE(fs::exists(dir / "Register_3of4.cpp"));
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
  EXPECT_TRUE(fs::exists(dir / "Register_1of2.cpp"));
  EXPECT_EQ(read(dir / "gen.d"),
            depfile_text(output_paths(dir.string(), result.files), {"ops.yaml"}));

  counting.writes = 0;  // the same files again: nothing is written
  ASSERT_EQ(write_outputs(dir.string(), result.files, options), std::nullopt);
  EXPECT_EQ(counting.writes, 0);
  fs::remove_all(dir);
}

TEST(Generate, AWriteThatFailsIsSaid) {
  const fs::path dir = fs::temp_directory_path() / "schemac_generate_fail_test";
  fs::remove_all(dir);
  Result result = generate(request_for(kOps));
  WriteOptions options{
      "", "", {}, [](const fs::path& path, std::string_view) {
        return std::optional<std::string>("cannot write '" + path.filename().string() + "'");
      }};
  std::optional<std::string> why = write_outputs(dir.string(), result.files, options);
  ASSERT_TRUE(why);
  EXPECT_EQ(why->rfind("cannot write '", 0), 0u) << *why;
  fs::remove_all(dir);
}

TEST(Generate, DepfileEscapesForMake) {
  EXPECT_EQ(depfile_text({"out dir/a.cpp", "b$.h"}, {"x#y.yaml"}),
            "out\\ dir/a.cpp \\\n b$$.h: \\\n  x\\#y.yaml\n");
}

TEST(NamespaceProblem, OnlyACppIdentifierNamesTheNamespace) {
  EXPECT_EQ(namespace_problem("myops"), "");
  EXPECT_EQ(namespace_problem("_ops2"), "");
  EXPECT_EQ(namespace_problem(""), "namespace '' is not a C++ identifier");
  EXPECT_EQ(namespace_problem("2ops"), "namespace '2ops' is not a C++ identifier");
  EXPECT_EQ(namespace_problem("my::ops"), "namespace 'my::ops' is not a C++ identifier");
}

}  // namespace
}  // namespace schemac::generate
