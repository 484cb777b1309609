#include "parallel/communicator.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "absl/strings/str_cat.h"

namespace sgmcmc::parallel {
namespace {

using ::testing::HasSubstr;

TEST(SingleProcessCommunicatorTest, IsTheIdentity) {
  std::unique_ptr<Communicator> comm = MakeSingleProcessCommunicator();
  EXPECT_EQ(comm->rank(), 0);
  EXPECT_EQ(comm->size(), 1);
  std::vector<double> v = {1.5, -2};
  ASSERT_TRUE(comm->AllReduceSum(absl::MakeSpan(v)).ok());
  EXPECT_THAT(v, ::testing::ElementsAre(1.5, -2));
  EXPECT_THAT(std::string(comm->AgreeOnStatus(absl::InternalError("x")).message()),
              HasSubstr("rank 0: x"));
  comm->Fail(absl::InternalError("bad"));
  EXPECT_EQ(comm->AllReduceSum(absl::MakeSpan(v)).code(), absl::StatusCode::kAborted);
}

TEST(SingleProcessCommunicatorTest, ShiftCopiesAndChecksTheLength) {
  std::unique_ptr<Communicator> comm = MakeSingleProcessCommunicator();
  const std::vector<double> send = {1, 2, 3};
  std::vector<double> receive(3);
  ASSERT_TRUE(comm->Shift(send, absl::MakeSpan(receive), 5).ok());
  EXPECT_EQ(receive, send);
  receive.resize(2);
  EXPECT_THAT(std::string(comm->Shift(send, absl::MakeSpan(receive), 1).message()),
              HasSubstr("Shift: rank 0 sent 3 values, rank 0 expected 2"));
}

TEST(ThreadCommunicatorTest, ShiftMovesEachRanksBufferAroundTheRing) {
  for (int size : {1, 2, 3, 4}) {
    for (int offset : {-1, 0, 1, 2, 5}) {
      // Rank r sends r + 1 values 100 r + i; it receives from (r - offset) mod size.
      std::vector<std::vector<double>> received(size);
      absl::Status status = RunOnThreads(size, [&](Communicator& comm) -> absl::Status {
        const int r = comm.rank();
        const int source = ((r - offset) % size + size) % size;
        std::vector<double> buffer;
        for (int round = 0; round < 20; ++round) {
          std::vector<double> send(r + 1);
          for (int i = 0; i <= r; ++i) send[i] = 100 * r + i + round;
          buffer.assign(source + 1, -1.0);
          absl::Status s = comm.Shift(send, absl::MakeSpan(buffer), offset);
          if (!s.ok()) return s;
        }
        received[r] = buffer;
        return absl::OkStatus();
      });
      ASSERT_TRUE(status.ok()) << status;
      for (int r = 0; r < size; ++r) {
        const int source = ((r - offset) % size + size) % size;
        ASSERT_EQ(received[r].size(), static_cast<size_t>(source + 1));
        for (int i = 0; i <= source; ++i) {
          EXPECT_EQ(received[r][i], 100 * source + i + 19) << size << " " << offset << " " << r;
        }
      }
    }
  }
}

TEST(ThreadCommunicatorTest, ShiftLengthMismatchIsAnErrorOnTheReceiverAndAbortsTheOthers) {
  std::vector<absl::Status> seen(3);
  absl::Status status = RunOnThreads(3, [&](Communicator& comm) -> absl::Status {
    const std::vector<double> send(3, 1.0);
    std::vector<double> receive(comm.rank() == 2 ? 4 : 3);
    absl::Status s = comm.Shift(send, absl::MakeSpan(receive), 1);
    // A rank whose shift succeeded continues; the next collective reports the failure.
    if (s.ok()) s = comm.AllReduceSum(absl::MakeSpan(receive));
    seen[comm.rank()] = s;
    return s;
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Shift: rank 1 sent 3 values, rank 2 expected 4");
  for (int r : {0, 1}) {
    EXPECT_EQ(seen[r].code(), absl::StatusCode::kAborted);
    EXPECT_THAT(std::string(seen[r].message()), HasSubstr("rank 2 failed: Shift: rank 1 sent"));
  }
}

TEST(ThreadCommunicatorTest, AFailingRankUnblocksRanksWaitingInShift) {
  absl::Status status = RunOnThreads(4, [&](Communicator& comm) -> absl::Status {
    std::vector<double> send(5, comm.rank()), receive(5);
    for (int round = 0;; ++round) {
      if (comm.rank() == 1 && round == 3) return absl::UnavailableError("link down");
      absl::Status s = comm.Shift(send, absl::MakeSpan(receive), 1);
      if (!s.ok()) return s;
    }
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(status.message(), "link down");
}

TEST(ThreadCommunicatorTest, AllReduceSumsOnEveryRankRepeatedly) {
  for (int size : {1, 2, 3, 4}) {
    std::vector<std::vector<double>> results(size);
    absl::Status status = RunOnThreads(size, [&](Communicator& comm) -> absl::Status {
      EXPECT_EQ(comm.size(), size);
      std::vector<double> v;
      for (int round = 0; round < 50; ++round) {
        v = {static_cast<double>(comm.rank()), 1.0, static_cast<double>(round)};
        absl::Status s = comm.AllReduceSum(absl::MakeSpan(v));
        if (!s.ok()) return s;
      }
      results[comm.rank()] = v;
      return absl::OkStatus();
    });
    ASSERT_TRUE(status.ok()) << status;
    for (int r = 0; r < size; ++r) {
      EXPECT_THAT(results[r], ::testing::ElementsAre(size * (size - 1) / 2.0, size, 49.0 * size));
    }
  }
}

// Rank r's element i in round `round`: a cycle of values whose sum depends on the order of
// the additions (1e16 + 1 rounds to 1e16, so 1e16 + 1 - 1e16 is 0 while 1 + (1e16 - 1e16) is
// 1), with -0.0 (0.0 + -0.0 is +0.0) and small fractions.
double OrderSensitiveValue(int r, int64_t i, int round) {
  static constexpr double kCycle[] = {1e16, 1.0, -1e16, 3.0, -0.0, 0.25, -1e16, 1e16, 0.1, -3.0};
  constexpr int kLength = sizeof(kCycle) / sizeof(kCycle[0]);
  return kCycle[(r + 3 * i + round) % kLength] * (1 + (i % 3));
}

// The thread back end's documented result: 0.0 + rank 0's value + rank 1's + ... .
std::vector<double> RankOrderSum(int size, int64_t n, int round) {
  std::vector<double> sum(n, 0.0);
  for (int r = 0; r < size; ++r) {
    for (int64_t i = 0; i < n; ++i) sum[i] += OrderSensitiveValue(r, i, round);
  }
  return sum;
}

bool BitIdentical(const std::vector<double>& a, const std::vector<double>& b) {
  // memcmp must not see the null data() of an empty vector.
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

TEST(ThreadCommunicatorTest, AllReduceSumIsBitIdenticalToTheRankOrderSum) {
  constexpr int kRounds = 3;
  for (int size : {1, 2, 3, 5, 8}) {
    for (int64_t n : {0, 1, 7, 1000}) {
      std::vector<std::vector<std::vector<double>>> results(
          size, std::vector<std::vector<double>>(kRounds));
      absl::Status status = RunOnThreads(size, [&](Communicator& comm) -> absl::Status {
        std::vector<double> v(n);
        for (int round = 0; round < kRounds; ++round) {
          for (int64_t i = 0; i < n; ++i) v[i] = OrderSensitiveValue(comm.rank(), i, round);
          absl::Status s = comm.AllReduceSum(absl::MakeSpan(v));
          if (!s.ok()) return s;
          results[comm.rank()][round] = v;
        }
        return absl::OkStatus();
      });
      ASSERT_TRUE(status.ok()) << status;
      for (int round = 0; round < kRounds; ++round) {
        const std::vector<double> expected = RankOrderSum(size, n, round);
        for (int r = 0; r < size; ++r) {
          EXPECT_TRUE(BitIdentical(results[r][round], expected))
              << "size " << size << " n " << n << " round " << round << " rank " << r;
        }
      }
    }
  }
}

TEST(ThreadCommunicatorTest, TheOrderSensitiveValuesDetectAnotherSummationOrder) {
  // The test above could fail: for 3 or more ranks and 7 or more elements, summing in reverse
  // rank order changes some bits.
  for (int size : {3, 5, 8}) {
    for (int64_t n : {7, 1000}) {
      std::vector<double> reversed(n, 0.0);
      for (int r = size - 1; r >= 0; --r) {
        for (int64_t i = 0; i < n; ++i) reversed[i] += OrderSensitiveValue(r, i, 0);
      }
      EXPECT_FALSE(BitIdentical(reversed, RankOrderSum(size, n, 0))) << size << " " << n;
    }
  }
}

// Collectives of lengths that grow and shrink (0, fewer elements than ranks, 1000), each
// followed by a Shift of the rank's input, with the caller refilling its buffers as soon as a
// collective returns: a rank that read another's input or chunk sums after they were reused
// would see the wrong values.
TEST(ThreadCommunicatorTest, ManyConsecutiveCollectivesOfDifferentLengthsMixedWithShift) {
  constexpr int64_t kLengths[] = {1000, 0, 1, 7, 2, 1000, 3, 0, 999, 5, 64, 1, 1000, 4};
  constexpr int kLengthCount = sizeof(kLengths) / sizeof(kLengths[0]);
  constexpr int kRounds = 150;
  for (int size : {2, 3, 4, 5}) {
    absl::Status status = RunOnThreads(size, [&](Communicator& comm) -> absl::Status {
      const int r = comm.rank();
      const int source = (r - 1 + size) % size;
      std::vector<double> v, send, receive;
      for (int round = 0; round < kRounds; ++round) {
        const int64_t n = kLengths[round % kLengthCount];
        v.resize(n);
        for (int64_t i = 0; i < n; ++i) v[i] = OrderSensitiveValue(r, i, round);
        send = v;
        absl::Status s = comm.AllReduceSum(absl::MakeSpan(v));
        if (!s.ok()) return s;
        if (!BitIdentical(v, RankOrderSum(size, n, round))) {
          return absl::InternalError(absl::StrCat("AllReduceSum: size ", size, " round ", round,
                                                  " rank ", r, ": wrong sums"));
        }
        receive.assign(n, -1.0);
        s = comm.Shift(send, absl::MakeSpan(receive), 1);
        if (!s.ok()) return s;
        for (int64_t i = 0; i < n; ++i) send[i] = OrderSensitiveValue(source, i, round);
        if (!BitIdentical(receive, send)) {
          return absl::InternalError(absl::StrCat("Shift: size ", size, " round ", round,
                                                  " rank ", r, ": wrong values"));
        }
        if (round % 7 == 0) {
          s = comm.AgreeOnStatus(absl::OkStatus());
          if (!s.ok()) return s;
        }
      }
      return absl::OkStatus();
    });
    EXPECT_TRUE(status.ok()) << status;
  }
}

TEST(ThreadCommunicatorTest, AgreeOnStatusReturnsTheLowestRankError) {
  std::vector<absl::Status> seen(3);
  absl::Status status = RunOnThreads(3, [&](Communicator& comm) -> absl::Status {
    absl::Status local = comm.rank() == 0 ? absl::OkStatus()
                                          : absl::NotFoundError(absl::StrCat("r", comm.rank()));
    seen[comm.rank()] = comm.AgreeOnStatus(local);
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok());
  for (const absl::Status& s : seen) {
    EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(s.message(), "rank 1: r1");
  }
}

TEST(ThreadCommunicatorTest, AFailingRankEndsTheRunWithAnErrorOnEveryRank) {
  std::vector<absl::Status> seen(4);
  absl::Status status = RunOnThreads(4, [&](Communicator& comm) -> absl::Status {
    std::vector<double> v(8, 1.0);
    for (int round = 0;; ++round) {
      if (comm.rank() == 2 && round == 5) return absl::DataLossError("disk on fire");
      absl::Status s = comm.AllReduceSum(absl::MakeSpan(v));
      if (!s.ok()) {
        seen[comm.rank()] = s;
        return s;
      }
    }
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(status.message(), "disk on fire");
  for (int r : {0, 1, 3}) {
    EXPECT_EQ(seen[r].code(), absl::StatusCode::kAborted);
    EXPECT_THAT(std::string(seen[r].message()), HasSubstr("rank 2 failed: disk on fire"));
  }
}

TEST(ThreadCommunicatorTest, MismatchedLengthsAreAnError) {
  absl::Status status = RunOnThreads(2, [&](Communicator& comm) -> absl::Status {
    std::vector<double> v(comm.rank() + 1, 1.0);
    return comm.AllReduceSum(absl::MakeSpan(v));
  });
  EXPECT_THAT(std::string(status.message()), HasSubstr("AllReduceSum: rank"));
}

}  // namespace
}  // namespace sgmcmc::parallel
