#!/bin/sh
# Rank failures of //tools:matrix_factorization_mpi (mpirun -np 3, oversubscribed, loopback):
# - a rank killed with SIGKILL at a seeded random point of a run (0.5 to 3.5 s in, i.e. in
#   the set-up, the sampling or between checkpoints) ends the whole job with an error from
#   mpirun within the timeout, never a hang, whatever rank it is;
# - a set of per-rank checkpoints of different iterations (what a rank dying between two
#   ranks' checkpoint writes leaves) is refused on resume with an error naming the mismatch,
#   never taken for a whole checkpoint; resuming from a whole set continues the run.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/matrix_factorization_mpi"
# mpi (loopback mpirun, 120 s), LSAN_OPTIONS for --config=asan and the rank-killing helpers.
MPI_TIMEOUT=120
# shellcheck source=tools/mpi_ranks_testing.sh
. "${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/mpi_ranks_testing.sh"
flags="--record_every=10 --noplot --synthetic_rows=150 --synthetic_cols=120 \
--synthetic_density=0.3 --rank=3 --sigma_x=0.5 --sgld_step=2e-3 --methods=sgld --blocks=6"
# Seeded: the same three (rank, delay) pairs on every run of the test.
# shellcheck disable=SC2086
kill_at_seeded_points 31 0.5 3 matrix_factoriz 3 "${TEST_TMPDIR}/killed.out" \
  mpi -np 3 "${bin}" ${flags} --iterations=1000000 \
  --checkpoint_dir="${TEST_TMPDIR}/kill_ckpt" --checkpoint_every=50 \
  --output_dir="${TEST_TMPDIR}/killed"
test "${killed_points}" -eq 3

# Checkpoints of two iterations: every rank writes at 10, then at 20; rank 1's file of 10
# is put back beside the others' of 20.
ckpt="--checkpoint_dir=${TEST_TMPDIR}/ckpt --checkpoint_every=10 --iterations=40"
# shellcheck disable=SC2086
mpi -np 3 "${bin}" ${flags} ${ckpt} --stop_after=10 --output_dir="${TEST_TMPDIR}/a" \
  > "${TEST_TMPDIR}/a.out" 2>&1
cp "${TEST_TMPDIR}/ckpt/checkpoint_sgld_rank1_of3.pb" "${TEST_TMPDIR}/rank1_at10.pb"
# shellcheck disable=SC2086
mpi -np 3 "${bin}" ${flags} ${ckpt} --resume --stop_after=20 --output_dir="${TEST_TMPDIR}/b" \
  > "${TEST_TMPDIR}/b.out" 2>&1
cmp -s "${TEST_TMPDIR}/rank1_at10.pb" "${TEST_TMPDIR}/ckpt/checkpoint_sgld_rank1_of3.pb" && {
  echo "the second run did not checkpoint at 20" >&2
  exit 1
}
cp "${TEST_TMPDIR}/ckpt/checkpoint_sgld_rank1_of3.pb" "${TEST_TMPDIR}/rank1_at20.pb"
cp "${TEST_TMPDIR}/rank1_at10.pb" "${TEST_TMPDIR}/ckpt/checkpoint_sgld_rank1_of3.pb"
# (Before the check, the ranks ran on from 20, 10 and 20 until their collectives no longer
# matched and the job hung: exit code 124 here.)
code=0
# shellcheck disable=SC2086
mpi -np 3 "${bin}" ${flags} ${ckpt} --resume --output_dir="${TEST_TMPDIR}/mixed" \
  > "${TEST_TMPDIR}/mixed.out" 2>&1 || code=$?
if [ "${code}" -eq 0 ] || [ "${code}" -eq 124 ]; then
  echo "a resume from checkpoints of iterations 20, 10, 20: exit code ${code}" \
    "(0: taken; 124: hang)" >&2
  cat "${TEST_TMPDIR}/mixed.out" >&2
  exit 1
fi
# The mismatch is named once: every rank refuses it, and rank 0 prints the error for the job
# (tools::MpiToolMain).
mismatch="rank 0 at iteration 20, rank 1 at iteration 10, rank 2 at iteration 20"
test "$(grep -c "are of different iterations (${mismatch})" "${TEST_TMPDIR}/mixed.out")" -eq 1
# The whole set of 20 resumes and finishes.
cp "${TEST_TMPDIR}/rank1_at20.pb" "${TEST_TMPDIR}/ckpt/checkpoint_sgld_rank1_of3.pb"
# shellcheck disable=SC2086
mpi -np 3 "${bin}" ${flags} ${ckpt} --resume --output_dir="${TEST_TMPDIR}/whole" \
  > "${TEST_TMPDIR}/whole.out" 2>&1
test -e "${TEST_TMPDIR}/whole/rmse.csv"
echo PASS
