// `dispatch-inspect report`: every operator the loaded libraries registered (all when none is
// loaded), with its computed table, registrations, redispatch chains and, on our runtime, what
// its composite kernel calls (traced once: callees.h), as one self-contained
// HTML page (schemac/report_page/render_html.h) written to -o FILE: through a temporary file beside
// it, renamed over FILE once complete, so that FILE is never half-written.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "callees.h"
#include "commands.h"
#include "library_loader.h"
#include "runtime.h"
#include "schemac/report_page/render_html.h"
#include "schemac/support/version.h"

namespace schemac::inspect {
namespace {

constexpr std::string_view kCommand = "dispatch-inspect";

struct ReportOptions {
  std::vector<std::string> libraries;
  std::string output;
};

// The temporary file beside the output: made before the (long) work so that an unwritable place
// fails at once, removed unless committed.
class PendingOutput {
 public:
  ~PendingOutput() {
    if (fd_ >= 0) close(fd_);
    if (!temp_.empty()) unlink(temp_.c_str());
  }

  bool open(const std::string& path) {
    path_ = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return fail("it is a directory");
    temp_ = fmt::format("{}.tmp{}", path, static_cast<long>(getpid()));
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0) {
      temp_.clear();
      return fail(std::strerror(errno));
    }
    return true;
  }

  // Writes `text` and renames the temporary file over the output.
  bool commit(const std::string& text) {
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = write(fd_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return fail(std::strerror(errno));
      done += static_cast<size_t>(n);
    }
    const int closed = close(fd_);
    fd_ = -1;
    if (closed != 0) return fail(std::strerror(errno));
    if (rename(temp_.c_str(), path_.c_str()) != 0) return fail(std::strerror(errno));
    temp_.clear();
    return true;
  }

 private:
  bool fail(const std::string& why) {
    cli::error(kCommand, "cannot write '{}': {}", path_, why);
    return false;
  }

  std::string path_, temp_;
  int fd_ = -1;
};

std::string page_title(const std::vector<std::string>& libraries) {
  if (libraries.empty())
    return fmt::format("dispatch-inspect report: every operator of {}",
                       chosen_runtime() == RuntimeKind::Torch ? "libtorch" : "the schemac runtime");
  std::vector<std::string> names;
  for (const std::string& library : libraries)
    names.push_back(std::filesystem::path(library).filename().string());
  return fmt::format("dispatch-inspect report: {}", fmt::join(names, ", "));
}

int run_report(const ReportOptions& o) {
  PendingOutput output;
  if (!output.open(o.output)) return kExitUsage;
  report_page::PageInfo page{page_title(o.libraries), std::string(runtime_name(chosen_runtime())),
                             fmt::format("dispatch-inspect {}", support::kVersion), o.libraries,
                             report_page::page_calls()};
  report::Request request;
  request.kind = "library";
  request.libraries = o.libraries;
  for (const report_page::PageCall& call : page.presets) request.calls.push_back(call.call);
  const report::Response answer = ask(request);
  if (answer.status != kExitOk) return answer.status;
  if (chosen_runtime() == RuntimeKind::Schemac) page.calls = composite_callees(answer.library);
  else
    page.calls_note =
        "what composite kernels call is unknown here: trace, which sees it, runs on "
        "the schemac runtime only";
  if (!output.commit(report_page::library_html(answer.library, page))) return kExitUsage;
  std::cout << fmt::format("wrote {}: {} operators\n", o.output, answer.library.operators.size());
  return kExitOk;
}

}  // namespace

std::function<int()> bind_report_command(CLI::App* sub) {
  auto options = std::make_shared<ReportOptions>();
  sub->add_option("--load", options->libraries, kLoadHelp)->allow_extra_args(false);
  sub->add_option("-o,--output", options->output, "the HTML file to write (replaced atomically)")
      ->required()
      ->type_name("FILE");
  add_runtime_option(sub);
  return [options] { return run_report(*options); };
}

}  // namespace schemac::inspect
