#include "python/py_samplers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "Eigen/Dense"
#include "pybind11/numpy.h"
#include "pybind11/stl.h"
#include "python/py_arrays.h"
#include "python/py_status.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "rng/uniform.h"
#include "models/simplex/categorical_dirichlet.h"
#include "samplers/count_model.h"
#include "samplers/minibatch.h"
#include "samplers/gradient_model.h"
#include "samplers/psgld.h"
#include "samplers/sampler.h"
#include "samplers/scir.h"
#include "samplers/hamcmc.h"
#include "samplers/sggmc.h"
#include "samplers/sghmc.h"
#include "samplers/sgld.h"
#include "samplers/sgnht.h"
#include "samplers/sphere_model.h"
#include "samplers/sphere_sampler.h"
#include "samplers/sgrld.h"
#include "samplers/simplex_sampler.h"
#include "samplers/step_size.h"

namespace sgmcmc::python {
namespace py = pybind11;
namespace {

// A NumPy view of `values` kept alive by `owner`; read-only unless `writable`.
template <typename T>
py::array_t<T> View(absl::Span<const T> values, py::handle owner, bool writable) {
  py::array_t<T> view({static_cast<py::ssize_t>(values.size())}, {sizeof(T)}, values.data(),
                      owner);
  if (!writable) {
    py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  }
  return view;
}

// GradientModel whose potential gradient comes from a Python callable (see py_samplers.h).
//
// The callback gets arrays that Python owns (reference-counted NumPy arrays of this model,
// refilled for every call; `out` zeroed, the callback writes its term into it and the model
// adds that to the prior's), never views of the sampler's vectors: a callback that keeps
// `out` (grads.append(out)) and writes to it after the chain is gone writes into memory its
// reference keeps alive, instead of into freed memory (that aborted the interpreter with
// "free(): invalid size"). A kept array is overwritten by the next call (copy it to keep the
// values). The price is three copies of D doubles per gradient (theta in, out in and back),
// a few ns per entry.
//
// The prior: with `prior` None the model's prior term is zero and `gradient` carries it;
// else prior(theta, out) writes -∇log p(θ) (PriorPotentialGradient) and `gradient` only the
// likelihood part. pSGLD needs the split: it calls the likelihood with scale = -1/n to get
// the minibatch mean of the log-likelihood gradients for its preconditioner.
class PythonGradientModel final : public samplers::GradientModel {
 public:
  PythonGradientModel(py::function gradient, py::object prior, int dimension, int64_t num_items)
      : gradient_(std::move(gradient)),
        prior_(std::move(prior)),
        dimension_(dimension),
        num_items_(num_items) {}

  int dimension() const override { return dimension_; }
  int64_t num_items() const override { return num_items_; }

  void PriorPotentialGradient(absl::Span<const double> theta,
                              absl::Span<double> out) const override {
    if (prior_.is_none()) {
      std::fill(out.begin(), out.end(), 0.0);
      return;
    }
    std::copy(theta.begin(), theta.end(), Buffer(theta_, theta.size(), /*writable=*/false));
    double* buffer = Buffer(out_, out.size(), /*writable=*/true);
    std::fill(buffer, buffer + out.size(), 0.0);
    prior_(theta_, out_);
    CopyResult(out, "prior", /*add=*/false);
  }

  void AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                      absl::Span<const int64_t> batch, double scale,
                                      absl::Span<double> out) const override {
    std::copy(theta.begin(), theta.end(), Buffer(theta_, theta.size(), /*writable=*/false));
    double* buffer = Buffer(out_, out.size(), /*writable=*/true);
    std::fill(buffer, buffer + out.size(), 0.0);
    std::copy(batch.begin(), batch.end(), Buffer(batch_, batch.size(), /*writable=*/false));
    gradient_(theta_, batch_, scale, out_);
    // The callback writes its term; the model adds it to the prior's.
    CopyResult(out, "gradient", /*add=*/true);
  }

  // The sampler this model feeds (for the step number of an error); it must outlive *this's
  // calls.
  void set_sampler(const samplers::EuclideanSampler* sampler) { sampler_ = sampler; }

