// PEGTL's grammar analysis: no rule can loop without consuming input, no left recursion.
#include <gtest/gtest.h>
#include <tao/pegtl/contrib/analyze.hpp>

#include "schema_errors.h"
#include "schema_grammar.h"

namespace schemac::schema::grammar {
namespace {

TEST(Grammar, AnalysisFindsNoProblems) {
  EXPECT_EQ(tao::pegtl::analyze<schema>(1), 0u);
}

// Every point of no return has a message; must_if<errors, normal, true> also checks this at
// compile time for each rule used inside must<>.
TEST(Grammar, PointsOfNoReturnHaveMessages) {
  EXPECT_NE(errors::message<expect_operator_name>, nullptr);
  EXPECT_NE(errors::message<expect_arguments_close>, nullptr);
  EXPECT_NE(errors::message<expect_end>, nullptr);
  EXPECT_EQ(errors::message<type_name>, nullptr);
}

}  // namespace
}  // namespace schemac::schema::grammar
