// MpiCommunicator: the Open MPI back end of parallel::Communicator (communicator.h), over
// MPI_COMM_WORLD. Run the binary under `mpirun -np P` (as root on one machine:
// `mpirun --allow-run-as-root --oversubscribe -np P`); without mpirun it is a single rank.
//
// - AllReduceSum is MPI_Allreduce(MPI_SUM) in place; for a fixed rank count Open MPI's choice
//   of algorithm, and so the result, is fixed (and exact for disjoint supports).
// - Shift is MPI_Isend to the destination, MPI_Probe of the source's message (so a length
//   mismatch is reported with both lengths, after the message has been received, and no rank
//   is left waiting), MPI_Recv, MPI_Wait; an offset of 0 (mod size) is a local copy.
// - AgreeOnStatus: an MPI_Allreduce(MIN) finds the lowest failing rank, which broadcasts its
//   status code and message.
// - Fail(status) prints "rank r failed: message" to stderr and calls MPI_Abort, which makes
//   mpirun end every rank with an error instead of leaving them waiting in a collective.
//
// One per process: Create() calls MPI_Init, the destructor MPI_Finalize.
//
// Example:
//   int main(int argc, char** argv) {
//     std::unique_ptr<MpiCommunicator> comm = MpiCommunicator::Create(&argc, &argv);
//     ...RunMatrixFactorizationExperiment(options, *comm)...
//   }
#ifndef SGMCMC_PARALLEL_MPI_COMMUNICATOR_H_
#define SGMCMC_PARALLEL_MPI_COMMUNICATOR_H_

#include <memory>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "parallel/communicator.h"

namespace sgmcmc::parallel {

class MpiCommunicator final : public Communicator {
 public:
  // Initialises MPI (once per process; a second call is a fatal error).
  static std::unique_ptr<MpiCommunicator> Create(int* argc, char*** argv);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  absl::Status AllReduceSum(absl::Span<double> values) override;
  absl::Status Shift(absl::Span<const double> send, absl::Span<double> receive,
                     int offset) override;
  absl::Status AgreeOnStatus(const absl::Status& local) override;
  [[noreturn]] void Fail(const absl::Status& status) override;

 private:
  MpiCommunicator(int rank, int size) : rank_(rank), size_(size) {}
  const int rank_;
  const int size_;
};

}  // namespace sgmcmc::parallel

#endif  // SGMCMC_PARALLEL_MPI_COMMUNICATOR_H_
