// Our own copy of the registration macros vLLM-style extensions keep in csrc/core/registration.h
// (schemac knows these three built in; the bindings file below is read without this header).
#pragma once

#define ADOPT_PASTE(A, B) A##B
#define CONCAT(A, B) ADOPT_PASTE(A, B)
// TORCH_LIBRARY stringifies its namespace as written; this wrapper expands it first.
#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)
