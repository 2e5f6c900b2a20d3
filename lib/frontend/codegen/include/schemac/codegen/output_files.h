// The set of files `schemac gen` writes, the same layout for every target (target.h):
//   NativeFunctions.h         the kernel declarations
//   RegisterSchema.cpp        the definitions (with --shards only when the target keeps them
//                             out of the shards)
//   Register<KEY>.cpp         without --shards: one per dispatch key, KEY as the target names it
//                             (RegisterBackendSelect.cpp: also the BackendSelect kernels of
//                             factories)
//   Register_<i>of<N>.cpp     with --shards N: the kernels (and definitions, when the target
//                             puts them there) of the operators whose FNV-1a name hash is i mod N
//                             (every shard is written, even an empty one)
//   and the target's own files (our runtime: Operators.h and RegisterAll.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/target.h"

namespace schemac::codegen {

// Sorted by name; the same model, target and options always give the same bytes.
std::vector<GeneratedFile> generate_files(const GenModel& model, const Target& target,
                                          const GenOptions& options);

// "Register_<index>of<count>.cpp": the name of one shard file.
std::string shard_file_name(int index, int count);

// Whether `name` is a name shard_file_name gives for some count (decimal numbers without leading
// zeros, index below count): the files a run with another --shards may have left behind.
bool is_shard_file_name(std::string_view name);

}  // namespace schemac::codegen
