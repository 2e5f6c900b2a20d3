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

#include "report/names.h"
#include "report/wire.h"
#include "torch_registry.h"
#include "torch_resolve.h"

namespace schemac::inspect::torch_runtime {
namespace {

// Each operator's chain for each key set of a library request, under a fresh thread's included
// and excluded sets; false after saying so on a name that is no runtime key.
bool add_chains(const std::vector<std::string>& key_sets, report::Library& library) {
  std::vector<c10::DispatchKeySet> sets;
  for (const std::string& text : key_sets) {
    std::string error;
    if (!parse_key_list(text, sets.emplace_back(), error)) {
      std::cerr << "dispatch-inspect report: error: " << error << "\n";
      return false;
    }
  }
  for (report::OperatorState& op : library.operators) {
    for (c10::DispatchKeySet set : sets)
      op.chains.push_back(
          resolve(op.table, set, c10::default_included_set, c10::default_excluded_set));
  }
  return true;
}

report::Response answer(const report::Request& request) {
  report::Response response;
  c10::DispatchKeySet keys, include, exclude;
  if (request.kind == "resolve") {
    std::string error;
    for (auto [text, set] : {std::pair{&request.keys, &keys},
                             {&request.include, &include},
                             {&request.exclude, &exclude}}) {
      if (!parse_key_list(*text, *set, error)) {
        std::cerr << "dispatch-inspect resolve: error: " << error << "\n";
        response.status = 2;
        return response;
      }
    }
    include = c10::default_included_set | include;
    exclude = c10::default_excluded_set | exclude;
    for (const std::string& device : request.autocast) {
      try {
        exclude =
            exclude - c10::DispatchKeySet(c10::parseDispatchKey(report::autocast_key_name(device)));
      } catch (const std::exception&) {
        std::cerr << "dispatch-inspect resolve: error: autocast has no key for device '" << device
                  << "' (cpu, cuda, xpu, ...)\n";
        response.status = 2;
        return response;
      }
    }
  }
  const report::Operators before = request.kind == "library" ? operators_of() : report::Operators{};
  if (!load_libraries(request.libraries, std::cerr)) {
    response.status = 1;
    return response;
  }
  if (request.kind == "library") {
    response.library = library_of(before, !request.libraries.empty());
    if (!add_chains(request.key_sets, response.library)) response.status = 2;
    return response;
  }
  if (request.kind == "operators") {
    response.operators = operators_of();
    return response;
  }
  const auto op = find_operator(request.op, std::cerr);
  if (!op) {
    response.status = 1;
  } else if (request.kind == "table") {
    response.table = table_of(*op, request.all_keys);
  } else if (request.kind == "dump") {
    response.dump = dump_of(*op);
  } else {
    response.resolution = resolve(*op, keys, include, exclude);
  }
  return response;
}

}  // namespace
}  // namespace schemac::inspect::torch_runtime

int main(int argc, char** argv) {
  using namespace schemac::inspect;
  report::Request request;
  if (argc != 2 || !report::from_wire(argv[1], request)) {
    std::cerr << "usage: dispatch-inspect-torch REQUEST-JSON (dispatch-inspect --runtime torch "
                 "runs it)\n";
    return 2;
  }
  const std::string response = report::to_wire(torch_runtime::answer(request)).dump() + "\n";
  const int fd = fcntl(3, F_GETFD) == -1 ? STDOUT_FILENO : 3;
  std::fflush(stdout);
  for (size_t done = 0; done < response.size();) {
    const ssize_t n = write(fd, response.data() + done, response.size() - done);
    if (n <= 0) return 2;
    done += static_cast<size_t>(n);
  }
  return 0;
}
