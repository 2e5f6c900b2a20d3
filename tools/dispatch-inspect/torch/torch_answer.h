// dispatch-inspect-torch's side of the conversation (launch/helper.h has the other): requests,
// one JSON line each, read from a file descriptor, each answered by libtorch's adapter
// (torch_runtime.h) as wire.h's stream on another, errors on stderr as dispatch-inspect prints
// them. The program (torch_main.cpp) serves this way for --runtime torch; the same code, built
// as a shared library, serves inside a Python for --runtime python (dispatch_inspect_python.py
// loads it and calls schemac_inspect_torch_serve).
#pragma once

#include <string>

namespace schemac::inspect::torch_runtime {

// Answers `request` (wire.h's JSON) on `out`: 0, or 2 when it is no request or `out` broke.
int answer_one(const std::string& request, int out);

// Answers each line of `in` until its end: 0, or 2 at a line that is no request or when `out`
// broke.
int serve(int in, int out);

}  // namespace schemac::inspect::torch_runtime

// For a Python that loaded this library with ctypes, after import torch and the user's modules:
// `host` is JSON {"python", "python_version", "torch_version", "imports"} (who answers, said in
// every response), then requests are served from `in` to `out` (serve's status).
extern "C" int schemac_inspect_torch_serve(const char* host, int in, int out);
