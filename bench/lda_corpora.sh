#!/usr/bin/env bash
# Shared by bench/lda_beta_in_memory.sh and bench/lda_alpha_by_k.sh (sourced, not run): the
# corpora of ../shared/data as lda tool config blocks, their passes, and the tool's result line.
# Needs `data` (the shared data directory) set by the caller.

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
