// The located YAML reader: libyaml's event parser feeding a tree builder. libyaml reads a
// native_functions.yaml in a few milliseconds, so the file is read whole, in one pass, and
// anchors, aliases and merge keys work as YAML defines them.
#include "schemac/yaml/yaml_loader.h"
#include "schemac/rules/rules.h"
#include "yaml_tabs.h"

#include <yaml.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

namespace schemac::yaml {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity;

const YamlNode* YamlNode::find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k.is_scalar() && k.value == key) return &v;
  }
  return nullptr;
}

std::pair<uint32_t, uint32_t> YamlDocument::position(uint32_t offset) const {
  if (line_starts.empty()) return {1, offset + 1};
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts.begin());
  if (line == 0) return {1, 1};  // inside a byte-order mark
  return {static_cast<uint32_t>(line), offset - line_starts[line - 1] + 1};
}

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool is_null_literal(std::string_view v) {
  return v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL";
}

// Builds the tree from libyaml's events. Containers under construction sit on a stack; a
// finished node is attached to the container below it (for a mapping: first as the pending
// key, then as that key's value). Anchored nodes are remembered, and an alias attaches a copy
// of the node it names (its positions stay those of the anchored node). libyaml hands an alias
// over as a reference, so ten lines of `a2: &a2 [*a1, *a1, ...]` would copy billions of nodes:
// the nodes copied are counted (an anchored node's count is known when it closes), and a document
// whose aliases would copy more than kCopiedNodes nodes beyond its own size stops, located at the
// alias that crossed the bound (yaml-alias-limit).
class TreeBuilder {
 public:
  TreeBuilder(const YamlDocument& document, std::vector<Diagnostic>& diagnostics, bool ascii)
      : doc_(document), diagnostics_(diagnostics), ascii_(ascii) {}

  // Handles one event; false when the document is complete.
  void scalar(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    YamlNode node = leaf(e.start_mark, YamlNode::Kind::scalar);
    if ((s.anchor != nullptr || s.tag != nullptr) && s.length > 0) skip_properties(node);
    node.value.assign(reinterpret_cast<const char*>(s.value), s.length);
    node.style = style_of(s.style);
    node.tagged = s.tag != nullptr;
    node.verbatim = is_verbatim(node, e.start_mark, e.end_mark);
    if (node.style == ScalarStyle::plain && !node.tagged && is_null_literal(node.value)) {
      node.kind = YamlNode::Kind::null;
      if (node.value.empty()) place_empty_value(node);
    }
    // A long value weighs as much as the nodes its bytes would make (what an alias copies).
    const size_t weight = 1 + node.value.size() / 64;
    made_ += weight - 1;
    if (s.anchor)
      anchors_[reinterpret_cast<const char*>(s.anchor)] = {std::make_shared<YamlNode>(node),
                                                           weight};
    attach(std::move(node), weight);
  }

  // A bound of the nodes aliases copy: beyond the document's own nodes, this many.
  static constexpr size_t kCopiedNodes = 100000;

  // Whether a bound was reached (the load stops).
  bool exhausted() const { return exhausted_; }

  void alias(const yaml_event_t& e) {
    std::string name(reinterpret_cast<const char*>(e.data.alias.anchor));
    auto it = anchors_.find(name);
    if (it == anchors_.end()) {
      YamlNode node = leaf(e.start_mark, YamlNode::Kind::null);
      alias_error(node, name, rules::yaml_syntax,
                  fmt::format("alias '*{}' names no anchor defined before it", name));
      attach(std::move(node));
      return;
    }
    if (!copy(it->second.nodes)) {
      alias_error(leaf(e.start_mark, YamlNode::Kind::null), name, rules::yaml_alias_limit,
                  fmt::format("alias '*{}' copies {} nodes, and the document's aliases would copy "
                              "more than {} beyond its own (aliases of aliases: a 'billion "
                              "laughs'); the file is not read further",
                              name, it->second.nodes, kCopiedNodes));
      return;
    }
    attach(YamlNode(*it->second.node), it->second.nodes);
  }

  // An error at the alias `*name` read as `at`.
  void alias_error(const YamlNode& at, const std::string& name, std::string_view rule,
                   std::string message) {
    Diagnostic d;
    d.rule = rule;
    d.location = node_location(doc_, at, static_cast<uint32_t>(name.size() + 1));
    d.message = std::move(message);
    diagnostics_.push_back(std::move(d));
  }

