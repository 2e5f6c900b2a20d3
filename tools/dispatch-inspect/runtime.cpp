// Asking a runtime's adapter (runtime.h): ours in-process, libtorch's in dispatch-inspect-torch,
// its response read from the pipe on the child's file descriptor 3.
#include "runtime.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "schemac_adapter.h"

extern char** environ;

namespace schemac::inspect {
namespace {

constexpr const char* kTorchTool = "dispatch-inspect-torch";

std::string chosen_runtime = "schemac";

std::filesystem::path own_directory() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
}

report::Response failed(const std::string& why) {
  std::cerr << "dispatch-inspect: error: " << why << "\n";
  report::Response response;
  response.status = 2;
  return response;
}

// The response a child process `pid` writes on `fd` (the read end of a pipe, closed here),
// once it has exited; `who` names the child when it gives none.
report::Response read_response(int fd, pid_t pid, const std::string& who) {
  std::string text;
  char buffer[65536];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  report::Response response;
  if (!WIFEXITED(wait_status) || !report::from_wire(text, response))
    return failed(who + " gave no answer" +
                  (WIFSIGNALED(wait_status)
                       ? std::string(" (") + strsignal(WTERMSIG(wait_status)) + ")"
                       : ""));
  return response;
}

report::Response ask_torch(const report::Request& request) {
  const std::filesystem::path tool = own_directory() / kTorchTool;
  int fds[2];
  if (pipe(fds) != 0) return failed(std::string("cannot make a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 3);
  const std::string request_text = report::to_wire(request).dump();
  std::string tool_path = tool.string();
  char* args[] = {tool_path.data(), const_cast<char*>(request_text.c_str()), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, tool_path.c_str(), &actions, nullptr, args, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    return failed(std::string("--runtime torch needs ") + kTorchTool +
                  " beside dispatch-inspect ('" + tool_path + "': " + std::strerror(spawned) +
                  "); it is built when CMake finds libtorch (find_package(Torch))");
  }
  return read_response(fds[0], pid, kTorchTool);
}

// Our adapter in a forked child, so that the libraries it loads stay there.
report::Response ask_ours_separately(const report::Request& request) {
  int fds[2];
  if (pipe(fds) != 0) return failed(std::string("cannot make a pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return failed(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    const std::string text = report::to_wire(answer(request)).dump();
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    bool written = true;
    for (size_t done = 0; written && done < text.size();) {
      const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      written = n > 0;
      if (written) done += static_cast<size_t>(n);
    }
    _exit(written ? 0 : 2);
  }
  close(fds[1]);
  return read_response(fds[0], pid, "dispatch-inspect's child for one side");
}

}  // namespace

void add_runtime_option(CLI::App* command) {
  command
      ->add_option("--runtime", chosen_runtime,
                   "whose dispatcher to report on: schemac (ours, the default) or torch "
                   "(libtorch's own, after "
                   "loading PyTorch extensions with --load)")
      ->check(CLI::IsMember({"schemac", "torch"}));
}

bool torch_runtime_chosen() { return chosen_runtime == "torch"; }

const std::string& chosen_runtime_name() { return chosen_runtime; }

int require_our_runtime(const char* command) {
  if (!torch_runtime_chosen()) return 0;
  std::cerr
      << "dispatch-inspect: error: --runtime torch works with ops, table, dump and resolve, not '"
      << command << "'\n";
  return 2;
}

report::Response ask(const report::Request& request) {
  return torch_runtime_chosen() ? ask_torch(request) : answer(request);
}

report::Response ask_separately(const report::Request& request, std::string_view runtime) {
  return runtime == "torch" ? ask_torch(request) : ask_ours_separately(request);
}

}  // namespace schemac::inspect
