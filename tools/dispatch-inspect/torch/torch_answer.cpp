// Requests served by libtorch's adapter (torch_answer.h).
#include "torch_answer.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "schemac/inspect/answer.h"
#include "schemac/inspect/wire.h"
#include "torch_runtime.h"

namespace schemac::inspect::torch_runtime {
namespace {

bool send(int fd, std::string_view text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

int answer_one(const std::string& text, int out) {
  report::Request request;
  if (!report::from_wire(text, request)) {
    std::cerr << kErrorPrefix << "dispatch-inspect-torch: not a request: " << text.substr(0, 80)
              << "\n";
    return 2;
  }
  // The answer as wire.h's stream: each operator of a library as it is computed, then the rest,
  // so that all of libtorch is never held as one text.
  std::fflush(stdout);
  bool sent = true;
  const report::Response response =
      answer(torch_runtime(), request, std::cerr, [out, &sent](report::OperatorState&& op) {
        sent = sent && send(out, report::operator_line(op));
      });
  std::cout.flush();
  std::fflush(stdout);
  sent = sent && send(out, report::response_line(response));
  return sent ? 0 : 2;
}

int serve(int in, int out) {
  std::string pending;
  char buffer[65536];
  for (;;) {
    for (size_t end; (end = pending.find('\n')) != std::string::npos;) {
      const std::string line = pending.substr(0, end);
      pending.erase(0, end + 1);
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (const int status = answer_one(line, out); status != 0) return status;
    }
    const ssize_t n = read(in, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    pending.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace schemac::inspect::torch_runtime

extern "C" int schemac_inspect_torch_serve(const char* host, int in, int out) {
  using namespace schemac::inspect;
  const nlohmann::json json = nlohmann::json::parse(host, nullptr, /*allow_exceptions=*/false);
  report::RuntimeInfo info{"python"};
  if (json.is_object()) {
    info.python = json.value("python", "");
    info.python_version = json.value("python_version", "");
    info.torch_version = json.value("torch_version", "");
    info.imports = json.value("imports", std::vector<std::string>{});
  }
  torch_runtime::run_in_python(std::move(info));
  return torch_runtime::serve(in, out);
}
