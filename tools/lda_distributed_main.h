// The main() of the distributed streaming LDA tools (issue 29): `lda_distributed`, P ranks as
// threads of one process (--ranks), and `lda_distributed_mpi`, one rank per process under
// mpirun. Both stream a UCI docword file (plain or .gz) through models::DistributedLda, every
// rank reading the same file with the same engine (so every rank holds the same minibatch,
// and sweeps its own share of it), and rank 0 evaluates and writes:
//   summary.txt  the headline (held-out fold-in perplexity of the posterior-mean topics, and
//                with --true_topics the recovery score), the time split (sweeps,
//                communication, topic update, posterior mean, evaluation; seconds summed over
//                iterations, per rank: the slowest rank's), token updates per second per
//                rank, peak RSS of every rank;
//   trace.csv    per evaluation: iteration, documents, seconds, the split, and the held-out
//                perplexity of the current sample (of the posterior mean at the end);
//   topics.phi   the posterior-mean topics (K x V; data/topic_matrix.h).
// The topics are bit-identical for any --ranks / mpirun -np and any --threads (models/lda/
// distributed_lda.h); the seconds are not. With --checkpoint_every every rank writes its own
// checkpoint (output_dir/checkpoint_rank<r>_of<P>.pb, tools/lda_checkpoint.proto); --resume
// continues from the whole set bit-identically, and refuses a partial set, another rank
// count's, other settings or a damaged file, on every rank. A bad file is an error with file and line on every
// rank (printed once); a rank that fails ends every rank.
#ifndef SGMCMC_TOOLS_LDA_DISTRIBUTED_MAIN_H_
#define SGMCMC_TOOLS_LDA_DISTRIBUTED_MAIN_H_

#include "absl/status/status.h"
#include "parallel/communicator.h"

namespace sgmcmc::tools {

// The whole run on `comm` (every rank calls it; rank 0 writes). Reads the flags.
absl::Status RunDistributedLda(const char* argv0, parallel::Communicator& comm);

// The --ranks flag (thread ranks of lda_distributed; lda_distributed_mpi requires 1).
int DistributedLdaThreadRanks();

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LDA_DISTRIBUTED_MAIN_H_
