// Test helpers shared by D1's dispatcher tests: a fresh registry with the default fallbacks, and
// table cells written the way PythonDispatcher prints them.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schemac/dispatch/dispatcher.h"

namespace schemac::dispatch::testing {

using keys::to_string;

inline void noop_kernel(const OperatorHandle&, keys::DispatchKeySet, Stack*) {}

inline keys::DispatchKey key_named(const std::string& name) {
  const auto key = keys::parse_dispatch_key(name);
  if (!key) throw DispatchError("test uses an unknown key " + name);
  return *key;
}

// "fn_CPU [kernel]", "fallthrough [backend fallback]", "[backend fallback]", or "-" when missing.
inline std::string cell(const TableEntry& e) {
  if (!e.kernel.is_valid()) return "-";
  std::string out = e.kernel.is_fallthrough() ? "fallthrough " : "";
  if (e.reason != EntryReason::BackendFallback) out += e.debug + " ";
  return out + "[" + std::string(to_string(e.reason)) + "]";
}

class TestRegistry {
 public:
  static constexpr const char* kOp = "test::foo";
  explicit TestRegistry(bool default_fallbacks = true) {
    if (default_fallbacks) register_default_fallbacks(dispatcher);
  }
  ~TestRegistry() {
    while (!handles.empty()) handles.pop_back();
  }
  void def(const std::string& schema = "test::foo(Tensor x) -> Tensor") {
    handles.push_back(dispatcher.def(schema, "test.cpp:1"));
  }
  // Registers fn_<key> (or fn_CatchAll for "catchall") on test::foo.
  void impl(const std::string& key, const std::string& debug = "") {
    const std::optional<keys::DispatchKey> k = key == "catchall" ? std::nullopt : std::optional(key_named(key));
    handles.push_back(dispatcher.impl(kOp, k, KernelFunction::make_from_boxed(&noop_kernel),
                                      debug.empty() ? "fn_" + (key == "catchall" ? std::string("CatchAll") : key) : debug,
                                      "test.cpp:2"));
  }
  const OperatorEntry& op() const {
    const OperatorEntry* op = dispatcher.find(kOp);
    if (!op) throw DispatchError("test::foo is not registered");
    return *op;
  }
  std::string cell(const std::string& key) const { return testing::cell(op().entry(key_named(key))); }

  Dispatcher dispatcher;
  std::vector<RegistrationHandle> handles;
};

}  // namespace schemac::dispatch::testing
