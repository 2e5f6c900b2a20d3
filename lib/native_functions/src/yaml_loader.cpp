// The located YAML reader: yaml-cpp's event parser feeding a tree builder.
#include "schemac/native_functions/yaml_loader.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include "schemac/support/parallel.h"

namespace schemac::schema {

const YamlNode* YamlNode::find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k.is_scalar() && k.value == key) return &v;
  }
  return nullptr;
}

std::pair<uint32_t, uint32_t> YamlDocument::position(uint32_t offset) const {
  if (line_starts.empty()) return {1, offset + 1};
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts.begin());  // >= 1: line_starts[0] == 0
  return {static_cast<uint32_t>(line), offset - line_starts[line - 1] + 1};
}

namespace {

// Builds the tree from parser events. Containers under construction sit on a stack; a finished
// node is attached to the container below it (for a mapping: first as the pending key, then
// as that key's value).
// Marks count from the start of the text yaml-cpp reads: a piece of the file starting at byte
// `offset`, which is the start of line `line` (0-based).
struct PieceStart {
  uint32_t offset = 0;
  uint32_t line = 0;
};

class TreeBuilder : public YAML::EventHandler {
 public:
  TreeBuilder(const YamlDocument& document, std::vector<Diagnostic>& diagnostics, PieceStart start = {})
      : doc_(document), diagnostics_(diagnostics), start_(start) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    YamlNode node = leaf(mark, YamlNode::Kind::null);
    place_empty_value(node);
    attach(std::move(node));
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    YamlNode node = leaf(mark, YamlNode::Kind::null);
    diagnostics_.push_back(Diagnostic{Severity::error, "yaml-syntax", node_location(doc_, node),
                                      "YAML aliases are not supported here", {}, {}});
    attach(std::move(node));
  }

  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string& value) override {
    YamlNode node = leaf(mark, YamlNode::Kind::scalar);
    node.value = value;
    node.style = style_at(node.offset);
    if (node.style == ScalarStyle::single_quoted || node.style == ScalarStyle::double_quoted)
      last_quoted_ = QuotedScalar{node.offset, node.style};
    attach(std::move(node));
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value style) override {
    open(mark, YamlNode::Kind::sequence, style);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value style) override {
    open(mark, YamlNode::Kind::mapping, style);
  }
  void OnMapEnd() override {
    report_duplicate_keys(stack_.back().node);
    close();
  }

  std::optional<YamlNode> take_root() { return std::move(root_); }

  // The quoted scalar read last, if any: yaml-cpp ends a quoted scalar that is still open at the
  // end of the text without a word, so a reader of a piece must check that it was closed.
  struct QuotedScalar {
    uint32_t offset;  // of the opening quote
    ScalarStyle style;
  };
  std::optional<QuotedScalar> last_quoted() const { return last_quoted_; }
  bool saw_key_without_colon() const { return key_without_colon_; }

 private:
  struct Frame {
    YamlNode node;
    std::optional<YamlNode> pending_key;
  };

  YamlNode leaf(const YAML::Mark& mark, YamlNode::Kind kind) const {
    YamlNode node;
    node.kind = kind;
    node.offset = start_.offset + static_cast<uint32_t>(std::max(mark.pos, 0));
    node.line = start_.line + static_cast<uint32_t>(std::max(mark.line, 0)) + 1;
    node.column = static_cast<uint32_t>(std::max(mark.column, 0)) + 1;
    return node;
  }

  // yaml-cpp marks an empty value (`-` or `key:` with nothing after it) at the token that follows
  // it, often on a later line. Point at the indicator the value belongs to instead.
  void place_empty_value(YamlNode& node) const {
    std::string_view text = doc_.text;
    if (node.offset < text.size()) {
      std::string_view rest = text.substr(node.offset);
      for (std::string_view literal : {"~", "null", "Null", "NULL"}) {
        if (rest.starts_with(literal)) return;  // a written null: the mark is right
      }
    }
    size_t pos = std::min<size_t>(node.offset, text.size());
    while (pos > 0 && (text[pos - 1] == ' ' || text[pos - 1] == '\t' || text[pos - 1] == '\n' ||
                       text[pos - 1] == '\r')) {
      --pos;
    }
    if (pos == 0 || (text[pos - 1] != '-' && text[pos - 1] != ':' && text[pos - 1] != '?')) return;
    node.offset = static_cast<uint32_t>(pos - 1);
    auto [line, column] = doc_.position(node.offset);
    node.line = line;
    node.column = column;
  }

  ScalarStyle style_at(uint32_t offset) const {
    if (offset >= doc_.text.size()) return ScalarStyle::plain;
    switch (doc_.text[offset]) {
      case '\'': return ScalarStyle::single_quoted;
      case '"': return ScalarStyle::double_quoted;
      case '|': return ScalarStyle::literal;
      case '>': return ScalarStyle::folded;
      default: return ScalarStyle::plain;
    }
  }

  void open(const YAML::Mark& mark, YamlNode::Kind kind, YAML::EmitterStyle::value style) {
    Frame frame{leaf(mark, kind), std::nullopt};
    frame.node.flow = style == YAML::EmitterStyle::Flow;
    stack_.push_back(std::move(frame));
  }

  void close() {
    YamlNode node = std::move(stack_.back().node);
    stack_.pop_back();
    attach(std::move(node));
  }

  void attach(YamlNode node) {
    if (stack_.empty()) {
      root_ = std::move(node);
      return;
    }
    Frame& top = stack_.back();
    if (top.node.kind == YamlNode::Kind::sequence) {
      top.node.items.push_back(std::move(node));
    } else if (!top.pending_key) {
      top.pending_key = std::move(node);
    } else {
      // A key with no ':' after it: yaml-cpp takes it as a key without a value at the end of the
      // text, where one pass may read it otherwise (as part of a longer scalar, or an error).
      // Its null value then stands at the key, or even before it (after `- : -`, at the `-`).
      if (node.is_null() && node.offset <= top.pending_key->offset) key_without_colon_ = true;
      top.node.entries.push_back(YamlEntry{std::move(*top.pending_key), std::move(node)});
      top.pending_key.reset();
    }
  }

  // yaml-cpp keeps the last of two equal keys without a word; report every repeat with a note
  // at the first one.
  void report_duplicate_keys(const YamlNode& map) {
    const auto& entries = map.entries;
    if (entries.size() < 2) return;
    std::unordered_map<std::string_view, const YamlNode*> first_seen;
    for (const auto& [key, value] : entries) {
      if (!key.is_scalar()) continue;
      auto [it, inserted] = first_seen.emplace(key.value, &key);
      if (inserted) continue;
      Diagnostic d{Severity::error, "duplicate-key",
                   node_location(doc_, key, static_cast<uint32_t>(key.value.size())),
                   fmt::format("key '{}' is defined twice in this mapping", key.value), {}, {}};
      d.notes.push_back(Note{node_location(doc_, *it->second,
                                           static_cast<uint32_t>(key.value.size())),
                             fmt::format("'{}' was first defined here", key.value)});
      diagnostics_.push_back(std::move(d));
    }
  }

  const YamlDocument& doc_;
  std::vector<Diagnostic>& diagnostics_;
  PieceStart start_;
  std::optional<QuotedScalar> last_quoted_;
  bool key_without_colon_ = false;
  std::vector<Frame> stack_;
  std::optional<YamlNode> root_;
};

