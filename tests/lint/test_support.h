// Helpers shared by the lint tests: reading files and running the schemac binary
// (tests/common/cli_test_support.h).
#pragma once

#include "../common/cli_test_support.h"

namespace schemac::lint_test {

using test::read_file;
using test::update_golden;
using test::write_file;

}  // namespace schemac::lint_test
