// NumPy array views and integer arguments for the _sgmcmc extension (python/module.cc):
// zero-copy spans over float64 C-contiguous arrays, with the checks that make a wrong array a
// clear Python exception instead of a silent copy (a step function that writes into a
// converted copy would leave the caller's array unchanged), and integers checked against the
// range of their C++ type (pybind11's own conversion of -1 to uint64_t raises a TypeError that
// lists the overloads without naming the argument).
//
// Errors: TypeError if the object is not a numpy.ndarray of dtype float64, ValueError if it is
// not C-contiguous, read-only (for a mutable view) or of the wrong size; every message names
// the argument, e.g. "theta must be a C-contiguous float64 array (got a Fortran-ordered one)".
//
// IntegerArg: TypeError unless the value is an int (not a bool), ValueError outside the range;
// the message names the argument and the bound, e.g. "Engine: seed must be >= 0, got -1".
//
// Cost: O(1) per view or integer.
//
// Example:
//   absl::Span<double> theta = MutableDoubleView(theta_array, "theta", dimension);
//   rng::Engine engine(IntegerArg<uint64_t>(seed, "Engine: seed"), 0);
#ifndef SGMCMC_PYTHON_PY_ARRAYS_H_
#define SGMCMC_PYTHON_PY_ARRAYS_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "base/check.h"
#include "pybind11/numpy.h"
#include "pybind11/pybind11.h"

namespace sgmcmc::python {

// The writable data of `array` (`name` in messages). expected_size < 0: any size.
absl::Span<double> MutableDoubleView(const pybind11::handle& array, const char* name,
                                     int64_t expected_size = -1);
// The data of `array` read in place (same checks, except that read-only arrays are fine).
absl::Span<const double> DoubleView(const pybind11::handle& array, const char* name,
                                    int64_t expected_size = -1);

// ValueError unless `array` (a numpy.ndarray, `name` in messages) has exactly `shape`, e.g.
// "counts must have shape (2, 3), got (3, 2)": a count matrix of the right size but the wrong
// shape was read as if it had the chain's shape.
void RequireShape(const pybind11::handle& array, const char* name,
                  const std::vector<int64_t>& shape);

// An input that is only read: a numpy.ndarray of real numbers (float64 used in place; bool,
// integer and other float dtypes or a non-contiguous layout converted once to a C-contiguous
// float64 copy), of exactly `shape`. TypeError naming the argument for anything else
// (complex, object, strings, not an ndarray).
pybind11::array_t<double> RealInput(const pybind11::handle& array, const char* name,
                                    const std::vector<int64_t>& shape);

// `value` (argument `name` in messages) as T if it is an integer in [low, high] (by default
// T's range), checked by the package's one integer check, sgmcmc._inputs.check_int, so that
// the C++ classes' arguments fail as the Python functions' do. Bindings take the argument as
// a pybind11::object and convert it with this.
template <typename T>
T IntegerArg(const pybind11::handle& value, const std::string& name,
             T low = std::numeric_limits<T>::min(), T high = std::numeric_limits<T>::max()) {
  return pybind11::module_::import("sgmcmc._inputs")
      .attr("check_int")(name, value, low, high)
      .template cast<T>();
}

// A new array of `shape` holding `values` (copied once, for results); the product of shape
// must be values.size() (checked).
template <typename T>
pybind11::array_t<T> NewArray(const std::vector<T>& values, const std::vector<int64_t>& shape) {
  std::vector<pybind11::ssize_t> dims(shape.begin(), shape.end());
  pybind11::array_t<T> out(dims);
  SGMCMC_CHECK(static_cast<size_t>(out.size()) == values.size());
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

}  // namespace sgmcmc::python

#endif  // SGMCMC_PYTHON_PY_ARRAYS_H_
