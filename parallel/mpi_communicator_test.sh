#!/bin/sh
# MpiCommunicator under Open MPI: collectives and ring shifts agree on 1, 2 and 4 ranks
# (oversubscribed, loopback), and a rank that fails (deliberately, or on a Shift length
# mismatch) ends the whole run with an error instead of a hang.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/parallel/mpi_communicator_check"
# Under --config=asan: Open MPI's own allocations are not reported as leaks of ours (full
# stacks: Debian's libmpi has no frame pointers, so the fast unwinder stops inside it).
suppressions="${TEST_SRCDIR}/${TEST_WORKSPACE}/third_party/openmpi_lsan_suppressions.txt"
LSAN_OPTIONS="suppressions=${suppressions}:fast_unwind_on_malloc=0${LSAN_OPTIONS:+:${LSAN_OPTIONS}}"
export LSAN_OPTIONS
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
if mpi -np 2 "${bin}" --shift_mismatch > "${TEST_TMPDIR}/mismatch" 2>&1; then
  echo "expected the run with a Shift length mismatch to fail" >&2
  exit 1
else
  code=$?
fi
test "${code}" -ne 124
grep -q "rank 1 failed: Shift: rank 0 sent 3 values, rank 1 expected 4" "${TEST_TMPDIR}/mismatch"
echo PASS
