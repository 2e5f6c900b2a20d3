// A question to a runtime's adapter and its answer, in the report model, and their JSON form:
// dispatch-inspect asks libtorch's adapter (dispatch-inspect-torch, another process) this way,
// and its own runtime's adapter in-process with the same two types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "schemac/inspect/report.h"

namespace schemac::inspect::report {

// A call as resolve's options describe it: the tensors (or raw keys) it is given, its options'
// device, and the thread-local state it runs under. Which of these an operator can take follows
// from its schema (answer.h's call_of_request refuses the rest).
struct CallSpec {
  std::string keys;                            // --keys: comma-separated runtime keys
  std::vector<std::string> tensors;            // --tensor DEVICE: such a tensor's keys
  std::vector<std::string> inference_tensors;  // --inference-tensor DEVICE: made in inference mode
  std::string include, exclude;                // added to the thread-local sets
  std::vector<std::string> autocast;           // devices autocast is enabled for ("cpu", "cuda")
  bool inference_mode = false;                 // c10::InferenceMode's thread-local sets
  std::string device;                          // the options' device ("": not given)
};

struct Request {
  std::string kind;                    // "operators", "library", "table", "dump" or "resolve"
  std::vector<std::string> libraries;  // loaded first, in order
  std::string op;                      // table, dump, resolve
  bool all_keys = false;               // table: rows without a kernel too
  CallSpec call;                       // resolve: the call
  // resolve: one of several operators (a glob's, a packet's): a call the operator cannot take is
  // no error but Response::refused, so that the others are answered.
  bool several = false;
  // library: each operator's chain for each of these calls (one without tensor arguments takes
  // the first tensor's device as its options' device instead: calls_for_operator).
  std::vector<CallSpec> calls;
};

// Errors (a library that failed to load, an unknown operator or key) are printed on stderr by
// the adapter; `status` is then the exit code. Only the member of `kind` is filled.
struct Response {
  int status = 0;
  Operators operators;
  Table table;
  Dump dump;
  Resolution resolution;
  Library library;
  std::string refused = "";  // resolve of one of several: why the call cannot happen ("": it can)
};

nlohmann::json to_wire(const CallSpec& call);
nlohmann::json to_wire(const Request& request);
nlohmann::json to_wire(const Response& response);
// False when `text` is not such JSON (a response: also not such a stream, below).
bool from_wire(const std::string& text, Request& request);
bool from_wire(const std::string& text, Response& response);

// A library response is long (libtorch's 3,199 operators are 80 MB of JSON), so an adapter in
// another process streams it: one line `{"operator":OperatorState}` per operator as it is
// computed, then the response itself (its library's operators empty) on a last line. Neither side
// then holds the whole text or its JSON tree, only one operator's at a time.
std::string operator_line(const OperatorState& op);   // with its newline
std::string response_line(const Response& response);  // with its newline

// Reads such a stream a line at a time: each operator line's operator lands in the response's
// library, the last line fills the rest. A plain response (to_wire's) is a stream of one line.
class ResponseReader {
 public:
  // False when the line is not an operator line or a response, or follows the response.
  bool add_line(std::string_view line);
  // The response once its line came, else nullopt (the stream stopped short).
  std::optional<Response> finish();

 private:
  Response response_;
  std::vector<OperatorState> operators_;
  bool complete_ = false;
};

}  // namespace schemac::inspect::report