 private:
  // out_ (the callback `what`'s result) into out (added to it if `add`), checked.
  void CopyResult(absl::Span<double> out, const char* what, bool add) const {
    if (out_.ndim() != 1 || static_cast<size_t>(out_.shape(0)) != out.size()) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
          "the ", what, " callback resized out (write the gradient into it with out[:] = ... "
          "or numpy.copyto)")));
    }
    const double* result = reinterpret_cast<const double*>(
        py::detail::array_proxy(out_.ptr())->data);
    // One pass over D values (a few ns per entry) turns a NaN/inf that would silently poison
    // theta into a ValueError; the samplers compute the gradient before they move theta.
    for (size_t i = 0; i < out.size(); ++i) {
      if (!std::isfinite(result[i])) ThrowIfError(NonFiniteError(what, i, result[i]));
    }
    for (size_t i = 0; i < out.size(); ++i) out[i] = add ? out[i] + result[i] : result[i];
  }

  absl::Status NonFiniteError(const char* what, size_t index, double value) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", what, " callback wrote a non-finite value at step ",
        sampler_ != nullptr ? sampler_->iteration() : 0, ": out[", index, "] = ", value,
        " (theta is left as it was before the step)"));
  }

  py::function gradient_;
  py::object prior_;
  int dimension_;
  int64_t num_items_;
  // The data of `array`, a Python-owned vector of `size` entries, made anew if it has
  // another size (the first call, a new batch size, or Python code that resized it with
  // ndarray.resize); theta and batch are handed read-only, out writable.
  template <typename T>
  static T* Buffer(py::array_t<T>& array, size_t size, bool writable) {
    if (!array || array.ndim() != 1 || static_cast<size_t>(array.shape(0)) != size) {
      array = py::array_t<T>(static_cast<py::ssize_t>(size));
    }
    int& flags = py::detail::array_proxy(array.ptr())->flags;
    flags = writable ? flags | py::detail::npy_api::NPY_ARRAY_WRITEABLE_
                     : flags & ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return reinterpret_cast<T*>(py::detail::array_proxy(array.ptr())->data);
  }

  // The callback's arrays (Python-owned; see the class comment).
  mutable py::array_t<double> theta_{py::ssize_t{0}};
  mutable py::array_t<double> out_{py::ssize_t{0}};
  mutable py::array_t<int64_t> batch_{py::ssize_t{0}};
  const samplers::EuclideanSampler* sampler_ = nullptr;
};

samplers::ChainOptions MakeChain(double h, std::optional<double> tau, double kappa,
                                 int64_t batch_size, uint64_t seed, uint64_t stream) {
  samplers::ChainOptions chain;
  chain.step_size = tau.has_value() ? samplers::StepSizeOptions::PolynomialDecay(h, *tau, kappa)
                                    : samplers::StepSizeOptions::Constant(h);
  chain.batch_size = batch_size;
  chain.seed = seed;
  chain.stream = stream;
  return chain;
}

// A Euclidean sampler with its model.
class EuclideanChain {
 public:
  EuclideanChain(std::unique_ptr<PythonGradientModel> model,
                 std::unique_ptr<samplers::EuclideanSampler> sampler)
      : model_(std::move(model)), sampler_(std::move(sampler)) {}

  void Step() { sampler_->Step(); }
  void Run(int64_t steps) {
    for (int64_t i = 0; i < steps; ++i) {
      sampler_->Step();
      CheckSignals();
    }
  }
  const samplers::EuclideanSampler& sampler() const { return *sampler_; }
  samplers::EuclideanSampler& mutable_sampler() { return *sampler_; }

 private:
  std::unique_ptr<PythonGradientModel> model_;
  std::unique_ptr<samplers::EuclideanSampler> sampler_;
};

template <typename Sampler, typename Options>
EuclideanChain MakeEuclidean(py::function gradient, py::object prior, const py::handle& theta0,
                             int64_t num_items, const Options& options) {
  const absl::Span<const double> initial = DoubleView(theta0, "theta0");
  auto model = std::make_unique<PythonGradientModel>(
      std::move(gradient), std::move(prior), static_cast<int>(initial.size()), num_items);
  std::unique_ptr<Sampler> sampler = ValueOrThrow(Sampler::Create(*model, initial, options));
  model->set_sampler(sampler.get());
  return EuclideanChain(std::move(model), std::move(sampler));
}

