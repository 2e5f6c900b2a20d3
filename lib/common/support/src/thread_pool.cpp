#include "schemac/support/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace schemac::support {
namespace {

thread_local bool t_in_parallel = false;

int configured_threads() {
  if (const char* env = std::getenv("SCHEMAC_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return std::min(n, 256);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// How long an idle worker spins before it sleeps on a condition variable: a kernel that follows
// another one within this time finds its workers awake, instead of paying a futex wake-up and
// the scheduler's latency (tens of microseconds; more on a virtual machine, whose idle CPU
// has to be woken by the host), as OpenMP runtimes do with their spin count.
constexpr auto kIdleSpin = std::chrono::microseconds(200);
// How long the caller spins for the chunks other threads still run (at most about one chunk).
constexpr auto kFinishSpin = std::chrono::microseconds(2000);

// Spins until ready() holds or `spin` has passed; returns ready(). Past kIdleSpin it yields
// between checks, so that on a busy machine the thread it waits for can have the core.
template <typename Ready>
bool spin_until(Ready ready, std::chrono::microseconds spin) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited >= spin) return ready();
    if (waited >= kIdleSpin) std::this_thread::yield();
  }
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
      done.fetch_add(1);  // seq_cst: pairs with the caller's waiters_ (see run)
    }
  }
  bool finished() const { return done.load() == num_chunks; }
};

// The handshakes are Dekker-style pairs of sequentially consistent operations on two atomics:
//   job hand-over: a worker increments active_ and then reads job_; the caller clears job_ and
//     then waits for active_ to be 0, so no worker can still be reading a Job it destroys;
//   wake-up: a worker increments sleepers_ and then checks generation_ (under mutex_); the
//     caller bumps generation_ and then reads sleepers_, notifying under mutex_ when nonzero;
//   completion: a worker counts its chunk done and then reads waiters_; the caller increments
//     waiters_ and then checks done (under mutex_), so a sleeping caller is always woken.
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
    job_.store(&job);
    generation_.fetch_add(1);
    if (sleepers_.load() != 0) {
      std::lock_guard lock(mutex_);
      wake_.notify_all();
    }
    t_in_parallel = true;
    job.work();
    t_in_parallel = false;
    // Chunks other threads are still running: spin a little, then sleep until the last is done.
    if (!spin_until([&] { return job.finished(); }, kFinishSpin)) {
      std::unique_lock lock(mutex_);
      waiters_.fetch_add(1);
      finished_.wait(lock, [&] { return job.finished(); });
      waiters_.fetch_sub(1);
    }
    // Then every worker lets go of the job (a worker between claiming nothing and leaving).
    job_.store(nullptr);
    for (int spins = 0; active_.load() != 0; ++spins)
      spins < 1024 ? cpu_relax() : std::this_thread::yield();
  }

 private:
  void worker_loop() {
    t_in_parallel = true;
    uint64_t seen = 0;
    for (;;) {
      const auto ready = [&] { return generation_.load() != seen || stopping_.load(); };
      if (!spin_until(ready, kIdleSpin)) {
        std::unique_lock lock(mutex_);
        sleepers_.fetch_add(1);
        wake_.wait(lock, ready);
        sleepers_.fetch_sub(1);
      }
      if (stopping_.load()) return;
      seen = generation_.load();
      active_.fetch_add(1);
      if (Job* job = job_.load()) job->work();  // a job already finished has no chunk left
      active_.fetch_sub(1);
      if (waiters_.load() != 0) {
        std::lock_guard lock(mutex_);
        finished_.notify_all();
      }
    }
  }

  const int threads_;
  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::mutex mutex_;  // only for the condition variables' sleeps and wake-ups
  std::condition_variable wake_;
  std::condition_variable finished_;
  std::atomic<Job*> job_{nullptr};
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> active_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<int> waiters_{0};
  std::atomic<bool> stopping_{false};
};

ThreadPool& pool() {
  static ThreadPool instance(configured_threads());
  return instance;
}

}  // namespace

int num_threads() { return pool().threads(); }

bool in_parallel_region() { return t_in_parallel; }

void parallel_for(int64_t begin, int64_t end, int64_t grain_size,
                  const std::function<void(int64_t, int64_t)>& fn, int chunks_per_thread) {
  if (begin >= end) return;
  grain_size = std::max<int64_t>(grain_size, 1);
  const int64_t range = end - begin;
  if (t_in_parallel || range < 2 * grain_size || pool().threads() == 1) {
    fn(begin, end);
    return;
  }
  const int64_t max_chunks = std::min<int64_t>(
      int64_t{pool().threads()} * std::max(chunks_per_thread, 1), range / grain_size);
  Job job;
  job.fn = &fn;
  job.begin = begin;
  job.end = end;
  job.chunk = (range + max_chunks - 1) / max_chunks;
  job.num_chunks = (range + job.chunk - 1) / job.chunk;
  pool().run(job);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace schemac::support
