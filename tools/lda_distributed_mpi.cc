// lda_distributed_mpi: //tools:lda_distributed over Open MPI, one rank per process
// (parallel/mpi_communicator.h); the same flags, --ranks must stay 1. Every rank streams the
// same file; rank 0 evaluates, prints and writes. The topics are bit-identical to
// lda_distributed --ranks=P for mpirun -np P (and so to any P). A rank that fails ends the
// job on every rank (MPI_Abort); an error every rank sees is printed once, by rank 0.
//
// Example:
//   mpirun --allow-run-as-root --oversubscribe -np 4 bazel-bin/tools/lda_distributed_mpi \
//     --stream_docword=corpus/docword.train.txt.gz --output_dir=/tmp/lda_mpi
#include <memory>

#include "absl/status/status.h"
#include "parallel/mpi_communicator.h"
#include "tools/lda_distributed_main.h"
#include "tools/tool_support.h"

int main(int argc, char** argv) {
  std::unique_ptr<sgmcmc::parallel::MpiCommunicator> comm =
      sgmcmc::parallel::MpiCommunicator::Create(&argc, &argv);
  return sgmcmc::tools::MpiToolMain(
      argc, argv, "mpirun -np P lda_distributed_mpi --stream_docword=FILE --output_dir=DIR",
      comm->rank(), [&](const char* argv0) -> absl::Status {
        if (sgmcmc::tools::DistributedLdaThreadRanks() != 1) {
          return absl::InvalidArgumentError(
              "--ranks is for lda_distributed; under mpirun the ranks are the processes");
        }
        return sgmcmc::tools::RunDistributedLda(argv0, *comm);
      });
}
