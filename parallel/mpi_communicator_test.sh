#!/bin/sh
# MpiCommunicator under Open MPI: collectives agree on 1, 2 and 4 ranks (oversubscribed,
# loopback), and a rank that fails ends the whole run with an error instead of a hang.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/parallel/mpi_communicator_check"
mpi() { timeout 120 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp "$@"; }
for np in 1 2 4; do
  mpi -np "${np}" "${bin}" > "${TEST_TMPDIR}/out${np}" 2>&1
  test "$(grep -c "/${np} OK$" "${TEST_TMPDIR}/out${np}")" -eq "${np}"
done
if mpi -np 4 "${bin}" --fail_rank=2 > "${TEST_TMPDIR}/fail" 2>&1; then
  echo "expected the run with a failing rank to fail" >&2
  exit 1
else
  code=$?
fi
test "${code}" -ne 124  # not a hang
grep -q "rank 2 failed: deliberate failure for the test" "${TEST_TMPDIR}/fail"
if grep -q "OK$" "${TEST_TMPDIR}/fail"; then
  echo "a rank finished although rank 2 failed" >&2
  exit 1
fi
echo PASS
