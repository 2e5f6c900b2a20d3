// Which language an input is written in: C++ or Python registration code, or neither (then it is
// read as YAML). The file name decides when its extension says (language_for_path); otherwise
// (stdin, `/dev/fd/63` from `<(git show ...)`, a file without an extension) the text does
// (language_from_content). Both CLI and server use language_of, which tries the name first.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace schemac::sources {

enum class Language : uint8_t { cpp, python };

// By extension: .cpp .cc .cxx .cu .h .hpp .cuh are C++, .py is Python; anything else none.
std::optional<Language> language_for_path(std::string_view path);

// Whether the name's extension says the file is YAML (.yaml, .yml).
bool is_yaml_path(std::string_view path);

// The language the text is written in, judged from its first lines (at most 64 KiB are read):
// C++ by preprocessor lines, TORCH_LIBRARY blocks, `//` comments, `namespace`, statements ending
// in ';'; Python by a python shebang, `import` / `from ... import`, `def`, `class`, decorators;
// YAML by `- key:` entries, `key: value` lines and `---`. Nothing when YAML wins, when no line
// says anything, or on a tie: such text is read as YAML, as it always was.
std::optional<Language> language_from_content(std::string_view text);

// The extension when it names a language (or YAML), else the content.
std::optional<Language> language_of(std::string_view path, std::string_view text);

}  // namespace schemac::sources
