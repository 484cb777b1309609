#include "parallel/communicator.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "parallel/poll.h"
#include "parallel/thread_pool.h"

namespace sgmcmc::parallel {
namespace {

// receive <- send of rank `source`, checking the lengths (the receiving rank's error).
absl::Status CopyShifted(absl::Span<const double> send, int source, absl::Span<double> receive,
                         int rank) {
  if (send.size() != receive.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Shift: rank ", source, " sent ", send.size(),
                                                   " values, rank ", rank, " expected ",
                                                   receive.size()));
  }
  std::copy(send.begin(), send.end(), receive.begin());
  return absl::OkStatus();
}

class SingleProcessCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  absl::Status AllReduceSum(absl::Span<double>) override { return failure_; }
  absl::Status Shift(absl::Span<const double> send, absl::Span<double> receive,
                     int /*offset*/) override {
    if (!failure_.ok()) return failure_;
    return CopyShifted(send, /*source=*/0, receive, /*rank=*/0);
  }
  absl::Status AgreeOnStatus(const absl::Status& local) override {
    if (local.ok()) return absl::OkStatus();
    return absl::Status(local.code(), absl::StrCat("rank 0: ", local.message()));
  }
  void Fail(const absl::Status& status) override {
    failure_ = absl::AbortedError(absl::StrCat("rank 0 failed: ", status.message()));
  }

 private:
  absl::Status failure_;
};

// State shared by the ranks of one RunOnThreads call. A collective is two barrier phases:
// every rank publishes its input, waits, reads everyone's, waits again.
//
// Two barriers per collective are enough, for the inputs and for AllReduceSum's chunk sums
// (sums_), because every shared buffer is read only between a collective's two barriers or
// between its second barrier and the next collective's first, and written only in the other
// window:
// - A rank's input (its caller's span) is read by the others between barriers 1 and 2; the
//   caller may overwrite it once this rank has passed barrier 2, after every read.
// - Rank r's chunk sums_[r] is written (and resized) only by rank r, between barriers 1 and 2
//   of an AllReduceSum, and read by every rank after barrier 2, until that rank arrives at the
//   next collective's barrier 1. The next write to sums_[r] comes after that barrier 1, which
//   no rank passes before every rank has arrived, so every copy of the previous sums is done.
// A single contiguous buffer of the n sums would have to be resized when n grows, by one rank
// while no other writes its chunk into it: a third barrier. One vector per rank needs none.
// On a failure a barrier returns Aborted at once, and a rank may leave while another still
// reads its input; that reader's next barrier returns Aborted too and its result is dropped.
class ThreadGroup {
 public:
  explicit ThreadGroup(int size)
      : size_(size),
        poll_(internal::MayPoll(size)),
        inputs_(size),
        sums_(size),
        statuses_(size),
        first_hand_(size, false) {}

  int size() const { return size_; }

  // Waits until all ranks arrive or the group has failed. Aborted in the latter case. A rank
  // that is not the last polls for the others first (parallel/poll.h) and sleeps on the
  // condition variable only after that: collectives a few microseconds apart (the matrix
  // factorisation's exchanges, HAMCMC's all-reduces) then cost no wake-up.
  absl::Status Barrier() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!failure_.ok()) return failure_;
    const int64_t generation = generation_.load(std::memory_order_relaxed);
    if (++arrived_ == size_) {
      arrived_ = 0;
      generation_.store(generation + 1, std::memory_order_release);
      cv_.notify_all();
      return absl::OkStatus();
    }
    lock.unlock();
    internal::PollFor(poll_, [&] {
      return generation_.load(std::memory_order_acquire) != generation ||
             failed_.load(std::memory_order_acquire);
    });
    lock.lock();
    cv_.wait(lock, [&] {
      return generation_.load(std::memory_order_relaxed) != generation || !failure_.ok();
    });
    if (generation_.load(std::memory_order_relaxed) != generation) return absl::OkStatus();
    return failure_;
  }

  void Fail(int rank, const absl::Status& status) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.ok()) {
      failure_ = absl::AbortedError(absl::StrCat("rank ", rank, " failed: ", status.message()));
      first_hand_[rank] = true;
      failed_.store(true, std::memory_order_release);
    }
    cv_.notify_all();
  }

  bool first_hand(int rank) {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_hand_[rank];
  }

  std::vector<absl::Span<const double>>& inputs() { return inputs_; }
  std::vector<std::vector<double>>& sums() { return sums_; }
  std::vector<absl::Status>& statuses() { return statuses_; }

 private:
  const int size_;
  const bool poll_;  // size_ <= cores
  std::mutex mutex_;
  std::condition_variable cv_;
  int arrived_ = 0;
  // Written under mutex_; atomic for the polls before sleeping.
  std::atomic<int64_t> generation_{0};
  std::atomic<bool> failed_{false};  // !failure_.ok()
  absl::Status failure_;
  std::vector<absl::Span<const double>> inputs_;
  // sums_[r]: AllReduceSum's sums over the ranks of rank r's chunk of the elements
  // (ThreadPool::ChunkBounds(0, n, size, r)), written by rank r (see the class comment).
  std::vector<std::vector<double>> sums_;
  std::vector<absl::Status> statuses_;
  std::vector<bool> first_hand_;
};

