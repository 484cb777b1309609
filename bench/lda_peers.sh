#!/usr/bin/env bash
# Issue 29's peer comparison in one command: our streamed LDA against gensim (LdaModel and
# LdaMulticore) and scikit-learn's online LDA on a 10^5-document corpus drawn from the LDA
# generative model, every method's topics at every checkpoint scored by the same fold-in
# evaluator (tools/lda_evaluate) and the same recovery score (tools/lda_topic_recovery);
# bench/lda_peers.py says how. Results (curves.csv, summary.md, lda_peers.png, methods.json)
# go to bench/results/lda_peers/ unless OUT is given.
#
#   bash bench/lda_peers.sh [WORK_DIR] [OUT]
#
# Corpus: D = 100,000 training + 1,000 held-out documents, V = 10,000 words (Zipf s = 1),
# K = 100 true topics, β = 0.01, α = 0.1, Poisson(100) tokens per document, seed 1 (the
# synthetic stream of bench/lda_online_experiment.sh, written plain for the peers' reader).
# Needs Debian's python3-sklearn, python3-gensim, libopenblas0-pthread, python3-matplotlib
# (third_party/debian_packages.txt). About 80 minutes on a shared 2-core machine; the methods
# run one after another under `nice -n 10`.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-/tmp/lda_peers}"
out="${2:-${repo}/bench/results/lda_peers}"
cd "${repo}"
./bazelw build --config=bench --jobs=2 //tools:lda //tools:lda_evaluate \
  //tools:lda_generate_corpus //tools:lda_topic_recovery
bin="$(./bazelw info --config=bench bazel-bin 2>/dev/null)"
if [[ ! -f "${work}/corpus/topics.phi" ]]; then
  "${bin}/tools/lda_generate_corpus" --output_dir="${work}/corpus" --documents=100000 \
    --heldout_documents=1000 --vocabulary_size=10000 --num_topics=100 --alpha=0.1 \
    --beta=0.01 --mean_document_length=100 --seed=1
fi
uptime
nice -n 10 /usr/bin/python3 bench/lda_peers.py --bin_dir="${bin}/tools" \
  --corpus_dir="${work}/corpus" --work="${work}/work" --out="${out}" \
  --methods="${METHODS:-ours:sgrld_fast,ours:sgrld_fast/minibatch_size=50,ours:scir_fast,sklearn,sklearn/decay=0.9,sklearn/batch=1024,gensim,gensim/decay=0.9,gensim/batch=1024,gensim_mc1,gensim_mc2,sklearn/batch=1024/passes=3,gensim/batch=1024/passes=2}" \
  "${@:3}"
uptime
