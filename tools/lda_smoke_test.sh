#!/bin/bash
# Smoke test of //tools:lda as the README runs it: the embedded KOS corpus with the default
# run (iterations cut to 20), progress on stderr, every output file, a resume, a config error
# naming the file and field.
set -euo pipefail
tool="$1"
out="${TEST_TMPDIR}/lda"
"${tool}" --iterations=20 --threads=2 --plot=false --output_dir="${out}" \
  > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "embedded KOS corpus" "${TEST_TMPDIR}/stderr"
grep -q "\[scir_fast\] iter 20/20 .* docs/s .* tokens/s .* ETA .* perplexity" "${TEST_TMPDIR}/stderr"
[[ "$(head -1 "${out}/trace_scir_fast.csv")" == "iteration,train_seconds,documents,tokens,step_size,perplexity,running_perplexity" ]]
[[ "$(wc -l < "${out}/trace_scir_fast.csv")" -eq 21 ]]
# Perplexities are finite numbers between 1 and V = 6906.
awk -F, 'NR > 1 && !($6 > 1 && $6 < 6906 && $7 > 1 && $7 < 6906) { exit 1 }' \
  "${out}/trace_scir_fast.csv"
[[ "$(wc -l < "${out}/topics_scir_fast.txt")" -eq 50 ]]
[[ "$(wc -l < "${out}/topic_matrix_scir_fast.tsv")" -eq 50 ]]
[[ -s "${out}/checkpoint_scir_fast.pb" ]]
grep -q "scir_fast: held-out perplexity .* (posterior-mean topics over 11 samples, fold-in) after 20 iterations" "${out}/summary.txt"
grep -q "other figures: fold-in perplexity of the last sample" "${out}/summary.txt"
# Resume to 24 iterations (burn-in fixed by the first run's setting of 10: same settings).
printf 'runs { iterations: 24 burn_in: 10 num_topics: 50 }\n' > "${TEST_TMPDIR}/resume.textpb"
"${tool}" --config="${TEST_TMPDIR}/resume.textpb" --plot=false --output_dir="${out}" --resume \
  2> "${TEST_TMPDIR}/stderr2"
grep -q "resumed from .* at iteration 20" "${TEST_TMPDIR}/stderr2"
grep -q "scir_fast: held-out perplexity .* after 24 iterations" "${out}/summary.txt"
# Negative overrides are refused (they were ignored: a full default run).
# SCIR's lazy topic update from the flag; the settings line names it, the time line follows.
"${tool}" --iterations=3 --threads=2 --plot=false --output_dir="${TEST_TMPDIR}/lazy" \
  --topic_update=lazy 2> "${TEST_TMPDIR}/stderr3"
grep -q "topic_update=lazy" "${TEST_TMPDIR}/stderr3"
grep -q "\[scir_fast\] time: 3 steps .* (topic update .* posterior mean .*), evaluations" \
  "${TEST_TMPDIR}/stderr3"
for bad in "--threads=-2" "--threads=1025" "--iterations=-5" "--count_estimator=PERSISTENT_JOINT" \
  "--topic_update=fast"; do
  if "${tool}" --plot=false --output_dir="${TEST_TMPDIR}/bad" "${bad}" \
    2> "${TEST_TMPDIR}/err"; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  grep -q -- "^lda: INVALID_ARGUMENT: ${bad%%=*}" "${TEST_TMPDIR}/err"
done
# Config errors name the file and the field.
printf 'runs {\n  alpha: -2\n}\n' > "${TEST_TMPDIR}/bad.textpb"
if "${tool}" --config="${TEST_TMPDIR}/bad.textpb" 2> "${TEST_TMPDIR}/err"; then exit 1; fi
grep -q "bad.textpb: runs\[0\].alpha must be finite and > 0, got -2" "${TEST_TMPDIR}/err"
printf 'runs {\n  alhpa: 2\n}\n' > "${TEST_TMPDIR}/typo.textpb"
if "${tool}" --config="${TEST_TMPDIR}/typo.textpb" 2> "${TEST_TMPDIR}/err"; then exit 1; fi
grep -q "typo.textpb:2:.*alhpa" "${TEST_TMPDIR}/err"
echo PASS