// Defines `name`(gradient, theta0, num_items, chain, first, second): a Euclidean sampler
// whose options are the chain and two numbers (pSGLD's alpha and lambda, SGHMC's friction and
// gradient noise).
template <typename Sampler, typename Options>
void DefSamplerWithTwoSettings(py::module_& m, const char* name, double Options::*first,
                               const char* first_name, double Options::*second,
                               const char* second_name) {
  m.def(
      name,
      [first, second](py::function gradient, const py::handle& theta0, int64_t num_items,
                      const samplers::ChainOptions& chain, double a, double b,
                      py::object prior) {
        Options options;
        options.chain = chain;
        options.*first = a;
        options.*second = b;
        return MakeEuclidean<Sampler>(std::move(gradient), std::move(prior), theta0, num_items,
                                      options);
      },
      py::arg("gradient"), py::arg("theta0"), py::arg("num_items"), py::arg("chain"),
      py::arg(first_name), py::arg(second_name), py::arg("prior") = py::none());
}

// A simplex sampler (SCIR or SGRLD) of rows x cols.
class SimplexChain {
 public:
  explicit SimplexChain(std::unique_ptr<samplers::SimplexSampler> sampler)
      : sampler_(std::move(sampler)) {}

  // One step with dense counts (shape (rows, cols); float64 read in place, integer dtypes
  // converted) and step size h.
  void Step(const py::handle& counts_array, double h) {
    const int rows = sampler_->rows(), cols = sampler_->cols();
    const py::array_t<double> converted = RealInput(counts_array, "counts", {rows, cols});
    const absl::Span<const double> counts(converted.data(), converted.size());
    if (!(h > 0) || !std::isfinite(h)) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat("h must be finite and > 0, got ", h)));
    }
    for (size_t i = 0; i < counts.size(); ++i) {
      if (!(counts[i] >= 0) || !std::isfinite(counts[i])) {
        ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
            "counts[", i / cols, ", ", i % cols, "] = ", counts[i],
            " must be finite and >= 0")));
      }
    }
    // SGRLD's state before the step, put back if the step overflows (SCIR's exact step
    // cannot).
    std::optional<samplers::SimplexSamplerState> before;
    if (dynamic_cast<const samplers::Sgrld*>(sampler_.get()) != nullptr) {
      before = sampler_->SaveState();
    }
    sampler_->Step(samplers::DenseCountsView{rows, cols, counts}, h);
    if (absl::Status s = CheckFiniteSgrldState(*sampler_, "step"); !s.ok()) {
      ThrowIfError(sampler_->RestoreState(*before));
      ThrowIfError(absl::InvalidArgumentError(
          absl::StrCat(s.message(), "; the chain keeps its state before the step")));
    }
  }

  // ω (rows x cols) written into `out` in place.
  void Simplex(const py::handle& out_array) const {
    const absl::Span<double> out = MutableDoubleView(out_array, "out");
    RequireShape(out_array, "out", {sampler_->rows(), sampler_->cols()});
    sampler_->SimplexRows(0, sampler_->rows(), out);
  }

  const samplers::SimplexSampler& sampler() const { return *sampler_; }
  samplers::SimplexSampler& mutable_sampler() { return *sampler_; }

 private:
  std::unique_ptr<samplers::SimplexSampler> sampler_;
};

// Steps a simplex chain with the scaled counts of a C++ count model: each step draws a
// minibatch of item ids with its engine, asks the model for the counts given the chain's
// current ω, and steps the chain with them.
class CountModelStepper {
 public:
  CountModelStepper(std::shared_ptr<const samplers::CountModel> model, int64_t batch_size,
                    uint64_t seed, uint64_t stream)
      : model_(std::move(model)),
        minibatch_(ValueOrThrow(samplers::Minibatch::Create(model_->num_items(), batch_size))),
        engine_(seed, stream) {}

  void Step(SimplexChain& chain, double h) {
    if (chain.sampler().rows() != model_->num_simplices() ||
        chain.sampler().cols() != model_->dimension()) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
          "the chain has ", chain.sampler().rows(), " x ", chain.sampler().cols(),
          " simplices, the model ", model_->num_simplices(), " x ", model_->dimension())));
    }
    if (!(h > 0) || !std::isfinite(h)) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat("h must be finite and > 0, got ", h)));
    }
    model_->ScaledCounts(engine_, minibatch_.Draw(engine_), chain.sampler(), counts_);
    chain.mutable_sampler().Step(counts_, h);
  }

  const rng::Engine& engine() const { return engine_; }

 private:
  std::shared_ptr<const samplers::CountModel> model_;
  samplers::Minibatch minibatch_;
  rng::Engine engine_;
  samplers::SimplexCounts counts_;
};

