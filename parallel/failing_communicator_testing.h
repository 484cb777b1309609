// FailingCommunicator (testonly): a parallel::Communicator that forwards to another one but
// makes one rank's n-th call of one collective (AllReduceSum or Shift) return an error
// instead, so tests can check that a failing rank ends every rank's run with an error and
// never a hang.
//
// Cost: one forwarding virtual call per collective.
//
// Example:
//   parallel::RunOnThreads(3, [&](parallel::Communicator& inner) {
//     FailingCommunicator comm(inner, FailingCommunicator::kShift, /*fail_rank=*/1,
//                              /*fail_at=*/7, absl::UnavailableError("injected"));
//     return RunChain(comm);
//   });
#ifndef SGMCMC_PARALLEL_FAILING_COMMUNICATOR_TESTING_H_
#define SGMCMC_PARALLEL_FAILING_COMMUNICATOR_TESTING_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "parallel/communicator.h"

namespace sgmcmc::parallel {

class FailingCommunicator final : public Communicator {
 public:
  enum Collective { kAllReduceSum, kShift };

  // Rank `fail_rank`'s `fail_at`-th (1-based) call of `which` returns `error` (not OK).
  FailingCommunicator(Communicator& inner, Collective which, int fail_rank, int fail_at,
                      absl::Status error)
      : inner_(inner),
        which_(which),
        fail_rank_(fail_rank),
        fail_at_(fail_at),
        error_(std::move(error)) {}

  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  absl::Status AllReduceSum(absl::Span<double> values) override {
    if (FailsNow(kAllReduceSum)) return error_;
    return inner_.AllReduceSum(values);
  }
  absl::Status Shift(absl::Span<const double> send, absl::Span<double> receive,
                     int offset) override {
    if (FailsNow(kShift)) return error_;
    return inner_.Shift(send, receive, offset);
  }
  absl::Status AgreeOnStatus(const absl::Status& local) override {
    return inner_.AgreeOnStatus(local);
  }
  void Fail(const absl::Status& status) override { inner_.Fail(status); }

 private:
  bool FailsNow(Collective called) {
    return called == which_ && rank() == fail_rank_ && ++calls_ == fail_at_;
  }

  Communicator& inner_;
  const Collective which_;
  const int fail_rank_;
  const int fail_at_;
  const absl::Status error_;
  int calls_ = 0;
};

}  // namespace sgmcmc::parallel

#endif  // SGMCMC_PARALLEL_FAILING_COMMUNICATOR_TESTING_H_
