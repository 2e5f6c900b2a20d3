// The set of files `schemac gen` writes, with their content, all computed in memory:
//   NativeFunctions.h         kernel declarations (emitters c and e)
//   Operators.h               typed handles, function API, methods (emitter d)
//   RegisterSchema.cpp        definitions (emitter a)            } without --shards
//   Register<KEY>.cpp         one per dispatch key (emitter b)   }
//   Register_<i>of<N>.cpp     with --shards N: the definitions and kernels of the operators
//                             whose FNV-1a name hash is i mod N (every shard is written, even
//                             an empty one)
//   RegisterAll.cpp           register_operators(): calls one anchor function per file above
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/codegen/gen_model.h"

namespace schemac::gen {

struct GenOptions {
  int shards = 0;                  // 0: one file per dispatch key; N >= 1: N shard files
  std::string umbrella_namespace;  // where register_operators() lives
};

struct GeneratedFile {
  std::string name;     // file name inside the output directory
  std::string content;
};

// Sorted by name; the same model and options always give the same bytes.
std::vector<GeneratedFile> generate_files(const GenModel& model, const GenOptions& options);

// "Register_<index>of<count>.cpp": the name of one shard file.
std::string shard_file_name(int index, int count);

// Whether `name` is a name shard_file_name gives for some count (decimal numbers without leading
// zeros, index below count): the files a run with another --shards may have left behind.
bool is_shard_file_name(std::string_view name);

}  // namespace schemac::gen
