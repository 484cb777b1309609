#!/bin/bash
# Smoke test of //tools:collapsed_gibbs_lda: a few sweeps on the embedded KOS corpus write a
# trace with finite perplexities and the topics file; a bad flag fails with a message.
set -euo pipefail
tool="$1"
out="${TEST_TMPDIR}/cgs"
"${tool}" --sweeps=4 --eval_every=2 --burn_in=0 --eval_sweeps=4 --num_topics=10 \
  --threads=2 --output_dir="${out}" > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "final perplexity" "${TEST_TMPDIR}/stdout"
[[ "$(head -1 "${out}/trace.csv")" == "sweep,seconds,tokens_per_second,log_joint,perplexity,running_perplexity" ]]
[[ "$(wc -l < "${out}/trace.csv")" -eq 3 ]]
# Perplexities are finite numbers between 1 and V = 6906.
awk -F, 'NR > 1 && !($5 > 1 && $5 < 6906 && $6 > 1 && $6 < 6906) { exit 1 }' "${out}/trace.csv"
[[ "$(wc -l < "${out}/topics.txt")" -eq 10 ]]
if "${tool}" --num_topics=0 --sweeps=1 2> "${TEST_TMPDIR}/err"; then exit 1; fi
grep -q "num_topics must be >= 1" "${TEST_TMPDIR}/err"
echo PASS
