// Asking a runtime in another process (child.h).
#include "child.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>

#include "schemac/inspect/answer.h"
#include "schemac/inspect/wire.h"

extern char** environ;

namespace schemac::inspect {
namespace {

report::Response failed(const std::string& why) {
  std::cerr << kErrorPrefix << why << "\n";
  report::Response response;
  response.status = 2;
  return response;
}

// The response a child process `pid` writes on `fd` (the read end of a pipe, closed here), as
// wire.h's stream, read a line at a time so that a long answer is never held as one text; once
// the child has exited. `who` names the child when it gives none.
report::Response read_response(int fd, pid_t pid, const std::string& who) {
  report::ResponseReader reader;
  bool readable = true;
  std::string pending;
  char buffer[65536];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    pending.append(buffer, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1)
      readable = readable && reader.add_line(std::string_view(pending).substr(start, end - start));
    pending.erase(0, start);
  }
  if (pending.find_first_not_of(" \t\r") != std::string::npos)
    readable = readable && reader.add_line(pending);
  close(fd);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  std::optional<report::Response> response = reader.finish();
  if (!WIFEXITED(wait_status) || !readable || !response)
    return failed(who + " gave no answer" +
                  (WIFSIGNALED(wait_status)
                       ? std::string(" (") + strsignal(WTERMSIG(wait_status)) + ")"
                       : ""));
  return std::move(*response);
}

}  // namespace

report::Response ask_program(const std::string& program, const report::Request& request,
                             const std::string& missing_hint) {
  int fds[2];
  if (pipe(fds) != 0) return failed(std::string("cannot make a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 3);
  const std::string request_text = report::to_wire(request).dump();
  std::string tool_path = program;
  char* args[] = {tool_path.data(), const_cast<char*>(request_text.c_str()), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, tool_path.c_str(), &actions, nullptr, args, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    return failed(missing_hint + " ('" + tool_path + "': " + std::strerror(spawned) + ")");
  }
  return read_response(fds[0], pid, std::filesystem::path(program).filename().string());
}

report::Response ask_forked(const std::function<report::Response()>& answer) {
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
    const std::string text = report::to_wire(answer()).dump();
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

}  // namespace schemac::inspect
