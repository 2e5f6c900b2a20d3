// Checks a file's ELF header and program headers before dlopen (elf_check.h).
#include "schemac/elf/elf_check.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace schemac::elf {
namespace {

#if __SIZEOF_POINTER__ == 8
using ElfHeader = Elf64_Ehdr;
using ProgramHeader = Elf64_Phdr;
constexpr unsigned char kElfClass = ELFCLASS64;
#else
using ElfHeader = Elf32_Ehdr;
using ProgramHeader = Elf32_Phdr;
constexpr unsigned char kElfClass = ELFCLASS32;
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kElfData = ELFDATA2LSB;
#else
constexpr unsigned char kElfData = ELFDATA2MSB;
#endif

// Closes the descriptor at the end of the scope.
class File {
 public:
  explicit File(const std::string& path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~File() {
    if (fd_ >= 0) close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// Reads exactly `size` bytes at `offset`; false on a short read or an error.
bool read_at(int fd, void* out, size_t size, uint64_t offset) {
  auto* bytes = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t got = pread(fd, bytes, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    bytes += got;
    size -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return true;
}

std::string not_a_library(std::string_view why) {
  return fmt::format("not a shared library: {}", why);
}

}  // namespace

std::optional<std::string> check_shared_library_file(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return std::string(std::strerror(errno));
  if (S_ISDIR(info.st_mode)) return not_a_library("a directory");
  if (!S_ISREG(info.st_mode)) return not_a_library("not a regular file");
  File file(path);
  if (file.fd() < 0) return std::string(std::strerror(errno));
  const uint64_t size = static_cast<uint64_t>(info.st_size);
  ElfHeader header{};
  if (size < sizeof header || !read_at(file.fd(), &header, sizeof header, 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return not_a_library("no ELF header");
  }
  if (header.e_ident[EI_CLASS] != kElfClass || header.e_ident[EI_DATA] != kElfData) {
    return not_a_library("an ELF file for another word size or byte order");
  }
  if (header.e_type != ET_DYN) return not_a_library("an ELF file that is not a shared object");
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(ProgramHeader)) {
    return not_a_library("no program headers");
  }
  const uint64_t table_end =
      uint64_t{header.e_phoff} + uint64_t{header.e_phnum} * sizeof(ProgramHeader);
  if (header.e_phoff > size || table_end > size) {
    return not_a_library(fmt::format(
        "truncated: the program headers end at byte {} of a {}-byte file", table_end, size));
  }
  std::vector<ProgramHeader> segments(header.e_phnum);
  if (!read_at(file.fd(), segments.data(), segments.size() * sizeof(ProgramHeader),
               header.e_phoff)) {
    return not_a_library("cannot read the program headers");
  }
  for (const ProgramHeader& segment : segments) {
    if (segment.p_type != PT_LOAD && segment.p_type != PT_DYNAMIC) continue;
    const uint64_t end = uint64_t{segment.p_offset} + uint64_t{segment.p_filesz};
    if (segment.p_offset > size || end > size || end < segment.p_offset) {
      return not_a_library(
          fmt::format("truncated: a segment ends at byte {} of a {}-byte file", end, size));
    }
  }
  return std::nullopt;
}

std::string runtime_built_for(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.find("libc10.so") != std::string::npos ||
      bytes.find("libtorch_cpu.so") != std::string::npos)
    return "torch";
  if (bytes.find("libschemac_dispatch") != std::string::npos ||
      bytes.find("schemac_plugin_abi_version") != std::string::npos)
    return "schemac";
  return "";
}

}  // namespace schemac::elf
