// dispatch-inspect-torch: libtorch's adapter as a program, so that dispatch-inspect itself never
// links libtorch. dispatch-inspect runs it (from beside itself) for `--runtime torch` with one
// argument, a request (report/wire.h) as JSON; it loads the request's libraries into libtorch,
// prints any error on stderr as dispatch-inspect would, and writes the response as JSON on file
// descriptor 3 (on stdout when 3 is not open), where a library's own printing cannot reach it.
#include <fcntl.h>
#include <unistd.h>

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
  const std::string response =
      report::to_wire(answer(torch_runtime::torch_runtime(), request, std::cerr)).dump() + "\n";
  const int fd = fcntl(3, F_GETFD) == -1 ? STDOUT_FILENO : 3;
  std::fflush(stdout);
  for (size_t done = 0; done < response.size();) {
    const ssize_t n = write(fd, response.data() + done, response.size() - done);
    if (n <= 0) return 2;
    done += static_cast<size_t>(n);
  }
  return 0;
}
