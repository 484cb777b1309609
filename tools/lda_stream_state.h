// The position of a streamed LDA run's source and minibatch engine in a checkpoint
// (tools/lda_checkpoint.proto, LdaStreamState), shared by the lda and lda_distributed tools:
// a stream restored from it, driven by the engine restored with it, yields the minibatches the
// saved run would have (data/uci_stream.h).
//
// Cost: O(buffered documents) to save; Restore re-reads the buffered documents (at most two
// passes over the source).
#ifndef SGMCMC_TOOLS_LDA_STREAM_STATE_H_
#define SGMCMC_TOOLS_LDA_STREAM_STATE_H_

#include <string>

#include "absl/status/status.h"
#include "data/uci_stream.h"
#include "rng/engine.h"
#include "tools/lda_checkpoint.pb.h"

namespace sgmcmc::tools {

void SaveLdaStreamState(const data::UciMinibatchStream& stream, const rng::Engine& engine,
                        LdaStreamState& out);

// The stream's errors with "<path>: the stream's position: " prefixed (`path`: the
// checkpoint's, for messages).
absl::Status RestoreLdaStreamState(const LdaStreamState& saved, const std::string& path,
                                   data::UciMinibatchStream& stream, rng::Engine& engine);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_LDA_STREAM_STATE_H_
