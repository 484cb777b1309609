#!/bin/sh
# Smoke test of //tools:dp_mixture: a short run of every method on the embedded subset writes
# the trace, summary and CmdStan draws and prints the summary table; bad flags are rejected
# with a message naming them.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/dp_mixture"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --iterations=30 --eval_every=10 --seeds=2 --noplot \
  > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "^seeds=1..2 iterations=30" "${TEST_TMPDIR}/stdout"
grep -q "^train: 4000 users, 12350 visits; test: 1000 users, 3071 visits; 294 Vroots" \
  "${TEST_TMPDIR}/stdout"
grep -q "SCIR above SGRLD in log predictive for [0-2] of 2 seeds" "${TEST_TMPDIR}/stdout"
grep -q "^gibbs  mean log predictive" "${TEST_TMPDIR}/stdout"
grep -q "^\[sgrld seed 2\] 30/30" "${TEST_TMPDIR}/stderr"
# header + 3 methods x 2 seeds x 3 evaluations
test "$(wc -l < "${out}/trace.csv")" -eq 19
test "$(wc -l < "${out}/summary.csv")" -eq 7
grep -q "^lp__,alpha,occupied,components$" "${out}/draws_gibbs_seed2.csv"
grep -q "^#     algorithm = sgrld$" "${out}/draws_sgrld_seed1.csv"
test "$(grep -c -v '^#' "${out}/draws_scir_seed1.csv")" -eq 16
# Two threads: the same trace apart from the seconds column.
"${bin}" --output_dir="${out}2" --iterations=30 --eval_every=10 --seeds=2 --threads=2 \
  --noplot > /dev/null 2>&1
cut -d, -f1-3,5- "${out}/trace.csv" > "${TEST_TMPDIR}/trace1"
cut -d, -f1-3,5- "${out}2/trace.csv" > "${TEST_TMPDIR}/trace2"
cmp "${TEST_TMPDIR}/trace1" "${TEST_TMPDIR}/trace2"
if "${bin}" --output_dir="${out}" --methods=scir,hmc > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --methods=scir,hmc" >&2
  exit 1
fi
grep -q "methods" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --train=/nonexistent.data --test=/x > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for a missing --train" >&2
  exit 1
fi
grep -q "nonexistent.data" "${TEST_TMPDIR}/err"
echo PASS
