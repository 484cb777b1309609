// lda_distributed: streaming LDA with the topic update split by vocabulary columns over
// --ranks ranks run as threads of this process (tools/lda_distributed_main.h has the flags'
// meaning and the outputs; lda_distributed_mpi is the same over Open MPI). The topics are
// bit-identical for any --ranks and --threads.
//
// Example:
//   bazel-bin/tools/lda_distributed --stream_docword=corpus/docword.train.txt.gz \
//     --test_docword=corpus/docword.heldout.txt.gz --true_topics=corpus/true_topics.phi \
//     --ranks=4 --num_topics=100 --output_dir=/tmp/lda_distributed
#include "absl/status/status.h"
#include "base/status_macros.h"
#include "parallel/communicator.h"
#include "tools/lda_distributed_main.h"
#include "tools/tool_support.h"

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(
      argc, argv, "lda_distributed --stream_docword=FILE --output_dir=DIR [--ranks=P] [flags]",
      [](const char* argv0) -> absl::Status {
        const int ranks = sgmcmc::tools::DistributedLdaThreadRanks();
        SGMCMC_RETURN_IF_ERROR(sgmcmc::tools::CheckThreadCount("--ranks", ranks));
        return sgmcmc::parallel::RunOnThreads(ranks, [&](sgmcmc::parallel::Communicator& comm) {
          return sgmcmc::tools::RunDistributedLda(argv0, comm);
        });
      });
}
