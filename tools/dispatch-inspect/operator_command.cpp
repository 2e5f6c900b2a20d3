#include "operator_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>

#include "cli.h"
#include "library_loader.h"
#include "runtime.h"
#include "schemac/inspect/names.h"
#include "schemac/inspect/operator_glob.h"

namespace schemac::inspect {

CLI::App* add_operator_command(CLI::App& app, const OperatorCommand& command,
                               std::shared_ptr<OperatorCommandOptions> options,
                               std::function<int()> run) {
  const std::string footer =
      command.exit_status != nullptr
          ? fmt::format("Example:\n  {}\n{}", command.example, command.exit_status)
          : fmt::format("Example:\n  {}\nExit status: 0 success, 1 {}, 2 usage error.",
                        command.example, command.exit_one);
  CLI::App* sub =
      cli::add_command(app, {command.name, command.description, footer}, std::move(run));
  sub->add_option("OP", options->ops,
                  "the operator, ns::name or ns::name.overload, or a glob of them ('myops::*'); "
                  "several are answered in one run, a section each")
      ->required();
  // One value per --load: `--load LIB OP` leaves OP to the positional (a vector option would take
  // it).
  sub->add_option("--load", options->libraries, kLoadHelp)->allow_extra_args(false);
  cli::add_format_option(sub, options->format, command.formats, command.format_help);
  add_runtime_option(sub, /*hidden=*/!command.any_runtime);
  return sub;
}

CLI::Option* add_list_option(CLI::App* command, const std::string& name, std::string& joined,
                             const std::string& help) {
  return command
      ->add_option_function<std::vector<std::string>>(
          name,
          [&joined](const std::vector<std::string>& values) {
            joined = fmt::format("{}", fmt::join(values, ","));
          },
          help + "; repeatable")
      ->allow_extra_args(false);
}

void add_thread_local_options(CLI::App* command, ThreadLocalOptions& options) {
  add_list_option(command, "--include", options.include,
                  "keys added to the thread-local included set (which starts as "
                  "BackendSelect,ADInplaceOrView)");
  add_list_option(command, "--exclude", options.exclude,
                  "keys added to the thread-local excluded set (which starts as every Autocast "
                  "key)");
  command
      ->add_option(
          "--autocast", options.autocast,
          "enable autocast for DEVICE (cpu, cuda, xpu), as torch.autocast(DEVICE) does: "
          "its Autocast key leaves "
          "the thread-local excluded set (a tensor on DEVICE carries that key); repeatable")
      ->check(CLI::IsMember({"cpu", "cuda", "xpu"}))
      ->allow_extra_args(false);
  command->add_flag("--inference-mode", options.inference_mode,
                    "run under torch.inference_mode(): ADInplaceOrView leaves the thread-local "
                    "included set and every autograd key joins the excluded set");
}

report::Request operator_request(const char* kind, const OperatorCommandOptions& options,
                                 const std::string& op) {
  report::Request request;
  request.kind = kind;
  request.libraries = options.libraries;
  request.op = op;
  return request;
}

std::string OperatorCommandOptions::op_text() const {
  return fmt::format("{}", fmt::join(ops, " "));
}

std::optional<NamedOperators> operators_named(const OperatorCommandOptions& options) {
  const std::vector<std::string>& ops = options.ops;
  if (ops.size() == 1 && !report::is_operator_glob(ops[0]) && report::is_full_operator_name(ops[0]))
    return NamedOperators{ops, false};
  for (const std::string& op : ops)
    if (const std::optional<std::string> bad = report::glob_error(op)) {
      std::cerr << "dispatch-inspect: error: " << *bad << "\n";
      return std::nullopt;
    }
  report::Request request;
  request.kind = "operators";
  request.libraries = options.libraries;
  const report::Response answer = ask(request);
  if (answer.status != cli::kExitOk) return std::nullopt;
  report::OperatorLookup found =
      report::find_operators(ops, report::operator_names(answer.operators));
  std::cerr << found.error << found.note;
  if (found.names.empty()) return std::nullopt;
  return NamedOperators{std::move(found.names), found.several};
}

std::string json_array(const std::vector<std::string>& values) {
  std::string array = "[";
  for (const std::string& value : values) {
    if (value.empty()) continue;
    if (array.size() > 1) array += ",";
    array += value.substr(0, value.size() - 1);  // each is one JSON value and a newline
  }
  return array + "]\n";
}

int print_each_operator(const OperatorCommandOptions& options, const OperatorAction& each) {
  const std::optional<NamedOperators> named = operators_named(options);
  if (!named) return cli::kExitProblems;
  const std::vector<std::string>* names = &named->names;
  const bool several = named->several;
  if (several && names->size() > 1 && options.format == "mermaid") {
    std::cerr << fmt::format(
        "dispatch-inspect: error: --format mermaid draws one operator, and '{}' matches {}: name "
        "one, or use --format dot (one graph per operator)\n",
        options.op_text(), names->size());
    return cli::kExitUsage;
  }
  // Everything is made first, so that a usage error (a bad key, say) prints nothing else.
  std::vector<std::string> outputs;
  int status = cli::kExitOk;
  for (const std::string& op : *names) {
    std::string out;
    const int code = each(op, several, out);
    if (code == cli::kExitUsage) return code;
    status = std::max(status, code);
    outputs.push_back(std::move(out));
  }
  std::string all;
  if (!several) {
    all = outputs.front();
  } else if (options.format == "json") {
    all = json_array(outputs);
  } else {
    for (const std::string& out : outputs) {
      if (out.empty()) continue;
      all += (all.empty() || options.format == "dot" ? "" : "\n") + out;
    }
  }
  const bool torch =
      options.format == "torch" || (options.format == "text" && options.text_is_torch);
  if (!all.empty()) std::cout << with_answerer(std::move(all), torch ? "torch" : options.format);
  return status;
}

}  // namespace schemac::inspect
