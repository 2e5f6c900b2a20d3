// RegistrationTransaction: all-or-nothing registration, for loaders of operator libraries.
//
// Loading a library runs its static registration blocks (SCHEMAC_LIBRARY...). A block that fails
// undoes its own registrations, but the blocks before it stay registered, and the failure is only
// printed. A loader that wants "the library loads completely or not at all" opens a transaction
// around dlopen():
//
//   RegistrationTransaction tx;           // starts recording into Dispatcher::singleton()
//   void* dl = dlopen(path, RTLD_NOW);     // static blocks run, failures are collected
//   if (!dl || !tx.failures().empty()) {  // tx.rollback(): the registry is as it was
//     tx.rollback(); ...
//   } else {
//     tx.commit();
//   }
//
// While a transaction is open, every successful def/impl/fallback of its Dispatcher records how
// to undo itself (Dispatcher::open_journal), and registration blocks that fail report their
// message to the transaction instead of stderr. Rolling back undoes the recorded registrations,
// newest first; their own handles, destroyed later (when the library is closed), then do nothing.
// A transaction that is destroyed without commit() rolls back.
//
// One transaction at a time per process (opening a second throws DispatchError); it is meant for
// a loader's thread while nothing else registers.
#pragma once

#include <string>
#include <vector>

#include "schemac/dispatch/dispatcher.h"

namespace schemac::dispatch {

class RegistrationTransaction {
 public:
  explicit RegistrationTransaction(Dispatcher& dispatcher = Dispatcher::singleton());
  RegistrationTransaction(const RegistrationTransaction&) = delete;
  RegistrationTransaction& operator=(const RegistrationTransaction&) = delete;
  ~RegistrationTransaction();

  // Messages of the registration blocks that failed while the transaction was open, in order:
  // "registration block at FILE:LINE failed: MESSAGE".
  const std::vector<std::string>& failures() const { return failures_; }
  // Keeps everything registered; the transaction closes.
  void commit();
  // Undoes everything registered since the transaction opened; the transaction closes.
  void rollback();
  bool open() const { return open_; }

 private:
  friend bool report_registration_failure(const std::string& message);
  void close(bool undo);

  Dispatcher* dispatcher_;
  std::vector<std::string> failures_;
  bool open_ = true;
};

// Called by a failing registration block: hands `message` to the open transaction and returns
// true, or returns false when none is open (the caller then prints it).
bool report_registration_failure(const std::string& message);

}  // namespace schemac::dispatch