  void open(const yaml_event_t& e, YamlNode::Kind kind) {
    const bool sequence = kind == YamlNode::Kind::sequence;
    const yaml_char_t* anchor =
        sequence ? e.data.sequence_start.anchor : e.data.mapping_start.anchor;
    Frame frame{leaf(e.start_mark, kind), std::nullopt,
                anchor ? std::string(reinterpret_cast<const char*>(anchor)) : ""};
    frame.node.flow = sequence ? e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                               : e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
    stack_.push_back(std::move(frame));
  }

  void close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.node.is_mapping()) {
      merge_keys(frame.node);
      report_duplicate_keys(frame.node);
    }
    if (!frame.anchor.empty()) {
      if (!copy(frame.nodes)) return;  // remembering copies it too
      anchors_[frame.anchor] = {std::make_shared<YamlNode>(frame.node), frame.nodes};
    }
    attach(std::move(frame.node), frame.nodes);
  }

  std::optional<YamlNode> take_root() { return std::move(root_); }

 private:
  struct Frame {
    YamlNode node;
    std::optional<YamlNode> pending_key;
    std::string anchor;
    size_t nodes = 1;  // in the subtree so far, copies included
  };

  struct Anchored {
    std::shared_ptr<const YamlNode> node;
    size_t nodes = 1;
  };

  // Counts `nodes` copied; false once the bound is crossed (the load stops).
  bool copy(size_t nodes) {
    if (exhausted_) return false;
    copied_ += nodes;
    if (copied_ > kCopiedNodes + made_) exhausted_ = true;
    return !exhausted_;
  }

  // Whether a one-line plain or quoted scalar's value is the file's text as it stands, without
  // escapes, doubled quotes or folds: then scalar_position maps an index in one step.
  bool is_verbatim(const YamlNode& node, const yaml_mark_t& begin, const yaml_mark_t& end) const {
    const bool single = node.style == ScalarStyle::single_quoted;
    const bool double_quoted = node.style == ScalarStyle::double_quoted;
    if (!single && !double_quoted && node.style != ScalarStyle::plain) return false;
    // Every scalar passes here, so the common case is decided from the marks alone: in an ASCII
    // file (marks count bytes), a scalar on one line whose value is as long as its text, quotes
    // aside, has no escape, doubled quote, tag or anchor (each makes the text the longer).
    const size_t quotes = single || double_quoted ? 2 : 0;
    if (ascii_ && begin.line == end.line && end.index >= begin.index + quotes &&
        end.index - begin.index - quotes == node.value.size())
      return true;
    const size_t start = node.offset + (single || double_quoted ? 1 : 0);
    const std::string_view value = node.value;
    if (start > doc_.text.size() ||
        std::string_view(doc_.text).substr(start, value.size()) != value)
      return false;
    // Three vectorised searches (find_first_of would call memchr once per character).
    const char escape = single ? '\'' : double_quoted ? '\\' : '\n';
    return value.find('\n') == std::string_view::npos &&
           value.find('\r') == std::string_view::npos &&
           value.find(escape) == std::string_view::npos;
  }

  // An anchored or tagged scalar's event starts at its properties (`&name`, `!!str`): the node
  // starts at its text, after them (on the next line when the value starts there), where positions
  // inside the value are counted from. An empty one stays at its properties: it has no text.
  static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  void skip_properties(YamlNode& node) const {
    std::string_view text(doc_.text);
    size_t pos = node.offset;
    while (pos < text.size() && (text[pos] == '&' || text[pos] == '!')) {
      while (pos < text.size() && !is_blank(text[pos])) ++pos;
      while (pos < text.size() && is_blank(text[pos])) ++pos;
    }
    node.offset = static_cast<uint32_t>(pos);
    std::tie(node.line, node.column) = doc_.position(node.offset);
  }

  // libyaml counts columns in characters; positions here are bytes.
  uint32_t byte_offset(const yaml_mark_t& mark) const {
    const size_t line = std::min<size_t>(mark.line, doc_.line_starts.size() - 1);
    size_t pos = doc_.line_starts[line];
    if (ascii_) return static_cast<uint32_t>(std::min(pos + mark.column, doc_.text.size()));
    // Marks come in file order: on the line of the last one, walk on from it, so a long line of
    // many nodes costs its length once.
    size_t chars = 0;
    if (walked_line_ == line && walked_chars_ <= mark.column) {
      pos = walked_pos_;
      chars = walked_chars_;
    }
    for (; chars < mark.column && pos < doc_.text.size() && doc_.text[pos] != '\n'; ++chars) {
      ++pos;
      while (pos < doc_.text.size() && (static_cast<unsigned char>(doc_.text[pos]) & 0xC0) == 0x80)
        ++pos;
    }
    walked_line_ = line;
    walked_chars_ = chars;
    walked_pos_ = pos;
    return static_cast<uint32_t>(pos);
  }
  mutable size_t walked_line_ = static_cast<size_t>(-1);  // byte_offset's last walk
  mutable size_t walked_chars_ = 0;
  mutable size_t walked_pos_ = 0;

  YamlNode leaf(const yaml_mark_t& mark, YamlNode::Kind kind) {
    ++made_;
    YamlNode node;
    node.kind = kind;
    node.offset = byte_offset(mark);
    auto [line, column] = doc_.position(node.offset);
    node.line = line;
    node.column = column;
    return node;
  }

  static ScalarStyle style_of(yaml_scalar_style_t style) {
    switch (style) {
      case YAML_SINGLE_QUOTED_SCALAR_STYLE: return ScalarStyle::single_quoted;
      case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return ScalarStyle::double_quoted;
      case YAML_LITERAL_SCALAR_STYLE: return ScalarStyle::literal;
      case YAML_FOLDED_SCALAR_STYLE: return ScalarStyle::folded;
      default: return ScalarStyle::plain;
    }
  }

  // An empty value (`-` or `key:` with nothing after it) is marked at the token that follows
  // it, often on a later line. Point at the indicator the value belongs to instead.
  void place_empty_value(YamlNode& node) const {
    std::string_view text = doc_.text;
    size_t pos = std::min<size_t>(node.offset, text.size());
    while (pos > 0 && (text[pos - 1] == ' ' || text[pos - 1] == '\t' || text[pos - 1] == '\n' ||
                       text[pos - 1] == '\r'))
      --pos;
    if (pos == 0 || (text[pos - 1] != '-' && text[pos - 1] != ':' && text[pos - 1] != '?')) return;
    node.offset = static_cast<uint32_t>(pos - 1);
    auto [line, column] = doc_.position(node.offset);
    node.line = line;
    node.column = column;
  }

  void attach(YamlNode node, size_t nodes = 1) {
    if (stack_.empty()) {
      root_ = std::move(node);
      return;
    }
    Frame& top = stack_.back();
    top.nodes += nodes;
    if (top.node.kind == YamlNode::Kind::sequence) {
      top.node.items.push_back(std::move(node));
    } else if (!top.pending_key) {
      top.pending_key = std::move(node);
    } else {
      top.node.entries.push_back(YamlEntry{std::move(*top.pending_key), std::move(node)});
      top.pending_key.reset();
    }
  }

  // `<<: *base` (or `<<: [*a, *b]`) copies the named mappings' entries into this one, except
  // the keys this mapping writes itself; earlier mappings win over later ones (YAML 1.1).
  void merge_keys(YamlNode& map) {
    auto is_merge = [](const YamlEntry& e) {
      return e.key.is_scalar() && e.key.style == ScalarStyle::plain && e.key.value == "<<";
    };
    if (std::none_of(map.entries.begin(), map.entries.end(), is_merge)) return;
    std::vector<YamlEntry> own;
    std::vector<const YamlNode*> sources;
    for (YamlEntry& e : map.entries) {
      if (!is_merge(e)) {
        own.push_back(std::move(e));
        continue;
      }
      diagnostics_.push_back(
          Diagnostic{Severity::error,
                     rules::yaml_merge_key,
                     node_location(doc_, e.key, 2),
                     "merge key '<<': torchgen cannot read it (its loader builds every key before "
                     "merging and stops with "
                     "'could not determine a constructor for the tag merge'); write the fields out",
                     {},
                     {}});
      if (e.value.is_mapping()) {
        merged_.push_back(std::make_shared<YamlNode>(std::move(e.value)));
        sources.push_back(merged_.back().get());
      } else if (e.value.is_sequence() &&
                 std::all_of(e.value.items.begin(), e.value.items.end(),
                             [](const YamlNode& n) { return n.is_mapping(); })) {
        merged_.push_back(std::make_shared<YamlNode>(std::move(e.value)));
        for (const YamlNode& item : merged_.back()->items) sources.push_back(&item);
      } else {
        diagnostics_.push_back(Diagnostic{Severity::error,
                                          rules::yaml_syntax,
                                          node_location(doc_, e.value),
                                          "a merge key '<<' takes a mapping or a list of mappings",
                                          {},
                                          {}});
      }
    }
    std::vector<YamlEntry> merged;
    auto has = [&](const std::vector<YamlEntry>& list, const YamlNode& key) {
      return key.is_scalar() && std::any_of(list.begin(), list.end(), [&](const YamlEntry& e) {
               return e.key.is_scalar() && e.key.value == key.value;
             });
    };
    for (const YamlNode* source : sources) {
      for (const YamlEntry& e : source->entries) {
        if (!has(own, e.key) && !has(merged, e.key)) merged.push_back(e);
      }
    }
    map.entries = std::move(merged);
    for (YamlEntry& e : own) map.entries.push_back(std::move(e));
  }

  // PyYAML and yaml-cpp keep the last of two equal keys (torchgen's loader stops on them);
  // report every repeat with a note at the first one.
  void report_duplicate_keys(const YamlNode& map) {
    const auto& entries = map.entries;
    if (entries.size() < 2) return;
    std::unordered_map<std::string_view, const YamlNode*> first_seen;
    for (const auto& [key, value] : entries) {
      if (!key.is_scalar()) continue;
      auto [it, inserted] = first_seen.emplace(key.value, &key);
      if (inserted) continue;
      Diagnostic d{Severity::error,
                   rules::duplicate_key,
                   node_location(doc_, key, static_cast<uint32_t>(key.value.size())),
                   fmt::format("key '{}' is defined twice in this mapping", key.value),
                   {},
                   {}};
      d.notes.push_back(diagnostics::Note{
          node_location(doc_, *it->second, static_cast<uint32_t>(key.value.size())),
          fmt::format("'{}' was first defined here", key.value)});
      diagnostics_.push_back(std::move(d));
    }
  }

  const YamlDocument& doc_;
  std::vector<Diagnostic>& diagnostics_;
  bool ascii_;
  std::vector<Frame> stack_;
  std::optional<YamlNode> root_;
  std::unordered_map<std::string, Anchored> anchors_;
  std::vector<std::shared_ptr<YamlNode>> merged_;
  size_t made_ = 0;    // nodes read from the file's events
  size_t copied_ = 0;  // nodes aliases copied
  bool exhausted_ = false;
};

