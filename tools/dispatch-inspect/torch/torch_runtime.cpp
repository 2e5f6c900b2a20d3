// libtorch's dispatcher as an inspect Runtime (torch_runtime.h): c10's keys and key sets as they
// are, and libtorch's registry through torch_registry.h.
#include "torch_runtime.h"

#include <dlfcn.h>

#include <filesystem>
#include <set>
#include <sstream>

#include <ATen/core/dispatch/DispatchKeyExtractor.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/version.h>

#include "schemac/inspect/names.h"
#include "torch_registry.h"

namespace schemac::inspect::torch_runtime {
namespace {

using c10::DispatchKey;

c10::DispatchKeySet c10_set(KeySet set) {
  return c10::DispatchKeySet(c10::DispatchKeySet::RAW, set.bits);
}
KeySet neutral(c10::DispatchKeySet set) { return {set.raw_repr()}; }
DispatchKey key_of(Key key) { return static_cast<DispatchKey>(key); }

// The libtorch this process answers from: the file that holds c10's dispatcher.
std::string libtorch_file() {
  Dl_info where{};
  if (dladdr(static_cast<const void*>(&c10::Dispatcher::singleton()), &where) == 0 ||
      where.dli_fname == nullptr)
    return "";
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::canonical(where.dli_fname, ec);
  return ec ? where.dli_fname : real.string();
}

class TorchRuntime final : public Runtime {
 public:
  RuntimeKind kind() const override { return host_ ? RuntimeKind::Python : RuntimeKind::Torch; }
  report::RuntimeInfo info() const override {
    report::RuntimeInfo info = host_ ? *host_ : report::RuntimeInfo{"torch"};
    if (info.torch_version.empty()) info.torch_version = TORCH_VERSION;
    info.library = libtorch_file();
    return info;
  }
  void run_in_python(report::RuntimeInfo host) { host_ = std::move(host); }

  std::optional<Key> parse_key(std::string_view name) const override {
    try {
      return static_cast<Key>(c10::parseDispatchKey(std::string(name)));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  bool is_runtime_key(Key key) const override {
    return !c10::isAliasDispatchKey(key_of(key)) && key_of(key) != DispatchKey::Undefined &&
           c10::DispatchKeySet(c10::DispatchKeySet::FULL).has(key_of(key));
  }
  std::string key_name(Key key) const override { return c10::toString(key_of(key)); }
  std::vector<std::string> key_names() const override {
    std::vector<std::string> known;
    for (uint16_t i = 0; i <= static_cast<uint16_t>(DispatchKey::EndOfAliasKeys); ++i) {
      const std::string text = c10::toString(static_cast<DispatchKey>(i));
      if (text.rfind("StartOf", 0) != 0 && text.rfind("EndOf", 0) != 0 &&
          text != "UNKNOWN_TENSOR_TYPE_ID")
        known.push_back(text);
    }
    return known;
  }
  KeySet set_of(Key key) const override { return neutral(c10::DispatchKeySet(key_of(key))); }
  std::string set_text(KeySet set) const override {
    std::ostringstream out;
    out << c10_set(set);
    return out.str();
  }
  std::vector<Key> keys_in(KeySet set) const override {
    std::vector<Key> out;
    for (DispatchKey k : c10_set(set)) out.push_back(static_cast<Key>(k));
    return out;
  }
  Key highest(KeySet set) const override {
    return static_cast<Key>(c10_set(set).highestPriorityTypeId());
  }
  Key undefined() const override { return static_cast<Key>(DispatchKey::Undefined); }
  KeySet functionality_of(Key key) const override {
    return neutral(c10::DispatchKeySet(c10::toFunctionalityKey(key_of(key))));
  }
  KeySet backend_bits() const override { return {c10::full_backend_mask}; }
  KeySet full_after(Key key) const override {
    return neutral(c10::DispatchKeySet(c10::DispatchKeySet::FULL_AFTER, key_of(key)));
  }
  KeySet after_autograd() const override { return neutral(c10::after_autograd_keyset); }
  KeySet with_thread_local(KeySet keys, KeySet included, KeySet excluded) const override {
    // computeDispatchKeySet, which every call of libtorch's dispatcher goes through (with the
    // operator's fallthrough mask, here every key), on the thread's sets made these meanwhile.
    c10::impl::PODLocalDispatchKeySet local{};
    local.set_included(c10_set(included));
    local.set_excluded(c10_set(excluded));
    const c10::impl::ForceDispatchKeyGuard guard(local);
    return neutral(c10::impl::computeDispatchKeySet(
        c10_set(keys), c10::DispatchKeySet(c10::DispatchKeySet::FULL)));
  }
  KeyKind kind_of(Key key) const override {
    const DispatchKey k = key_of(key);
    const DispatchKey f = c10::toFunctionalityKey(k);
    if (k == DispatchKey::Undefined) return KeyKind::Undefined;
    if (f == DispatchKey::Dense || f == DispatchKey::Quantized || f == DispatchKey::Sparse ||
        f == DispatchKey::NestedTensor ||
        c10::isIncludedInAlias(k, DispatchKey::CompositeExplicitAutograd))
      return KeyKind::Backend;
    if (c10::autograd_dispatch_keyset.has(f)) return KeyKind::Autograd;
    if (k == DispatchKey::ADInplaceOrView) return KeyKind::ADInplaceOrView;
    if (c10::autocast_dispatch_keyset.has(k)) return KeyKind::Autocast;
    if (k == DispatchKey::Python) return KeyKind::Python;
    if (k == DispatchKey::Functionalize) return KeyKind::Functionalize;
    if (k == DispatchKey::BackendSelect) return KeyKind::BackendSelect;
    return KeyKind::Other;
  }
  KeySet default_included() const override { return neutral(c10::default_included_set); }
  KeySet default_excluded() const override { return neutral(c10::default_excluded_set); }

  Loaded load(const std::string& path, std::ostream& err) override {
    if (!loaded_.insert(path).second) return Loaded::Before;
    return load_library(path, err) ? Loaded::Now : Loaded::Failed;
  }
  report::Operators operators() const override { return operators_of(); }
  bool has_operator(const std::string& name) const override {
    return find_operator(name).has_value();
  }
  report::Table table(const std::string& name, bool all_keys) const override {
    return table_of(*find_operator(name), all_keys);
  }
  report::Dump dump(const std::string& name) const override {
    return dump_of(*find_operator(name));
  }
  bool takes_tensors(const std::string& name) const override {
    const auto op = find_operator(name);
    if (!op->hasSchema()) return true;
    for (const c10::Argument& a : op->schema().arguments()) {
      const c10::TypePtr& type = a.type();
      if (type->kind() == c10::TypeKind::TensorType) return true;
      if (auto optional = type->cast<c10::OptionalType>();
          optional && optional->getElementType()->kind() == c10::TypeKind::TensorType)
        return true;
      if (auto list = type->cast<c10::ListType>()) {
        c10::TypePtr element = list->getElementType();
        if (auto optional = element->cast<c10::OptionalType>())
          element = optional->getElementType();
        if (element->kind() == c10::TypeKind::TensorType) return true;
      }
    }
    return false;
  }

 private:
  std::set<std::string> loaded_;
  std::optional<report::RuntimeInfo> host_;
};

TorchRuntime& the_runtime() {
  static TorchRuntime runtime;
  return runtime;
}

}  // namespace

Runtime& torch_runtime() { return the_runtime(); }

void run_in_python(report::RuntimeInfo host) { the_runtime().run_in_python(std::move(host)); }

}  // namespace schemac::inspect::torch_runtime
