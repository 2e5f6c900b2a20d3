// The runtime names generated code spells schemac::dispatch::X (golden/gen): the types of
// lib/runtime/core and lib/common/keys it uses, re-exported into schemac::dispatch so that every
// file schemac gen wrote keeps compiling. New code names them by their own namespace.
#pragma once

#include "schemac/core/array_ref.h"
#include "schemac/core/device.h"
#include "schemac/core/dict.h"
#include "schemac/core/ivalue.h"
#include "schemac/core/scalar_type.h"
#include "schemac/core/storage.h"
#include "schemac/core/tensor.h"
#include "schemac/keys/dispatch_key.h"
#include "schemac/keys/dispatch_key_set.h"

namespace schemac::dispatch {

using core::ArrayRef;
using core::Device;
using core::Dict;
using core::Generator;
using core::IntArrayRef;
using core::IValue;
using core::kCPU;
using core::key_set_for;
using core::Layout;
using core::MemoryFormat;
using core::Scalar;
using core::ScalarType;
using core::Storage;
using core::Tensor;
using core::TensorList;
using core::TensorOptions;
using keys::DispatchKey;
using keys::DispatchKeySet;

}  // namespace schemac::dispatch
