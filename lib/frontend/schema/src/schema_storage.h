// The block of storage a parsed FunctionSchema points into (see the top of model.h). Private to
// lib/frontend/schema: the parser fills one per schema, set_operator_name extends one.
//
// It is an arena (schemac/support/arena.h) whose first block is sized so that a typical schema
// (its text, element types, aliases and defaults) costs one allocation in all: the storage itself.
#pragma once

#include <cstddef>
#include <memory>

#include "schemac/support/arena.h"

namespace schemac::schema {

// Enough for the text and pieces of most schemas of PyTorch's corpus, while keeping the whole
// object (with shared_ptr's control block) small enough for malloc's per-thread cache.
inline constexpr std::size_t kSchemaStorageInitialBytes = 864;

class SchemaStorage : public support::Arena<kSchemaStorageInitialBytes> {
 public:
  // `parent`: a storage this one extends, kept alive as long as this one is.
  explicit SchemaStorage(std::shared_ptr<const SchemaStorage> parent = nullptr)
      : parent_(std::move(parent)) {}

 private:
  std::shared_ptr<const SchemaStorage> parent_;
};

}  // namespace schemac::schema
