// dispatch-inspect-torch: libtorch's adapter as a program, so that dispatch-inspect itself never
// links libtorch. dispatch-inspect runs it (from beside itself) for `--runtime torch` as
// `dispatch-inspect-torch --serve`: requests come one JSON line each on file descriptor 4, each
// answer goes out as wire.h's stream on file descriptor 3, where a loaded library's own printing
// cannot reach it (torch_answer.h); errors go to stderr as dispatch-inspect prints them. With one
// request as its argument instead, it answers that one on descriptor 3 (on stdout when 3 is not
// open).
#include <fcntl.h>
#include <unistd.h>

#include <iostream>
#include <string_view>

#include "torch_answer.h"

int main(int argc, char** argv) {
  using namespace schemac::inspect::torch_runtime;
  if (argc == 2 && std::string_view(argv[1]) == "--serve") return serve(4, 3);
  if (argc == 2 && std::string_view(argv[1]).starts_with("{"))
    return answer_one(argv[1], fcntl(3, F_GETFD) == -1 ? STDOUT_FILENO : 3);
  std::cerr << "usage: dispatch-inspect-torch --serve | REQUEST-JSON (dispatch-inspect --runtime "
               "torch runs it)\n";
  return 2;
}