// SphereGradientModel whose potential gradient comes from a Python callable: grad(x, batch,
// scale, out) with x and out of shape (d, K) (Python-owned Fortran-ordered arrays, refilled
// for every call as PythonGradientModel's), out = -∇_x log p(x) - scale Σ_{i ∈ batch}
// ∇_x log p(y_i | x) in ambient coordinates (the samplers project onto the tangent space).
class PythonSphereModel final : public samplers::SphereGradientModel {
 public:
  PythonSphereModel(py::function gradient, int dimension, int num_spheres, int64_t num_items)
      : gradient_(std::move(gradient)),
        dimension_(dimension),
        num_spheres_(num_spheres),
        num_items_(num_items) {}

  int dimension() const override { return dimension_; }
  int num_spheres() const override { return num_spheres_; }
  int64_t num_items() const override { return num_items_; }

  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              Eigen::Ref<Eigen::MatrixXd> out) const override {
    out.setZero();
  }

  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                      absl::Span<const int64_t> batch, double scale,
                                      Eigen::Ref<Eigen::MatrixXd> out) const override {
    double* x_data = Matrix(x_, /*writable=*/false);
    double* out_data = Matrix(out_, /*writable=*/true);
    Eigen::Map<Eigen::MatrixXd>(x_data, dimension_, num_spheres_) = x;
    Eigen::Map<Eigen::MatrixXd>(out_data, dimension_, num_spheres_) = out;
    if (batch_.size() != static_cast<py::ssize_t>(batch.size())) {
      batch_ = py::array_t<int64_t>(static_cast<py::ssize_t>(batch.size()));
    }
    std::copy(batch.begin(), batch.end(), batch_.mutable_data());
    gradient_(x_, batch_, scale, out_);
    if (out_.ndim() != 2 || out_.shape(0) != dimension_ || out_.shape(1) != num_spheres_ ||
        !(out_.flags() & py::array::f_style)) {
      ThrowIfError(absl::InvalidArgumentError(
          "the gradient callback resized or replaced out (write into it with out[...] = ...)"));
    }
    const double* result = reinterpret_cast<const double*>(
        py::detail::array_proxy(out_.ptr())->data);
    const int64_t size = static_cast<int64_t>(dimension_) * num_spheres_;
    for (int64_t i = 0; i < size; ++i) {
      if (!std::isfinite(result[i])) {
        ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
            "the gradient callback wrote a non-finite value: out[", i % dimension_, ", ",
            i / dimension_, "] = ", result[i], " (x is left as it was before the step)")));
      }
    }
    out = Eigen::Map<const Eigen::MatrixXd>(result, dimension_, num_spheres_);
  }

 private:
  // A Python-owned (d, K) Fortran-ordered array (Eigen's layout), made anew if Python code
  // reshaped or resized it.
  double* Matrix(py::array& array, bool writable) const {
    if (!array || array.ndim() != 2 || array.shape(0) != dimension_ ||
        array.shape(1) != num_spheres_ || !(array.flags() & py::array::f_style)) {
      array = py::array_t<double, py::array::f_style>({dimension_, num_spheres_});
    }
    int& flags = py::detail::array_proxy(array.ptr())->flags;
    flags = writable ? flags | py::detail::npy_api::NPY_ARRAY_WRITEABLE_
                     : flags & ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return reinterpret_cast<double*>(py::detail::array_proxy(array.ptr())->data);
  }

  py::function gradient_;
  int dimension_;
  int num_spheres_;
  int64_t num_items_;
  mutable py::array x_;
  mutable py::array out_;
  mutable py::array_t<int64_t> batch_{py::ssize_t{0}};
};

// A geodesic sampler (SGGMC or gSGNHT) with its model.
class SphereChain {
 public:
  SphereChain(std::unique_ptr<PythonSphereModel> model,
              std::unique_ptr<samplers::SphereSampler> sampler)
      : model_(std::move(model)), sampler_(std::move(sampler)) {}

  void Run(int64_t steps) {
    for (int64_t i = 0; i < steps; ++i) {
      sampler_->Step();
      CheckSignals();
    }
  }
  const samplers::SphereSampler& sampler() const { return *sampler_; }
  samplers::SphereSampler& mutable_sampler() { return *sampler_; }

 private:
  std::unique_ptr<PythonSphereModel> model_;
  std::unique_ptr<samplers::SphereSampler> sampler_;
};

