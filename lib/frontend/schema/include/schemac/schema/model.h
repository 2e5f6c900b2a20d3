// The model of a PyTorch function schema:
//   [ns::]name[.overload](arguments) -> returns
// A FunctionSchema is plain data. It is filled by the parser (parser.h), printed back by the
// printer (printer.h) and read by lint, gen, compat and the dispatcher. Every piece remembers
// where it came from as a byte range inside the schema text, so diagnostics can point at it.
//
// Storage. A parsed FunctionSchema owns one block of storage (FunctionSchema::storage): a copy of
// its text, the element types of its Optional and List types, its alias annotations, default
// values and alias-set lists. The model points into that block: names are string_views, and
// `Type::elem`, `Type::alias`, `Argument::default_value` are plain pointers. Everything in it is
// trivially copyable, so building a schema makes no allocation per name, type or alias. Copies of
// a FunctionSchema share the block, which never changes once parsed, so their pointers stay valid;
// a piece (an Argument, a Type) is valid only while a schema holding its storage lives. A schema
// built by hand may point at anything that outlives it (string literals, locals of a test).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::schema {

// A half-open byte range [begin, end) inside the schema text that was parsed.
struct TextRange {
  uint32_t begin = 0;
  uint32_t end = 0;
  friend bool operator==(const TextRange&, const TextRange&) = default;
};

// An alias annotation such as `(a)`, `(a!)`, `(a! -> a|b)`, `(a -> *)` or the bare `!`, in
// PyTorch's model of it (c10::AliasInfo):
//   before: the alias sets the value belongs to on entry (`a`, or `a|b` for several). A bare `!`
//           gets a fresh set of its own, named `$0`, `$1`, ... in order of appearance in the
//           schema (`is_fresh`).
//   after:  the alias sets after the call. With `->` the sets written after it; without, the same
//           sets as `before` (PyTorch's rule); empty for a bare `!`. The wildcard set is "*".
//   is_write: the `!` flag; the value is written to.
struct AliasInfo {
  std::span<const std::string_view> before;
  std::span<const std::string_view> after;
  bool is_write = false;
  bool has_arrow = false;  // an explicit `->` was written (printing keeps it)
  bool is_fresh = false;   // the bare `!`: `before` holds its one fresh set `$N`
  TextRange range;
  friend bool operator==(const AliasInfo& a, const AliasInfo& b);
};

// The leaf types PyTorch schemas use. `NoneType` is spelled `None` or `NoneType` (the spelling is
// kept in Type::name). `Named` covers anything else that parses as a type name (custom classes
// such as `__torch__.torch.classes.ns.Foo`, type variables `t`); its spelling is kept too.
// clang-format off
enum class BaseType : uint8_t {
  Tensor, Int, Float, Bool, Str, Scalar, ScalarType, Layout, Device, DeviceIndex, MemoryFormat,
  Generator, Storage, Stream, Dimname, Complex, SymInt, SymFloat, SymBool, QScheme, Any,
  ConstQuantizerPtr, Capsule, NoneType, Quantizer, AnyClassType, AnyEnumType, Named,
};
// clang-format on

// A type: a tree of Optional / List / container nodes down to Base leaves.
//   `Tensor?[]`  -> List(Optional(Base Tensor))
//   `int[]?`     -> Optional(List(Base int))
//   `SymInt[1]?` -> Optional(List(Base SymInt), fixed_size 1)
//   `Tensor(a)[]`-> List(Base Tensor with alias (a))
//   `(int, str)` -> Tuple with items int, str;  `Dict(str, Tensor)` -> Dict with items key, value
//   `Union(int, str)` -> Union with its items;  `Future(t)`, `RRef(t)`, `Await(t)` -> one item
// An alias annotation sits on the node it was written after: for `Tensor(a)[]` on the element.
struct Type {
  enum class Kind : uint8_t { Base, Optional, List, Tuple, Dict, Union, Future, RRef, Await };
  Kind kind = Kind::Base;
  BaseType base = BaseType::Tensor;   // Kind::Base only
  std::optional<int64_t> fixed_size;  // List only: `[N]`
  std::string_view name;              // Kind::Base: the spelling as written (e.g. "int")
  const Type* elem = nullptr;         // Optional/List: the element type
  const Type* items = nullptr;        // Tuple/Dict/Union/Future/RRef/Await: `item_count`
  uint32_t item_count = 0;            //   contained types, in the order written
  const AliasInfo* alias = nullptr;   // annotation written on this node, if any
  TextRange range;

