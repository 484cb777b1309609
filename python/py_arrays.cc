#include "python/py_arrays.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace sgmcmc::python {
namespace py = pybind11;
namespace {

[[noreturn]] void Raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

py::array CheckedArray(const py::handle& object, const char* name, int64_t expected_size,
                       bool writable) {
  if (!py::isinstance<py::array>(object)) {
    Raise(PyExc_TypeError,
          absl::StrCat(name, " must be a numpy.ndarray of dtype float64, got ",
                       std::string(py::str(py::type::of(object).attr("__name__")))));
  }
  py::array array = py::reinterpret_borrow<py::array>(object);
  // Equivalence, not identity: an unpickled array's dtype is an equal but distinct object.
  if (!py::isinstance<py::array_t<double>>(array)) {
    Raise(PyExc_TypeError, absl::StrCat(name, " must have dtype float64, got ",
                                        std::string(py::str(array.dtype()))));
  }
  if (!(array.flags() & py::array::c_style)) {
    Raise(PyExc_ValueError,
          absl::StrCat(name, " must be C-contiguous (use numpy.ascontiguousarray; a copy would "
                             "not be updated in place)"));
  }
  if (writable && !array.writeable()) {
    Raise(PyExc_ValueError, absl::StrCat(name, " must be writable"));
  }
  if (expected_size >= 0 && array.size() != expected_size) {
    Raise(PyExc_ValueError, absl::StrCat(name, " must have ", expected_size,
                                         " entries, got ", array.size()));
  }
  return array;
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) absl::StrAppend(&out, i > 0 ? ", " : "", shape[i]);
  return absl::StrCat(out, shape.size() == 1 ? ",)" : ")");
}

}  // namespace

void RequireShape(const py::handle& object, const char* name,
                  const std::vector<int64_t>& shape) {
  const py::array array = py::reinterpret_borrow<py::array>(object);
  std::vector<int64_t> actual(array.shape(), array.shape() + array.ndim());
  if (actual != shape) {
    Raise(PyExc_ValueError, absl::StrCat(name, " must have shape ", ShapeString(shape),
                                         ", got ", ShapeString(actual)));
  }
}

py::array_t<double> RealInput(const py::handle& object, const char* name,
                              const std::vector<int64_t>& shape) {
  if (!py::isinstance<py::array>(object)) {
    Raise(PyExc_TypeError,
          absl::StrCat(name, " must be a numpy.ndarray of real numbers, got ",
                       std::string(py::str(py::type::of(object).attr("__name__")))));
  }
  const py::array array = py::reinterpret_borrow<py::array>(object);
  const char kind = array.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
    Raise(PyExc_TypeError, absl::StrCat(name, " must hold real numbers (float64, or an integer "
                                              "or other float dtype, converted), got dtype ",
                                        std::string(py::str(array.dtype()))));
  }
  RequireShape(array, name, shape);
  return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(array);
}

absl::Span<double> MutableDoubleView(const py::handle& array, const char* name,
                                     int64_t expected_size) {
  py::array checked = CheckedArray(array, name, expected_size, /*writable=*/true);
  return absl::MakeSpan(static_cast<double*>(checked.mutable_data()), checked.size());
}

absl::Span<const double> DoubleView(const py::handle& array, const char* name,
                                    int64_t expected_size) {
  py::array checked = CheckedArray(array, name, expected_size, /*writable=*/false);
  return absl::MakeConstSpan(static_cast<const double*>(checked.data()), checked.size());
}

}  // namespace sgmcmc::python
