#!/usr/bin/env bash
# SCIR's β by density on corpora held in memory (bench/README.md, "β by density on seven
# corpora"; models::ScirBetaByDensity): for each corpus, K and seed, the lda tool's run without
# a preset (the default), then scir_fast with β = ρ x the training split's document-word
# entries per topic-word cell for each ρ in RHOS (unclamped), scir_fast with the preset's
# β = 0.1 and sgrld_fast; one thread, the tool's split (10% held out), each scored by its
# posterior-mean fold-in perplexity. Every run at α = 0.1 (the presets'; the default run sets it,
# since a run without preset or alpha gets α by K, bench/lda_alpha_by_k.sh's subject).
#
#   bash bench/lda_beta_in_memory.sh [SHARED_DATA_DIR] [WORK_DIR]
#   CORPORA="ap cora" KS="100 200" SEEDS="1 2" RHOS="0.1 0.2 0.3" bash bench/lda_beta_in_memory.sh
#
# Corpora (passes of minibatch 50): ap (10), cora (10), poliblog (20), kos (the embedded
# corpus, 20), reuters (Reuters-21578, 5). Writes WORK_DIR/beta_in_memory.csv (corpus, seed, K,
# entries per cell, run, β, perplexity, training seconds) and prints it. AP at K = 100 and 200,
# two seeds: about 10 minutes on one core.
set -euo pipefail
# shellcheck source=bench/lda_corpora.sh
source "$(dirname "${BASH_SOURCE[0]}")/lda_corpora.sh"
rhos="${RHOS:-0.1 0.2 0.3}"
lda_bench_setup "${1:-}" "${2:-}" /tmp/sgmcmc_beta_in_memory "ap cora poliblog" "100 200" "1 2" \
  //tools:lda
lda="${bin}/tools/lda"

# One cell: the default run (its reason line gives the training split's NNZ), then the ρ runs,
# scir_fast and sgrld_fast in one lda invocation; a row per run.
beta_cell() {
  local corpus="$1" seed="$2" k="$3" base="$4" its nnz vocabulary density default_beta rho beta
  its="$(lda_corpus_iterations "${corpus}")"
  printf '%s\nseed: %s threads: 1 eval_every: %s output_dir: "%s"\nruns { num_topics: %s iterations: %s alpha: 0.1 name: "default" }\n' \
    "$(lda_corpus_block "${corpus}")" "${seed}" "${its}" "${base}_default" "${k}" "${its}" \
    > "${base}_default.textpb"
  "${lda}" --config="${base}_default.textpb" --plot=false > "${base}_default.log" 2>&1
  nnz=""
  vocabulary=""
  read -r nnz vocabulary < <(sed -n 's/.*NNZ \/ (K V) = \([0-9]*\) \/ ([0-9]* x \([0-9]*\)).*/\1 \2/p' \
    "${base}_default.log" | head -n 1) || true
  if [[ -z "${nnz}" ]]; then
    echo "${corpus} K = ${k}: the default run printed no NNZ (dense counts, the rule by length);" \
      "see ${base}_default.log" >&2
    return
  fi
  density="$(awk -v n="${nnz}" -v k="${k}" -v v="${vocabulary}" 'BEGIN {printf "%.6g", n / (k * v)}')"
  default_beta="$(sed -n 's/.*sampler=scir .* beta=\([0-9.e-]*\) .*/\1/p' "${base}_default.log" | head -n 1)"
  echo "${corpus},${seed},${k},${density},default,${default_beta},$(lda_result default "${base}_default.log")" >> "${csv}"
  {
    lda_corpus_block "${corpus}"
    echo "seed: ${seed} threads: 1 eval_every: ${its} output_dir: \"${base}_runs\""
    for rho in ${rhos}; do
      beta="$(awk -v r="${rho}" -v d="${density}" 'BEGIN {printf "%.6g", r * d}')"
      echo "runs { preset: \"scir_fast\" num_topics: ${k} iterations: ${its} beta: ${beta} name: \"scir_rho${rho}\" }"
    done
    echo "runs { preset: \"scir_fast\" num_topics: ${k} iterations: ${its} name: \"scir_fast\" }"
    echo "runs { preset: \"sgrld_fast\" num_topics: ${k} iterations: ${its} name: \"sgrld_fast\" }"
  } > "${base}_runs.textpb"
  "${lda}" --config="${base}_runs.textpb" --plot=false > "${base}_runs.log" 2>&1
  for rho in ${rhos}; do
    beta="$(awk -v r="${rho}" -v d="${density}" 'BEGIN {printf "%.6g", r * d}')"
    echo "${corpus},${seed},${k},${density},scir_rho${rho},${beta},$(lda_result "scir_rho${rho}" "${base}_runs.log")" >> "${csv}"
  done
  echo "${corpus},${seed},${k},${density},scir_fast,0.1,$(lda_result scir_fast "${base}_runs.log")" >> "${csv}"
  echo "${corpus},${seed},${k},${density},sgrld_fast,0.01,$(lda_result sgrld_fast "${base}_runs.log")" >> "${csv}"
}

csv="${work}/beta_in_memory.csv"
lda_grid "${csv}" "corpus,seed,num_topics,entries_per_cell,run,beta,perplexity,train_seconds" \
  beta_cell