// YAML indents with spaces only. yaml-cpp reports tabs late and vaguely, so find them first.
void report_tab_indentation(const YamlDocument& doc, std::vector<Diagnostic>& diagnostics) {
  for (size_t i = 0; i < doc.line_starts.size(); ++i) {
    uint32_t begin = doc.line_starts[i];
    uint32_t pos = begin;
    while (pos < doc.text.size() && (doc.text[pos] == ' ' || doc.text[pos] == '\t')) ++pos;
    if (pos >= doc.text.size() || doc.text[pos] == '\n' || doc.text[pos] == '\r' ||
        doc.text[pos] == '#') {
      continue;  // blank or comment-only lines do not indent anything
    }
    std::string_view indent(doc.text.data() + begin, pos - begin);
    size_t tab = indent.find('\t');
    if (tab == std::string_view::npos) continue;
    diagnostics.push_back(Diagnostic{
        Severity::error, "yaml-tab",
        Location::at(doc.file, static_cast<uint32_t>(i + 1), static_cast<uint32_t>(tab + 1)),
        "tab character in indentation; YAML indents with spaces only", {}, {}});
  }
}

std::string lower_first(std::string text) {
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z' &&
      (text.size() < 2 || !(text[1] >= 'A' && text[1] <= 'Z'))) {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  return text;
}

