// The loader: good libraries register, bad ones are reported with the loader's message and leave
// the registry exactly as it was (the registration transaction). In-process, on the process-wide
// registry; ctest runs each test in its own process.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "library_loader.h"
#include "schemac/dispatch/dispatcher.h"
#include "schemac/dispatch/registration_transaction.h"
#include "table_format.h"

namespace schemac::inspect {
namespace {

using dispatch::Dispatcher;

// Everything observable about the registry: each operator's dump and computed table, and the
// fallbacks.
std::string registry_state() {
  Dispatcher& d = Dispatcher::singleton();
  std::string out;
  for (const dispatch::OperatorEntry* op : d.operators())
    out += inspect::format_dump(*op, inspect::TableFormat::Text) +
           inspect::format_table(*op, inspect::TableFormat::Torch);
  for (const auto& f : d.fallbacks())
    out += std::string(dispatch::to_string(f.key)) + ":" + f.entry->debug + "\n";
  return out;
}

TEST(Loader, LoadsCppAndStableAbiLibraries) {
  ASSERT_TRUE(load_library(INSPECT_CPP_OPS_LIBRARY).ok);
  ASSERT_TRUE(load_library(INSPECT_EXAMPLE_PLUGIN).ok);
  EXPECT_NE(Dispatcher::singleton().find("inspect_test::twice"), nullptr);
  EXPECT_NE(Dispatcher::singleton().find("example_plugin::scale"), nullptr);
  EXPECT_NO_THROW(Dispatcher::singleton().check_invariants());
}

struct BadLibrary {
  const char* name;
  const char* path;
  std::vector<std::string> message_parts;  // the loader's own words
};

TEST(Loader, BadLibrariesLeaveTheRegistryAsItWas) {
  ASSERT_TRUE(load_library(INSPECT_CPP_OPS_LIBRARY).ok);
  const BadLibrary cases[] = {
      {"missing file", "/nonexistent/libnothing.so", {"No such file or directory"}},
      {"unresolved symbol",
       INSPECT_UNRESOLVED_LIBRARY,
       {"undefined symbol: schemac_inspect_test_symbol_that_nobody_defines"}},
      {"registration throws",
       INSPECT_THROWING_LIBRARY,
       {"registration block at ",
        "throwing_library.cpp:", "boom: this registration block throws on purpose"}},
      {"duplicate definition",
       INSPECT_DUPLICATE_LIBRARY,
       {"inspect_test::twice(Tensor self) -> Tensor",
        "cpp_ops_library.cpp:", "duplicate_library.cpp:"}},
      {"newer ABI", INSPECT_NEWER_ABI_PLUGIN, {"refusing plugin", "1.7"}},
  };
  for (const BadLibrary& c : cases) {
    const std::string before = registry_state();
    const LoadResult result = load_library(c.path);
    EXPECT_FALSE(result.ok) << c.name;
    for (const std::string& part : c.message_parts)
      EXPECT_NE(result.error.find(part), std::string::npos)
          << c.name << ": '" << part << "' not in: " << result.error;
    EXPECT_EQ(registry_state(), before) << c.name;
    EXPECT_NO_THROW(Dispatcher::singleton().check_invariants()) << c.name;
  }
  EXPECT_EQ(Dispatcher::singleton().find("throwing_test::fine"), nullptr);
  EXPECT_EQ(Dispatcher::singleton().find("duplicate_test::fresh"), nullptr);
  EXPECT_EQ(Dispatcher::singleton().find("newer_plugin::must_not_exist"), nullptr);
}

TEST(Loader, StopsAtTheFirstFailureWithALocatedMessage) {
  // (Another test of this process may have loaded the plugin already.)
  const bool plugin_was_loaded = Dispatcher::singleton().find("example_plugin::scale") != nullptr;
  std::ostringstream err;
  EXPECT_FALSE(load_libraries(
      {INSPECT_CPP_OPS_LIBRARY, "/nonexistent/libx.so", INSPECT_EXAMPLE_PLUGIN}, err));
  EXPECT_EQ(err.str().rfind("dispatch-inspect: error: cannot load '/nonexistent/libx.so': ", 0), 0u)
      << err.str();
  EXPECT_NE(Dispatcher::singleton().find("inspect_test::twice"), nullptr);
  EXPECT_EQ(Dispatcher::singleton().find("example_plugin::scale") != nullptr, plugin_was_loaded);
}

// The loader asks lib/inspector/elf's check before dlopen: a truncated library (which once killed the tool
// with SIGBUS when its pages were touched) is refused with why, and nothing is registered.
TEST(Loader, RefusesATruncatedLibraryAndTheRegistryStaysAsItWas) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("schemac_truncated_" + std::to_string(getpid()) + ".so");
  {
    std::ifstream in(INSPECT_CPP_OPS_LIBRARY, std::ios::binary);
    std::string bytes(4096, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::ofstream(path, std::ios::binary) << bytes;
  }
  const size_t before = dispatch::Dispatcher::singleton().operators().size();
  const LoadResult result = load_library(path.string());
  std::filesystem::remove(path);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("not a shared library"), std::string::npos) << result.error;
  EXPECT_EQ(dispatch::Dispatcher::singleton().operators().size(), before);
}

TEST(RegistrationTransaction, RollbackUndoesEveryKindOfRegistration) {
  Dispatcher d;
  auto keep = d.def("tx::kept(Tensor self) -> Tensor", "test.cpp:1");
  std::vector<dispatch::RegistrationHandle> handles;
  {
    dispatch::RegistrationTransaction tx(d);
    handles.push_back(d.def("tx::gone(Tensor self) -> Tensor", "test.cpp:2"));
    handles.push_back(d.impl("tx::kept", keys::DispatchKey::CPU,
                             dispatch::KernelFunction::make_fallthrough(), "", "test.cpp:3"));
    handles.push_back(d.fallback(keys::DispatchKey::XLA,
                                 dispatch::KernelFunction::make_fallthrough(), "", "test.cpp:4"));
    tx.rollback();
  }
  EXPECT_EQ(d.find("tx::gone"), nullptr);
  EXPECT_TRUE(d.find("tx::kept")->kernels(keys::DispatchKey::CPU).empty());
  EXPECT_EQ(d.fallback_entry(keys::DispatchKey::XLA), nullptr);
  handles.clear();  // the handles' own undo now does nothing
  EXPECT_NE(d.find("tx::kept"), nullptr);
  EXPECT_NO_THROW(d.check_invariants());
}

TEST(RegistrationTransaction, CommitKeepsAndOnlyOneIsOpen) {
  Dispatcher d;
  dispatch::RegistrationHandle h;
  {
    dispatch::RegistrationTransaction tx(d);
    EXPECT_THROW(dispatch::RegistrationTransaction second(d), dispatch::DispatchError);
    h = d.def("tx::op(Tensor self) -> Tensor", "test.cpp:1");
    tx.commit();
  }
  EXPECT_NE(d.find("tx::op"), nullptr);
  EXPECT_FALSE(dispatch::report_registration_failure("nobody listens"));
}

}  // namespace
}  // namespace schemac::inspect
