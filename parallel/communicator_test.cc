#include "parallel/communicator.h"

#include <atomic>
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
