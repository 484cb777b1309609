#!/bin/sh
# //tools:matrix_factorization_mpi under mpirun -np 1, 2 and 4 (oversubscribed, loopback):
# - each rank count's RMSE trace is bit-identical to //tools:matrix_factorization with the
#   same number of thread ranks (only the seconds differ);
# - -np 2 and -np 4 reach the final averaged RMSE of one process within 0.05 for every method
#   (on this seeded problem |RMSE(1) - RMSE(P)| measured <= 0.008 for SGLD / pSGLD and
#   <= 0.045 for HAMCMC over seeds 1..6 and P = 2, 4; see
#   tools/matrix_factorization_experiment_test.cc);
# - a HAMCMC run (the most sampler state) interrupted after 37 iterations (--stop_after) and
#   resumed (--resume) from its per-rank checkpoints gives the uninterrupted -np 2 trace;
# - with --center_ratings every rank subtracts the same training mean: -np 2 reports it and
#   gives the --threads=2 trace bit for bit;
# - a bad ratings file ends the run with the file:line error on every rank, printed once (by
#   rank 0), as is a bad flag's; a diverged method is marked, the others written.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/matrix_factorization_mpi"
threads="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/matrix_factorization"
# Under --config=asan: Open MPI's own allocations are not reported as leaks of ours (full
# stacks: Debian's libmpi has no frame pointers, so the fast unwinder stops inside it).
suppressions="${TEST_SRCDIR}/${TEST_WORKSPACE}/third_party/openmpi_lsan_suppressions.txt"
LSAN_OPTIONS="suppressions=${suppressions}:fast_unwind_on_malloc=0${LSAN_OPTIONS:+:${LSAN_OPTIONS}}"
export LSAN_OPTIONS
mpi() { timeout 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp "$@"; }
flags="--iterations=300 --record_every=10 --noplot --synthetic_rows=150 --synthetic_cols=120 \
--synthetic_density=0.3 --rank=3 --sigma_x=0.5 --sgld_step=2e-3 --psgld_step=1e-5 \
--hamcmc_step=1 --hamcmc_gamma=2e-3 --hamcmc_warmup_step=1e-3"
for np in 1 2 4; do
  # shellcheck disable=SC2086
  mpi -np "${np}" "${bin}" ${flags} --output_dir="${TEST_TMPDIR}/np${np}" \
    > "${TEST_TMPDIR}/out${np}" 2>&1
  grep -q "${np} rank(s)" "${TEST_TMPDIR}/out${np}"
  cut -d, -f1,2,4,5 "${TEST_TMPDIR}/np${np}/rmse.csv" > "${TEST_TMPDIR}/rmse${np}"
  # shellcheck disable=SC2086
  "${threads}" ${flags} --threads="${np}" --output_dir="${TEST_TMPDIR}/threads${np}" \
    > /dev/null
  cut -d, -f1,2,4,5 "${TEST_TMPDIR}/threads${np}/rmse.csv" > "${TEST_TMPDIR}/trmse${np}"
  cmp "${TEST_TMPDIR}/rmse${np}" "${TEST_TMPDIR}/trmse${np}"
done
test "$(wc -l < "${TEST_TMPDIR}/rmse1")" -eq 91
final() { grep "^$1,300," "${TEST_TMPDIR}/rmse$2" | cut -d, -f4; }
for method in sgld psgld hamcmc; do
  for np in 2 4; do
    awk -v a="$(final "${method}" 1)" -v b="$(final "${method}" "${np}")" -v m="${method}" \
      -v np="${np}" 'BEGIN { d = a - b; if (d < 0) d = -d;
        if (d > 0.05) { print m ": -np " np " RMSE " b " vs " a " (one process)" > "/dev/stderr";
                        exit 1 } }'
  done
done
# Interrupt after 37 iterations, resume, compare with the uninterrupted -np 2 run.
ckpt="--checkpoint_dir=${TEST_TMPDIR}/ckpt --checkpoint_every=10"
# shellcheck disable=SC2086
mpi -np 2 "${bin}" ${flags} ${ckpt} --methods=hamcmc --stop_after=37 \
  --output_dir="${TEST_TMPDIR}/stop" \
  > "${TEST_TMPDIR}/stop.out" 2>&1
grep -q "stopped (stop_after)" "${TEST_TMPDIR}/stop.out"
test ! -e "${TEST_TMPDIR}/stop/rmse.csv"
test -e "${TEST_TMPDIR}/ckpt/checkpoint_hamcmc_rank1_of2.pb"
# shellcheck disable=SC2086
mpi -np 2 "${bin}" ${flags} ${ckpt} --methods=hamcmc --resume \
  --output_dir="${TEST_TMPDIR}/resumed" \
  > "${TEST_TMPDIR}/resumed.out" 2>&1
