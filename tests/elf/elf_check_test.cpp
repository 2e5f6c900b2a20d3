// Files that are no loadable library are answered before dlopen maps them: a truncated library
// (which killed dispatch-inspect with SIGBUS), a text file, an empty file, a directory, a missing
// file, an ELF file that is not a shared object. (That dispatch-inspect's loader asks this check
// first is tests/inspect/loader_test.cpp's.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "schemac/elf/elf_check.h"

namespace schemac::elf {
namespace {

namespace fs = std::filesystem;

class ElfCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("schemac_elf_check_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }
  // The first `size` bytes of a real library.
  std::string truncated_library(size_t size) {
    std::ifstream in(ELF_SHARED_LIBRARY, std::ios::binary);
    std::string bytes(size, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    return write("libtruncated_" + std::to_string(size) + ".so", bytes);
  }

  // A whole library whose header says it is a relocatable object (ET_REL), as a .o file does.
  std::string object_file() {
    std::ifstream in(ELF_SHARED_LIBRARY, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes[16] = 1;  // e_type, little-endian: ET_REL
    bytes[17] = 0;
    return write("object.o", bytes);
  }

  fs::path dir_;
};

TEST_F(ElfCheck, ARealLibraryPasses) {
  EXPECT_EQ(check_shared_library_file(ELF_SHARED_LIBRARY), std::nullopt);
  EXPECT_EQ(check_shared_library_file(ELF_SECOND_LIBRARY), std::nullopt);
}

TEST_F(ElfCheck, EveryBadFileIsAnsweredWithWhy) {
  const struct {
    std::string path;
    std::string why;
  } cases[] = {
      {truncated_library(4096), "not a shared library: truncated: a segment ends at byte"},
      {truncated_library(40), "not a shared library: no ELF header"},
      {truncated_library(100), "not a shared library: truncated: the program headers end"},
      {write("notes.txt", "just some text\n"), "not a shared library: no ELF header"},
      {write("empty.so", ""), "not a shared library: no ELF header"},
      {dir_.string(), "not a shared library: a directory"},
      {(dir_ / "missing.so").string(), "No such file or directory"},
      {object_file(), "not a shared library: an ELF file that is not a shared object"},
  };
  for (const auto& c : cases) {
    const std::optional<std::string> why = check_shared_library_file(c.path);
    ASSERT_TRUE(why.has_value()) << c.path;
    EXPECT_EQ(why->rfind(c.why, 0), 0u) << c.path << ": " << *why;
  }
}

}  // namespace
}  // namespace schemac::elf
