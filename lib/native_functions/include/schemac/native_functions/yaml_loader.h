// A YAML reader that remembers where everything came from. It drives yaml-cpp's event parser
// and builds a light tree in which every node knows its line, column and byte offset, mappings
// keep their keys in order (duplicates included, so they can be reported), and scalars know how
// they were quoted. Problems come back as located diagnostics, never as exceptions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::schema {

// How a scalar was written. Positions inside plain scalars map 1:1 to the file; quoted and block
// scalars need scalar_position() below.
enum class ScalarStyle : uint8_t { plain, single_quoted, double_quoted, literal, folded };

struct YamlEntry;

struct YamlNode {
  enum class Kind : uint8_t { null, scalar, sequence, mapping };
  Kind kind = Kind::null;
  ScalarStyle style = ScalarStyle::plain;
  bool flow = false;           // sequences and mappings written as [..] / {..}
  uint32_t line = 0;           // 1-based
  uint32_t column = 0;         // 1-based, in bytes
  uint32_t offset = 0;         // byte offset of the node's first character in the file
  std::string value;           // scalars: the value after YAML unquoting and folding
  std::vector<YamlNode> items; // sequences
  std::vector<YamlEntry> entries;  // mappings: key and value, in file order, duplicates kept

  bool is_null() const { return kind == Kind::null; }
  bool is_scalar() const { return kind == Kind::scalar; }
  bool is_sequence() const { return kind == Kind::sequence; }
  bool is_mapping() const { return kind == Kind::mapping; }
  // The first value under `key`, or nullptr (mappings only).
  const YamlNode* find(std::string_view key) const;
};

struct YamlEntry {
  YamlNode key;
  YamlNode value;
};

struct YamlDocument {
  std::string file;            // the name diagnostics use
  std::string text;            // the whole file
  std::optional<YamlNode> root;  // absent when the file is empty or could not be parsed
  std::vector<uint32_t> line_starts;  // byte offset of each line's first character

  // 1-based line and column of a byte offset.
  std::pair<uint32_t, uint32_t> position(uint32_t offset) const;
};

struct YamlLoadResult {
  YamlDocument document;
  std::vector<Diagnostic> diagnostics;  // rule ids: yaml-syntax, yaml-tab, duplicate-key
  bool syntax_error = false;            // the parser stopped: document.root is absent
};

// How a long file is read. A file whose top level is a block sequence written at column 0 (every
// native-functions file) can be cut at the lines that start a top-level item ("- " at column 0)
// into pieces that yaml-cpp reads independently, at the same time, one piece per core. The
// pieces' trees are joined into the tree one pass gives; when any piece fails to read (a quoted
// scalar or a flow collection that spans a cut, an alias to an anchor in another piece, a second
// document) the whole file is read again in one pass, so results and errors never depend on
// the cutting.
struct YamlLoadOptions {
  unsigned pieces = 0;                   // at most this many pieces; 0: one per core
  size_t min_piece_bytes = 128 * 1024;   // shorter files are read in one pass
  bool threads = true;                   // false: read the pieces one after the other
};

// Parses `text` (the first document only; a second one is an error). A syntax error stops the
// load: the tree built so far is dropped and the error is returned at yaml-cpp's mark. Tabs in
// indentation and duplicate keys in any mapping are reported while the tree is still returned.
YamlLoadResult load_yaml(std::string file, std::string text, const YamlLoadOptions& options = {});

// The file position (1-based line and column) of the character at byte `index` of the scalar's
// decoded value: exact for plain and quoted single-line scalars (escapes and '' pairs are
// walked), the start of the scalar plus the index as a fallback otherwise.
std::pair<uint32_t, uint32_t> scalar_position(const YamlDocument& document, const YamlNode& node,
                                              size_t index);

// Where a node sits, as a diagnostic location of `length` characters (at least 1).
Location node_location(const YamlDocument& document, const YamlNode& node, uint32_t length = 0);

}  // namespace schemac::schema
