// A YAML reader that remembers where everything came from. It drives libyaml's event parser
// and builds a light tree in which every node knows its line, column and byte offset, mappings
// keep their keys in order (duplicates included, so they can be reported), and scalars know how
// they were quoted. Anchors and aliases work (an alias gives a copy of the anchored node, with
// the anchored node's positions), as do merge keys (`<<: *base`, reported because torchgen's
// loader cannot read them). A byte-order mark and CRLF line ends are read as YAML says; lines and
// columns are 1-based and columns count bytes. Problems come back as located diagnostics, never
// as exceptions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::yaml {

// How a scalar was written. Positions inside plain scalars map 1:1 to the file; quoted and block
// scalars need scalar_position() below.
enum class ScalarStyle : uint8_t { plain, single_quoted, double_quoted, literal, folded };

struct YamlEntry;

struct YamlNode {
  enum class Kind : uint8_t { null, scalar, sequence, mapping };
  Kind kind = Kind::null;
  ScalarStyle style = ScalarStyle::plain;
  bool flow = false;               // sequences and mappings written as [..] / {..}
  uint32_t line = 0;               // 1-based
  uint32_t column = 0;             // 1-based, in bytes
  uint32_t offset = 0;             // byte offset of the node's first character in the file
  bool tagged = false;             // scalars with an explicit tag (`!!str yes`) are not resolved
  bool verbatim = false;           // scalars: the value is the file's bytes (after a quote) as is
  std::string value;               // scalars: the value after YAML unquoting and folding
  std::vector<YamlNode> items;     // sequences
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
  std::string file;                   // the name diagnostics use
  std::string text;                   // the whole file
  std::optional<YamlNode> root;       // absent when the file is empty or could not be parsed
  std::vector<uint32_t> line_starts;  // byte offset of each line's first character

  // 1-based line and column of a byte offset.
  std::pair<uint32_t, uint32_t> position(uint32_t offset) const;
};

struct YamlLoadResult {
  YamlDocument document;
  std::vector<diagnostics::Diagnostic>
      diagnostics;            // rule ids: yaml-syntax, yaml-tab, duplicate-key, yaml-merge-key
  bool syntax_error = false;  // the parser stopped: document.root is absent
};

// Parses `text` (the first document only; a second one is an error). A syntax error stops the
// load: the tree built so far is dropped and the error is returned at libyaml's mark. Tabs in
// indentation, duplicate keys and merge keys are reported while the tree is still returned.
// A plain empty value, `~` and `null` are null nodes.
YamlLoadResult load_yaml(std::string file, std::string text);

// The file position (1-based line and column) of the character at byte `index` of the scalar's
// decoded value: exact for plain and quoted single-line scalars (escapes and '' pairs are
// walked), the start of the scalar plus the index as a fallback otherwise.
std::pair<uint32_t, uint32_t> scalar_position(const YamlDocument& document, const YamlNode& node,
                                              size_t index);

// Where a node sits, as a diagnostic location of `length` characters (at least 1).
diagnostics::Location node_location(const YamlDocument& document, const YamlNode& node,
                                    uint32_t length = 0);

}  // namespace schemac::yaml
