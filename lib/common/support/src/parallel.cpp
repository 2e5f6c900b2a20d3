// run_tasks (parallel.h) on the one thread pool (thread_pool.h): one pool chunk per thread, and
// inside each a shared counter hands out task numbers, so long tasks do not hold up short ones.
#include "schemac/support/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <vector>

#include "schemac/support/thread_pool.h"

namespace schemac::support {

size_t task_threads() { return static_cast<size_t>(support::num_threads()); }

void run_tasks(size_t count, const std::function<void(size_t)>& task, bool use_threads) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      try {
        task(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const size_t workers = use_threads ? std::min(count, task_threads()) : 1;
  if (workers <= 1) {
    work();
  } else {
    support::parallel_for(0, static_cast<int64_t>(workers), 1, [&](int64_t, int64_t) { work(); });
  }
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace schemac::support
