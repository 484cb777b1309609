#!/bin/sh
# Smoke test of //tools:sam: a short run on generated data writes the perplexity CSV with one
# row per method and evaluation; a bad flag is rejected with a message naming it.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/sam"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --iterations=40 --burn_in=20 --eval_every=20 \
  --theta_samples=10 > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "held-out log-perplexity at the true topics" "${TEST_TMPDIR}/stdout"
# header + 5 methods x 2 evaluations
test "$(wc -l < "${out}/sam_perplexity.csv")" -eq 11
head -1 "${out}/sam_perplexity.csv" | grep -q "^method,iteration,seconds,log_perplexity$"
grep -q "^gmc_bgibbs,40," "${out}/sam_perplexity.csv"
if "${bin}" --output_dir="${out}" --num_topics=1 > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --num_topics=1" >&2
  exit 1
fi
grep -q -- "--num_topics must be >= 2" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --methods=sggmc,nuts > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --methods=sggmc,nuts" >&2
  exit 1
fi
grep -q -- "--methods: unknown method nuts" "${TEST_TMPDIR}/err"
echo PASS
