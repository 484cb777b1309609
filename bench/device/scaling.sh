#!/bin/bash
# Thread / rank scaling of the lda, matrix_factorization and accelerated_dp tools on a many-core
# machine without Bazel (issues 17, 19, 22); packed with its binaries by bench/device/package.sh.
#   bash devpkg/scaling.sh [SECTION...]  (all = lda mf dp; or any of
#   lda mf dp ldacmp copies dp100k dplong mfmpi fm ldadist ldadef sweep; ldacmp: bin/lda_base against bin/lda)     (logs: $OUT or /tmp/out)
# lda: KOS, K = 100, scir_fast, 400 iterations at 1-16 threads (outputs' md5 must agree), and
#      lda_benchmark's per-phase counters; copies: 1, 8 and 16 concurrent one-thread lda runs,
#      the machine's own ceiling for 16 threads; mf: MovieLens 100k and a 9M-rating synthetic
#      matrix at 1-16 ranks (threads); mfmpi: the latter under mpirun; dp: §4.1 at 10 and 2
#      workers (seeds 1-5) and strong scaling on 100k points; fm: the same on 2,000
#      Fashion-MNIST images (devpkg/fm: the first 5,000 / 1,000 of Debian's files); dp100k: time to 1% of Algorithm 8
#      against the accelerated sampler on 100k points, seeds 1-3, threads and mpirun;
#      sweep: gibbs_benchmark's sparse sweep on one core (3 runs) and one copy on every core.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib RUNFILES_DIR=$PWD/runfiles
O=${OUT:-/tmp/out}; mkdir -p $O
exec > >(tee -a $O/run.log) 2>&1
T0=$(date +%s); el() { echo "[t=$(( $(date +%s) - T0 ))s] $*"; }
el "== machine"; nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA node|L3|MHz"; uptime
command -v mpirun && mpirun --version 2>&1 | head -1; ldconfig -p | grep -E "libmpi.so|libopen-pal" | head -3
ARGS=" ${*:-all} "
# want NAME [core]: NAME was asked for, or "all" was and NAME is one of its sections.
want() { [[ $ARGS == *" $1 "* ]] || { [[ $# -gt 1 && $ARGS == *" all "* ]]; }; }
if want lda core; then
el "== 22: lda KOS K=100 scir_fast minibatch 50, 400 iterations"
for t in 1 2 4 8 16 16 1; do
  rm -rf /tmp/lda_t$t; timeout 60 bin/lda --config=kos100.textpb --threads=$t --plot=false --output_dir=/tmp/lda_t$t > /tmp/lda_t$t.log 2>&1
  echo "threads=$t $(grep -E 'time:' /tmp/lda_t$t.log | sed 's/.*time: //')"
  echo "  $(grep -E 'iterations in' /tmp/lda_t$t.log)"
  echo "  md5 $(cat /tmp/lda_t$t/topic_matrix_scir_fast.phi | md5sum | cut -c1-12) mean $(cat /tmp/lda_t$t/topic_matrix_mean_scir_fast.phi | md5sum | cut -c1-12) trace $(cut -d, -f1,3- /tmp/lda_t$t/trace_scir_fast.csv | md5sum | cut -c1-12)"
done
head -3 /tmp/lda_t1/trace_scir_fast.csv
el "== 22: lda_benchmark"
timeout 120 bin/lda_benchmark --benchmark_filter='BM_LdaScaledCountsKos/100/[0-9]+/100/|BM_LdaTopicUpdateScirKos/100/|BM_LdaGibbsSweepKos/50/100/1/|BM_LdaGibbsSweepKos/100/100/1/' --benchmark_min_time=0.3 --benchmark_counters_tabular=true 2>&1 | grep -v "^\*\*\*"
fi
if want mf core; then
el "== 19: MF benchmarks"
timeout 60 bin/matrix_factorization_benchmark --benchmark_filter='BM_MfSgldStep|BM_MfDistributedStep/10/' --benchmark_min_time=0.3 2>&1 | grep -E "^BM|^-|Benchmark"
el "== 19: MovieLens 100k strong scaling, blocks 16, 1000 iterations"
for s in 1 2 4 8 16; do
  timeout 60 bin/matrix_factorization --ratings=data/u.data.gz --blocks=16 --iterations=1000 --record_every=500 --noplot --threads=$s --output_dir=/tmp/mf_$s > /tmp/mf_$s.log 2>&1
  echo "ranks=$s"; grep -E "final averaged" /tmp/mf_$s.log
done
el "== 19: synthetic 20000 x 10000, 9M train ratings, blocks 16, 300 iterations"
for s in 1 2 4 8 16; do
  timeout 90 bin/matrix_factorization --synthetic_rows=20000 --synthetic_cols=10000 --synthetic_density=0.05 --blocks=16 --iterations=300 --record_every=150 --burn_in=50 --noplot --threads=$s --output_dir=/tmp/mfs_$s > /tmp/mfs_$s.log 2>&1
  echo "ranks=$s"; grep -E "final averaged" /tmp/mfs_$s.log
done
fi
if want dp core; then
el "== 17: section 4.1, 10 workers, seeds 1-5, 2 repetitions"
REPS=2 bash accelerated_dp_section41.sh /tmp/s41 threads10 bin/accelerated_dp --workers=10 2>&1 | tail -25
REPS=2 bash accelerated_dp_section41.sh /tmp/s41 threads10_k100 bin/accelerated_dp --workers=10 --true_components=100 2>&1 | tail -25
el "== 17: section 4.1, 2 workers"
REPS=2 bash accelerated_dp_section41.sh /tmp/s41 threads2 bin/accelerated_dp --workers=2 2>&1 | tail -25
el "== 17: strong scaling, 100k points (D = 10, N_i = 100), from one cluster, 60 iterations (50 accelerated)"
timeout 60 bin/accelerated_dp --train_points=100000 --test_points=1000 --methods=collapsed --inits=one --iterations=60 --workers=1 --plot=false --output_dir=/tmp/adps_c > /tmp/adps_c.log 2>&1
grep -E "^collapsed," /tmp/adps_c.log
for w in 1 2 4 8 16; do
  timeout 60 bin/accelerated_dp --train_points=100000 --test_points=1000 --methods=accelerated,hybrid,uncollapsed --inits=one --iterations=60 --workers=$w --plot=false --output_dir=/tmp/adps_$w > /tmp/adps_$w.log 2>&1
  echo "workers=$w"; grep -E "^accelerated,|^hybrid,|^uncollapsed," /tmp/adps_$w.log
done
el "== 17/19: mpirun -np 2 with the machine's Open MPI"
timeout 40 mpirun --allow-run-as-root -np 2 bin/accelerated_dp --backend=mpi --workers=2 --seed=1 --plot=false --output_dir=/tmp/mpi2 2>&1 | tail -6
fi
if want ldacmp; then
el "== 22: bin/lda_base (an earlier build, if packed) against bin/lda, K = 100, 400 iterations, alternating"
cmp_run() {  # binary threads
  local b=$1 t=$2 d=/tmp/cmp_$1_$2
  rm -rf $d; timeout 90 bin/$b --config=kos100.textpb --threads=$t --plot=false --output_dir=$d > $d.log 2>&1
  echo "$b threads=$t $(grep -E 'time:' $d.log | sed 's/.*time: //') md5 $(cat $d/topic_matrix_scir_fast.phi $d/topic_matrix_mean_scir_fast.phi | md5sum | cut -c1-12) trace $(cut -d, -f1,3- $d/trace_scir_fast.csv | md5sum | cut -c1-12)"
}
for t in 16 1 16; do
  for b in lda_base lda; do [[ -x bin/$b ]] && cmp_run $b $t; done
done
for t in 2 4 8 16; do cmp_run lda $t; done
el "== 22: lda_benchmark, whole iterations and phases"
timeout 150 bin/lda_benchmark --benchmark_filter='BM_LdaStepKos/100/|BM_LdaScaledCountsKos/100/(1|16)/100/|BM_LdaTopicUpdateScirKos/100/(1|16)/' --benchmark_min_time=0.3 --benchmark_counters_tabular=true 2>&1 | grep -v "^\*\*\*"
fi
if want copies; then
el "== hardware ceiling: N concurrent one-thread lda runs (K = 100, 200 iterations)"
for n in 1 8 16; do
  pids=()
  for i in $(seq $n); do
    bin/lda --config=kos100.textpb --threads=1 --iterations=200 --plot=false --output_dir=/tmp/copy_${n}_$i > /tmp/copy_${n}_$i.log 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  echo "copies=$n training s: $(grep -h 'iterations in' /tmp/copy_${n}_*.log | sed 's/.*iterations in \([0-9.]*\) s of training.*/\1/' | sort -n | tr '\n' ' ')"
done
fi
if want dp100k; then
el "== 17: 100k points, accelerated vs Algorithm 8, from one cluster, 60 iterations"
for seed in ${DP_SEEDS:-1 2 3}; do
  for w in ${DP_WORKERS:-2 10 16}; do
    timeout 60 bin/accelerated_dp --train_points=100000 --test_points=1000 --methods=accelerated,collapsed --inits=one --iterations=60 --workers=$w --seed=$seed --plot=false --output_dir=/tmp/dp100k_${seed}_$w > /tmp/dp100k_${seed}_$w.log 2>&1
    echo "seed=$seed threads=$w $(grep -E '^accelerated,|^collapsed,|^# speedup' /tmp/dp100k_${seed}_$w.log | tr '\n' ' ')"
  done
  for np in ${DP_NP-2 10}; do
    timeout 60 mpirun --allow-run-as-root --oversubscribe -np $np bin/accelerated_dp --backend=mpi --train_points=100000 --test_points=1000 --methods=accelerated,collapsed --inits=one --iterations=60 --workers=$np --seed=$seed --plot=false --output_dir=/tmp/dp100k_${seed}_mpi$np > /tmp/dp100k_${seed}_mpi$np.log 2>&1
    echo "seed=$seed mpirun-np=$np $(grep -E '^accelerated,|^collapsed,|^# speedup' /tmp/dp100k_${seed}_mpi$np.log | tr '\n' ' ')"
  done
done
fi
if want dplong; then
el "== 17: 1,000 points, 10 workers, one-cluster start, 3000 iterations: do the exact samplers agree?"
for seed in 1 2 3 4 5; do
  timeout 60 bin/accelerated_dp --workers=10 --seed=$seed --inits=one --iterations=3000 --plot=false --output_dir=/tmp/dplong_$seed > /tmp/dplong_$seed.log 2>&1
  echo "seed=$seed $(grep -E '^(collapsed|accelerated|hybrid|uncollapsed),' /tmp/dplong_$seed.log | cut -d, -f1,3,4,5 | tr '\n' ' ')"
done
fi
if want mfmpi; then
el "== 19: synthetic 9M ratings under mpirun, blocks 16, 300 iterations"
for s in 2 4 16; do
  timeout 90 mpirun --allow-run-as-root --oversubscribe -np $s bin/matrix_factorization_mpi --synthetic_rows=20000 --synthetic_cols=10000 --synthetic_density=0.05 --blocks=16 --iterations=300 --record_every=150 --burn_in=50 --noplot --output_dir=/tmp/mfm_$s > /tmp/mfm_$s.log 2>&1
  echo "mpirun ranks=$s"; grep -E "final averaged" /tmp/mfm_$s.log
done
fi
if want fm; then
el "== 17: Fashion-MNIST, 2000 train / 250 test images, random 100-cluster start, 60 iterations, accelerated"
for w in 1 2 4 8 16; do
  timeout 60 bin/accelerated_dp --workers=$w --fashion_mnist_dir=fm --train_points=2000 --test_points=250 --iterations=60 --methods=accelerated --inits=random --plot=false --output_dir=/tmp/fm_$w > /tmp/fm_$w.log 2>&1
  echo "workers=$w $(grep -E '^accelerated,' /tmp/fm_$w.log)"
done
fi
# ldadist: sgrld_fast (the runs in bench/README.md); ldadef: the default without --preset
# (by density: 1.58 entries per cell, so scir_fast with beta 0.1; since session 18 alpha
# 0.01 at K = 1000, models::DefaultLdaAlpha), the same scaling rows.
lda_dist_corpus() {
  gen=/tmp/c1e6
  [[ -e $gen/docword.txt ]] || timeout 200 bin/lda_generate_corpus --output_dir=$gen --documents=1000000 \
    --heldout_documents=1000 --vocabulary_size=50000 --num_topics=1000 --mean_document_length=100 --seed=1 > /tmp/gen.log 2>&1
  tail -2 /tmp/gen.log
}
# lda_dist_scaling TAG ARGS...: 10 iterations of 4000 documents per rows x threads (the topics'
# md5 must agree), then mpirun -np 4 and 16.
lda_dist_scaling() {
  local tag=$1; shift
  local common="--stream_docword=$gen/docword.txt --num_topics=1000 --minibatch_size=4000 $*"
  el "== 29: strong scaling ($tag), 10 iterations of 4000 documents (topics' md5 must agree)"
  for rt in 1x1 2x1 4x1 8x1 16x1 1x2 1x4 1x8 1x16 4x4; do
    r=${rt%x*}; t=${rt#*x}
    timeout 120 bin/lda_distributed $common --max_iterations=10 --ranks=$r --threads=$t --output_dir=/tmp/ld_${tag}_$rt > /tmp/ld_${tag}_$rt.log 2>&1
    echo "ranks=$r threads=$t $(grep -o 'after .* of training' /tmp/ld_${tag}_$rt/summary.txt) md5 $(md5sum < /tmp/ld_${tag}_$rt/topics.phi | cut -c1-12)"
    sed -n '/^rank,/,$p' /tmp/ld_${tag}_$rt/summary.txt | awk -F, 'NR > 1 { s += $2; c += $3; u += $4; n++ } END { printf "  mean per rank: sweep %.2f s, communication %.2f s, topic update %.2f s\n", s/n, c/n, u/n }'
  done
  for np in 4 16; do
    timeout 120 mpirun --allow-run-as-root --oversubscribe -np $np bin/lda_distributed_mpi $common --max_iterations=10 --output_dir=/tmp/ldm_${tag}_$np > /tmp/ldm_${tag}_$np.log 2>&1
    echo "mpirun -np $np $(grep -o 'after .* of training' /tmp/ldm_${tag}_$np/summary.txt) md5 $(md5sum < /tmp/ldm_${tag}_$np/topics.phi | cut -c1-12)"
  done
}
if want ldadist; then
el "== 29: distributed LDA, generated corpus D = 10^6, V = 50,000, K = 1000, 100 tokens/doc"
lda_dist_corpus
lda_dist_scaling sgrld --preset=sgrld_fast
el "== 29: one pass over 10^6 documents, 1 rank x 16 threads"
timeout 240 bin/lda_distributed --stream_docword=$gen/docword.txt --num_topics=1000 --minibatch_size=4000 --preset=sgrld_fast \
  --threads=16 --test_docword=$gen/heldout.docword.txt --true_topics=$gen/topics.phi \
  --eval_every=50 --output_dir=/tmp/ld_pass16 > /tmp/ld_pass16.log 2>&1
cat /tmp/ld_pass16/summary.txt /tmp/ld_pass16/trace.csv; cp -r /tmp/ld_pass16 $O/ 2>/dev/null; rm -f $O/ld_pass16/topics.phi
fi
if want ldadef; then
el "== 29: distributed LDA, the default by density (scir_fast, beta 0.1), the same corpus"
lda_dist_corpus
lda_dist_scaling default
grep -h "^settings (no --preset)" /tmp/ld_default_1x1.log
fi
if want sweep; then
el "== 29: the sparse Gibbs sweep, token updates/s per core (target >= 20 M/s at K = 1000)"
f='GibbsSweepGenerated/K:(100|1000|5000)/'
for r in 1 2 3; do
  taskset -c 0 bin/gibbs_benchmark --benchmark_filter="$f" --benchmark_min_time=0.5 2>&1 | grep "^BM_"
done
el "== 29: the same at K = 1000, alpha = 0.01, on every core at once (one copy per core)"
n=$(nproc); pids=()
for c in $(seq 0 $((n - 1))); do
  taskset -c $c bin/gibbs_benchmark --benchmark_filter='GibbsSweepGenerated/K:1000/alpha_x1000:10$' \
    --benchmark_min_time=1 > /tmp/sweep_core$c.log 2>&1 &
  pids+=($!)
done
wait "${pids[@]}"  # not a bare wait: that would also wait for the tee above
for c in $(seq 0 $((n - 1))); do
  echo "core $c $(grep -o 'items_per_second=[^ ]*' /tmp/sweep_core$c.log)"
done
fi
tar czf $O/logs.tgz /tmp/*.log /tmp/s41 2>/dev/null
el "done"
