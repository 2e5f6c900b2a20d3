/* A plugin built for a newer ABI than the runtime's (1.7 and, with -DSCHEMAC_TEST_MAJOR=2, 2.0):
 * the loader must refuse it before running its registrations. Its register entry point would
 * define an operator, so a test can check that nothing was registered. */
#include "schemac/stable/abi.h"

#ifndef SCHEMAC_TEST_MAJOR
#define SCHEMAC_TEST_MAJOR 1
#define SCHEMAC_TEST_MINOR 7
#else
#define SCHEMAC_TEST_MINOR 0
#endif

static SchemacLibrary library;

SCHEMAC_ABI_EXPORT uint32_t schemac_plugin_abi_version(void) {
  return (SCHEMAC_TEST_MAJOR << 16) | SCHEMAC_TEST_MINOR;
}

SCHEMAC_ABI_EXPORT SchemacStatus schemac_plugin_register(void) {
  SchemacStatus s = schemac_library_create(0, "newer_plugin", 0, __FILE__, __LINE__, &library);
  if (s != SCHEMAC_OK) return s;
  return schemac_library_def(library, "must_not_exist(Tensor self) -> Tensor");
}

SCHEMAC_ABI_EXPORT void schemac_plugin_unregister(void) {
  schemac_library_destroy(library);
  library = 0;
}
