#!/bin/sh
# //tools:matrix_factorization_mpi under mpirun -np 1, 2 and 4 (oversubscribed, loopback):
# every rank count gives the same RMSE trace (bit-identical; only the seconds differ), and a
# bad ratings file ends the run with the file:line error.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/matrix_factorization_mpi"
mpi() { timeout 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp "$@"; }
flags="--iterations=150 --record_every=10 --noplot --synthetic_rows=300 --synthetic_cols=240"
for np in 1 2 4; do
  # shellcheck disable=SC2086
  mpi -np "${np}" "${bin}" ${flags} --output_dir="${TEST_TMPDIR}/np${np}" \
    > "${TEST_TMPDIR}/out${np}" 2>&1
  grep -q "${np} rank(s)" "${TEST_TMPDIR}/out${np}"
  cut -d, -f1,2,4,5 "${TEST_TMPDIR}/np${np}/rmse.csv" > "${TEST_TMPDIR}/rmse${np}"
done
test "$(wc -l < "${TEST_TMPDIR}/rmse1")" -eq 46
cmp "${TEST_TMPDIR}/rmse1" "${TEST_TMPDIR}/rmse2"
cmp "${TEST_TMPDIR}/rmse1" "${TEST_TMPDIR}/rmse4"
printf '1\t1\t5\n2\t2\t4\n3\t1\n' > "${TEST_TMPDIR}/bad.data"
if mpi -np 2 "${bin}" --ratings="${TEST_TMPDIR}/bad.data" --noplot \
  --output_dir="${TEST_TMPDIR}/bad" > "${TEST_TMPDIR}/bad.out" 2>&1; then
  echo "expected failure for a bad ratings file" >&2
  exit 1
fi
# Both ranks report the error (AgreeOnStatus), with file and line.
test "$(grep -c "bad.data:3: expected user<TAB>item<TAB>rating" "${TEST_TMPDIR}/bad.out")" -eq 2
echo PASS
