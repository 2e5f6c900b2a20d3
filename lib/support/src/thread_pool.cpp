#include "schemac/support/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace schemac::kernels {
namespace {

thread_local bool t_in_parallel = false;

int configured_threads() {
  if (const char* env = std::getenv("SCHEMAC_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return std::min(n, 256);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// One parallel_for in flight: chunks are claimed by index until none is left.
struct Job {
  const std::function<void(int64_t, int64_t)>* fn = nullptr;
  int64_t begin = 0, end = 0, chunk = 0, num_chunks = 0;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
  std::mutex error_mutex;
  std::exception_ptr error;

  // Runs chunks until none is left; returns after this thread's last one.
  void work() {
    for (int64_t c = next.fetch_add(1); c < num_chunks; c = next.fetch_add(1)) {
      const int64_t b = begin + c * chunk;
      const int64_t e = std::min(end, b + chunk);
      try {
        (*fn)(b, e);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
      done.fetch_add(1, std::memory_order_acq_rel);
    }
  }
};

class ThreadPool {
 public:
  explicit ThreadPool(int threads) : threads_(threads) {
    for (int i = 1; i < threads_; ++i) workers_.emplace_back([this] { worker_loop(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  int threads() const { return threads_; }

  void run(Job& job) {
    std::unique_lock run_lock(run_mutex_);  // one job at a time; others wait their turn
    {
      std::lock_guard lock(mutex_);
      job_ = &job;
      ++generation_;
    }
    wake_.notify_all();
    t_in_parallel = true;
    job.work();
    t_in_parallel = false;
    // Wait for chunks other threads are still running, then for every worker to let go of job.
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return job.done.load() == job.num_chunks && active_ == 0; });
    job_ = nullptr;
  }

 private:
  void worker_loop() {
    t_in_parallel = true;
    uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || (job_ != nullptr && generation_ != seen); });
      if (stopping_) return;
      seen = generation_;
      Job* job = job_;
      ++active_;
      lock.unlock();
      job->work();
      lock.lock();
      --active_;
      finished_.notify_all();
    }
  }

  const int threads_;
  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable finished_;
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  int active_ = 0;
  bool stopping_ = false;
};

ThreadPool& pool() {
  static ThreadPool instance(configured_threads());
  return instance;
}

}  // namespace

int num_threads() { return pool().threads(); }

bool in_parallel_region() { return t_in_parallel; }

void parallel_for(int64_t begin, int64_t end, int64_t grain_size,
                  const std::function<void(int64_t, int64_t)>& fn) {
  if (begin >= end) return;
  grain_size = std::max<int64_t>(grain_size, 1);
  const int64_t range = end - begin;
  if (t_in_parallel || range < 2 * grain_size || pool().threads() == 1) {
    fn(begin, end);
    return;
  }
  const int64_t max_chunks = std::min<int64_t>(pool().threads(), range / grain_size);
  Job job;
  job.fn = &fn;
  job.begin = begin;
  job.end = end;
  job.chunk = (range + max_chunks - 1) / max_chunks;
  job.num_chunks = (range + job.chunk - 1) / job.chunk;
  pool().run(job);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace schemac::kernels
