#!/bin/sh
# Smoke test of //tools:sam: a short run of the three experiments on generated data writes the
# toy histograms and CmdStan CSV draws, the synthetic marginals and draws, the perplexity CSV
# with one row per method and evaluation, the thinned β draws and (gnuplot-nox is a listed
# Debian package) the three PNG plots; --noplot draws none; a run stopped by --stop_after and
# continued by --resume matches an uninterrupted one; a bad flag is rejected with a message
# naming it.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/sam"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --iterations=40 --burn_in=20 --eval_every=20 \
  --theta_samples=10 --toy_iterations=200 --synthetic_iterations=200 --beta_thin=10 \
  > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "toy sggmc" "${TEST_TMPDIR}/stdout"
grep -q "synthetic exact" "${TEST_TMPDIR}/stdout"
# header + 100 bins
test "$(wc -l < "${out}/sam_toy_angles.csv")" -eq 101
test "$(wc -l < "${out}/sam_synthetic_marginals.csv")" -eq 101
head -1 "${out}/sam_toy_angles.csv" | grep -q "^angle,exact,sggmc,gsgnht$"
grep -q "^lp__,x.1,x.2,angle$" "${out}/sam_toy_gsgnht.csv"
# 200 iterations thinned by 10
test "$(grep -c '^-\?[0-9]' "${out}/sam_toy_sggmc.csv")" -eq 20
grep -q "held-out log-perplexity at the true topics" "${TEST_TMPDIR}/stdout"
# header + 5 methods x 2 evaluations
test "$(wc -l < "${out}/sam_perplexity.csv")" -eq 11
head -1 "${out}/sam_perplexity.csv" | grep -q "^method,iteration,seconds,log_perplexity$"
grep -q "^gmc_bgibbs,40," "${out}/sam_perplexity.csv"
# synthetic draws: 200 / 10 per chain
for m in gmc sggmc gsgnht; do
  grep -q "^lp__,x.1.1,x.2.1,x.1.2,x.2.2,theta.1,theta.2$" "${out}/sam_synthetic_${m}.csv"
  test "$(grep -c '^-\?[0-9]' "${out}/sam_synthetic_${m}.csv")" -eq 20
done
# β draws: (40 - 20) / 10 per method, V·K = 50·4 columns plus lp__
for m in sggmc gsgnht sggmc_full gsgnht_full gmc_bgibbs; do
  test "$(grep -c '^-\?[0-9]' "${out}/sam_beta_${m}.csv")" -eq 2
  test "$(grep '^lp__' "${out}/sam_beta_${m}.csv" | tr ',' '\n' | wc -l)" -eq 201
done
for png in sam_toy sam_synthetic sam_perplexity; do
  test -s "${out}/${png}.png"
  head -c 4 "${out}/${png}.png" | grep -q PNG
done
grep -q "^plots: " "${TEST_TMPDIR}/stdout"
noplot="${TEST_TMPDIR}/noplot"
"${bin}" --output_dir="${noplot}" --experiments=toy --toy_iterations=20 --noplot > /dev/null
test -s "${noplot}/sam_toy_angles.csv"
test ! -e "${noplot}/sam_toy.png"
# Interrupted (--stop_after) and resumed (--resume) runs give the uninterrupted run's
# perplexities (the seconds column aside).
flags="--experiments=sam --iterations=40 --burn_in=20 --eval_every=10 --theta_samples=10
  --beta_thin=0 --noplot --checkpoint_every=10"
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/straight" > /dev/null
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/resumed" --stop_after=15 \
  > "${TEST_TMPDIR}/stopped"
grep -q "stopped after iteration 15" "${TEST_TMPDIR}/stopped"
test ! -e "${TEST_TMPDIR}/resumed/sam_perplexity.csv"
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/resumed" --resume > "${TEST_TMPDIR}/resumed.log"
grep -q "resumed at iteration 15" "${TEST_TMPDIR}/resumed.log"
cut -d, -f1,2,4 "${TEST_TMPDIR}/straight/sam_perplexity.csv" > "${TEST_TMPDIR}/a"
cut -d, -f1,2,4 "${TEST_TMPDIR}/resumed/sam_perplexity.csv" > "${TEST_TMPDIR}/b"
cmp "${TEST_TMPDIR}/a" "${TEST_TMPDIR}/b"
if "${bin}" --output_dir="${out}" --num_topics=1 > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --num_topics=1" >&2
  exit 1
fi
grep -q -- "--num_topics must be >= 2" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --methods=sggmc,nuts > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --methods=sggmc,nuts" >&2
  exit 1
fi
grep -q -- "--methods: unknown method nuts" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --experiments=toy,lda > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --experiments=toy,lda" >&2
  exit 1
fi
grep -q -- "--experiments: unknown experiment lda" "${TEST_TMPDIR}/err"
# The samplers' options name their flags (they named StepSizeOptions.h and
# GeodesicSamplerOptions.friction), before any experiment runs.
for bad in "--step=0" "--friction=0" "--inner_steps=0" "--gmc_step=-1"; do
  if "${bin}" --output_dir="${out}" "${bad}" > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/err"; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  grep -q -- "^sam: INVALID_ARGUMENT: ${bad%%=*} must be " "${TEST_TMPDIR}/err"
  test ! -s "${TEST_TMPDIR}/stdout"
done
echo PASS
