#!/bin/sh
# Smoke test of //tools:linear_regression: a small run writes every CSV with the expected rows
# (the draws in the CmdStan layout) and prints both summary tables; bad flags are rejected
# with a message naming them.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/linear_regression"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --iterations=400 --dimensions=3 --replications=1 \
  --eval_every=10 --noplot > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "seed=1" "${TEST_TMPDIR}/stdout"
grep -q "^Figure 1: D = 2" "${TEST_TMPDIR}/stdout"
grep -q "HAMCMC (M=3) below both SGLD and pSGLD at" "${TEST_TMPDIR}/stdout"
grep -q "\[fig2 D=3 SGLD rep 1/1\] 400/400" "${TEST_TMPDIR}/stderr"
for method in sgld psgld sgrld hamcmc_m2; do
  file="${out}/fig1_${method}.csv"
  grep -q "^lp__,theta.1,theta.2$" "${file}"
  grep -q "^#     algorithm = ${method}$" "${file}"
  # 200 retained draws (the first half is burn-in)
  test "$(grep -c -v '^#' "${file}")" -eq 201
done
# header + 400 / 10 recorded iterations; iteration + (error, seconds) x 5 methods
test "$(wc -l < "${out}/fig2_D3.csv")" -eq 41
test "$(head -1 "${out}/fig2_D3.csv" | tr ',' '\n' | wc -l)" -eq 11
test "$(wc -l < "${out}/fig1_summary.csv")" -eq 5
test "$(wc -l < "${out}/fig2_summary.csv")" -eq 6
test -s "${out}/fig1_contours.csv"
if "${bin}" --output_dir="${out}" --dimensions=3,x > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --dimensions=3,x" >&2
  exit 1
fi
grep -q -- '--dimensions: bad dimension "x"' "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --covariates=banded > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --covariates=banded" >&2
  exit 1
fi
grep -q -- "--covariates must be equicorrelated or autoregressive" "${TEST_TMPDIR}/err"
# The library's checks name the flags (they named PsgldOptions.alpha, CorrelatedDataOptions.*).
for bad in "--psgld_alpha=2" "--psgld_lambda=0" "--hamcmc_curvature_threshold=2" \
  "--noise_variance=0" "--correlation=2" "--scale_ratio=0"; do
  if "${bin}" --output_dir="${out}" "${bad}" > /dev/null 2> "${TEST_TMPDIR}/err"; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  grep -q -- "^linear_regression: INVALID_ARGUMENT: ${bad%%=*} must be " "${TEST_TMPDIR}/err"
done
echo PASS
