// A small pool of worker threads and parallel_for over an index range. The calling thread takes
// part in the work; a parallel_for started from inside a worker runs serially (no nesting).
// Idle workers spin for a short while before they sleep, so back-to-back kernels find them awake.
#pragma once

#include <cstdint>
#include <functional>

namespace schemac::support {

// Threads that run a parallel_for, the caller included: SCHEMAC_NUM_THREADS if set (>= 1), else
// the hardware concurrency.
int num_threads();

// Calls fn(begin_i, end_i) over disjoint sub-ranges that cover [begin, end). Runs serially when
// the range holds fewer than 2 * grain_size indices, inside a worker, or with one thread. The
// first exception thrown by fn is rethrown here after every chunk has finished.
// The range is cut into up to chunks_per_thread chunks per thread (never below grain_size), which
// the threads claim one at a time: more than one evens out a thread that starts late or runs
// slower (bandwidth-bound loops); one keeps each thread's share in one piece (mm's panels).
void parallel_for(int64_t begin, int64_t end, int64_t grain_size,
                  const std::function<void(int64_t, int64_t)>& fn, int chunks_per_thread = 1);

// Whether the current thread is a pool worker (or the caller while it runs a parallel chunk).
bool in_parallel_region();

}  // namespace schemac::support
