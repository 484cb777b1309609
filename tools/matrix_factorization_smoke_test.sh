#!/bin/sh
# Smoke test of //tools:matrix_factorization: the default synthetic run (shortened) writes
# rmse.csv with every method's trace and prints the summary; one and three thread ranks give
# the same RMSE; a bad flag and a bad ratings file are rejected with a message naming them.
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
"${bin}" --output_dir="${out}3" --iterations=200 --record_every=20 --noplot --threads=3 \
  > "${TEST_TMPDIR}/three"
# Same RMSE columns (seconds differ).
cut -d, -f1,2,4,5 "${out}/rmse.csv" > "${TEST_TMPDIR}/a"
cut -d, -f1,2,4,5 "${out}3/rmse.csv" > "${TEST_TMPDIR}/b"
cmp "${TEST_TMPDIR}/a" "${TEST_TMPDIR}/b"
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
