// Which PyTorch releases read a parsed schema: the forms of it whose reading differs between
// releases (the Dimname type, gone with named tensors in 2.13; a ScalarType default written by
// dtype name, read from 2.5; the DeviceIndex, SymBool and Await types), found in text order, and
// the ones a given release's parser does not read, each with a message naming the releases.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "schemac/schema/model.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::schema_releases {

struct FormUse {
  torch_releases::SchemaForm form;
  schema::TextRange range;  // the type name or the default value
  std::string_view text;    // as written: "Dimname", "float16"
};

// Every release-bound form of `schema`. parse_schema reads them all, as the newest parser that
// knew each form does.
std::vector<FormUse> find_release_forms(const schema::FunctionSchema& schema);

struct ReleaseProblem {
  schema::TextRange range;
  std::string message;  // "the Dimname type was removed in PyTorch 2.13: PyTorch 2.14 rejects ..."
};

// The forms of `schema` that `release`'s parser does not read.
std::vector<ReleaseProblem> release_problems(const schema::FunctionSchema& schema,
                                             torch_releases::TorchVersion release);

}  // namespace schemac::schema_releases
