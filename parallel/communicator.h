// Communicator: the collective operations a distributed sampler needs, with an in-process
// back end (one process, or one thread per rank) and an Open MPI back end
// (parallel/mpi_communicator.h). Code written against Communicator runs unchanged with one
// process, with threads, or under `mpirun -np P`.
//
// Contract:
// - Every rank calls the same collectives in the same order with the same lengths.
// - Shift(send, receive, offset) is the ring shift of a distributed pipeline (e.g. the
//   column blocks of DSGLD travelling to the neighbouring rank): rank r sends `send` to rank
//   (r + offset) mod size and receives rank (r - offset) mod size's `send` into `receive`,
//   whose length must equal the sender's (InvalidArgument naming both ranks otherwise, on
//   the receiving rank). offset may be negative; offset = 0 (mod size) copies send into
//   receive. send and receive must not overlap.
// - AllReduceSum adds the ranks' vectors elementwise; the thread back end adds in rank order
//   (rank 0 + rank 1 + ...), so its result is fixed for a given size. Callers that need
//   results independent of the rank count contribute disjoint supports (all but one rank
//   pass 0 for each element), which makes every sum exact.
// - Failure: a rank that fails calls Fail(status) (the thread back end's RunOnThreads does
//   it for a body that returns an error); every collective then returns Aborted with that
//   rank's message on every rank that is still in or enters a collective, so no rank hangs.
//   AgreeOnStatus(local) is the collective form: it returns the first (lowest-rank) non-OK
//   status on every rank.
//
// Cost: AllReduceSum O(n) per rank in the thread back end (a reduce-scatter: each rank sums
// its n / size elements over the size inputs, then an all-gather: it copies the n sums; two
// barriers, O(size * n) work over all ranks, O(n) shared memory); Shift O(n) per rank (one
// copy in the thread back end, one MPI_Sendrecv under MPI).
//
// Example:
//   absl::Status status = RunOnThreads(4, [&](Communicator& comm) -> absl::Status {
//     std::vector<double> partial = ...;  // this rank's share
//     return comm.AllReduceSum(absl::MakeSpan(partial));
//   });
#ifndef SGMCMC_PARALLEL_COMMUNICATOR_H_
#define SGMCMC_PARALLEL_COMMUNICATOR_H_

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace sgmcmc::parallel {

class Communicator {
 public:
  virtual ~Communicator() = default;

  // This process's (or thread's) rank in [0, size()).
  virtual int rank() const = 0;
  // The number of ranks; >= 1.
  virtual int size() const = 0;

  // values <- sum over ranks of values, on every rank. Aborted if a rank has failed.
  virtual absl::Status AllReduceSum(absl::Span<double> values) = 0;

  // Ring shift: sends `send` to rank (rank() + offset) mod size(), receives from rank
  // (rank() - offset) mod size() into `receive` (see the file comment). Aborted if a rank has
  // failed; InvalidArgument if receive.size() differs from the sender's send.size().
  virtual absl::Status Shift(absl::Span<const double> send, absl::Span<double> receive,
                             int offset) = 0;

  // Every rank passes its own status; every rank gets the lowest-rank non-OK one (with
  // "rank r: " prefixed to its message), or OK if all are OK.
  virtual absl::Status AgreeOnStatus(const absl::Status& local) = 0;

  // Marks this rank failed with `status` (not OK) so that the other ranks' collectives
  // return an error instead of waiting for it. The MPI back end aborts the job.
  virtual void Fail(const absl::Status& status) = 0;
};

// A communicator of size 1: AllReduceSum leaves the values as they are; Shift copies send
// into receive.
std::unique_ptr<Communicator> MakeSingleProcessCommunicator();

// Runs body(comm) on `size` >= 1 threads, one per rank of a shared in-process communicator,
// and waits for all. A body that returns an error (or a collective that fails) fails its
// rank, which unblocks the others. Returns OK if every rank returned OK, else the error of
// the lowest rank that failed first-hand (not an Aborted caused by another rank), or the
// lowest-rank error.
absl::Status RunOnThreads(int size, const std::function<absl::Status(Communicator&)>& body);

}  // namespace sgmcmc::parallel

#endif  // SGMCMC_PARALLEL_COMMUNICATOR_H_
