// A runtime's adapter in a process of its own (helper.h).
#include "schemac/launch/helper.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>

extern char** environ;

namespace schemac::launch {
namespace {

constexpr const char* kErrorPrefix = "dispatch-inspect: error: ";

report::Response failed(const std::string& why) {
  if (!why.empty()) std::cerr << kErrorPrefix << why << "\n";
  report::Response response;
  response.status = 2;
  return response;
}

// Writes all of `text` to `fd` (a socket: a helper that died is an error, not SIGPIPE).
bool send_all(int fd, std::string_view text, bool socket) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = socket ? send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL)
                             : write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Reads wire.h's stream from `fd` until one response is complete (true), or the end (false);
// `pending` keeps what came after it. `readable` turns false at a line that is no such stream.
bool read_one_response(int fd, std::string& pending, report::ResponseReader& reader,
                       bool& readable) {
  char buffer[65536];
  for (;;) {
    size_t start = 0;
    for (size_t end; (end = pending.find('\n', start)) != std::string::npos;) {
      const std::string_view line = std::string_view(pending).substr(start, end - start);
      start = end + 1;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      readable = readable && reader.add_line(line);
      if (readable && reader.complete()) {
        pending.erase(0, start);
        return true;
      }
    }
    pending.erase(0, start);
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    pending.append(buffer, static_cast<size_t>(n));
  }
}

// How a child that gave no answer ended, for the error ("" when it exited with a failing status:
// it said why on stderr itself).
std::string why_no_answer(int wait_status) {
  if (WIFSIGNALED(wait_status)) return std::string(" (") + strsignal(WTERMSIG(wait_status)) + ")";
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) != 0) return "";
  return " (it ended without one)";
}

int wait_for(pid_t pid) {
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  return wait_status;
}

// A descriptor at 10 or above, close-on-exec, so that a child's dup2 onto 3 and 4 meets none of
// ours and no other child inherits it.
int high(int fd) {
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  return moved;
}

}  // namespace

Helper::Helper(std::vector<std::string> command, std::string missing_hint)
    : command_(std::move(command)), missing_hint_(std::move(missing_hint)) {}

Helper::~Helper() { stop(); }

bool Helper::start() {
  int requests[2], answers[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, requests) != 0) return false;
  if (pipe(answers) != 0) {
    close(requests[0]);
    close(requests[1]);
    return false;
  }
  for (int* fd : {&requests[0], &requests[1], &answers[0], &answers[1]}) *fd = high(*fd);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, answers[1], 3);
  posix_spawn_file_actions_adddup2(&actions, requests[1], 4);
  // What a loaded library or an imported module prints must not mix with the subcommand's own
  // output: the helper's stdout is this process's stderr.
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  std::vector<char*> args;
  for (std::string& word : command_) args.push_back(word.data());
  args.push_back(nullptr);
  // A bare name (python3) is looked up on PATH.
  const int spawned =
      posix_spawnp(&pid_, command_.front().c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(requests[1]);
  close(answers[1]);
  requests_ = requests[0];
  answers_ = answers[0];
  if (spawned == 0) return true;
  pid_ = -1;
  failed(missing_hint_ + " ('" + command_.front() + "': " + std::strerror(spawned) + ")");
  return false;
}

void Helper::stop() {
  if (requests_ >= 0) close(requests_);
  if (answers_ >= 0) close(answers_);
  requests_ = answers_ = -1;
  if (pid_ > 0) wait_for(pid_);
  pid_ = -1;
}

report::Response Helper::ask(const report::Request& request) {
  if (broken_) return failed("");
  if (pid_ < 0 && !start()) {
    broken_ = true;
    return failed(pid_ < 0 && requests_ < 0 ? "cannot make a pipe: " + std::string(strerror(errno))
                                            : "");
  }
  std::cout.flush();
  std::fflush(nullptr);
  report::ResponseReader reader;
  bool readable = true;
  if (send_all(requests_, report::to_wire(request).dump() + "\n", /*socket=*/true) &&
      read_one_response(answers_, pending_, reader, readable) && readable) {
    if (std::optional<report::Response> response = reader.finish()) return std::move(*response);
  }
  broken_ = true;
  close(requests_);
  requests_ = -1;
  const int wait_status = wait_for(pid_);
  pid_ = -1;
  const std::string name = std::filesystem::path(command_.front()).filename().string();
  if (!readable) return failed(name + " answered what is no answer");
  const std::string why = why_no_answer(wait_status);
  if (why.empty()) {
    report::Response response;
    response.status = WEXITSTATUS(wait_status);
    return response;
  }
  return failed(name + " gave no answer" + why);
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
    _exit(send_all(fds[1], text, /*socket=*/false) ? 0 : 2);
  }
  close(fds[1]);
  std::string pending;
  report::ResponseReader reader;
  bool readable = true;
  read_one_response(fds[0], pending, reader, readable);
  if (readable && !reader.complete() && !pending.empty()) readable = reader.add_line(pending);
  close(fds[0]);
  const int wait_status = wait_for(pid);
  std::optional<report::Response> response = reader.finish();
  if (!WIFEXITED(wait_status) || !readable || !response)
    return failed("dispatch-inspect's child for one side gave no answer" +
                  (WIFSIGNALED(wait_status)
                       ? std::string(" (") + strsignal(WTERMSIG(wait_status)) + ")"
                       : ""));
  return std::move(*response);
}

}  // namespace schemac::launch
