// dispatch-inspect-torch: libtorch's adapter as a program, so that dispatch-inspect itself never
// links libtorch. dispatch-inspect runs it (from beside itself) for `--runtime torch` with one
// argument, a request (report/wire.h) as JSON; it loads the request's libraries into libtorch,
// prints any error on stderr as dispatch-inspect would, and writes the response as JSON lines
// (wire.h's stream) on file descriptor 3 (on stdout when 3 is not open), where a library's own
// printing cannot reach it.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <string>

#include "schemac/inspect/answer.h"
#include "schemac/inspect/wire.h"
#include "torch_runtime.h"

int main(int argc, char** argv) {
  using namespace schemac::inspect;
  report::Request request;
  if (argc != 2 || !report::from_wire(argv[1], request)) {
    std::cerr << "usage: dispatch-inspect-torch REQUEST-JSON (dispatch-inspect --runtime torch "
                 "runs it)\n";
    return 2;
  }
  // The answer as wire.h's stream: each operator of a library as it is computed, then the rest,
  // so that all of libtorch is never held as one text.
  const int fd = fcntl(3, F_GETFD) == -1 ? STDOUT_FILENO : 3;
  std::fflush(stdout);
  bool written = true;
  const auto send = [fd, &written](const std::string& text) {
    for (size_t done = 0; written && done < text.size();) {
      const ssize_t n = write(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      written = n > 0;
      if (written) done += static_cast<size_t>(n);
    }
  };
  const report::Response response =
      answer(torch_runtime::torch_runtime(), request, std::cerr,
             [&send](report::OperatorState&& op) { send(report::operator_line(op)); });
  send(report::response_line(response));
  return written ? 0 : 2;
}