// ## Reading in pieces

// A piece of the file: bytes [begin, end), starting at the start of line `line` (0-based). It is
// read up to `read_end`: with the first line of the next piece, so that yaml-cpp sees its items
// end as they do in one pass (at the end of the text it forgives what it would not before a
// next item, such as a key without a value on a line of its own). That line's item and its
// diagnostics belong to the next piece and are dropped from this one.
struct Piece {
  uint32_t begin = 0;
  uint32_t end = 0;
  uint32_t read_end = 0;
  uint32_t line = 0;
  uint32_t end_line = 0;  // the 1-based line number of `end` (the next piece's first line)
};

bool starts_top_level_item(std::string_view text, size_t pos) {
  return text[pos] == '-' && (pos + 1 == text.size() || text[pos + 1] == ' ' || text[pos + 1] == '\n' ||
                              text[pos + 1] == '\r');
}

// Where the file may be cut: the lines that start a top-level item. Empty when the file is short,
// when its top level is not a block sequence at column 0, or when it holds document markers or
// directives (a piece must be a whole document's worth of items).
std::vector<Piece> cut_into_pieces(const YamlDocument& doc, const YamlLoadOptions& options) {
  const std::string_view text = doc.text;
  size_t wanted = options.pieces ? options.pieces : task_threads();
  const size_t min_bytes = std::max<size_t>(options.min_piece_bytes, 1);
  wanted = std::min(wanted, text.size() / min_bytes);
  if (wanted < 2) return {};
  std::vector<uint32_t> item_lines;  // indexes into line_starts
  bool seen_content = false;
  for (uint32_t line = 0; line < doc.line_starts.size(); ++line) {
    const uint32_t pos = doc.line_starts[line];
    if (pos >= text.size()) break;
    const char c = text[pos];
    if (c == '%' || text.substr(pos, 3) == "---" || text.substr(pos, 3) == "...") return {};
    if (starts_top_level_item(text, pos)) {
      seen_content = true;
      item_lines.push_back(line);
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#') continue;
    if (!seen_content) return {};  // the top level starts with something else than an item
  }
  const auto size = static_cast<uint32_t>(text.size());
  const auto line_end = [&](uint32_t line) {
    return line + 1 < doc.line_starts.size() ? doc.line_starts[line + 1] : size;
  };
  std::vector<Piece> pieces;
  uint32_t begin_line = 0;
  for (size_t k = 1; k < wanted; ++k) {
    const size_t target = text.size() * k / wanted;
    auto it = std::lower_bound(item_lines.begin(), item_lines.end(), target,
                               [&](uint32_t line, size_t offset) { return doc.line_starts[line] < offset; });
    if (it == item_lines.end()) break;
    if (*it <= begin_line) continue;
    pieces.push_back(Piece{doc.line_starts[begin_line], doc.line_starts[*it], line_end(*it), begin_line, *it + 1});
    begin_line = *it;
  }
  if (pieces.empty()) return {};
  pieces.push_back(Piece{doc.line_starts[begin_line], size, size, begin_line, 0});
  return pieces;
}

// What one piece gave: its top-level sequence, or nothing when it could not be read on its own.
struct PieceTree {
  std::optional<YamlNode> root;
  std::vector<Diagnostic> diagnostics;
};

// Whether the quoted scalar opening at `offset` closes before `end`.
bool closes_before(std::string_view text, uint32_t offset, ScalarStyle style, uint32_t end) {
  const char quote = style == ScalarStyle::single_quoted ? '\'' : '"';
  for (uint32_t pos = offset + 1; pos < end; ++pos) {
    if (quote == '"' && text[pos] == '\\') {
      ++pos;  // an escape: the next character is not the closing quote
    } else if (text[pos] == quote) {
      if (quote == '\'' && pos + 1 < end && text[pos + 1] == '\'') {
        ++pos;  // '' stands for one quote
      } else {
        return true;
      }
    }
  }
  return false;
}

PieceTree read_piece(const YamlDocument& doc, Piece piece) {
  PieceTree tree;
  std::istringstream stream(std::string(std::string_view(doc.text).substr(piece.begin, piece.read_end - piece.begin)));
  try {
    YAML::Parser parser(stream);
    TreeBuilder builder(doc, tree.diagnostics, PieceStart{piece.begin, piece.line});
    if (!parser.HandleNextDocument(builder)) return {};
    tree.root = builder.take_root();
    if (auto quoted = builder.last_quoted();
        quoted && !closes_before(doc.text, quoted->offset, quoted->style, piece.read_end))
      return {};  // the scalar goes on past what was read
    if (builder.saw_key_without_colon()) return {};  // malformed: only one pass reads it right
    TreeBuilder rest(doc, tree.diagnostics, PieceStart{piece.begin, piece.line});
    if (parser.HandleNextDocument(rest)) return {};
  } catch (const YAML::Exception&) {
    return {};
  }
  if (!tree.root || !tree.root->is_sequence() || tree.root->flow) return {};
  if (piece.read_end > piece.end) {  // drop the next piece's first item, which was read too
    std::vector<YamlNode>& items = tree.root->items;
    if (items.size() < 2 || items.back().offset < piece.end || items[items.size() - 2].offset >= piece.end) return {};
    items.pop_back();
    std::erase_if(tree.diagnostics, [&](const Diagnostic& d) { return d.location.line >= piece.end_line; });
  }
  return tree;
}

// The file's tree read in pieces, or false when it cannot be (then nothing was changed).
bool read_in_pieces(YamlLoadResult& result, const YamlLoadOptions& options) {
  const std::vector<Piece> pieces = cut_into_pieces(result.document, options);
  if (pieces.empty()) return false;
  std::vector<PieceTree> trees(pieces.size());
  run_tasks(pieces.size(), [&](size_t i) { trees[i] = read_piece(result.document, pieces[i]); }, options.threads);
  for (const PieceTree& tree : trees)
    if (!tree.root) return false;
  YamlNode& root = *trees[0].root;
  for (size_t i = 1; i < trees.size(); ++i) {
    std::vector<YamlNode>& items = trees[i].root->items;
    root.items.insert(root.items.end(), std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
  }
  result.document.root = std::move(root);
  for (PieceTree& tree : trees)
    for (Diagnostic& d : tree.diagnostics) result.diagnostics.push_back(std::move(d));
  return true;
}

// ## Reading in one pass, with the errors

void read_in_one_pass(YamlLoadResult& result) {
  YamlDocument& doc = result.document;
  std::istringstream stream(doc.text);
  std::vector<Diagnostic> tree_diagnostics;
  try {
    YAML::Parser parser(stream);
    TreeBuilder builder(doc, tree_diagnostics);
    if (parser.HandleNextDocument(builder)) {
      doc.root = builder.take_root();
      TreeBuilder rest(doc, tree_diagnostics);
      if (parser.HandleNextDocument(rest)) {
        result.diagnostics.push_back(
            Diagnostic{Severity::error, "yaml-syntax", Location::at(doc.file, 0, 0),
                       "the file holds more than one YAML document; only one is read", {}, {}});
      }
    }
  } catch (const YAML::Exception& e) {
    result.syntax_error = true;
    doc.root.reset();
    tree_diagnostics.clear();
    uint32_t line = e.mark.is_null() ? 1 : static_cast<uint32_t>(e.mark.line + 1);
    uint32_t column = e.mark.is_null() ? 1 : static_cast<uint32_t>(e.mark.column + 1);
    // A tab already reported on that line explains the error; saying it twice is noise.
    bool explained = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                 [&](const Diagnostic& d) { return d.rule == "yaml-tab" && d.location.line == line; });
    if (!explained) {
      result.diagnostics.push_back(Diagnostic{Severity::error, "yaml-syntax",
                                              Location::at(doc.file, line, column),
                                              "invalid YAML: " + lower_first(e.msg), {}, {}});
    }
  }
  for (Diagnostic& d : tree_diagnostics) result.diagnostics.push_back(std::move(d));
}

}  // namespace

