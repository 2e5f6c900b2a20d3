// run_tasks (parallel.h), also run under ThreadSanitizer (label tsan): every task runs once, with
// and without threads, and the lowest-numbered task's exception comes back.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "schemac/support/parallel.h"

namespace schemac::schema {
namespace {

TEST(RunTasks, RunsEveryTaskOnceWithAndWithoutThreads) {
  for (bool threads : {false, true}) {
    for (size_t count : {0u, 1u, 2u, 7u, 1000u}) {
      std::vector<std::atomic<int>> runs(count);
      support::run_tasks(count, [&](size_t i) { runs[i].fetch_add(1); }, threads);
      for (size_t i = 0; i < count; ++i) EXPECT_EQ(runs[i].load(), 1) << i;
    }
  }
}

TEST(RunTasks, RethrowsTheLowestNumberedTasksException) {
  std::atomic<int> finished{0};
  try {
    support::run_tasks(50, [&](size_t i) {
      if (i == 7 || i == 30) throw std::runtime_error("task " + std::to_string(i));
      finished.fetch_add(1);
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 7");
  }
  EXPECT_EQ(finished.load(), 48);  // the other tasks still ran
}

}  // namespace
}  // namespace schemac::schema
