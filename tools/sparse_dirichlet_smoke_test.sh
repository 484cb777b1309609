#!/bin/sh
# Smoke test of //tools:sparse_dirichlet: a small run writes every CSV with the expected rows
# and prints the summary; a bad flag is rejected with a message naming it.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/sparse_dirichlet"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --num_seeds=2 --iterations=50 --burn_in=20 \
  --proportions=0.01,0.5 --scir_step_sizes=0.5,0.1 --sgrld_step_sizes=0.05,0.01 \
  --noplot > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "seed=1" "${TEST_TMPDIR}/stdout"
grep -q "sparse: SCIR below SGRLD in" "${TEST_TMPDIR}/stdout"
# header + 2 experiments x 2 proportions x 3 methods x 2 seeds
test "$(wc -l < "${out}/fig2_ks.csv")" -eq 25
# header + 2 experiments x 2 seeds x 2 proportions x (2 + 2) step sizes
test "$(wc -l < "${out}/ks_grid.csv")" -eq 33
test "$(wc -l < "${out}/fig2_ks_mean.csv")" -eq 3
test "$(wc -l < "${out}/fig1_omega5.csv")" -eq 51
head -1 "${out}/fig1_omega5.csv" | grep -q "^exact,scir,sgrld$"
if "${bin}" --output_dir="${out}" --proportions=0.01,2 > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --proportions=0.01,2" >&2
  exit 1
fi
grep -q -- "--proportions: '2'" "${TEST_TMPDIR}/err"
echo PASS
