#!/bin/bash
# The LDA acceptance experiments of issue 6: on KOS, AP and 20 Newsgroups with K = 50, the
# final document-completion perplexity of SCIR and SGRLD (//tools:lda with
# tools/configs/<corpus>_compare.textpb: the tuned presets scir_fast and sgrld_fast, 5000
# iterations of 50 documents; 3000 of 200 on 20 Newsgroups) and of collapsed Gibbs run to convergence
# (//tools:collapsed_gibbs_lda with SCIR's alpha = 0.1, beta = 0.1; 1000 sweeps, 300 on
# 20 Newsgroups), all on the same held-out split (seed 1) and with the same perplexity code;
# prints the table. See bench/README.md for the tuning grid behind the presets.
#
# Usage (from the repository root; takes about an hour on one core, half of it 20 Newsgroups):
#   bench/lda_experiments.sh [corpus ...]      # default: kos ap 20news
# Outputs: lda_output/<corpus>_compare/ (traces, topics, perplexity.png) and
# lda_output/<corpus>_cgs/ (collapsed Gibbs trace), lda_output/perplexity_table.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=("$@")
if (( ${#corpora[@]} == 0 )); then corpora=(kos ap 20news); fi
data="${SGMCMC_SHARED_DATA:-../shared/data}"

./bazelw build -c opt //tools:lda //tools:collapsed_gibbs_lda
bin="$(./bazelw info -c opt bazel-bin 2>/dev/null)/tools"

cgs_flags() {
  case "$1" in
    kos) echo "--docword=${data}/kos/docword.kos.txt.gz --vocab=${data}/kos/vocab.kos.txt" ;;
    ap) echo "--docword=${data}/ap/docword.ap.txt.gz --vocab=${data}/ap/vocab.ap.txt" ;;
    20news) echo "--docword=${data}/20newsgroups/docword.20news.train.txt.gz" \
                 "--test_docword=${data}/20newsgroups/docword.20news.test.txt.gz" \
                 "--vocab=${data}/20newsgroups/vocab.20news.txt" ;;
  esac
}

table="lda_output/perplexity_table.txt"
mkdir -p lda_output
for corpus in "${corpora[@]}"; do
  echo "=== ${corpus}: SCIR and SGRLD" >&2
  "${bin}/lda" --config="tools/configs/${corpus}_compare.textpb" --threads=1
  echo "=== ${corpus}: collapsed Gibbs" >&2
  sweeps=1000
  if [[ "${corpus}" == 20news ]]; then sweeps=300; fi
  # shellcheck disable=SC2046
  "${bin}/collapsed_gibbs_lda" $(cgs_flags "${corpus}") --num_topics=50 --alpha=0.1 \
    --beta=0.1 --sweeps="${sweeps}" --burn_in=$((sweeps / 2)) --eval_every=25 --threads=1 \
    --seed=1 --output_dir="lda_output/${corpus}_cgs" > "lda_output/${corpus}_cgs.txt"
done

{
  printf "%-8s %10s %10s %10s %12s %12s\n" corpus SCIR SGRLD "coll.Gibbs" "SCIR/CGS-1" \
    "SGRLD/CGS-1"
  for corpus in "${corpora[@]}"; do
    scir=$(awk -F, 'END { print $7 }' "lda_output/${corpus}_compare/trace_scir_fast.csv")
    sgrld=$(awk -F, 'END { print $7 }' "lda_output/${corpus}_compare/trace_sgrld_fast.csv")
    cgs=$(awk -F, 'END { print $6 }' "lda_output/${corpus}_cgs/trace.csv")
    awk -v c="${corpus}" -v a="${scir}" -v b="${sgrld}" -v g="${cgs}" 'BEGIN {
      printf "%-8s %10.1f %10.1f %10.1f %+11.1f%% %+11.1f%%\n", c, a, b, g,
             100 * (a / g - 1), 100 * (b / g - 1) }'
  done
  echo "(running-mean document-completion perplexity after burn-in; K = 50; seed 1)"
} | tee "${table}"
