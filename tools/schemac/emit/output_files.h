// The set of files `schemac gen` writes, with their content, all computed in memory:
//   NativeFunctions.h         kernel declarations (emitters c and e)
//   Operators.h               typed handles, function API, methods (emitter d)
//   RegisterSchema.cpp        definitions (emitter a)            } without --shards
//   Register<KEY>.cpp         one per dispatch key (emitter b)   }
//   Register_<i>of<N>.cpp     with --shards N: the definitions and kernels of the operators
//                             whose FNV-1a name hash is i mod N
//   RegisterAll.cpp           register_operators(): calls one anchor function per file above
#pragma once

#include <string>
#include <vector>

#include "gen_model.h"

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

}  // namespace schemac::gen