YamlLoadResult load_yaml(std::string file, std::string text, const YamlLoadOptions& options) {
  YamlLoadResult result;
  YamlDocument& doc = result.document;
  doc.file = std::move(file);
  doc.text = std::move(text);
  doc.line_starts.push_back(0);
  for (uint32_t i = 0; i < doc.text.size(); ++i) {
    if (doc.text[i] == '\n') doc.line_starts.push_back(i + 1);
  }
  report_tab_indentation(doc, result.diagnostics);
  if (!read_in_pieces(result, options)) read_in_one_pass(result);
  return result;
}

namespace {

size_t utf8_length(unsigned long code_point) {
  if (code_point < 0x80) return 1;
  if (code_point < 0x800) return 2;
  if (code_point < 0x10000) return 3;
  return 4;
}

// Raw characters of a double-quoted escape starting at `pos` (the backslash), and how many
// bytes it decodes to.
std::pair<size_t, size_t> escape_width(std::string_view raw, size_t pos) {
  if (pos + 1 >= raw.size()) return {1, 1};
  char c = raw[pos + 1];
  size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
  if (digits == 0) return {2, c == '\n' ? 0 : 1};
  std::string hex(raw.substr(pos + 2, digits));
  unsigned long code_point = std::strtoul(hex.c_str(), nullptr, 16);
  return {2 + digits, c == 'x' ? 1 : utf8_length(code_point)};
}

}  // namespace

