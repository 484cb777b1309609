#!/bin/bash
# The scoring path of bench/lda_peers.py (issue 29: ours against gensim and scikit-learn, "the
# same held-out evaluator and the same recovery function for all"): a streamed //tools:lda run
# on a //tools:lda_generate_corpus corpus writes its topic matrices at every evaluation
# (write_snapshots); //tools:lda_evaluate, given the same stream config, must score each of
# them exactly as the lda tool did (point_trace's fold_in_perplexity_last / _mean, 9 digits),
# so a peer's matrix scored by lda_evaluate is scored by our evaluator. A peer's matrix comes
# unnormalised (scikit-learn's components_): the same topics with every row scaled by a
# different factor must get the same perplexity (relative difference < 1e-9) and a recovery
# distance < 1e-9 from the unscaled ones; a matrix over another vocabulary is refused.
set -euo pipefail
gen="$1"
lda="$2"
evaluate="$3"
recovery="$4"
t="${TEST_TMPDIR}"
"${gen}" --output_dir="${t}/corpus" --documents=600 --heldout_documents=50 \
  --vocabulary_size=300 --num_topics=5 --seed=3 2> /dev/null
cat > "${t}/split.textpb" <<CONFIG
seed: 1
threads: 1
stream {
  docword: "${t}/corpus/docword.txt"
  vocab: "${t}/corpus/vocab.txt"
  test_docword: "${t}/corpus/heldout.docword.txt"
  passes: 1
}
CONFIG
{ cat "${t}/split.textpb"
  echo "eval_every: 4 write_snapshots: true output_dir: '${t}/out'"
  echo "runs { name: 'r' preset: 'sgrld_fast' num_topics: 5 minibatch_size: 50 burn_in: 6 }"
} > "${t}/run.textpb"
"${lda}" --config="${t}/run.textpb" --plot=false > "${t}/lda.log" 2>&1

# Every snapshot, last sample and posterior mean, scored again by lda_evaluate.
paths="$(awk -F, 'NR > 1 { printf "%s%s", (n++ ? "," : ""), $3; if ($4 != "") printf ",%s", $4 }' \
  "${t}/out/snapshots_r.csv")"
"${evaluate}" --config="${t}/split.textpb" --alpha=0.1 --gibbs=false --topics="${paths}" \
  --output="${t}/scores.csv" 2> /dev/null
# The tool's own values, keyed by file: snapshot iteration -> trace row.
awk -F, 'FNR == 1 { next }
  FILENAME ~ /snapshots/ { last[$1] = $3; mean[$1] = $4; next }
  { want[last[$1]] = $3; if (mean[$1] != "") want[mean[$1]] = $4 }
  END { for (f in want) print f "," want[f] }' \
  "${t}/out/snapshots_r.csv" "${t}/out/point_trace_r.csv" | sort > "${t}/want.csv"
awk -F, 'NR > 1 { print $1 "," $2 }' "${t}/scores.csv" | sort > "${t}/got.csv"
[[ "$(wc -l < "${t}/want.csv")" -ge 4 ]] || { echo "FAIL: too few snapshots"; exit 1; }
if ! diff "${t}/want.csv" "${t}/got.csv"; then
  echo "FAIL: lda_evaluate's fold-in perplexities differ from the lda tool's point_trace"
  exit 1
fi
grep -q "/mean_" "${t}/got.csv" || { echo "FAIL: no posterior-mean snapshot scored"; exit 1; }

# Row scaling (a peer's unnormalised matrix) changes neither score.
awk -v CONVFMT=%.17g -v OFS='\t' '{ for (i = 1; i <= NF; ++i) $i = $i * (7 * NR); print }' \
  "${t}/out/topic_matrix_r.tsv" > "${t}/scaled.tsv"
"${evaluate}" --config="${t}/split.textpb" --alpha=0.1 --gibbs=false \
  --topics="${t}/out/topic_matrix_r.tsv,${t}/scaled.tsv" --output="${t}/scaled.csv" 2> /dev/null
awk -F, 'NR == 2 { a = $2 } NR == 3 { b = $2 }
  END { d = (a - b) / a; if (d < 0) d = -d; if (!(a > 1 && d < 1e-9)) { print "FAIL: scaled " a " vs " b; exit 1 } }' \
  "${t}/scaled.csv"
"${recovery}" --true_topics="${t}/out/topic_matrix_r.tsv" --topics="${t}/scaled.tsv" \
  > "${t}/recovery.csv"
awk -F, 'NR == 2 { if (!($2 == 5 && $3 < 1e-9)) { print "FAIL: recovery " $0; exit 1 } }' \
  "${t}/recovery.csv"

# A matrix over 299 words is refused with the file named.
cut -f 1-299 "${t}/out/topic_matrix_r.tsv" > "${t}/short.tsv"
if "${evaluate}" --config="${t}/split.textpb" --gibbs=false --topics="${t}/short.tsv" \
  > "${t}/short.log" 2>&1; then
  echo "FAIL: a 299-word matrix was scored"; exit 1
fi
grep -q "short.tsv" "${t}/short.log" || { cat "${t}/short.log"; echo "FAIL: file not named"; exit 1; }
echo PASS
