#include "tools/lda_stream_state.h"

#include "absl/strings/str_cat.h"

namespace sgmcmc::tools {

void SaveLdaStreamState(const data::UciMinibatchStream& stream, const rng::Engine& engine,
                        LdaStreamState& out) {
  const data::UciMinibatchStream::State state = stream.state();
  out.mutable_buffer_ids()->Assign(state.buffer_ids.begin(), state.buffer_ids.end());
  out.set_next_document(state.next_document);
  out.set_passes_completed(state.passes_completed);
  out.set_documents_emitted(state.documents_emitted);
  out.set_engine_position(engine.position());
}

absl::Status RestoreLdaStreamState(const LdaStreamState& saved, const std::string& path,
                                   data::UciMinibatchStream& stream, rng::Engine& engine) {
  data::UciMinibatchStream::State state;
  state.buffer_ids.assign(saved.buffer_ids().begin(), saved.buffer_ids().end());
  state.next_document = saved.next_document();
  state.passes_completed = saved.passes_completed();
  state.documents_emitted = saved.documents_emitted();
  if (absl::Status s = stream.Restore(state); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(path, ": the stream's position: ", s.message()));
  }
  engine.Seek(saved.engine_position());
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
