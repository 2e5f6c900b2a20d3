// What the parser's actions (parser.cpp) build a FunctionSchema with: the Builder and the
// per-thread scratch space it gathers pieces in. Private to lib/frontend/schema.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tao/pegtl.hpp>

#include "schema_storage.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/parser.h"

namespace schemac::schema::detail {

namespace pegtl = tao::pegtl;

// A container type being read (`(`, `Dict(`, `Union(`, `Future(`, ...): where its contained types
// start in Scratch::contained, and the suffix count of the type it is part of.
struct ContainerFrame {
  size_t first_contained = 0;
  int type_depth = 0;
};

// Where the pieces of an alias annotation or a list default gather while they are read, before
// they are copied to the schema's storage. One per thread, so that its capacity carries over from
// one parse to the next and reading them allocates nothing.
struct Scratch {
  std::vector<std::string_view> alias_before;
  std::vector<std::string_view> alias_after;
  std::vector<DefaultValue> default_items;
  std::vector<Type> contained;             // the contained types of the open containers, in order
  std::vector<ContainerFrame> containers;  // the open containers, innermost last
};
inline Scratch& scratch() {
  thread_local Scratch per_thread;
  return per_thread;
}

// What the actions build. Each argument and return is built in place: `entry` is the one being
// read (the last of schema.arguments or schema.returns). Element types, aliases and defaults go
// into the schema's storage as they are finished; the names are views into the storage's copy of
// the text, which the grammar runs over. Offsets are taken from the match pointers against `base`.
struct Builder {
  explicit Builder(SchemaStorage& storage) : storage(storage) {}

  SchemaStorage& storage;
  const char* base = nullptr;
  FunctionSchema schema;
  Argument* entry = nullptr;  // the argument or return being read
  AliasInfo alias;            // the alias annotation being read
  std::vector<std::string_view>& alias_before = scratch().alias_before;
  std::vector<std::string_view>& alias_after = scratch().alias_after;
  std::optional<int64_t> list_size;  // the N of a `[N]` being read
  int type_depth = 0;                // suffixes on the type being read
  bool in_default_list = false;      // a list default is being read
  TextRange default_list_range;
  std::vector<DefaultValue>& default_items = scratch().default_items;
  std::vector<Type>& contained = scratch().contained;
  std::vector<ContainerFrame>& containers = scratch().containers;
  uint32_t fresh_sets = 0;           // bare `!` seen so far: the next is `$<fresh_sets>`
  bool kwarg_only = false;           // a `*` was seen
  std::optional<SchemaError> error;  // a problem the grammar cannot express

  template <typename Input>
  std::string_view view_of(const Input& in) const {
    return {in.begin(), in.size()};
  }
  template <typename Input>
  TextRange range_of(const Input& in) const {
    return {static_cast<uint32_t>(in.begin() - base), static_cast<uint32_t>(in.end() - base)};
  }
  void fail(std::string message, TextRange range, std::string rule) {
    if (error) return;
    error = SchemaError{std::move(message), range.begin,
                        std::max<uint32_t>(1, range.end - range.begin), std::move(rule)};
  }
  // The type being read: the argument's or return's own, or, inside a container, the contained
  // type being read (always the last of `contained`).
  Type& type() { return containers.empty() ? entry->type : contained.back(); }
  void attach_alias(const AliasInfo& info) { type().alias = storage.copy(info); }
  // Types nest one level per suffix; walks over the model recurse, so the depth is bounded to keep
  // any input from exhausting the stack.
  static constexpr int kMaxTypeDepth = 32;
  static constexpr size_t kMaxContainerDepth = 32;
  template <typename Input>
  void open_container(const Input& in, Type::Kind kind) {
    if (containers.size() >= kMaxContainerDepth) {
      throw pegtl::parse_error(
          fmt::format("types nest more than {} containers deep", kMaxContainerDepth), in);
    }
    Type& node = type();
    node.kind = kind;
    node.name = {};
    node.range = range_of(in);
    containers.push_back({contained.size(), type_depth});
  }
  template <typename Input>
  void close_container(const Input& in) {
    ContainerFrame frame = containers.back();
    containers.pop_back();
    std::span<const Type> items(contained.data() + frame.first_contained,
                                contained.size() - frame.first_contained);
    std::span<const Type> stored = storage.copy(items);
    contained.resize(frame.first_contained);
    type_depth = frame.type_depth;
    Type& node = type();
    node.items = stored.data();
    node.item_count = static_cast<uint32_t>(stored.size());
    node.range.end = range_of(in).end;
  }
  void wrap_type(Type::Kind kind, uint32_t end) {
    Type& inner = type();
    if (++type_depth > kMaxTypeDepth) {
      fail(fmt::format("type nests more than {} '[]' and '?' suffixes", kMaxTypeDepth),
           {end - 1, end}, rules::schema_syntax);
      return;
    }
    // The type read so far moves to the storage and becomes the element of a new node.
    const Type* element = storage.copy(inner);
    inner = Type{};
    inner.kind = kind;
    inner.range = {element->range.begin, end};
    inner.elem = element;
  }
  void add_default(const DefaultValue& value) {
    if (in_default_list) {
      default_items.push_back(value);
    } else {
      entry->default_value = storage.copy(value);
    }
  }
  // The list default of the values in default_items, at `range`, stored with its canonical text:
  // "[0,1]" for `[0, 1]` (both parsers, parser.cpp and fast_parser.cpp, end a list default so).
  const DefaultValue* store_list_default(TextRange range) {
    DefaultValue list;
    list.kind = DefaultValue::Kind::List;
    list.items = storage.copy(std::span<const DefaultValue>(default_items));
    size_t size = 2 + (list.items.empty() ? 0 : list.items.size() - 1);
    for (const DefaultValue& item : list.items) size += item.text.size();
    char* text = storage.allocate_chars(size);
    char* out = text;
    *out++ = '[';
    for (size_t i = 0; i < list.items.size(); ++i) {
      if (i) *out++ = ',';
      out = std::copy(list.items[i].text.begin(), list.items[i].text.end(), out);
    }
    *out = ']';
    list.text = std::string_view(text, size);
    list.range = range;
    return storage.copy(list);
  }
};

}  // namespace schemac::schema::detail