cut -d, -f1,2,4,5 "${TEST_TMPDIR}/resumed/rmse.csv" | grep "^hamcmc," > "${TEST_TMPDIR}/rmse_resumed"
grep "^hamcmc," "${TEST_TMPDIR}/rmse2" > "${TEST_TMPDIR}/rmse2_hamcmc"
test "$(wc -l < "${TEST_TMPDIR}/rmse2_hamcmc")" -eq 30
cmp "${TEST_TMPDIR}/rmse2_hamcmc" "${TEST_TMPDIR}/rmse_resumed"
# shellcheck disable=SC2086
mpi -np 2 "${bin}" ${flags} --center_ratings --output_dir="${TEST_TMPDIR}/centered" \
  > "${TEST_TMPDIR}/centered.out" 2>&1
grep -q "centred ratings: training mean" "${TEST_TMPDIR}/centered.out"
# shellcheck disable=SC2086
"${threads}" ${flags} --center_ratings --threads=2 \
  --output_dir="${TEST_TMPDIR}/tcentered" > "${TEST_TMPDIR}/tcentered.out"
grep "centred ratings" "${TEST_TMPDIR}/tcentered.out" > "${TEST_TMPDIR}/mu_threads"
grep "centred ratings" "${TEST_TMPDIR}/centered.out" > "${TEST_TMPDIR}/mu_mpi"
cmp "${TEST_TMPDIR}/mu_threads" "${TEST_TMPDIR}/mu_mpi"
cut -d, -f1,2,4,5 "${TEST_TMPDIR}/centered/rmse.csv" > "${TEST_TMPDIR}/rmse_centered"
cut -d, -f1,2,4,5 "${TEST_TMPDIR}/tcentered/rmse.csv" > "${TEST_TMPDIR}/trmse_centered"
cmp "${TEST_TMPDIR}/rmse_centered" "${TEST_TMPDIR}/trmse_centered"
if cmp -s "${TEST_TMPDIR}/rmse_centered" "${TEST_TMPDIR}/rmse2"; then
  echo "--center_ratings did not change the -np 2 trace" >&2
  exit 1
fi
printf '1\t1\t5\n2\t2\t4\n3\t1\n' > "${TEST_TMPDIR}/bad.data"
if mpi -np 2 "${bin}" --ratings="${TEST_TMPDIR}/bad.data" --noplot \
  --output_dir="${TEST_TMPDIR}/bad" > "${TEST_TMPDIR}/bad.out" 2>&1; then
  echo "expected failure for a bad ratings file" >&2
  exit 1
fi
# Both ranks fail with the error (AgreeOnStatus); rank 0 prints it once, with file and line,
# on a line of its own (both ranks printed it, interleaved mid-line).
test "$(grep -c "bad.data:3: expected user<TAB>item<TAB>rating" "${TEST_TMPDIR}/bad.out")" -eq 1
grep -q "^matrix_factorization_mpi: INVALID_ARGUMENT: .*bad.data:3: expected" "${TEST_TMPDIR}/bad.out"
# A bad flag: once, naming the flag.
if mpi -np 2 "${bin}" --psgld_step=0 --noplot --output_dir="${TEST_TMPDIR}/bad" \
  > "${TEST_TMPDIR}/flag.out" 2>&1; then
  echo "expected failure for --psgld_step=0" >&2
  exit 1
fi
test "$(grep -c "^matrix_factorization_mpi: INVALID_ARGUMENT: --psgld_step must be finite and > 0, got 0$" \
  "${TEST_TMPDIR}/flag.out")" -eq 1
# A diverged method: an error on every rank, printed once; rank 0 writes the others' results.
# shellcheck disable=SC2086
if mpi -np 2 "${bin}" ${flags} --methods=sgld,psgld --sgld_step=10 \
  --output_dir="${TEST_TMPDIR}/diverged" > "${TEST_TMPDIR}/diverged.out" 2>&1; then
  echo "expected failure when a method diverges" >&2
  exit 1
fi
test "$(grep -c "^matrix_factorization_mpi: INTERNAL: sgld diverged" "${TEST_TMPDIR}/diverged.out")" -eq 1
grep -q "^sgld    DIVERGED: " "${TEST_TMPDIR}/diverged.out"
test "$(grep -c "^psgld,300," "${TEST_TMPDIR}/diverged/rmse.csv")" -eq 1
echo PASS
