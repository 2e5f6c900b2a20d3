// A file is looked at before dlopen maps it: the dynamic loader trusts the ELF headers, and a
// truncated library (a segment that ends past the end of the file) or a file that is no library
// at all can kill the process with SIGBUS when its pages are touched. The check reads only the
// ELF header and the program headers.
#pragma once

#include <optional>
#include <string>

namespace schemac::elf {

// Nothing when `path` looks like a shared library this process can map: it exists, is a regular
// file, starts with an ELF header of this machine's class and byte order, is a shared object
// (ET_DYN), and its program headers and every loadable segment lie within the file. Otherwise
// why not, in a few words ("not a shared library: no ELF header", "not a shared library:
// truncated: a segment ends at byte 73728 of a 4096-byte file", "No such file or directory").
std::optional<std::string> check_shared_library_file(const std::string& path);

// The runtime a library seems built for, from the names in it: "torch" when it names libtorch's
// or libc10's shared library (a PyTorch extension), "schemac" when it names our runtime's library
// or exports the stable plugin ABI, else "".
std::string runtime_built_for(const std::string& path);

}  // namespace schemac::elf
