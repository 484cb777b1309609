#!/bin/bash
# Smoke test of the point-estimate outputs end to end: //tools:lda on the embedded KOS corpus
# (20 iterations, burn-in 10) writes the posterior mean; //tools:lda_evaluate scores it with the
# fold-in evaluator and must print exactly the final fold-in perplexity of the lda tool's
# point_trace (one evaluator, the same bits); //tools:lda_transform folds in new text documents
# over the tool's vocabulary.txt and writes a D x K matrix; bad input is named with file:line.
set -euo pipefail
lda="$1"
evaluate="$2"
transform="$3"
out="${TEST_TMPDIR}/lda"
"${lda}" --iterations=20 --threads=2 --plot=false --output_dir="${out}" 2> "${TEST_TMPDIR}/log"
for f in topic_matrix_scir_fast.phi topic_matrix_mean_scir_fast.phi \
         topic_matrix_mean_scir_fast.tsv point_trace_scir_fast.csv vocabulary.txt; do
  [[ -s "${out}/${f}" ]]
done
[[ "$(wc -l < "${out}/topic_matrix_mean_scir_fast.tsv")" -eq 50 ]]
[[ "$(wc -l < "${out}/vocabulary.txt")" -eq 6906 ]]
[[ "$(wc -l < "${out}/point_trace_scir_fast.csv")" -eq 21 ]]
# 24 + 8 K V bytes.
[[ "$(stat -c %s "${out}/topic_matrix_mean_scir_fast.phi")" -eq $((24 + 8 * 50 * 6906)) ]]
grep -q "held-out perplexity .* (posterior-mean topics over 11 samples, fold-in)" "${out}/summary.txt"

"${evaluate}" --topics="${out}/topic_matrix_mean_scir_fast.phi,${out}/topic_matrix_scir_fast.phi" \
  --alpha=0.1 --gibbs=false --output="${TEST_TMPDIR}/scores.csv" \
  2> "${TEST_TMPDIR}/log"
[[ "$(head -1 "${TEST_TMPDIR}/scores.csv")" == "file,fold_in_perplexity,gibbs_perplexity" ]]
mean_tool="$(awk -F, 'END { print $4 }' "${out}/point_trace_scir_fast.csv")"
last_tool="$(awk -F, 'END { print $3 }' "${out}/point_trace_scir_fast.csv")"
mean_eval="$(awk -F, 'NR == 2 { print $2 }' "${TEST_TMPDIR}/scores.csv")"
last_eval="$(awk -F, 'NR == 3 { print $2 }' "${TEST_TMPDIR}/scores.csv")"
[[ "${mean_tool}" == "${mean_eval}" ]] || { echo "mean: ${mean_tool} vs ${mean_eval}"; exit 1; }
[[ "${last_tool}" == "${last_eval}" ]] || { echo "last: ${last_tool} vs ${last_eval}"; exit 1; }
# Without --alpha: the lda tool's default for K = 50 (models::DefaultLdaAlpha), the run's 0.1.
"${evaluate}" --topics="${out}/topic_matrix_mean_scir_fast.phi" --gibbs=false \
  --output="${TEST_TMPDIR}/scores_default.csv" 2> "${TEST_TMPDIR}/log"
grep -q "^alpha 0.1 (default for K = 50: models::DefaultLdaAlpha" "${TEST_TMPDIR}/log"
[[ "$(awk -F, 'NR == 2 { print $2 }' "${TEST_TMPDIR}/scores_default.csv")" == "${mean_tool}" ]]

printf 'the president and the senate voted on the bill\n\npoll numbers for the democratic primary\n' \
  > "${TEST_TMPDIR}/docs.txt"
"${transform}" --topics="${out}/topic_matrix_mean_scir_fast.phi" --text="${TEST_TMPDIR}/docs.txt" \
  --vocab="${out}/vocabulary.txt" --alpha=0.1 --output="${TEST_TMPDIR}/theta.tsv" \
  2> "${TEST_TMPDIR}/log"
[[ "$(wc -l < "${TEST_TMPDIR}/theta.tsv")" -eq 3 ]]
# 50 proportions per row, summing to 1.
awk -F'\t' '{ s = 0; for (i = 1; i <= NF; ++i) s += $i; if (NF != 50 || s < 0.999999 || s > 1.000001) exit 1 }' \
  "${TEST_TMPDIR}/theta.tsv"
# Bad input names the file and line.
printf '0.5\t0.5\n0.5\n' > "${TEST_TMPDIR}/bad.tsv"
if "${transform}" --topics="${TEST_TMPDIR}/bad.tsv" --text="${TEST_TMPDIR}/docs.txt" \
  --vocab="${out}/vocabulary.txt" --output="${TEST_TMPDIR}/x.tsv" 2> "${TEST_TMPDIR}/err"; then
  exit 1
fi
grep -q "bad.tsv:2: 1 values, expected V = 2" "${TEST_TMPDIR}/err"
# 100000 threads ended in std::system_error (abort).
if "${transform}" --topics="${out}/topic_matrix_mean_scir_fast.phi" --text="${TEST_TMPDIR}/docs.txt" \
  --vocab="${out}/vocabulary.txt" --output="${TEST_TMPDIR}/x.tsv" --threads=100000 \
  2> "${TEST_TMPDIR}/err"; then
  exit 1
fi
grep -q "^lda_transform: INVALID_ARGUMENT: --threads must be in \[1, 1024\], got 100000" \
  "${TEST_TMPDIR}/err"
# lda_evaluate: the config's threads: 0 was a CHECK abort (100000 a std::system_error); an
# empty --topics entry or nothing to do at all passed silently with status 0; alpha = 1e308
# printed an inf perplexity.
evaluate_error() {
  local message="$1"
  shift
  local status=0
  "${evaluate}" "$@" > /dev/null 2> "${TEST_TMPDIR}/err" || status=$?
  [[ "${status}" -eq 1 ]] || { echo "status ${status} for $*"; cat "${TEST_TMPDIR}/err"; exit 1; }
  grep -q -- "${message}" "${TEST_TMPDIR}/err"
}
printf 'threads: 0\n' > "${TEST_TMPDIR}/threads.textpb"
evaluate_error "threads must be >= 1, got 0" --config="${TEST_TMPDIR}/threads.textpb" \
  --topics="${out}/topic_matrix_scir_fast.phi"
evaluate_error "nothing to do: give --topics"
evaluate_error "--topics has an empty file name" --topics="${out}/topic_matrix_scir_fast.phi,"
evaluate_error "K x alpha = 50 x 1e+308 must be finite" --alpha=1e308 --gibbs=false \
  --topics="${out}/topic_matrix_scir_fast.phi"
echo PASS
