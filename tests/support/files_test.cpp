// The one file reader: regular files, pipes (a shell's <(...)), and what it refuses.
#include "schemac/support/files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace schemac::support {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / ("files_test." + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(ReadFile, RegularFilesWhole) {
  const fs::path dir = scratch();
  const std::string bytes("a\0b\r\n\xff", 6);
  std::ofstream(dir / "f.bin", std::ios::binary) << bytes;
  EXPECT_EQ(read_file(dir / "f.bin"), bytes);
  EXPECT_EQ(read_file(dir / "f.bin", /*regular_only=*/true), bytes);
  std::ofstream(dir / "empty", std::ios::binary);
  EXPECT_EQ(read_file(dir / "empty"), "");
  EXPECT_EQ(read_file(dir / "missing"), std::nullopt);
  EXPECT_EQ(read_file(dir), std::nullopt);  // a folder
  fs::remove_all(dir);
}

// What `compat <(git show HEAD:ops.yaml) ops.yaml` hands over: a pipe, read to its end; a folder
// search (regular_only) passes it by.
TEST(ReadFile, PipesAreReadToTheirEnd) {
  const fs::path dir = scratch();
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(read_file(fifo, /*regular_only=*/true), std::nullopt);  // refused without opening it
  const std::string text(100000, 'x');
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
  EXPECT_EQ(read_file(fifo), text);
  writer.join();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace schemac::support
