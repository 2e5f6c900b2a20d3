// run_tasks (parallel.h): a shared counter hands out task numbers to the calling thread and to
// helper threads started for the call.
#include "schemac/support/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace schemac::schema {

size_t task_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

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
  {
    std::vector<std::jthread> helpers;  // joined at the end of this block
    const size_t wanted = use_threads ? std::min(count, task_threads()) : 1;
    for (size_t t = 1; t < wanted; ++t) {
      try {
        helpers.emplace_back(work);
      } catch (const std::system_error&) {
        break;  // no more threads to be had: the ones running finish the work
      }
    }
    work();
  }
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace schemac::schema
