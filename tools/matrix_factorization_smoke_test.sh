#!/bin/sh
# Smoke test of //tools:matrix_factorization: the default synthetic run (shortened) writes
# rmse.csv with every method's trace and prints the summary; two thread ranks run twice give
# the same RMSE trace (bit-identical for a given rank count; other rank counts draw their
# own noise, see //tools:matrix_factorization_mpi_test for the RMSE agreement); three ranks
# with P = 4 blocks, a bad flag and a bad ratings file are rejected with a message naming
# them.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/matrix_factorization"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --iterations=200 --record_every=20 --noplot \
  > "${TEST_TMPDIR}/one" 2> "${TEST_TMPDIR}/stderr"
grep -q "noise level (best RMSE) 1.0000" "${TEST_TMPDIR}/one"
for method in sgld psgld hamcmc; do
  grep -q "^${method} *final averaged test RMSE" "${TEST_TMPDIR}/one"
  test "$(grep -c "^${method}," "${out}/rmse.csv")" -eq 10
done
head -1 "${out}/rmse.csv" | grep -q "^method,iteration,seconds,sample_rmse,average_rmse$"
for run in a b; do
  "${bin}" --output_dir="${out}2${run}" --iterations=200 --record_every=20 --noplot \
    --threads=2 > /dev/null
  # The RMSE columns (seconds differ).
  cut -d, -f1,2,4,5 "${out}2${run}/rmse.csv" > "${TEST_TMPDIR}/${run}"
done
cmp "${TEST_TMPDIR}/a" "${TEST_TMPDIR}/b"
if "${bin}" --output_dir="${out}" --iterations=20 --threads=3 > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for 3 ranks with 4 blocks" >&2
  exit 1
fi
grep -q "num_blocks 4 must be a multiple of the number of ranks 3" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --methods=sgld,foo > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --methods=sgld,foo" >&2
  exit 1
fi
grep -q "foo" "${TEST_TMPDIR}/err"
printf '1\t1\t5\n1\tx\t4\n' > "${TEST_TMPDIR}/bad.data"
if "${bin}" --output_dir="${out}" --ratings="${TEST_TMPDIR}/bad.data" > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for a bad ratings file" >&2
  exit 1
fi
grep -q "bad.data:2: item id must be an integer" "${TEST_TMPDIR}/err"
echo PASS
