#include "python/py_eval.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "eval/cmdstan_csv.h"
#include "eval/cmdstan_csv_reader.h"
#include "eval/ess.h"
#include "eval/kernel_stein_discrepancy.h"
#include "eval/rhat.h"
#include "pybind11/numpy.h"
#include "pybind11/stl.h"
#include "python/py_arrays.h"
#include "python/py_status.h"

namespace sgmcmc::python {
namespace py = pybind11;
namespace {

using DoubleInput = py::array_t<double, py::array::c_style | py::array::forcecast>;

void Require(bool condition, const std::string& message) {
  if (!condition) ThrowIfError(absl::InvalidArgumentError(message));
}

// Requires `values` (argument `name` of `what`) to be a vector of n entries: a 2-D array of n
// entries was flattened silently.
void RequireVector(const DoubleInput& values, int64_t n, const char* what, const char* name) {
  if (values.ndim() == 1 && values.shape(0) == n) return;
  std::string shape;
  for (int i = 0; i < values.ndim(); ++i) {
    absl::StrAppend(&shape, i > 0 ? ", " : "", values.shape(i));
  }
  Require(false, absl::StrCat(what, ": ", name, " must have shape (n,) = (", n, ",), got (",
                              shape, values.ndim() == 1 ? ",)" : ")"));
}

// Applies `statistic` (over the chains of one parameter) to draws of shape (n,), (chains, n)
// or (chains, n, d); a float for the first two, an array of d values for the third.
py::object PerParameter(const DoubleInput& draws, const char* what,
                        const std::function<double(absl::Span<const absl::Span<const double>>)>&
                            statistic) {
  const int ndim = draws.ndim();
  Require(ndim >= 1 && ndim <= 3,
          absl::StrCat(what, ": draws must have shape (n,), (chains, n) or (chains, n, d), got ",
                       ndim, " dimensions"));
  const int64_t chains = ndim == 1 ? 1 : draws.shape(0);
  const int64_t n = ndim == 1 ? draws.shape(0) : draws.shape(1);
  const int64_t d = ndim == 3 ? draws.shape(2) : 1;
  Require(chains >= 1 && n >= 4, absl::StrCat(what, ": need at least 1 chain of at least 4 "
                                              "draws, got ", chains, " of ", n));
  std::vector<double> results(d);
  {
    py::gil_scoped_release release;
    std::vector<double> column(chains * n);
    std::vector<absl::Span<const double>> spans(chains);
    for (int64_t k = 0; k < d; ++k) {
      for (int64_t j = 0; j < chains * n; ++j) column[j] = draws.data()[j * d + k];
      for (int64_t c = 0; c < chains; ++c) {
        spans[c] = absl::MakeConstSpan(column.data() + c * n, n);
      }
      results[k] = statistic(spans);
    }
  }
  if (ndim < 3) return py::float_(results[0]);
  return NewArray(results, {d});
}

}  // namespace

void RegisterDiagnostics(py::module_& m) {
  m.def(
      "ess",
      [](const DoubleInput& draws) {
        return PerParameter(draws, "ess", [](absl::Span<const absl::Span<const double>> c) {
          return eval::EffectiveSampleSize(c);
        });
      },
      py::arg("draws"), "Effective sample size (eval/ess.h).");
  m.def(
      "split_rhat",
      [](const DoubleInput& draws) {
        return PerParameter(draws, "split_rhat",
                            [](absl::Span<const absl::Span<const double>> c) {
                              return eval::SplitRHat(c);
                            });
      },
      py::arg("draws"), "Split R-hat (eval/rhat.h).");
  m.def(
      "ksd",
      [](const DoubleInput& draws, const DoubleInput& scores, std::optional<DoubleInput> weights,
         double c, double beta, const std::string& statistic) {
        Require(draws.ndim() == 2, "ksd: draws must have shape (n, d)");
        Require(scores.ndim() == 2 && scores.shape(0) == draws.shape(0) &&
                    scores.shape(1) == draws.shape(1),
                "ksd: scores must have the shape of draws");
        if (weights.has_value()) RequireVector(*weights, draws.shape(0), "ksd", "weights");
        eval::KernelSteinOptions options;
        options.c = c;
        options.beta = beta;
        Require(statistic == "v" || statistic == "u" || statistic == "linear",
                absl::StrCat("ksd: statistic must be \"v\", \"u\" or \"linear\", got \"",
                             statistic, "\""));
        options.statistic = statistic == "u" ? eval::KernelSteinOptions::Statistic::kU
                                             : eval::KernelSteinOptions::Statistic::kV;
        const absl::Span<const double> x(draws.data(), draws.size());
        const absl::Span<const double> s(scores.data(), scores.size());
        const absl::Span<const double> w =
            weights.has_value() ? absl::Span<const double>(weights->data(), weights->size())
                                : absl::Span<const double>();
        const int dimension = static_cast<int>(draws.shape(1));
        absl::StatusOr<eval::KsdEstimate> estimate;
        {
          py::gil_scoped_release release;
          estimate = statistic == "linear"
                         ? eval::LinearKernelSteinDiscrepancy(x, s, dimension, w, options)
                         : eval::KernelSteinDiscrepancy(x, s, dimension, w, options);
        }
        const eval::KsdEstimate value = ValueOrThrow(std::move(estimate));
        py::dict out;
        out["ksd"] = value.value();
        out["squared"] = value.squared;
        // Only the linear statistic has a standard error estimate: NaN (not the struct's
        // 0.0) for V and U, so that no one reads 0.0 as "exact".
        out["standard_error"] =
            statistic == "linear" ? value.standard_error : std::nan("");
        out["num_pairs"] = value.num_pairs;
        return out;
      },
      py::arg("draws"), py::arg("scores"), py::arg("weights") = py::none(), py::arg("c") = 1.0,
      py::arg("beta") = -0.5, py::arg("statistic") = "v",
      "Kernel Stein discrepancy of draws (n x d) with scores grad log p (n x d).");
  m.def(
      "write_cmdstan_csv",
      [](const std::string& path, const DoubleInput& draws, std::optional<DoubleInput> lp,
         const std::string& name, const std::string& model, const std::string& algorithm,
         int64_t num_warmup, int64_t thin, int chain_id, uint64_t seed, int significant_digits) {
        Require(draws.ndim() == 2, "write_cmdstan_csv: draws must have shape (n, d)");
        const int64_t n = draws.shape(0), d = draws.shape(1);
        if (lp.has_value()) RequireVector(*lp, n, "write_cmdstan_csv", "lp");
        eval::CmdStanCsvOptions options;
        options.model = model;
        options.algorithm = algorithm;
        options.num_samples = n;
        options.num_warmup = num_warmup;
        options.thin = thin;
        options.chain_id = chain_id;
        options.seed = seed;
        options.output_file = path;
        options.significant_digits = significant_digits;
        ThrowIfError(options.Validate());
        std::ofstream file(path);
        if (!file) ThrowIfError(absl::NotFoundError(absl::StrCat(path, ": cannot create")));
        eval::CmdStanCsvWriter writer = ValueOrThrow(eval::CmdStanCsvWriter::Create(
            &file, eval::VectorParameterNames(name, static_cast<int>(d)), options));
        for (int64_t i = 0; i < n; ++i) {
          ThrowIfError(writer.WriteDraw(lp.has_value() ? lp->data()[i] : 0.0,
                                        absl::MakeConstSpan(draws.data() + i * d, d)));
        }
        ThrowIfError(writer.Finish(0, 0));
      },
      py::arg("path"), py::arg("draws"), py::arg("lp") = py::none(), py::arg("name") = "theta",
      py::arg("model") = "model", py::arg("algorithm") = "sgmcmc", py::arg("num_warmup") = 0,
      py::arg("thin") = 1, py::arg("chain_id") = 1, py::arg("seed") = 0,
      py::arg("significant_digits") = 6,
      "Writes draws (n x d) in the CmdStan CSV layout (eval/cmdstan_csv.h).");
  m.def(
      "read_cmdstan_csv",
      [](const std::string& path) {
        const eval::CmdStanCsv csv = ValueOrThrow(eval::ReadCmdStanCsv(path));
        py::dict out;
        out["columns"] = csv.columns;
        out["values"] = NewArray(csv.values, {csv.num_draws(),
                                              static_cast<int64_t>(csv.columns.size())});
        out["config"] = csv.config;
        return out;
      },
      py::arg("path"), "Reads a CmdStan CSV file (eval/cmdstan_csv_reader.h).");
}

}  // namespace sgmcmc::python
