#!/usr/bin/env bash
# Re-runs the short documented commands (each well under two minutes with a `-c opt` build)
# of the matrix-factorisation, SAM, alpha-stable MF and linear-regression tools, so that the
# figures in the docs can be checked against HEAD. For each command it prints where it is
# documented, the figures documented there, and the lines of the tool's own summary that hold
# the new figures; outputs go to $OUT (default /tmp/rerun_docs). Long runs (the 2500-sample
# speech denoising, the strong-scaling tables, the SAM step-size grid) are left out: their
# sections say how to run them.
#
#   ./bazelw build -c opt //tools:matrix_factorization //tools:sam //tools:linear_regression \
#     //tools:alpha_stable_mf
#   bash bench/rerun_docs.sh                  # all, ~5 min on an idle 2-core machine (~20 at load 25)
#   bash bench/rerun_docs.sh mf_jester sam_speed   # some, by name (listed by --list)
#
# Environment: BIN (default bazel-bin/tools), SHARED (default ../shared), OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${BIN:-bazel-bin/tools}"
SHARED="${SHARED:-../shared}"
OUT="${OUT:-/tmp/rerun_docs}"
ML100K="${SHARED}/data/movielens-100k/u.data.gz"
JESTER="${SHARED}/data/jester5k/ratings.jester5k.txt.gz"
NEWS_TRAIN="${SHARED}/data/20news-diff/diff.train.tfidf1.data.gz"
NEWS_TEST="${SHARED}/data/20news-diff/diff.test.tfidf1.data.gz"

# name @ where documented @ documented figures @ command (run with eval) @ summary pattern (ERE)
RUNS=(
  "mf_ml100k@bench/matrix_factorization_results.md, HAMCMC with a diagonal H^0 (MovieLens table)@5000 it: DSGLD 0.9341, pSGLD 0.9023, HAMCMC 0.9070@${BIN}/matrix_factorization --ratings=${ML100K} --iterations=5000 --record_every=50 --noplot --output_dir=${OUT}/mf_ml100k@final averaged"
  "mf_psgld_seed2@bench/matrix_factorization_results.md, pSGLD step on split seed 2 (row 1e-6)@1e-6: 0.9252 / 0.9187 / 0.9148 at 1000 / 2000 / 5000@${BIN}/matrix_factorization --ratings=${ML100K} --methods=psgld --seed=2 --iterations=5000 --psgld_step=1e-6 --record_every=1000 --noplot --output_dir=${OUT}/mf_psgld_seed2@final averaged"
  "mf_jester@bench/matrix_factorization_results.md, Jester 5k with the diagonal H^0@2000 it: DSGLD 4.0821, pSGLD 4.0009, HAMCMC 3.9997@${BIN}/matrix_factorization --ratings=${JESTER} --sigma_x=4 --iterations=2000 --sgld_step=1e-3 --psgld_step=1e-6 --record_every=500 --noplot --output_dir=${OUT}/mf_jester@final averaged"
  "mf_jester_scalar@bench/matrix_factorization_results.md, Jester 5k with the distributed design (H^0 = gamma I)@2000 it: DSGLD 4.0821, pSGLD 4.0009, HAMCMC 4.0613@${BIN}/matrix_factorization --ratings=${JESTER} --sigma_x=4 --iterations=2000 --sgld_step=1e-3 --psgld_step=1e-6 --hamcmc_initial_metric=scalar --hamcmc_gamma=2e-3 --hamcmc_damping=1000 --record_every=500 --noplot --output_dir=${OUT}/mf_jester_scalar@final averaged"
  "linreg@bench/README.md, HAMCMC on the linear-Gaussian model@D=10: SGLD 0.281 pSGLD 0.207 SGRLD 0.024 HAMCMC2 0.146 HAMCMC3 0.057; D=100: 27.3 50.9 0.497 18.8 15.5@${BIN}/linear_regression --noplot --output_dir=${OUT}/linreg@^ *(D|[0-9]+ )|holds"
  "sam_default@docs/ALGORITHMS.md (SphereDrawsKsd) and docs/GEODESIC_SAMPLERS.md (tools/sam)@KSD toy SGGMC 0.025 gSGNHT 0.018 exact 0.011; synthetic GMC 0.071 SGGMC 0.41 gSGNHT 0.047; mode-1 0.5245 0.4911 0.5296 vs 0.5243@${BIN}/sam --experiments=toy,synthetic --noplot --output_dir=${OUT}/sam_default@KSD|fraction"
  "sam_speed@docs/GEODESIC_SAMPLERS.md, Speed anchor (authors' settings, L = 10)@200 iterations with L = 10: 6.3 s CPU on one thread (31 ms per iteration; the tool prints sampling wall seconds)@${BIN}/sam --experiments=sam --methods=sggmc --train=${NEWS_TRAIN} --test=${NEWS_TEST} --num_topics=20 --sigma=1e4 --kappa0=1e4 --kappa=3e4 --alpha=10 --batch_size=50 --theta_burn_in=15 --theta_draws=10 --theta_leapfrog_steps=10 --inner_steps=10 --iterations=200 --burn_in=199 --eval_every=200 --theta_samples=1 --beta_thin=0 --noplot --num_threads=1 --output_dir=${OUT}/sam_speed@sggmc"
)

if [[ "${1:-}" == "--list" ]]; then
  for run in "${RUNS[@]}"; do echo "${run%%@*}"; done
  exit 0
fi
mkdir -p "${OUT}"
echo "rerun_docs: $(git rev-parse --short HEAD) $(date -u '+%Y-%m-%d %H:%M UTC'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in "${RUNS[@]}"; do
  IFS='@' read -r name where documented command pattern <<< "${run}"
  if [[ $# -gt 0 && " $* " != *" ${name} "* ]]; then continue; fi
  echo
  echo "== ${name}: ${where}"
  echo "   documented: ${documented}"
  echo "   \$ ${command}"
  start=$(date +%s)
  if eval "${command}" > "${OUT}/${name}.out" 2> "${OUT}/${name}.err"; then
    status=ok
  else
    status="FAILED (exit $?; ${OUT}/${name}.err)"
  fi
  grep -E "${pattern}" "${OUT}/${name}.out" "${OUT}/${name}.err" | sed 's/^[^:]*:/   /' || true
  echo "   ${status}, $(($(date +%s) - start)) s wall"
done