struct ParserGuard {
  yaml_parser_t parser;
  ParserGuard() { yaml_parser_initialize(&parser); }
  ~ParserGuard() { yaml_parser_delete(&parser); }
};

struct EventGuard {
  yaml_event_t event;
  ~EventGuard() { yaml_event_delete(&event); }
};

void read_events(YamlLoadResult& result, bool ascii) {
  YamlDocument& doc = result.document;
  ParserGuard guard;
  yaml_parser_set_input_string(
      &guard.parser, reinterpret_cast<const unsigned char*>(doc.text.data()), doc.text.size());
  std::vector<Diagnostic> tree_diagnostics;
  TreeBuilder builder(doc, tree_diagnostics, ascii);
  int documents = 0;
  for (bool done = false; !done;) {
    EventGuard e;
    if (!yaml_parser_parse(&guard.parser, &e.event)) {
      const yaml_parser_t& p = guard.parser;
      result.syntax_error = true;
      doc.root.reset();
      const auto line = static_cast<uint32_t>(p.problem_mark.line + 1);
      // A tab already reported on that line explains the error; saying it twice is noise.
      bool explained = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                   [&](const Diagnostic& d) {
                                     return d.rule == rules::yaml_tab && d.location.line == line;
                                   });
      if (!explained) {
        YamlNode at;
        yaml_mark_t mark = p.problem_mark;
        std::string message =
            fmt::format("invalid YAML: {}", p.problem ? p.problem : "syntax error");
        if (p.context)
          message += fmt::format(" ({} at line {})", p.context, p.context_mark.line + 1);
        // libyaml's marks count characters; positions here are bytes.
        uint32_t offset = doc.line_starts[std::min<size_t>(mark.line, doc.line_starts.size() - 1)];
        size_t column = 0;
        for (size_t chars = 0;
             chars < mark.column && offset < doc.text.size() && doc.text[offset] != '\n'; ++chars) {
          ++offset;
          while (offset < doc.text.size() &&
                 (static_cast<unsigned char>(doc.text[offset]) & 0xC0) == 0x80)
            ++offset;
        }
        column = doc.position(offset).second;
        result.diagnostics.push_back(Diagnostic{
            Severity::error,
            rules::yaml_syntax,
            Location::at(doc.file, doc.position(offset).first, static_cast<uint32_t>(column)),
            std::move(message),
            {},
            {}});
      }
      return;
    }
    switch (e.event.type) {
      case YAML_STREAM_END_EVENT: done = true; break;
      case YAML_DOCUMENT_START_EVENT:
        if (++documents == 2) {
          result.diagnostics.push_back(Diagnostic{
              Severity::error,
              rules::yaml_syntax,
              Location::at(doc.file, static_cast<uint32_t>(e.event.start_mark.line + 1), 1),
              "the file holds more than one YAML document; only the first is read",
              {},
              {}});
          done = true;
        }
        break;
      case YAML_SCALAR_EVENT: builder.scalar(e.event); break;
      case YAML_ALIAS_EVENT: builder.alias(e.event); break;
      case YAML_SEQUENCE_START_EVENT: builder.open(e.event, YamlNode::Kind::sequence); break;
      case YAML_MAPPING_START_EVENT: builder.open(e.event, YamlNode::Kind::mapping); break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: builder.close(); break;
      default: break;
    }
    if (builder.exhausted()) {  // what aliases would copy is past the bound: stop here
      result.syntax_error = true;
      for (Diagnostic& d : tree_diagnostics) result.diagnostics.push_back(std::move(d));
      return;
    }
  }
  doc.root = builder.take_root();
  for (Diagnostic& d : tree_diagnostics) result.diagnostics.push_back(std::move(d));
}

}  // namespace