// x0: (d, K) or (d,) (one sphere) real array with unit columns.
template <typename Sampler>
SphereChain MakeSphere(py::function gradient, const py::handle& x0, int64_t num_items,
                       const samplers::GeodesicSamplerOptions& options) {
  if (!py::isinstance<py::array>(x0)) {
    throw py::type_error("x0 must be a numpy.ndarray of shape (d,) or (d, K)");
  }
  const py::array array = py::reinterpret_borrow<py::array>(x0);
  if (array.ndim() != 1 && array.ndim() != 2) {
    throw py::value_error(absl::StrCat("x0 must have shape (d,) or (d, K), got ", array.ndim(),
                                       " dimensions"));
  }
  const int d = static_cast<int>(array.shape(0));
  const int k = array.ndim() == 2 ? static_cast<int>(array.shape(1)) : 1;
  const py::array_t<double> values = RealInput(x0, "x0", array.ndim() == 2
                                                             ? std::vector<int64_t>{d, k}
                                                             : std::vector<int64_t>{d});
  Eigen::MatrixXd initial(d, k);
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < k; ++j) initial(i, j) = values.data()[i * k + j];
  }
  auto model = std::make_unique<PythonSphereModel>(std::move(gradient), d, k, num_items);
  std::unique_ptr<Sampler> sampler = ValueOrThrow(Sampler::Create(*model, initial, options));
  return SphereChain(std::move(model), std::move(sampler));
}

// `values` (a sequence of ints, `name` in messages) as int64s; an entry pybind11 cannot
// convert raises IntegerArg's error naming it, e.g. "name[2] must be an int, got 1.5".
std::vector<int64_t> Int64List(const py::object& values, const std::string& name) {
  try {
    return values.cast<std::vector<int64_t>>();
  } catch (const py::cast_error&) {
  }
  if (py::isinstance<py::str>(values) || py::isinstance<py::bytes>(values) ||
      !py::isinstance<py::sequence>(values)) {
    throw py::type_error(absl::StrCat(
        name, " must be a sequence of ints, got ",
        std::string(py::str(py::type::of(values).attr("__name__")))));
  }
  std::vector<int64_t> out;
  const py::sequence sequence = py::reinterpret_borrow<py::sequence>(values);
  for (size_t i = 0; i < sequence.size(); ++i) {
    out.push_back(IntegerArg<int64_t>(sequence[i], absl::StrCat(name, "[", i, "]")));
  }
  return out;
}

samplers::SimplexSamplerOptions SimplexOptions(int rows, int cols, std::vector<double> alpha,
                                               uint64_t seed) {
  samplers::SimplexSamplerOptions options;
  options.rows = rows;
  options.cols = cols;
  options.alpha = std::move(alpha);
  options.seed = seed;
  return options;
}

}  // namespace

absl::Status CheckFiniteSgrldState(const samplers::SimplexSampler& sampler, const char* what) {
  if (dynamic_cast<const samplers::Sgrld*>(&sampler) == nullptr) return absl::OkStatus();
  std::vector<double> omega(sampler.cols());
  for (int row = 0; row < sampler.rows(); ++row) {
    sampler.SimplexRows(row, row + 1, absl::MakeSpan(omega));
    double sum = 0;
    for (const double value : omega) sum += value;
    if (!std::isfinite(sum)) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": SGRLD's state overflowed (row ", row, " of omega sums to ", sum,
          "): the step size or the counts are too large"));
    }
  }
  return absl::OkStatus();
}

