#include "parallel/mpi_communicator.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/check.h"

namespace sgmcmc::parallel {
namespace {

absl::Status MpiError(int code, const char* what) {
  if (code == MPI_SUCCESS) return absl::OkStatus();
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return absl::InternalError(absl::StrCat(what, " failed: ", std::string(text, length)));
}

}  // namespace

std::unique_ptr<MpiCommunicator> MpiCommunicator::Create(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  SGMCMC_CHECK(!initialized) << "MpiCommunicator::Create: MPI is already initialised";
  SGMCMC_CHECK(MPI_Init(argc, argv) == MPI_SUCCESS) << "MPI_Init failed";
  // Errors come back as codes (turned into statuses) instead of aborting inside MPI.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return std::unique_ptr<MpiCommunicator>(new MpiCommunicator(rank, size));
}

MpiCommunicator::~MpiCommunicator() { MPI_Finalize(); }

absl::Status MpiCommunicator::AllReduceSum(absl::Span<double> values) {
  return MpiError(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()),
                                MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
                  "MPI_Allreduce");
}

absl::Status MpiCommunicator::Shift(absl::Span<const double> send, absl::Span<double> receive,
                                    int offset) {
  const int dest = ((rank_ + offset) % size_ + size_) % size_;
  const int source = ((rank_ - offset) % size_ + size_) % size_;
  if (dest == rank_) {
    if (send.size() != receive.size()) {
      return absl::InvalidArgumentError(absl::StrCat("Shift: rank ", rank_, " sent ",
                                                     send.size(), " values, rank ", rank_,
                                                     " expected ", receive.size()));
    }
    std::copy(send.begin(), send.end(), receive.begin());
    return absl::OkStatus();
  }
  constexpr int kShiftTag = 17;
  MPI_Request request;
  if (absl::Status s = MpiError(MPI_Isend(send.data(), static_cast<int>(send.size()), MPI_DOUBLE,
                                          dest, kShiftTag, MPI_COMM_WORLD, &request),
                                "MPI_Isend");
      !s.ok()) {
    return s;
  }
  MPI_Status probe;
  if (absl::Status s = MpiError(MPI_Probe(source, kShiftTag, MPI_COMM_WORLD, &probe), "MPI_Probe");
      !s.ok()) {
    return s;
  }
  int count = 0;
  MPI_Get_count(&probe, MPI_DOUBLE, &count);
  absl::Status status;
  std::vector<double> mismatched;
  double* target = receive.data();
  if (static_cast<size_t>(count) != receive.size()) {
    status = absl::InvalidArgumentError(absl::StrCat("Shift: rank ", source, " sent ", count,
                                                     " values, rank ", rank_, " expected ",
                                                     receive.size()));
    mismatched.resize(static_cast<size_t>(count));
    target = mismatched.data();
  }
  absl::Status received = MpiError(
      MPI_Recv(target, count, MPI_DOUBLE, source, kShiftTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
      "MPI_Recv");
  absl::Status sent = MpiError(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
  if (!status.ok()) return status;
  if (!received.ok()) return received;
  return sent;
}

absl::Status MpiCommunicator::AgreeOnStatus(const absl::Status& local) {
  int mine = local.ok() ? size_ : rank_;
  int lowest = size_;
  if (absl::Status s = MpiError(
          MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
      !s.ok()) {
    return s;
  }
  if (lowest == size_) return absl::OkStatus();
  int header[2] = {static_cast<int>(local.code()), static_cast<int>(local.message().size())};
  if (absl::Status s = MpiError(MPI_Bcast(header, 2, MPI_INT, lowest, MPI_COMM_WORLD),
                                "MPI_Bcast");
      !s.ok()) {
    return s;
  }
  std::string message(local.message());
  message.resize(static_cast<size_t>(header[1]));
  if (absl::Status s = MpiError(
          MPI_Bcast(message.data(), header[1], MPI_CHAR, lowest, MPI_COMM_WORLD), "MPI_Bcast");
      !s.ok()) {
    return s;
  }
  return absl::Status(static_cast<absl::StatusCode>(header[0]),
                      absl::StrCat("rank ", lowest, ": ", message));
}

void MpiCommunicator::Fail(const absl::Status& status) {
  // One string, one write: the ranks share the terminal, and each << would be a write.
  std::cerr << absl::StrCat("rank ", rank_, " failed: ", status.message(), "\n") << std::flush;
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

}  // namespace sgmcmc::parallel