YamlLoadResult load_yaml(std::string file, std::string text) {
  YamlLoadResult result;
  YamlDocument& doc = result.document;
  doc.file = std::move(file);
  doc.text = std::move(text);
  const bool bom = std::string_view(doc.text).starts_with(kBom);
  doc.line_starts.push_back(bom ? static_cast<uint32_t>(kBom.size()) : 0);
  bool ascii = true;
  for (uint32_t i = 0; i < doc.text.size(); ++i) {
    const char c = doc.text[i];
    if (c == '\n') doc.line_starts.push_back(i + 1);
    ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  }
  report_tab_indentation(doc, result.diagnostics);
  read_events(result, ascii && !bom);
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

// The position of decoded character `index` of a literal (|) or folded (>) block scalar: its
// content starts on the line after the indicator, indented; each content line decodes to its
// text and one line break (or folding space).
std::pair<uint32_t, uint32_t> block_position(const YamlDocument& document, const YamlNode& node,
                                             size_t index) {
  std::string_view raw(document.text);
  size_t pos = raw.find('\n', node.offset);
  if (pos == std::string_view::npos) return {node.line, node.column};
  ++pos;
  size_t indent = std::string_view::npos;
  size_t decoded = 0;
  size_t last = pos;
  while (pos < raw.size()) {
    size_t end = raw.find('\n', pos);
    if (end == std::string_view::npos) end = raw.size();
    std::string_view line = raw.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t spaces = std::min(line.find_first_not_of(' '), line.size());
    if (spaces == line.size()) {  // a blank line: one line break
      ++decoded;
    } else {
      if (indent == std::string_view::npos) indent = spaces;
      if (spaces < indent) break;  // the scalar ended
      const size_t length = line.size() - indent;
      if (index < decoded + length)
        return document.position(static_cast<uint32_t>(pos + indent + index - decoded));
      decoded += length + 1;
      last = pos + indent + length;
    }
    pos = end + 1;
  }
  return document.position(static_cast<uint32_t>(std::min(last, raw.size())));
}

}  // namespace

std::pair<uint32_t, uint32_t> scalar_position(const YamlDocument& document, const YamlNode& node,
                                              size_t index) {
  std::string_view raw(document.text);
  bool quoted =
      node.style == ScalarStyle::single_quoted || node.style == ScalarStyle::double_quoted;
  if (!quoted && node.style != ScalarStyle::plain) return block_position(document, node, index);
  size_t pos = node.offset + (quoted ? 1 : 0);
  if (node.verbatim && index <= node.value.size())
    return document.position(static_cast<uint32_t>(std::min(pos + index, raw.size())));
  size_t decoded = 0;
  while (decoded < index && pos < raw.size()) {
    char c = raw[pos];
    if (c == '\n' || c == '\r') {
      // A line fold: the break and the next line's indentation decode to one character.
      while (pos < raw.size() &&
             (raw[pos] == '\n' || raw[pos] == '\r' || raw[pos] == ' ' || raw[pos] == '\t')) {
        ++pos;
      }
      ++decoded;
    } else if (node.style == ScalarStyle::single_quoted && c == '\'' && pos + 1 < raw.size() &&
               raw[pos + 1] == '\'') {
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

}  // namespace schemac::yaml
