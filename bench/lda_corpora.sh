#!/usr/bin/env bash
# Shared by bench/lda_beta_in_memory.sh, bench/lda_alpha_by_k.sh and bench/lda_density_rule.sh
# (sourced, not run): their set-up, the corpora of ../shared/data as lda tool config blocks,
# their passes, and the tool's result line.

# lda_bench_setup DATA_DIR WORK_DIR WORK_DEFAULT CORPORA KS SEEDS TARGET...: sets repo, data
# (DATA_DIR, else ../shared/data), work (WORK_DIR, else WORK_DEFAULT; created), the grid
# corpora, ks and seeds (the environment's CORPORA, KS and SEEDS, else these defaults),
# changes to the repository, builds the targets with --config=bench and sets bin to their
# bazel-bin.
lda_bench_setup() {
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  data="$(cd "${1:-${repo}/../shared/data}" && pwd)"
  work="${2:-$3}"
  corpora="${CORPORA:-$4}"
  ks="${KS:-$5}"
  seeds="${SEEDS:-$6}"
  mkdir -p "${work}"
  cd "${repo}"
  ./bazelw build --config=bench "${@:7}"
  bin="$(./bazelw info --config=bench bazel-bin 2>/dev/null)"
}

# lda_grid CSV HEADER FUNCTION: writes HEADER to CSV, then calls FUNCTION CORPUS SEED K BASE for
# every cell of the grid (corpora x seeds x ks; BASE = work/CORPUS_sSEED_kK, the prefix of
# the cell's files), each appending its rows to CSV, and prints CSV.
lda_grid() {
  local corpus seed k
  echo "$2" > "$1"
  for corpus in ${corpora}; do
    for seed in ${seeds}; do
      for k in ${ks}; do
        "$3" "${corpus}" "${seed}" "${k}" "${work}/${corpus}_s${seed}_k${k}"
      done
    done
  done
  cat "$1"
}

# The text stream, unless work already holds it: 20 Newsgroups raw text plus Reuters-21578 as
# one stream (bench/lda_online_text.py), vocabulary the 10,000 most frequent words, written to
# work/all.txt.gz and work/vocab.txt. After lda_bench_setup.
lda_text_stream() {
  if [[ -s "${work}/all.txt.gz" ]]; then return; fi
  python3 bench/lda_online_text.py "${data}" "${work}/docs.txt"
  "${bin}/tools/text_to_uci" --input="${work}/docs.txt" --max_vocabulary_size=10000 \
    --docword="${work}/all.txt.gz" --vocab_out="${work}/vocab.txt"
}

# The corpus block of a corpus held in memory (the tool's 10% split): ap, cora, poliblog,
# kos (the embedded corpus: no block), reuters (Reuters-21578).
lda_corpus_block() {
  case "$1" in
    kos) echo "" ;;
    reuters) echo "corpus { uci { docword: \"${data}/reuters21578/docword.reuters21578.txt.gz\" vocab: \"${data}/reuters21578/vocab.reuters21578.txt\" } }" ;;
    *) echo "corpus { uci { docword: \"${data}/$1/docword.$1.txt.gz\" vocab: \"${data}/$1/vocab.$1.txt\" } }" ;;
  esac
}
# Its iterations: passes x training documents / 50 (AP, Cora 10 passes, poliblog and KOS 20,
# Reuters 5).
lda_corpus_iterations() {
  case "$1" in
    ap) echo 404 ;; cora) echo 434 ;; poliblog) echo 280 ;; kos) echo 1240 ;; reuters) echo 1942 ;;
    *) echo "unknown corpus $1 (ap, cora, poliblog, kos, reuters)" >&2; exit 2 ;;
  esac
}
# "name: held-out perplexity P ... after I iterations, S s of training" in log $2 -> "P,S"
lda_result() {
  sed -n "s/^$1: held-out perplexity \([0-9.]*\) .*, \([0-9.]*\) s of training$/\1,\2/p" "$2"
}