std::pair<uint32_t, uint32_t> scalar_position(const YamlDocument& document, const YamlNode& node,
                                              size_t index) {
  std::string_view raw(document.text);
  bool quoted = node.style == ScalarStyle::single_quoted ||
                node.style == ScalarStyle::double_quoted;
  if (!quoted && node.style != ScalarStyle::plain) return {node.line, node.column};
  size_t pos = node.offset + (quoted ? 1 : 0);
  size_t decoded = 0;
  while (decoded < index && pos < raw.size()) {
    char c = raw[pos];
    if (c == '\n' || c == '\r') {
      // A line fold: the break and the next line's indentation decode to one character.
      while (pos < raw.size() && (raw[pos] == '\n' || raw[pos] == '\r' || raw[pos] == ' ' ||
                                  raw[pos] == '\t')) {
        ++pos;
      }
      ++decoded;
    } else if (node.style == ScalarStyle::single_quoted && c == '\'' &&
               pos + 1 < raw.size() && raw[pos + 1] == '\'') {
      pos += 2;
      ++decoded;
    } else if (node.style == ScalarStyle::double_quoted && c == '\\') {
      auto [width, bytes] = escape_width(raw, pos);
      pos += width;
      decoded += bytes;
    } else {
      ++pos;
      ++decoded;
    }
  }
  return document.position(static_cast<uint32_t>(std::min(pos, raw.size())));
}

Location node_location(const YamlDocument& document, const YamlNode& node, uint32_t length) {
  if (length == 0) {
    length = node.is_scalar() ? static_cast<uint32_t>(node.value.size()) : 1;
    if (node.style == ScalarStyle::single_quoted || node.style == ScalarStyle::double_quoted) {
      length += 2;
    }
  }
  return Location::at(document.file, node.line, node.column, length);
}

}  // namespace schemac::schema
