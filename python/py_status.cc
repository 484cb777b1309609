#include "python/py_status.h"

#include <string>

#include "pybind11/pybind11.h"

namespace sgmcmc::python {

void* ExceptionClassOf(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kDataLoss:
      return PyExc_ValueError;
    case absl::StatusCode::kNotFound:
      return PyExc_FileNotFoundError;
    case absl::StatusCode::kPermissionDenied:
      return PyExc_PermissionError;
    case absl::StatusCode::kAlreadyExists:
      return PyExc_FileExistsError;
    case absl::StatusCode::kUnimplemented:
      return PyExc_NotImplementedError;
    case absl::StatusCode::kResourceExhausted:
      return PyExc_MemoryError;
    case absl::StatusCode::kCancelled:
      return PyExc_KeyboardInterrupt;
    default:
      return PyExc_RuntimeError;
  }
}

void ThrowIfError(const absl::Status& status) {
  if (status.ok()) return;
  PyErr_SetString(static_cast<PyObject*>(ExceptionClassOf(status.code())),
                  std::string(status.message()).c_str());
  throw pybind11::error_already_set();
}

void CheckSignals() {
  if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
}

}  // namespace sgmcmc::python
