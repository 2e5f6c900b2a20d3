// The cache size of cpu_features.h.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "schemac/kernels/cpu_features.h"

namespace schemac::kernels {
namespace {

// "32768K" from sysfs (what the kernel knows of the cache this CPU shares); 0 when unreadable.
int64_t sysfs_cache_bytes(const char* path) {
  std::FILE* file = std::fopen(path, "r");
  if (file == nullptr) return 0;
  long long value = 0;
  char unit = 0;
  const int read = std::fscanf(file, "%lld%c", &value, &unit);
  std::fclose(file);
  if (read < 1 || value <= 0) return 0;
  if (unit == 'K') value <<= 10;
  if (unit == 'M') value <<= 20;
  return static_cast<int64_t>(value);
}

}  // namespace

int64_t last_level_cache_bytes() {
  static const int64_t bytes = [] {
    // sysfs first: glibc's sysconf adds up the L3 slices of the whole package on some CPUs.
    for (const char* path : {"/sys/devices/system/cpu/cpu0/cache/index3/size",
                             "/sys/devices/system/cpu/cpu0/cache/index2/size"}) {
      if (const int64_t size = sysfs_cache_bytes(path); size > 0) return size;
    }
    const long size = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return size > 0 ? static_cast<int64_t>(size) : int64_t{32} << 20;
  }();
  return bytes;
}

int64_t cache_resident_bytes() {
  static const int64_t bytes = [] {
    constexpr int64_t kBytesPerCpu = int64_t{4} << 20;
    const int64_t cpus = std::max(1u, std::thread::hardware_concurrency());
    return std::min(last_level_cache_bytes(), kBytesPerCpu * cpus);
  }();
  return bytes;
}

}  // namespace schemac::kernels
