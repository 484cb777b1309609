#!/bin/sh
# Smoke test of //tools:alpha_stable_mf: the default run (short espeak-ng/sox mixture generated
# by tools/speech/make_speech_data.sh, shortened sampling) writes sdr.csv with one row per
# method and the summary; the synthetic mode writes synthetic.csv; bad flags are rejected with
# a message naming them.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/alpha_stable_mf"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --samples=40 --average_last=10 --train_samples=30 \
  --train_average_last=10 --speech_rank=20 --noplot > "${TEST_TMPDIR}/stdout"
grep -q "mean input SDR over 1 signals" "${TEST_TMPDIR}/stdout"
for method in sgld psgld hamcmc; do
  grep -q "^${method} *mean SDR" "${TEST_TMPDIR}/stdout"
  grep -q "^mix_00,${method}," "${out}/sdr.csv"
  test -s "${out}/mix_00_${method}.wav"
  test -s "${out}/spectrogram_${method}.dat"
done
head -1 "${out}/sdr.csv" | grep -q "^signal,method,sdr_db,input_sdr_db,acceptance_rate,seconds_per_sample$"
test -s "${out}/data/test/mix_00.wav"
"${bin}" --mode=synthetic --output_dir="${out}s" --samples=100 --average_last=20 \
  --synthetic_size=20 > /dev/null
test "$(wc -l < "${out}s/synthetic.csv")" -eq 4
if "${bin}" --output_dir="${out}" --methods=sgld,foo > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --methods=sgld,foo" >&2
  exit 1
fi
grep -q "foo" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --data_dir="${TEST_TMPDIR}/none" > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for a missing --data_dir" >&2
  exit 1
fi
grep -q "none/train" "${TEST_TMPDIR}/err"
# Bad values name their flag, before anything runs (they named mix_00's step_size or
# HamcmcOptions.gamma after the training chain; --synthetic_rank=1000 printed -nan).
for bad in "--sgld_step=0" "--psgld_lambda=-1" "--hamcmc_gamma=0" "--hamcmc_memory=1" \
  "--phi_stride=0" "--speech_rank=0" "--synthetic_size=0" "--synthetic_rank=1000"; do
  if "${bin}" --output_dir="${out}" --mode=synthetic "${bad}" > "${TEST_TMPDIR}/stdout" \
    2> "${TEST_TMPDIR}/err"; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  grep -q -- "^alpha_stable_mf: INVALID_ARGUMENT: ${bad%%=*} must be " "${TEST_TMPDIR}/err"
  test ! -s "${TEST_TMPDIR}/stdout"
done
# A diverged chain is marked and the other methods' outputs written, then the tool exits 1
# naming the flag of its step ("lower step_size" did not say whose; a divergence used to end
# the tool and throw the finished runs away).
if "${bin}" --output_dir="${out}d" --data_dir="${out}/data" --methods=sgld,psgld \
  --sgld_step=1e300 --samples=5 --average_last=1 --train_samples=5 --train_average_last=1 \
  --speech_rank=20 --noplot > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/err"; then
  echo "expected a divergence at --sgld_step=1e300" >&2
  exit 1
fi
grep -q "^alpha_stable_mf: INTERNAL: mix_00: sgld diverged at iteration .*lower --sgld_step " \
  "${TEST_TMPDIR}/err"
grep -q "^sgld   DIVERGED on mix_00: sgld diverged at iteration " "${out}d/summary.txt"
grep -q "^mix_00,psgld," "${out}d/sdr.csv"
if grep -q "^mix_00,sgld," "${out}d/sdr.csv"; then
  echo "a diverged run in sdr.csv" >&2
  exit 1
fi
# Checkpoints (synthetic mode): a run killed for real once its checkpoint exists, one stopped
# after its first method and one stopped inside it, resumed, write the uninterrupted run's
# synthetic.csv (the seconds column aside).
sflags="--mode=synthetic --samples=400 --average_last=100 --synthetic_size=30 --noplot"
# shellcheck disable=SC2086
"${bin}" ${sflags} --output_dir="${out}k0" > /dev/null
# shellcheck disable=SC2086
"${bin}" ${sflags} --output_dir="${out}k1" > /dev/null 2>&1 &
pid=$!
while [ ! -e "${out}k1/checkpoint_synthetic.pb" ] && kill -0 "${pid}" 2> /dev/null; do
  sleep 0.02
done
kill -9 "${pid}" 2> /dev/null || true
wait "${pid}" 2> /dev/null || true
# shellcheck disable=SC2086
"${bin}" ${sflags} --output_dir="${out}k1" --resume > "${TEST_TMPDIR}/k1.out"
# (The first checkpoint is the first method's chain at sweep 100, --checkpoint_every's default.)
grep -q "resumed from ${out}k1/checkpoint_synthetic.pb: [0-3] run(s) done" \
  "${TEST_TMPDIR}/k1.out" ||
  test ! -e "${out}k1/checkpoint_synthetic.pb"
# shellcheck disable=SC2086
"${bin}" ${sflags} --output_dir="${out}k2" --stop_after_runs=1 > "${TEST_TMPDIR}/k2.out"
grep -q "^stopped (--stop_after_runs=1, --stop_after=0); checkpoint in ${out}k2/checkpoint_" \
  "${TEST_TMPDIR}/k2.out"
test ! -e "${out}k2/synthetic.csv"
# shellcheck disable=SC2086
"${bin}" ${sflags} --output_dir="${out}k2" --resume > "${TEST_TMPDIR}/k2.out"
grep -q "resumed from ${out}k2/checkpoint_synthetic.pb: 1 run(s) done" "${TEST_TMPDIR}/k2.out"
# Stopped inside the first method's chain (sweep 150 of 400, chains saved every 50) and resumed
# from there.
# shellcheck disable=SC2086
"${bin}" ${sflags} --output_dir="${out}k3" --stop_after=150 --checkpoint_every=50 \
  > "${TEST_TMPDIR}/k3.out"
grep -q "^stopped (--stop_after_runs=0, --stop_after=150)" "${TEST_TMPDIR}/k3.out"
# shellcheck disable=SC2086
"${bin}" ${sflags} --output_dir="${out}k3" --resume > "${TEST_TMPDIR}/k3.out"
grep -q "resumed from ${out}k3/checkpoint_synthetic.pb: 0 run(s) done; sgld resumed at sweep 150" \
  "${TEST_TMPDIR}/k3.out"
for k in k1 k2 k3; do
  cut -d, -f1-4,6 "${out}k0/synthetic.csv" > "${TEST_TMPDIR}/k0.csv"
  cut -d, -f1-4,6 "${out}${k}/synthetic.csv" > "${TEST_TMPDIR}/${k}.csv"
  cmp "${TEST_TMPDIR}/k0.csv" "${TEST_TMPDIR}/${k}.csv"
done
echo PASS