  const Type& element() const { return *elem; }
  std::span<const Type> contained() const;
  bool is_optional() const { return kind == Kind::Optional; }
  bool is_list() const { return kind == Kind::List; }
  // Optional and List wrap one element; every other kind but Base holds `contained()` types.
  bool is_wrapper() const { return kind == Kind::Optional || kind == Kind::List; }
  // Strips Optional and List wrappers down to the leaf: a Base or a container type.
  const Type& leaf() const {
    const Type* node = this;
    while (node->is_wrapper()) node = node->elem;
    return *node;
  }
  bool is_base(BaseType b) const { return kind == Kind::Base && base == b; }
  // Tensor, Tensor?, Tensor[], Tensor?[] (what the dispatcher extracts keys from).
  bool is_tensor_like() const;
  // The alias annotation nearest the top, through Optional and List wrappers (not into the
  // contained types of a container), and whether it writes.
  const AliasInfo* any_alias() const;
  bool is_mutable() const {
    const AliasInfo* a = any_alias();
    return a && a->is_write;
  }
};

inline std::span<const Type> Type::contained() const { return {items, item_count}; }

// The alias annotation of a whole argument or return as PyTorch models it (Argument::alias_info):
// a list type's own annotation, or, when only its element has one, an annotation with no sets that
// takes the element's write flag and contains the element's. Null when there is none.
struct ArgumentAlias {
  std::span<const std::string_view> before;
  std::span<const std::string_view> after;
  bool is_write = false;
  const AliasInfo* contained = nullptr;  // the element's annotation, when a list wraps it
};
std::optional<ArgumentAlias> argument_alias(const Type& type);

// A default value as written. `text` is the canonical spelling; `kind` tells what it is.
struct DefaultValue {
  enum class Kind : uint8_t { Int, Float, Bool, None, String, List, Identifier, Complex };
  Kind kind = Kind::None;
  std::string_view text;                // canonical text: "-1", "1e-05", "True", "'none'", "[0,1]"
  std::span<const DefaultValue> items;  // Kind::List only
  TextRange range;
};

struct Argument {
  Type type;
  std::string_view name;  // empty only for unnamed returns
  const DefaultValue* default_value = nullptr;
  bool kwarg_only = false;  // declared after `*`
  TextRange range;          // the whole argument
  TextRange name_range;
};

// "name.overload", or "name" when there is no overload: how an operator is named in full.
std::string operator_full_name(std::string_view name, std::string_view overload);

struct OperatorName {
  std::string_view name;      // with namespace when written: "aten::add"
  std::string_view overload;  // "" when absent
  TextRange range;
  std::string_view base_name() const {  // without namespace
    auto colons = namespace_end();
    return colons == std::string_view::npos ? name : name.substr(colons + 2);
  }
  std::string_view ns() const {  // "" when absent
    auto colons = namespace_end();
    return colons == std::string_view::npos ? std::string_view() : name.substr(0, colons);
  }
  // Where the last "::" starts (name.rfind("::")), or npos; memrchr reads a word at a time.
  std::size_t namespace_end() const {
    for (std::size_t end = name.size(); end >= 2;) {
      const char* colon = static_cast<const char*>(::memrchr(name.data(), ':', end));
      if (!colon) break;
      if ((end = static_cast<std::size_t>(colon - name.data())) > 0 && name[end - 1] == ':')
        return end - 1;
    }
    return std::string_view::npos;
  }
  std::string full() const { return operator_full_name(name, overload); }  // "aten::add.Tensor"
};

class SchemaStorage;  // the block a parsed schema points into (schema_storage.h)

struct FunctionSchema {
  OperatorName op;
  std::vector<Argument> arguments;
  std::vector<Argument> returns;       // name is empty when the return is unnamed
  bool is_vararg = false;              // `...` ends the arguments
  bool is_varret = false;              // `...` as the return
  bool returns_parenthesized = false;  // `-> (Tensor)` vs `-> Tensor`; kept for a lossless print
  bool trailing_kwarg_marker = false;  // a `*` with no keyword-only argument after it (a warning)
  uint8_t kwarg_markers = 0;           // how many `*` were written (more than one is a warning)
  uint32_t kwarg_marker_offset = 0;    // where the first `*` is
  TextRange returns_range;
  // The schema text as parsed: every TextRange is an offset into it. Empty for a schema built by
  // hand.
  std::string_view text;
  // What the pointers and names above point into (see the top of this file); null for a schema
  // built by hand.
  std::shared_ptr<const SchemaStorage> storage;
};

// Gives `schema` the operator name `name` (such as "aten::add"), copying it into storage the schema
// owns. The other names, pointers and every TextRange stay as they were.
void set_operator_name(FunctionSchema& schema, std::string_view name);

}  // namespace schemac::schema
