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
# Absurd values are errors (exit status 1 with a message), not aborts: 100000 threads
# (std::system_error), K = 1e8 (std::bad_alloc of the count tables).
expect_error() {
  local message="$1"
  shift
  local status=0
  "${tool}" --sweeps=1 "$@" > /dev/null 2> "${TEST_TMPDIR}/err" || status=$?
  [[ "${status}" -eq 1 ]] || { echo "status ${status} for $*"; cat "${TEST_TMPDIR}/err"; exit 1; }
  grep -q -- "${message}" "${TEST_TMPDIR}/err"
}
expect_error "--threads must be in \\[1, 1024\\], got 100000" --threads=100000
expect_error "count-table entries, more than 2^31" --num_topics=100000000
expect_error "--top_words must be >= 1, got 0" --top_words=0
echo PASS
