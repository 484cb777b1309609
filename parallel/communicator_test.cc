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
