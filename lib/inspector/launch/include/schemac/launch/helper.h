// A runtime's adapter in a process of its own: a helper program (libtorch's adapter,
// dispatch-inspect-torch, or a Python running dispatch-inspect's Python helper) that answers
// request after request, or a forked copy of this process (so that the libraries one side of a
// diff loads stay out of the other).
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "schemac/inspect/wire.h"

namespace schemac::launch {

namespace report = inspect::report;

// A helper program, started on the first request with `command` (the program, then its
// arguments) and kept for the next ones, so that one subcommand (a glob over every operator of
// libtorch, say) loads libtorch, imports torch or loads its libraries once. Each request goes to
// the helper as one line of JSON on its file descriptor 4; it answers each with wire.h's stream
// on its file descriptor 3 (where what a loaded library prints cannot reach: its stdout is our
// stderr) and prints errors on stderr as they are. It ends when its requests do, when this Helper
// is destroyed. A program named without a '/' is looked up on PATH.
class Helper {
 public:
  // `missing_hint` says what to do when the program cannot be run.
  Helper(std::vector<std::string> command, std::string missing_hint);
  ~Helper();
  Helper(const Helper&) = delete;
  Helper& operator=(const Helper&) = delete;

  // The helper's answer. When it cannot be run, says so with the hint; when it dies or gives no
  // answer, says why (the signal or exit status) and answers status 2; later requests then get
  // status 2 without a word.
  report::Response ask(const report::Request& request);

 private:
  bool start();
  void stop();

  std::vector<std::string> command_;
  std::string missing_hint_;
  pid_t pid_ = -1;
  int requests_ = -1, answers_ = -1;  // our ends of its file descriptors 4 and 3
  std::string pending_;               // what it wrote after the last answer's end
  bool broken_ = false;
};

// `answer` run in a forked child; its response comes back through a pipe. Errors as Helper's.
report::Response ask_forked(const std::function<report::Response()>& answer);

}  // namespace schemac::launch
