#!/usr/bin/env bash
# The document-topic α at large K (bench/README.md, "α at large K"): for each corpus, K and
# seed, the lda tool's run without a preset (the default: its sampler and β by length and
# density) once for each α in ALPHAS, nothing else changed, one thread, each scored by its
# posterior-mean fold-in perplexity (the fold-in uses the run's own α: each run's held-out
# predictive under its own model).
#
#   bash bench/lda_alpha_by_k.sh [SHARED_DATA_DIR] [WORK_DIR]
#   CORPORA="text ap" KS="500 1000" SEEDS="1 2" ALPHAS="0.1 0.05 0.02 0.01" bash bench/lda_alpha_by_k.sh
#
# Corpora: text (one pass over 20 Newsgroups raw text plus Reuters-21578 as one stream, top
# 10,000 words, the first 1,000 documents held out: bench/lda_density_rule.sh's stream, built
# by it into WORK_DIR if missing), and in memory with the tool's 10% split: ap (10 passes of
# minibatch 50), cora (10), poliblog (20), kos (the embedded corpus, 20), reuters
# (Reuters-21578, 5). Writes WORK_DIR/alpha_by_k.csv (corpus, seed, K, run, α, β,
# perplexity, training seconds) and prints it.
set -euo pipefail
# shellcheck source=bench/lda_corpora.sh
source "$(dirname "${BASH_SOURCE[0]}")/lda_corpora.sh"
alphas="${ALPHAS:-0.1 0.05 0.02 0.01}"
lda_bench_setup "${1:-}" "${2:-}" /tmp/sgmcmc_alpha_by_k text "500 1000" 1 \
  //tools:lda //tools:text_to_uci
# The corpus block and the iterations line of each corpus: the text stream (one pass) or a
# corpus in memory.
corpus_block() {
  if [[ "$1" == text ]]; then
    echo "stream { docword: \"${work}/all.txt.gz\" vocab: \"${work}/vocab.txt\" held_out_documents: 1000 passes: 1 }"
  else
    lda_corpus_block "$1"
  fi
}
iterations() {
  if [[ "$1" != text ]]; then echo "iterations: $(lda_corpus_iterations "$1")"; fi
}
# An unknown corpus ends the script here, before any run.
for corpus in ${corpora}; do
  if [[ "${corpus}" != text ]]; then lda_corpus_iterations "${corpus}" > /dev/null; fi
done
if [[ " ${corpora} " == *" text "* ]]; then lda_text_stream; fi

# One cell: every α in one lda invocation (one evaluation each, at the end: evaluations do not
# change the chain), then a row per run.
alpha_cell() {
  local corpus="$1" seed="$2" k="$3" base="$4" alpha run beta its
  its="$(iterations "${corpus}")"
  {
    corpus_block "${corpus}"
    echo "seed: ${seed} threads: 1 eval_every: 1000000 output_dir: \"${base}\""
    for alpha in ${alphas}; do
      echo "runs { num_topics: ${k} alpha: ${alpha} ${its} name: \"alpha${alpha}\" }"
    done
  } > "${base}.textpb"
  "${bin}/tools/lda" --config="${base}.textpb" --plot=false > "${base}.log" 2>&1
  # β from the run's settings line "[NAME] sampler=... beta=B ...".
  for alpha in ${alphas}; do
    run="alpha${alpha}"
    beta="$(grep "^\[${run}\] sampler=" "${base}.log" | sed -E 's/.* beta=([^ ]+) .*/\1/')"
    echo "${corpus},${seed},${k},${run},${alpha},${beta},$(lda_result "${run}" "${base}.log")" >> "${csv}"
  done
}

csv="${work}/alpha_by_k.csv"
lda_grid "${csv}" "corpus,seed,num_topics,run,alpha,beta,perplexity,train_seconds" alpha_cell
