// All-or-nothing registration around the loading of a library (registration_transaction.h).
#include "schemac/dispatch/registration_transaction.h"

#include <mutex>

namespace schemac::dispatch {
namespace {

// The open transaction, if any.
struct OpenTransaction {
  std::mutex mutex;
  RegistrationTransaction* current = nullptr;
};
OpenTransaction& open_transaction() {
  static OpenTransaction* state = new OpenTransaction();  // never destroyed: used by static dtors
  return *state;
}

}  // namespace

RegistrationTransaction::RegistrationTransaction(Dispatcher& dispatcher)
    : dispatcher_(&dispatcher) {
  OpenTransaction& state = open_transaction();
  std::lock_guard lock(state.mutex);
  if (state.current != nullptr)
    throw DispatchError("cannot open a registration transaction while another one is open");
  dispatcher_->open_journal();
  state.current = this;
}

RegistrationTransaction::~RegistrationTransaction() {
  if (open_) close(/*undo=*/true);
}

void RegistrationTransaction::commit() {
  if (open_) close(/*undo=*/false);
}

void RegistrationTransaction::rollback() {
  if (open_) close(/*undo=*/true);
}

void RegistrationTransaction::close(bool undo) {
  {
    OpenTransaction& state = open_transaction();
    std::lock_guard lock(state.mutex);
    if (state.current == this) state.current = nullptr;
  }
  open_ = false;
  dispatcher_->close_journal(undo);
}

bool report_registration_failure(const std::string& message) {
  OpenTransaction& state = open_transaction();
  std::lock_guard lock(state.mutex);
  if (state.current == nullptr) return false;
  state.current->failures_.push_back(message);
  return true;
}

}  // namespace schemac::dispatch
