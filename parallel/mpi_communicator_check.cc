// mpi_communicator_check: exercises MpiCommunicator under mpirun for
// parallel/mpi_communicator_test.sh. Prints "rank r/P OK" after AllReduceSum, Shift and
// AgreeOnStatus checks; with --fail_rank=k, rank k calls Fail() midway through a loop of
// collectives and shifts, and the run must end with an error (never hang); with
// --shift_mismatch, rank 1 expects one value too many from rank 0 and fails with the
// Shift error.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "parallel/mpi_communicator.h"

int main(int argc, char** argv) {
  std::unique_ptr<sgmcmc::parallel::MpiCommunicator> comm =
      sgmcmc::parallel::MpiCommunicator::Create(&argc, &argv);
  int fail_rank = -1;
  bool shift_mismatch = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--shift_mismatch") shift_mismatch = true;
    if (absl::StartsWith(arg, "--fail_rank=")) {
      if (!absl::SimpleAtoi(arg.substr(12), &fail_rank)) fail_rank = -1;
    }
  }
  const int r = comm->rank(), p = comm->size();
  auto fail = [&](const std::string& what) {
    comm->Fail(absl::InternalError(absl::StrCat("check failed: ", what)));
  };
  if (shift_mismatch) {
    const std::vector<double> send(3, 1.0);
    std::vector<double> receive(r == 1 ? 4 : 3);
    const absl::Status s = comm->Shift(send, absl::MakeSpan(receive), 1);
    if (!s.ok()) comm->Fail(s);
  }
  for (int round = 0; round < 100; ++round) {
    if (r == fail_rank && round == 7) {
      comm->Fail(absl::DataLossError("deliberate failure for the test"));
    }
    std::vector<double> v = {static_cast<double>(r), 1.0, static_cast<double>(round)};
    if (!comm->AllReduceSum(absl::MakeSpan(v)).ok()) fail("AllReduceSum status");
    if (v[0] != p * (p - 1) / 2.0 || v[1] != p || v[2] != static_cast<double>(round) * p) {
      fail(absl::StrCat("AllReduceSum values ", v[0], " ", v[1], " ", v[2]));
    }
    // Rank q sends q + 1 values 100 q + i + round to rank q + offset.
    const int offset = round % 5 - 2;
    const int source = ((r - offset) % p + p) % p;
    std::vector<double> send(r + 1), receive(source + 1);
    for (int i = 0; i <= r; ++i) send[i] = 100 * r + i + round;
    if (!comm->Shift(send, absl::MakeSpan(receive), offset).ok()) fail("Shift status");
    for (int i = 0; i <= source; ++i) {
      if (receive[i] != 100 * source + i + round) {
        fail(absl::StrCat("Shift value ", receive[i], " from rank ", source));
      }
    }
  }
  if (!comm->AgreeOnStatus(absl::OkStatus()).ok()) fail("AgreeOnStatus(OK)");
  const absl::Status agreed = comm->AgreeOnStatus(
      r == 0 ? absl::OkStatus() : absl::NotFoundError(absl::StrCat("missing on ", r)));
  if (p == 1) {
    if (!agreed.ok()) fail("AgreeOnStatus with one rank");
  } else if (agreed.code() != absl::StatusCode::kNotFound ||
             agreed.message() != "rank 1: missing on 1") {
    fail(absl::StrCat("AgreeOnStatus gave ", agreed.ToString()));
  }
  std::cout << "rank " << r << "/" << p << " OK" << std::endl;
  return 0;
}
