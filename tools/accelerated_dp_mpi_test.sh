#!/bin/sh
# //tools:accelerated_dp under mpirun -np 2 and 4 (oversubscribed, loopback) gives the same
# trace as the thread back end with as many workers (bit-identical; only the seconds differ),
# also when stopped inside a run and resumed;
# progress lines come from rank 0 only; bad flags end every rank, rank 0 printing the error
# once (threads: before the run, --workers and --output_dir included); a rank killed mid-run ends the job
# with an error from mpirun, never a hang.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/accelerated_dp"
# mpi (loopback mpirun), LSAN_OPTIONS for --config=asan and the rank-killing helpers.
# shellcheck source=tools/mpi_ranks_testing.sh
. "${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/mpi_ranks_testing.sh"
flags="--train_points=300 --test_points=40 --iterations=30 --accelerated_iterations=10
  --initial_clusters=20 --methods=accelerated,hybrid,collapsed,uncollapsed --inits=one,kmeans"
for np in 2 4; do
  # shellcheck disable=SC2086
  "${bin}" ${flags} --workers="${np}" --output_dir="${TEST_TMPDIR}/threads${np}" \
    > "${TEST_TMPDIR}/threads${np}.out" 2>&1
  # shellcheck disable=SC2086
  mpi -np "${np}" "${bin}" --backend=mpi ${flags} --output_dir="${TEST_TMPDIR}/mpi${np}" \
    > "${TEST_TMPDIR}/mpi${np}.out" 2>&1
  grep -q "${np} rank(s)" "${TEST_TMPDIR}/mpi${np}.out"
  for run in threads mpi; do
    cut -d, -f1-3,5-7 "${TEST_TMPDIR}/${run}${np}/trace.csv" > "${TEST_TMPDIR}/${run}${np}.trace"
  done
  cmp "${TEST_TMPDIR}/threads${np}.trace" "${TEST_TMPDIR}/mpi${np}.trace"
done
# Under MPI too, a job stopped inside a run (accelerated from one cluster: at its
# synchronisation at 20, the state gathered from both ranks) and resumed from that state ends
# with the uninterrupted job's trace.
# shellcheck disable=SC2086
mpi -np 2 "${bin}" --backend=mpi ${flags} --output_dir="${TEST_TMPDIR}/mpi_inside" \
  --stop_after=15 --checkpoint_every=10 > "${TEST_TMPDIR}/mpi_inside.out" 2>&1
grep -q "^stopped (--stop_after_runs=0, --stop_after=15)" "${TEST_TMPDIR}/mpi_inside.out"
# shellcheck disable=SC2086
mpi -np 2 "${bin}" --backend=mpi ${flags} --output_dir="${TEST_TMPDIR}/mpi_inside" --resume \
  > "${TEST_TMPDIR}/mpi_inside.out" 2>&1
grep -q "resumed from .*: 0 run(s) done; accelerated/one at iteration 20" \
  "${TEST_TMPDIR}/mpi_inside.out"
cut -d, -f1-3,5-7 "${TEST_TMPDIR}/mpi_inside/trace.csv" > "${TEST_TMPDIR}/mpi_inside.trace"
cmp "${TEST_TMPDIR}/threads2.trace" "${TEST_TMPDIR}/mpi_inside.trace"
# 2 starts x (accelerated, hybrid: 1 + 3 syncs; collapsed: 1 + 30 sweeps; uncollapsed: 30
# steps) + the header: the traces are complete.
test "$(wc -l < "${TEST_TMPDIR}/mpi2.trace")" -eq 139
# Different worker counts are different (approximate-stage) runs of the accelerated sampler.
if cmp -s "${TEST_TMPDIR}/mpi2.trace" "${TEST_TMPDIR}/mpi4.trace"; then
  echo "2 and 4 workers gave the same trace" >&2
  exit 1
fi
# Threads: bad --workers and an output directory that cannot be made fail before the run
# (no trace, no crash), with messages naming the flag.
# (--workers=100000 ended in std::system_error, an abort.)
for bad in "--workers=0" "--workers=-2" "--workers=100000" "--output_dir=/dev/null/x" \
  "--methods=" "--inits=,"; do
  if "${bin}" --train_points=50 --test_points=5 --iterations=2 "${bad}" \
    > "${TEST_TMPDIR}/bad_threads.out" 2>&1; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  flag="${bad%%=*}"
  grep -q -- "^accelerated_dp: [A-Z_]*: ${flag}" "${TEST_TMPDIR}/bad_threads.out"
  if grep -q "^\[" "${TEST_TMPDIR}/bad_threads.out"; then
    echo "${bad}: the run started before the error" >&2
    exit 1
  fi
done
# Progress lines on stderr from rank 0 only: accelerated from one cluster, 30 iterations,
# synchronised at 10, 20, 30 (each crosses a tenth of the run), so 3 lines, not 3 per rank.
grep -c "^\[accelerated one\] iteration" "${TEST_TMPDIR}/mpi2.out" | grep -qx 3
# Bad flags: every rank fails; rank 0 prints the error once, on a line of its own (both
# printed it, interleaved mid-line).
if mpi -np 2 "${bin}" --backend=mpi --sync_every=0 > "${TEST_TMPDIR}/bad.out" 2>&1; then
  echo "expected failure for --sync_every=0" >&2
  exit 1
fi
test "$(grep -c "^accelerated_dp: INVALID_ARGUMENT: --sync_every must be >= 1" \
  "${TEST_TMPDIR}/bad.out")" -eq 1
test "$(grep -c "sync_every" "${TEST_TMPDIR}/bad.out")" -eq 1
# A rank killed mid-run: mpirun ends the job with an error (exit code not 0, not 124).
mpi -np 2 "${bin}" --backend=mpi --iterations=1000000 --methods=accelerated --inits=one \
  > "${TEST_TMPDIR}/killed.out" 2>&1 &
launcher=$!
ranks="$(ranks_of "${launcher}" accelerated_dp 2)"
# shellcheck disable=SC2086
set -- ${ranks}
victim="$2"
test -n "${victim}"
sleep 1
kill -9 "${victim}"
if wait "${launcher}"; then
  echo "expected the run with a killed rank to fail" >&2
  exit 1
else
  code=$?
fi
test "${code}" -ne 124
grep -qi "signal 9\|killed" "${TEST_TMPDIR}/killed.out"
echo PASS
