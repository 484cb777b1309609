#!/bin/sh
# Tuned multi-seed SAM comparison at equal wall time (issue 18): SGGMC and gSGNHT (minibatch
# 50) and GMC-bGibbs on 20news-diff (K = 20), a grid over the step size, seeds 1-3; then
# bench/sam_comparison.py tabulates the averaged held-out log-perplexity at equal sampler
# seconds (docs/GEODESIC_SAMPLERS.md "Tuned comparison").
# Usage: bench/sam_comparison.sh [OUTPUT_DIR]   (default sam_comparison; ~20 min on one core)
# Hyperparameters as the first 20news-diff runs: κ = σ = 5000, κ₀ = 10, α = 1, C = 5; θ_d by
# GMC with 3 burn-in + 3 kept draws (GMC-bGibbs: 1), 5 leapfrog steps of 0.1; 20 Dirichlet
# samples per held-out document; every 5th draw after burn-in averaged.
set -eu
out="${1:-sam_comparison}"
data="${SAM_DATA:-../shared/data/20news-diff}"
if [ -z "${SAM_BIN:-}" ]; then
  ./bazelw build -c opt //tools:sam
  SAM_BIN="$(./bazelw info -c opt bazel-bin 2>/dev/null)/tools/sam"
fi
bin="${SAM_BIN}"
mkdir -p "${out}"
common="--experiments=sam --train=${data}/diff.train.tfidf1.data.gz
  --test=${data}/diff.test.tfidf1.data.gz --num_topics=20 --kappa=5000 --sigma=5000
  --kappa0=10 --alpha=1 --friction=5 --batch_size=50 --theta_samples=20 --average_every=5
  --beta_thin=0 --noplot"
# A run whose sam_perplexity.csv exists is not repeated (extend the grid by re-running).
for seed in 1 2 3; do
  for step in 3e-5 1e-4 3e-4 1e-3; do
    # SG samplers: 2000 iterations (~25 s), burn-in 500, evaluated every 100.
    test -f "${out}/sg_step${step}_seed${seed}/sam_perplexity.csv" ||
    "${bin}" ${common} --methods=sggmc,gsgnht --step="${step}" --seed="${seed}" \
      --iterations=2000 --burn_in=500 --eval_every=100 \
      --output_dir="${out}/sg_step${step}_seed${seed}" > "${out}/sg_step${step}_seed${seed}.log"
    # GMC-bGibbs: a θ sweep over all 1,666 documents + one full-batch GMC step of β per
    # iteration (~0.4 s): 70 iterations, burn-in 15, evaluated every 3.
    test -f "${out}/gmc_step${step}_seed${seed}/sam_perplexity.csv" ||
    "${bin}" ${common} --methods=gmc_bgibbs --gmc_step="${step}" --seed="${seed}" \
      --iterations=70 --burn_in=15 --eval_every=3 \
      --output_dir="${out}/gmc_step${step}_seed${seed}" > "${out}/gmc_step${step}_seed${seed}.log"
  done
done
/usr/bin/python3 bench/sam_comparison.py "${out}"
