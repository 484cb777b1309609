#!/usr/bin/env bash
# The papers' online-LDA experiment shape (Patterson & Teh 2013, §5; Baker et al. 2018, §5.1):
# one pass over a stream of documents never held in memory, K = 100, held-out perplexity of the
# posterior-mean topics (fold-in) against documents seen, SCIR and SGRLD.
#
#   bash bench/lda_online_experiment.sh [SHARED_DATA_DIR] [WORK_DIR]
#
# 1. Real text: 20 Newsgroups raw text plus Reuters-21578 as one stream (bench/lda_online_text.py:
#    one document per line, seeded order), vocabulary = the 10,000 most frequent words after the
#    tokenizer (tools/text_to_uci --max_vocabulary_size=10000; Patterson & Teh took theirs from
#    Gutenberg), the first 1,000 documents of the stream held out.
# 2. Synthetic: a corpus drawn from the LDA generative model (tools/lda_generate_corpus: D =
#    100,000, V = 10,000, K = 100 true topics, Poisson(100) tokens per document), streamed from
#    its gzip docword file, held out from a separate file; the recovery score of the learned
#    posterior-mean topics against the true ones (tools/lda_topic_recovery).
# Outputs under WORK_DIR/{text,synthetic}/out: point_trace_RUN.csv (the documents column is the
# x axis), perplexity.png (third panel: against documents seen), summary.txt.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${1:-${repo}/../shared/data}"
work="${2:-/tmp/sgmcmc_online}"
mkdir -p "${work}/text" "${work}/synthetic"
cd "${repo}"
./bazelw build --config=bench //tools:lda //tools:text_to_uci //tools:lda_generate_corpus \
  //tools:lda_topic_recovery
bin="$(./bazelw info --config=bench bazel-bin 2>/dev/null)"

# 1. Real text.
python3 bench/lda_online_text.py "${data}" "${work}/docs.txt"
"${bin}/tools/text_to_uci" --input="${work}/docs.txt" --max_vocabulary_size=10000 \
  --docword="${work}/text/all.txt.gz" --vocab_out="${work}/vocab.txt"
# Minibatches of 50 documents, as the figures in bench/README.md were measured (the papers'
# size; the lda tool's streamed default has since become D / 100, up to 1000).
sed -e "s#/tmp/sgmcmc_online#${work}#g" -e "s#lda_online_output#${work}/text/out#" \
  -e "s#num_topics: 100 }#num_topics: 100 minibatch_size: 50 }#" \
  tools/configs/stream_text.textpb > "${work}/text/config.textpb"
"${bin}/tools/lda" --config="${work}/text/config.textpb"

# 2. Synthetic.
syn="${work}/synthetic"
"${bin}/tools/lda_generate_corpus" --output_dir="${syn}/corpus" --documents=100000 \
  --heldout_documents=1000 --vocabulary_size=10000 --num_topics=100 --gzip --seed=1
cat > "${syn}/config.textpb" <<CONFIG
seed: 1
eval_every: 100
stream {
  docword: "${syn}/corpus/docword.txt.gz"
  vocab: "${syn}/corpus/vocab.txt"
  test_docword: "${syn}/corpus/heldout.docword.txt.gz"
  passes: 1
}
runs { preset: "scir_fast" num_topics: 100 minibatch_size: 50 }
runs { preset: "sgrld_fast" num_topics: 100 minibatch_size: 50 }
output_dir: "${syn}/out"
CONFIG
"${bin}/tools/lda" --config="${syn}/config.textpb"
for run in scir_fast sgrld_fast; do
  "${bin}/tools/lda_topic_recovery" --true_topics="${syn}/corpus/topics.phi" \
    --topics="${syn}/out/topic_matrix_mean_${run}.phi"
done
