#!/usr/bin/env bash
# The streamed LDA default by density on real text (bench/README.md, "The default by density on
# real text"; models::DefaultLdaSettingsByDensity): one pass over 20 Newsgroups raw text plus
# Reuters-21578 as one stream (bench/lda_online_text.py, vocabulary = the 10,000 most frequent
# words, the first 1,000 documents held out), for each K and seed the runs sgrld_fast,
# scir_fast (β = 0.1), scir_fast with β = 0.01 and the run without a preset (the default by
# density), each scored by the lda tool's posterior-mean fold-in perplexity. Every run at
# α = 0.1 (the presets'; the default run sets it, since a run without preset or alpha gets α by
# K: bench/lda_alpha_by_k.sh).
#
#   bash bench/lda_density_rule.sh [SHARED_DATA_DIR] [WORK_DIR]
#   KS="500 1000" SEEDS="1 2 3" bash bench/lda_density_rule.sh
#
# Another corpus: DOCWORD (a UCI docword file, plain or gzip) and VOCAB stream it instead of
# the text, with TEST_DOCWORD (over the same vocabulary) as the held-out documents if set,
# else its first 1,000 documents. The stream is read in file order (through the tool's
# 1,000-document shuffle buffer), so shuffle a file sorted by label first, e.g. 20 Newsgroups'
# bag of words (docword.20news.train.txt.gz is sorted by newsgroup):
#   python3 bench/uci_shuffle.py docword.20news.train.txt.gz /tmp/ng/train.txt.gz 1
#   DOCWORD=/tmp/ng/train.txt.gz VOCAB=.../vocab.20news.txt \
#     TEST_DOCWORD=.../docword.20news.test.txt.gz KS="10 15 25" bash bench/lda_density_rule.sh
#
# Writes WORK_DIR/density_rule.csv (seed, K, entries per topic-word cell, run, β, perplexity,
# training seconds) and prints it. About 6 minutes per seed on one core.
set -euo pipefail
# shellcheck source=bench/lda_corpora.sh
source "$(dirname "${BASH_SOURCE[0]}")/lda_corpora.sh"
# No corpora: the text stream, or DOCWORD.
lda_bench_setup "${1:-}" "${2:-}" /tmp/sgmcmc_density "" "100 200 500 1000" 1 \
  //tools:lda //tools:text_to_uci

docword="${DOCWORD:-${work}/all.txt.gz}"
vocab="${VOCAB:-${work}/vocab.txt}"
if [[ -z "${DOCWORD:-}" ]]; then lda_text_stream; fi
if [[ -n "${TEST_DOCWORD:-}" ]]; then
  held_out="test_docword: \"${TEST_DOCWORD}\""
else
  held_out="held_out_documents: 1000"
fi
# The docword header: D, W, NNZ (zcat -f: plain or gzip).
read -r vocabulary entries < <(zcat -f "${docword}" | head -n 3 | tail -n 2 | paste -sd ' ')

csv="${work}/density_rule.csv"
echo "seed,num_topics,entries_per_cell,run,beta,perplexity,train_seconds" > "${csv}"
for seed in ${seeds}; do
  for k in ${ks}; do
    out="${work}/out_s${seed}_k${k}"
    # One evaluation, after the pass (evaluations do not change the chain).
    cat > "${work}/config_s${seed}_k${k}.textpb" <<CONFIG
seed: ${seed}
threads: 1
eval_every: 1000000
stream {
  docword: "${docword}"
  vocab: "${vocab}"
  ${held_out}
  passes: 1
}
runs { preset: "sgrld_fast" num_topics: ${k} }
runs { preset: "scir_fast" num_topics: ${k} }
runs { preset: "scir_fast" num_topics: ${k} beta: 0.01 name: "scir_fast_beta001" }
runs { num_topics: ${k} alpha: 0.1 name: "default" }
output_dir: "${out}"
CONFIG
    "${bin}/tools/lda" --config="${work}/config_s${seed}_k${k}.textpb" --plot=false \
      > "${out}.log" 2>&1
    # "NAME: held-out perplexity P (...) after N iterations, T s of training"; β from the
    # run's settings line "[NAME] sampler=... beta=B ...".
    for run in sgrld_fast scir_fast scir_fast_beta001 default; do
      line="$(grep "^${run}: held-out perplexity" "${out}.log")"
      perplexity="$(sed -E 's/.*held-out perplexity ([0-9.]+).*/\1/' <<< "${line}")"
      seconds="$(sed -E 's/.*, ([0-9.]+) s of training.*/\1/' <<< "${line}")"
      beta="$(grep "^\[${run}\] sampler=" "${out}.log" | sed -E 's/.* beta=([^ ]+) .*/\1/')"
      density="$(awk -v e="${entries}" -v k="${k}" -v v="${vocabulary}" \
        'BEGIN { printf "%.4g", e / (k * v) }')"
      echo "${seed},${k},${density},${run},${beta},${perplexity},${seconds}" >> "${csv}"
    done
  done
done
cat "${csv}"
