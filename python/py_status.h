// Turning absl::Status into Python exceptions for the _sgmcmc extension (python/module.cc).
//
// The exception carries the status message unchanged; its class follows the status code:
//   InvalidArgument, OutOfRange, FailedPrecondition, DataLoss -> ValueError
//   NotFound -> FileNotFoundError       PermissionDenied -> PermissionError
//   AlreadyExists -> FileExistsError    Unimplemented -> NotImplementedError
//   ResourceExhausted -> MemoryError    Cancelled -> KeyboardInterrupt
//   anything else -> RuntimeError
// Call with the GIL held.
//
// Cost: O(message length) on error, nothing on OK.
//
// Example:
//   ThrowIfError(options.Validate());
//   models::Lda lda = ValueOrThrow(models::Lda::Create(corpus, options, &pool));
#ifndef SGMCMC_PYTHON_PY_STATUS_H_
#define SGMCMC_PYTHON_PY_STATUS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sgmcmc::python {

// The Python exception class of `code` (a borrowed reference to a built-in).
void* ExceptionClassOf(absl::StatusCode code);

// Raises the exception for `status` (a pybind11::error_already_set) unless it is OK.
void ThrowIfError(const absl::Status& status);

// With the GIL held: runs the pending Python signal handlers (Ctrl-C's raises
// KeyboardInterrupt) and rethrows what they raised as pybind11::error_already_set. Long loops
// call it between iterations.
void CheckSignals();

template <typename T>
T ValueOrThrow(absl::StatusOr<T> value) {
  ThrowIfError(value.status());
  return *std::move(value);
}

}  // namespace sgmcmc::python

#endif  // SGMCMC_PYTHON_PY_STATUS_H_
