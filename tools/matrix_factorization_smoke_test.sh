#!/bin/sh
# Smoke test of //tools:matrix_factorization: the default synthetic run (shortened) writes
# rmse.csv with every method's trace and prints the summary; two thread ranks run twice give
# the same RMSE trace (bit-identical for a given rank count; other rank counts draw their
# own noise, see //tools:matrix_factorization_mpi_test for the RMSE agreement); three ranks
# with P = 4 blocks, a bad flag, checkpoint flags without a directory or of another rank
# count, an output directory that cannot be made and a bad ratings file are rejected with a
# message naming them; progress lines go to stderr; --help lists every flag; bad values name
# their flag; a diverged method is marked and the others written.
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
grep -q "\-\-blocks 4 must be a multiple of the number of ranks 3" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --methods=sgld,foo > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --methods=sgld,foo" >&2
  exit 1
fi
grep -q "foo" "${TEST_TMPDIR}/err"
# Checkpoint flags without --checkpoint_dir, and an output directory that cannot be made, are
# refused before the run; checkpoints of another rank count are refused, naming one.
# 100000 thread ranks ended in std::system_error (abort).
# Bad values name the flag the user wrote, before any method runs ("step_size must be finite
# and > 0" did not say which; HAMCMC's failed after DSGLD and pSGLD had run), and a rank above
# min(rows, cols) is refused with the reason (--rank=100000 grew to 1.4 GB).
for bad in "--resume" "--stop_after=5" "--checkpoint_every=5" "--output_dir=/dev/null/x" \
  "--threads=100000" "--sgld_step=0" "--psgld_step=-1" "--hamcmc_step=nan" \
  "--hamcmc_gamma=0" "--hamcmc_damping=-1" "--hamcmc_warmup_step=0" "--init_scale=-1" \
  "--blocks=0" "--rank=0" "--sigma_x=0" "--iterations=0" "--rank=100000"; do
  if "${bin}" --output_dir="${out}" --iterations=20 --noplot "${bad}" > /dev/null \
    2> "${TEST_TMPDIR}/err"; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  grep -q -- "^matrix_factorization: [A-Z_]*: ${bad%%=*}" "${TEST_TMPDIR}/err"
  if grep -q "^\[" "${TEST_TMPDIR}/err"; then
    echo "${bad}: the run started before the error" >&2
    exit 1
  fi
done
grep -q "min(rows, cols) = 800 for this 1000 x 800 matrix, got 100000: W H has rank at most" \
  "${TEST_TMPDIR}/err"
"${bin}" --output_dir="${out}" --iterations=20 --noplot --methods=sgld --threads=2 \
  --checkpoint_dir="${TEST_TMPDIR}/ckpt" > /dev/null 2>&1
if "${bin}" --output_dir="${out}" --iterations=20 --noplot --methods=sgld \
  --checkpoint_dir="${TEST_TMPDIR}/ckpt" --resume > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure resuming 2-rank checkpoints on 1 rank" >&2
  exit 1
fi
grep -q "checkpoint_sgld_rank0_of2.pb was written by another rank count" "${TEST_TMPDIR}/err"
# Progress lines on stderr: about ten per method (iterations 20, 40, ..., 200).
test "$(grep -c "^\[hamcmc\] iteration [0-9]*/200, " "${TEST_TMPDIR}/stderr")" -eq 10
# Under `bazel run` a relative --output_dir is relative to where it was started (it was
# written inside the runfiles tree).
BUILD_WORKING_DIRECTORY="${TEST_TMPDIR}" "${bin}" --output_dir=relative --iterations=20 \
  --noplot --methods=sgld > "${TEST_TMPDIR}/short" 2>&1
test -e "${TEST_TMPDIR}/relative/rmse.csv"
# 20 iterations under the default burn-in of 50: no averaged prediction, said so (both printed
# "nan"); --help says it too.
grep -q "^sgld    no averaged prediction: burn-in 50 >= iterations 20, " "${TEST_TMPDIR}/short"
if grep -qi nan "${TEST_TMPDIR}/short" "${TEST_TMPDIR}/relative/rmse.csv"; then
  echo "nan printed" >&2
  exit 1
fi
# --help lists the flags of tools/matrix_factorization_flags.cc too (they were hidden).
"${bin}" --help > "${TEST_TMPDIR}/help" 2>&1 || true
for flag in ratings checkpoint_dir resume stop_after threads center_ratings; do
  grep -q -- "--${flag} (" "${TEST_TMPDIR}/help"
done
tr -s "\n " "  " < "${TEST_TMPDIR}/help" | grep -q "no averaged prediction: burn-in B >= iterations I"
printf '1\t1\t5\n1\tx\t4\n' > "${TEST_TMPDIR}/bad.data"
if "${bin}" --output_dir="${out}" --ratings="${TEST_TMPDIR}/bad.data" > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for a bad ratings file" >&2
  exit 1
fi
grep -q "bad.data:2: item id must be an integer" "${TEST_TMPDIR}/err"
# A diverging method (DSGLD at step 10) is marked in the summary and the exit status; the
# methods that finished are printed and written (they were thrown away).
if "${bin}" --output_dir="${TEST_TMPDIR}/diverged" --iterations=60 --record_every=10 --noplot \
  --methods=sgld,psgld --sgld_step=10 > "${TEST_TMPDIR}/div" 2> "${TEST_TMPDIR}/err"; then
  echo "expected a non-zero exit when a method diverges" >&2
  exit 1
fi
grep -q "^sgld    DIVERGED: diverged at iteration [0-9]* (test RMSE" "${TEST_TMPDIR}/div"
grep -q "^psgld   final averaged test RMSE" "${TEST_TMPDIR}/div"
grep -q "^matrix_factorization: INTERNAL: sgld diverged at iteration [0-9]* (test RMSE .*): lower --sgld_step" \
  "${TEST_TMPDIR}/err"
test "$(grep -c "^psgld," "${TEST_TMPDIR}/diverged/rmse.csv")" -eq 6
test "$(grep -c "^sgld," "${TEST_TMPDIR}/diverged/rmse.csv")" -eq 0
echo PASS
