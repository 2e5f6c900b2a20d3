// Running independent tasks on every core: the YAML loader's pieces, the native-functions
// entries, gen's output files, the checks beside gen's model. They run on the thread pool the
// kernels' parallel_for uses (thread_pool.h): one set of threads per process. The calling thread
// takes part; a run_tasks inside a pool task runs its tasks one after the other.
#pragma once

#include <cstddef>
#include <functional>

namespace schemac::support {

// Runs task(0) ... task(count - 1), each once, on up to one thread per core (only the calling
// thread when `use_threads` is false), and returns when all have finished. Tasks must not depend
// on each other. When tasks throw, the exception of the lowest-numbered one is rethrown.
void run_tasks(size_t count, const std::function<void(size_t)>& task, bool use_threads = true);

// How many threads run_tasks uses at most: the pool's (SCHEMAC_NUM_THREADS, else the cores).
size_t task_threads();

}  // namespace schemac::support