class ThreadCommunicator final : public Communicator {
 public:
  ThreadCommunicator(ThreadGroup& group, int rank) : group_(group), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return group_.size(); }

  // A reduce-scatter and an all-gather in the two barrier phases: after barrier 1 this rank
  // sums its chunk of the elements over every rank's input, after barrier 2 it copies every
  // rank's chunk into `values`. Each element is summed in rank order, from 0.0 (so that -0.0
  // inputs give +0.0, as when every rank summed everything), whatever chunk it falls in.
  absl::Status AllReduceSum(absl::Span<double> values) override {
    group_.inputs()[rank_] = values;
    absl::Status status = group_.Barrier();
    if (!status.ok()) return status;
    for (int r = 0; r < size(); ++r) {
      if (group_.inputs()[r].size() != values.size()) {
        status = absl::InvalidArgumentError(
            absl::StrCat("AllReduceSum: rank ", r, " passed ", group_.inputs()[r].size(),
                         " values, rank ", rank_, " passed ", values.size()));
      }
    }
    const int64_t n = static_cast<int64_t>(values.size());
    if (status.ok()) {
      const auto [begin, end] = ThreadPool::ChunkBounds(0, n, size(), rank_);
      std::vector<double>& chunk = group_.sums()[rank_];
      chunk.assign(end - begin, 0.0);
      double* sum = chunk.data();
      for (int r = 0; r < size(); ++r) {
        const double* in = group_.inputs()[r].data() + begin;
        for (int64_t i = 0; i < end - begin; ++i) sum[i] += in[i];
      }
    }
    // Nobody overwrites its input until everyone has read it, nor reads a chunk before it is
    // summed.
    absl::Status second = group_.Barrier();
    if (!status.ok()) return status;
    if (!second.ok()) return second;
    for (int r = 0; r < size(); ++r) {
      const std::vector<double>& chunk = group_.sums()[r];
      std::copy(chunk.begin(), chunk.end(),
                values.begin() + ThreadPool::ChunkBounds(0, n, size(), r).first);
    }
    return absl::OkStatus();
  }

  absl::Status Shift(absl::Span<const double> send, absl::Span<double> receive,
                     int offset) override {
    group_.inputs()[rank_] = send;
    absl::Status status = group_.Barrier();
    if (!status.ok()) return status;
    const int n = size();
    const int source = ((rank_ - offset) % n + n) % n;
    status = CopyShifted(group_.inputs()[source], source, receive, rank_);
    // The source keeps its send buffer until this rank has copied it.
    absl::Status second = group_.Barrier();
    if (!status.ok()) return status;
    return second;
  }

  absl::Status AgreeOnStatus(const absl::Status& local) override {
    group_.statuses()[rank_] = local;
    absl::Status status = group_.Barrier();
    if (!status.ok()) return status;
    absl::Status agreed;
    for (int r = 0; r < size() && agreed.ok(); ++r) {
      const absl::Status& s = group_.statuses()[r];
      if (!s.ok()) agreed = absl::Status(s.code(), absl::StrCat("rank ", r, ": ", s.message()));
    }
    status = group_.Barrier();
    if (!status.ok()) return status;
    return agreed;
  }

  void Fail(const absl::Status& status) override { group_.Fail(rank_, status); }

 private:
  ThreadGroup& group_;
  const int rank_;
};

}  // namespace

std::unique_ptr<Communicator> MakeSingleProcessCommunicator() {
  return std::make_unique<SingleProcessCommunicator>();
}

absl::Status RunOnThreads(int size, const std::function<absl::Status(Communicator&)>& body) {
  SGMCMC_CHECK(size >= 1) << "RunOnThreads: size must be >= 1, got " << size;
  ThreadGroup group(size);
  std::vector<absl::Status> results(size);
  std::vector<std::thread> threads;
  threads.reserve(size);
  for (int r = 0; r < size; ++r) {
    threads.emplace_back([&, r] {
      ThreadCommunicator comm(group, r);
      results[r] = body(comm);
      if (!results[r].ok()) group.Fail(r, results[r]);
    });
  }
  for (std::thread& t : threads) t.join();
  for (int r = 0; r < size; ++r) {
    if (!results[r].ok() && group.first_hand(r)) return results[r];
  }
  for (int r = 0; r < size; ++r) {
    if (!results[r].ok()) return results[r];
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::parallel