void RegisterSamplers(py::module_& m) {
  py::class_<rng::Engine>(m, "Engine",
                          "Philox4x32-10 stream `stream` of key `seed` (rng/engine.h).")
      .def(py::init([](const py::object& seed, const py::object& stream) {
             return rng::Engine(IntegerArg<uint64_t>(seed, "Engine: seed"),
                                IntegerArg<uint64_t>(stream, "Engine: stream"));
           }),
           py::arg("seed"), py::arg("stream") = 0)
      .def_property_readonly("seed", &rng::Engine::seed)
      .def_property_readonly("stream", &rng::Engine::stream)
      .def_property_readonly("position", &rng::Engine::position)
      .def(
          "seek",
          [](rng::Engine& engine, const py::object& position) {
            engine.Seek(IntegerArg<uint64_t>(position, "Engine.seek: position"));
          },
          py::arg("position"))
      .def("next", [](rng::Engine& engine) { return engine(); }, "The next 64 random bits.")
      .def(
          "normal",
          [](rng::Engine& engine, const py::handle& out) {
            rng::FillNormal(engine, MutableDoubleView(out, "out"));
          },
          py::arg("out"), "Fills out (float64, in place) with standard normal draws.")
      .def(
          "uniform",
          [](rng::Engine& engine, const py::handle& out) {
            rng::FillUniformDouble(engine, MutableDoubleView(out, "out"));
          },
          py::arg("out"), "Fills out (float64, in place) with uniform draws in [0, 1).");

  py::class_<EuclideanChain>(m, "EuclideanChain",
                             "SGLD / pSGLD / SGHMC / SGNHT / HAMCMC over a Python gradient "
                             "(py_samplers.h).",
                             py::dynamic_attr())
      .def("step", &EuclideanChain::Step, "One iteration; theta changes in place.")
      .def(
          "run",
          [](EuclideanChain& c, const py::object& steps) {
            c.Run(IntegerArg<int64_t>(steps, "EuclideanChain.run: steps", 0));
          },
          py::arg("steps"),
           "`steps` iterations in C++ (Ctrl-C stops between iterations).")
      .def_property_readonly(
          "theta",
          [](py::object self) {
            return View(self.cast<const EuclideanChain&>().sampler().theta(), self, false);
          },
          "The current draw: a read-only view of the sampler's vector, updated in place.")
      .def_property_readonly("name",
                             [](const EuclideanChain& c) { return std::string(c.sampler().name()); })
      .def_property_readonly("iteration",
                             [](const EuclideanChain& c) { return c.sampler().iteration(); })
      .def_property_readonly(
          "last_step_size", [](const EuclideanChain& c) { return c.sampler().last_step_size(); })
      .def_property_readonly(
          "thermostat",
          [](const EuclideanChain& c) {
            const auto* sgnht = dynamic_cast<const samplers::Sgnht*>(&c.sampler());
            return sgnht != nullptr ? sgnht->thermostat() : std::nan("");
          },
          "SGNHT's thermostat ζ (NaN for the other samplers).")
      .def("save_state",
           [](const EuclideanChain& c) { return py::bytes(c.sampler().SaveState().SerializeAsString()); })
      .def("restore_state", [](EuclideanChain& c, const std::string& bytes) {
        samplers::SamplerState state;
        if (!state.ParseFromString(bytes)) {
          ThrowIfError(absl::DataLossError("not a serialized samplers.SamplerState"));
        }
        ThrowIfError(c.mutable_sampler().RestoreState(state));
      });

  py::class_<samplers::ChainOptions>(m, "ChainOptions",
                                     "Step size schedule, minibatch size, seed and stream.")
      .def(py::init(&MakeChain), py::arg("step_size"), py::arg("step_size_tau"),
           py::arg("step_size_kappa"), py::arg("batch_size"), py::arg("seed"),
           py::arg("stream"));
  m.def(
      "sgld",
      [](py::function gradient, const py::handle& theta0, int64_t num_items,
         const samplers::ChainOptions& chain, py::object prior) {
        samplers::SgldOptions options;
        options.chain = chain;
        return MakeEuclidean<samplers::Sgld>(std::move(gradient), std::move(prior), theta0,
                                             num_items, options);
      },
      py::arg("gradient"), py::arg("theta0"), py::arg("num_items"), py::arg("chain"),
      py::arg("prior") = py::none());
  DefSamplerWithTwoSettings<samplers::Psgld>(m, "psgld", &samplers::PsgldOptions::alpha, "alpha",
                                              &samplers::PsgldOptions::lambda, "regularizer");
  DefSamplerWithTwoSettings<samplers::Sghmc>(m, "sghmc", &samplers::SghmcOptions::friction,
                                              "friction", &samplers::SghmcOptions::gradient_noise,
                                              "gradient_noise");
  DefSamplerWithTwoSettings<samplers::Sgnht>(m, "sgnht", &samplers::SgnhtOptions::diffusion,
                                              "diffusion",
                                              &samplers::SgnhtOptions::initial_thermostat,
                                              "initial_thermostat");
  m.def(
      "hamcmc",
      [](py::function gradient, const py::handle& theta0, int64_t num_items,
         const samplers::ChainOptions& chain, const py::object& memory, double gamma,
         double damping, double warmup_step, py::object prior) {
        samplers::HamcmcOptions options;
        options.chain = chain;
        options.memory = IntegerArg<int>(memory, "memory");
        options.gamma = gamma;
        options.damping = damping;
        options.warmup_step = warmup_step;
        return MakeEuclidean<samplers::Hamcmc>(std::move(gradient), std::move(prior), theta0,
                                               num_items, options);
      },
      py::arg("gradient"), py::arg("theta0"), py::arg("num_items"), py::arg("chain"),
      py::arg("memory"), py::arg("gamma"), py::arg("damping"), py::arg("warmup_step"),
      py::arg("prior") = py::none());

  py::class_<SphereChain>(m, "SphereChain",
                          "SGGMC / gSGNHT on a product of K unit spheres S^{d-1} over a Python "
                          "gradient (py_samplers.h).",
                          py::dynamic_attr())
      .def("step", [](SphereChain& c) { c.mutable_sampler().Step(); },
           "One iteration (L inner steps with one minibatch).")
      .def(
          "run",
          [](SphereChain& c, const py::object& steps) {
            c.Run(IntegerArg<int64_t>(steps, "SphereChain.run: steps", 0));
          },
          py::arg("steps"), "`steps` iterations in C++ (Ctrl-C stops between iterations).")
      .def_property_readonly(
          "x",
          [](const SphereChain& c) {
            const Eigen::MatrixXd& x = c.sampler().x();
            py::array_t<double> out({x.rows(), x.cols()});
            Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                out.mutable_data(), x.rows(), x.cols()) = x;
            return out;
          },
          "The current point, a copy of shape (d, K) (columns on the unit sphere).")
      .def_property_readonly("name",
                             [](const SphereChain& c) { return std::string(c.sampler().name()); })
      .def_property_readonly("iteration",
                             [](const SphereChain& c) { return c.sampler().iteration(); })
      .def_property_readonly("last_step_size",
                             [](const SphereChain& c) { return c.sampler().last_step_size(); })
      .def_property_readonly("thermostat",
                             [](const SphereChain& c) { return c.sampler().thermostat(); },
                             "gSGNHT's thermostat ξ (SGGMC: 0).")
      .def("save_state",
           [](const SphereChain& c) {
             return py::bytes(c.sampler().SaveState().SerializeAsString());
           })
      .def("restore_state", [](SphereChain& c, const std::string& bytes) {
        samplers::SphereSamplerState state;
        if (!state.ParseFromString(bytes)) {
          ThrowIfError(absl::DataLossError("not a serialized samplers.SphereSamplerState"));
        }
        ThrowIfError(c.mutable_sampler().RestoreState(state));
      });
  py::class_<samplers::GeodesicSamplerOptions>(
      m, "GeodesicOptions", "Chain options, friction C, gradient-noise estimate, inner steps.")
      .def(py::init([](const samplers::ChainOptions& chain, double friction,
                       double gradient_noise, const py::object& inner_steps) {
             samplers::GeodesicSamplerOptions options;
             options.chain = chain;
             options.friction = friction;
             options.gradient_noise = gradient_noise;
             options.inner_steps = IntegerArg<int>(inner_steps, "inner_steps", 1);
             return options;
           }),
           py::arg("chain"), py::arg("friction"), py::arg("gradient_noise"),
           py::arg("inner_steps"));
  m.def("sggmc", &MakeSphere<samplers::Sggmc>, py::arg("gradient"), py::arg("x0"),
        py::arg("num_items"), py::arg("options"));
  m.def("gsgnht", &MakeSphere<samplers::Gsgnht>, py::arg("gradient"), py::arg("x0"),
        py::arg("num_items"), py::arg("options"));

  py::class_<SimplexChain>(m, "SimplexChain", "SCIR / SGRLD on rows x cols simplices.",
                           py::dynamic_attr())
      .def("save_state",
           [](const SimplexChain& c) {
             return py::bytes(c.sampler().SaveState().SerializeAsString());
           },
           "The chain's checkpoint (a serialized samplers.SimplexSamplerState).")
      .def(
          "restore_state",
          [](SimplexChain& c, const std::string& bytes) {
            samplers::SimplexSamplerState state;
            if (!state.ParseFromString(bytes)) {
              ThrowIfError(absl::DataLossError("not a serialized samplers.SimplexSamplerState"));
            }
            ThrowIfError(c.mutable_sampler().RestoreState(state));
          },
          py::arg("state"),
          "Continues from a save_state() of a chain of the same sampler and shape.")
      .def_property_readonly("name",
                             [](const SimplexChain& c) {
                               return std::string(dynamic_cast<const samplers::Sgrld*>(
                                                      &c.sampler()) != nullptr
                                                      ? "sgrld"
                                                      : "scir");
                             })
      .def("step", &SimplexChain::Step, py::arg("counts"), py::arg("h"),
           "One step with dense scaled counts of shape (rows, cols) (float64 read in place).")
      .def("simplex", &SimplexChain::Simplex, py::arg("out"),
           "Writes ω into out (float64, C-contiguous, shape (rows, cols)) in place.")
      .def_property_readonly("rows", [](const SimplexChain& c) { return c.sampler().rows(); })
      .def_property_readonly("cols", [](const SimplexChain& c) { return c.sampler().cols(); })
      .def(
          "steps",
          [](const SimplexChain& c, const py::object& row) {
            return c.sampler().steps(
                IntegerArg<int>(row, "SimplexChain.steps: row", 0, c.sampler().rows() - 1));
          },
          py::arg("row"));
  m.def(
      "scir",
      [](int rows, int cols, std::vector<double> alpha, uint64_t seed) {
        return SimplexChain(std::make_unique<samplers::Scir>(ValueOrThrow(
            samplers::Scir::Create(SimplexOptions(rows, cols, std::move(alpha), seed)))));
      },
      py::arg("rows"), py::arg("cols"), py::arg("alpha"), py::arg("seed"));
  m.def(
      "sgrld",
      [](int rows, int cols, std::vector<double> alpha, uint64_t seed) {
        return SimplexChain(std::make_unique<samplers::Sgrld>(ValueOrThrow(
            samplers::Sgrld::Create(SimplexOptions(rows, cols, std::move(alpha), seed)))));
      },
      py::arg("rows"), py::arg("cols"), py::arg("alpha"), py::arg("seed"));

  py::class_<samplers::CountModel, std::shared_ptr<samplers::CountModel>>(
      m, "CountModel", "A C++ count model (samplers/count_model.h).")
      .def_property_readonly("num_simplices", &samplers::CountModel::num_simplices)
      .def_property_readonly("dimension", &samplers::CountModel::dimension)
      .def_property_readonly("num_items", &samplers::CountModel::num_items)
      .def("prior_concentration", &samplers::CountModel::PriorConcentration);
  py::class_<models::CategoricalDirichlet, samplers::CountModel,
             std::shared_ptr<models::CategoricalDirichlet>>(
      m, "CategoricalDirichlet",
      "Categorical data with a Dirichlet prior (models/simplex/categorical_dirichlet.h).")
      .def(py::init([](const py::object& category_counts, double alpha) {
             models::CategoricalDirichletOptions options;
             options.category_counts =
                 Int64List(category_counts, "CategoricalDirichlet: category_counts");
             options.alpha = alpha;
             return std::make_shared<models::CategoricalDirichlet>(
                 ValueOrThrow(models::CategoricalDirichlet::Create(std::move(options))));
           }),
           py::arg("category_counts"), py::arg("alpha"))
      .def("posterior_concentration", &models::CategoricalDirichlet::PosteriorConcentration);
  py::class_<CountModelStepper>(m, "CountModelStepper",
                                "Steps a simplex chain with a C++ count model's minibatch counts.")
      .def(py::init([](std::shared_ptr<const samplers::CountModel> model,
                       const py::object& batch_size, const py::object& seed,
                       const py::object& stream) {
             // pybind11 turns None into a null model.
             if (model == nullptr) {
               throw py::type_error("model must be a CountModel (e.g. CategoricalDirichlet), "
                                    "got None");
             }
             return CountModelStepper(
                 std::move(model), IntegerArg<int64_t>(batch_size, "CountModelStepper: batch_size"),
                 IntegerArg<uint64_t>(seed, "CountModelStepper: seed"),
                 IntegerArg<uint64_t>(stream, "CountModelStepper: stream"));
           }),
           py::arg("model"), py::arg("batch_size"), py::arg("seed"), py::arg("stream"))
      .def("step", &CountModelStepper::Step, py::arg("chain"), py::arg("h"))
      .def_property_readonly("engine_position",
                             [](const CountModelStepper& s) { return s.engine().position(); });
}

}  // namespace sgmcmc::python
