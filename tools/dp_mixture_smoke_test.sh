#!/bin/sh
# Smoke test of //tools:dp_mixture: a short run of every method on the embedded subset writes
# the trace, summary and CmdStan draws and prints the summary table; 2 threads, a run killed
# and resumed, and a run stopped and resumed give the same outputs (timings aside); bad flags
# and a resume with other settings are rejected with a message naming them.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/dp_mixture"
out="${TEST_TMPDIR}/out"
"${bin}" --output_dir="${out}" --iterations=30 --eval_every=10 --seeds=2 --noplot \
  > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "^seeds=1..2 iterations=30 .* alpha ~ Gamma(1, 1) a per Table 3$" "${TEST_TMPDIR}/stdout"
grep -q "^train: 4000 users, 12350 visits; test: 1000 users, 3071 visits; 294 Vroots" \
  "${TEST_TMPDIR}/stdout"
grep -q "SCIR above SGRLD in log predictive for [0-2] of 2 seeds" "${TEST_TMPDIR}/stdout"
grep -q "^note: different atom priors (SCIR a = 0.5, SGRLD a = 0.001" "${TEST_TMPDIR}/stdout"
grep -q "^gibbs  mean log predictive" "${TEST_TMPDIR}/stdout"
grep -q "^\[sgrld seed 2\] 30/30" "${TEST_TMPDIR}/stderr"
# header + 3 methods x 2 seeds x 3 evaluations
test "$(wc -l < "${out}/trace.csv")" -eq 19
test "$(wc -l < "${out}/summary.csv")" -eq 7
grep -q "^lp__,alpha,occupied,components$" "${out}/draws_gibbs_seed2.csv"
grep -q "^#     algorithm = sgrld$" "${out}/draws_sgrld_seed1.csv"
test "$(grep -c -v '^#' "${out}/draws_scir_seed1.csv")" -eq 16
# The clusters of every run's last draw, items by Vroot title; every user's cluster.
grep -q "^method,seed,initial_components,cluster,size,weight,top_items$" "${out}/clusters.csv"
grep -q "^gibbs,2,20,0,[0-9]*,[0-9.e-]*,.*(" "${out}/clusters.csv"
test "$(wc -l < "${out}/allocations_sgrld_seed2.csv")" -eq 4001
grep -q "^user,cluster$" "${out}/allocations_scir_seed1.csv"
# Two threads: the same trace apart from the seconds column.
"${bin}" --output_dir="${out}2" --iterations=30 --eval_every=10 --seeds=2 --threads=2 \
  --noplot > /dev/null 2>&1
cut -d, -f1-3,5- "${out}/trace.csv" > "${TEST_TMPDIR}/trace1"
cut -d, -f1-3,5- "${out}2/trace.csv" > "${TEST_TMPDIR}/trace2"
cmp "${TEST_TMPDIR}/trace1" "${TEST_TMPDIR}/trace2"
# Outputs without the wall-clock parts: trace.csv's seconds, summary.csv's timings, the CmdStan
# files' elapsed times and output file line (it names the directory).
strip() {
  cut -d, -f1-3,5- "$1/trace.csv"
  cut -d, -f1-8 "$1/summary.csv"
  for f in "$1"/draws_*.csv; do
    echo "${f##*/}"
    grep -v -e "Elapsed Time" -e "seconds (" -e "^#   file = " "${f}"
  done
  cat "$1/runs.txt" "$1/clusters.csv" "$1"/allocations_*.csv
}
strip "${out}" > "${TEST_TMPDIR}/whole"
# Killed for real (SIGKILL once a checkpoint of the second run exists), then resumed on two
# threads: the same outputs as the uninterrupted single-threaded run.
"${bin}" --output_dir="${out}3" --iterations=30 --eval_every=10 --seeds=2 \
  --checkpoint_every=1 --noplot > /dev/null 2>&1 &
pid=$!
while [ ! -e "${out}3/checkpoint_scir_seed2.pb" ] && kill -0 "${pid}" 2> /dev/null; do
  sleep 0.05
done
kill -9 "${pid}" 2> /dev/null || true
wait "${pid}" 2> /dev/null || true
"${bin}" --output_dir="${out}3" --iterations=30 --eval_every=10 --seeds=2 --threads=2 \
  --resume --noplot > "${TEST_TMPDIR}/stdout3" 2> "${TEST_TMPDIR}/stderr3"
grep -q "resumed from ${out}3/checkpoint_scir_seed" "${TEST_TMPDIR}/stderr3"
strip "${out}3" > "${TEST_TMPDIR}/killed"
cmp "${TEST_TMPDIR}/whole" "${TEST_TMPDIR}/killed"
# Stopped after 15 iterations (--stop_after writes the checkpoints and no outputs), resumed on
# two threads: the same outputs again.
"${bin}" --output_dir="${out}4" --iterations=30 --eval_every=10 --seeds=2 --stop_after=15 \
  --threads=2 --noplot > "${TEST_TMPDIR}/stdout4" 2> /dev/null
grep -q "^stopped after iteration 15 of 30; checkpoints in ${out}4" "${TEST_TMPDIR}/stdout4"
test ! -e "${out}4/trace.csv"
test "$(ls "${out}4"/checkpoint_*.pb | wc -l)" -eq 6
"${bin}" --output_dir="${out}4" --iterations=30 --eval_every=10 --seeds=2 --resume \
  --noplot > /dev/null 2> "${TEST_TMPDIR}/stderr4"
grep -q "^\[gibbs seed 2\] resumed from ${out}4/checkpoint_gibbs_seed2.pb at iteration 15" \
  "${TEST_TMPDIR}/stderr4"
strip "${out}4" > "${TEST_TMPDIR}/stopped"
cmp "${TEST_TMPDIR}/whole" "${TEST_TMPDIR}/stopped"
# A resume with another alpha prior is refused, naming the checkpoint.
if "${bin}" --output_dir="${out}4" --iterations=30 --eval_every=10 --seeds=2 --resume \
  --alpha_rate=2 --noplot > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --resume with another --alpha_rate" >&2
  exit 1
fi
grep -q "checkpoint_scir_seed1.pb: written with different settings" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --methods=scir,hmc > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --methods=scir,hmc" >&2
  exit 1
fi
grep -q "methods" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --atom_concentration=-1 > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --atom_concentration=-1" >&2
  exit 1
fi
grep -q "atom_concentration" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}" --train=/nonexistent.data --test=/x > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for a missing --train" >&2
  exit 1
fi
grep -q "nonexistent.data" "${TEST_TMPDIR}/err"
# An empty held-out file ran and scored a log predictive of exactly 0; --vocab without
# --train was ignored.
printf 'A,1000,1,"a","/a"\nA,1001,1,"b","/b"\nC,"1",1\nV,1000,1\nC,"2",2\nV,1001,1\n' \
  > "${TEST_TMPDIR}/two.data"
: > "${TEST_TMPDIR}/empty.data"
if "${bin}" --output_dir="${out}5" --iterations=10 --noplot --train="${TEST_TMPDIR}/two.data" \
  --test="${TEST_TMPDIR}/empty.data" > /dev/null 2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for an empty --test" >&2
  exit 1
fi
grep -q "empty.data: no visits (0 users, none with a visit)" "${TEST_TMPDIR}/err"
if "${bin}" --output_dir="${out}5" --iterations=10 --noplot --vocab=v.txt > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --vocab without --train" >&2
  exit 1
fi
grep -q "^dp_mixture: INVALID_ARGUMENT: --vocab needs --train and --test" "${TEST_TMPDIR}/err"
# 100000 threads ended in std::system_error (abort).
if "${bin}" --output_dir="${out}5" --iterations=10 --noplot --threads=100000 > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --threads=100000" >&2
  exit 1
fi
grep -q "^dp_mixture: INVALID_ARGUMENT: --threads must be in \[1, 1024\], got 100000" \
  "${TEST_TMPDIR}/err"
# Several starts: each run and reported apart (files _kK), the disagreement flagged.
"${bin}" --output_dir="${out}6" --iterations=20 --eval_every=10 --seeds=1 --methods=gibbs \
  --initial_components=2,40 --noplot > "${TEST_TMPDIR}/stdout6" 2> /dev/null
grep -q "^gibbs  start 2: mean log predictive" "${TEST_TMPDIR}/stdout6"
grep -q "^gibbs  start 40: mean log predictive" "${TEST_TMPDIR}/stdout6"
grep -q "^warning: gibbs seed 1: the starts disagree" "${TEST_TMPDIR}/stdout6"
test -e "${out}6/draws_gibbs_seed1_k2.csv"
test -e "${out}6/allocations_gibbs_seed1_k40.csv"
test "$(grep -c "^gibbs,1,.*,40$" "${out}6/summary.csv")" -eq 1
if "${bin}" --output_dir="${out}6" --initial_components=5,x > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --initial_components=5,x" >&2
  exit 1
fi
grep -q "^dp_mixture: INVALID_ARGUMENT: --initial_components: expected" "${TEST_TMPDIR}/err"
# A UCI corpus that is not msweb: rows and items, no msweb note; names from its vocabulary; a
# count-0 entry is reported.
printf '3\n3\n5\n1 1 2\n1 2 1\n2 3 3\n3 1 0\n3 2 2\n' > "${TEST_TMPDIR}/docword.toy.txt"
printf 'apple\nbanana\ncherry\n' > "${TEST_TMPDIR}/vocab.toy.txt"
"${bin}" --output_dir="${out}7" --iterations=10 --eval_every=5 --seeds=1 --minibatch_size=2 \
  --train="${TEST_TMPDIR}/docword.toy.txt" --test="${TEST_TMPDIR}/docword.toy.txt" \
  --vocab="${TEST_TMPDIR}/vocab.toy.txt" --noplot > "${TEST_TMPDIR}/stdout7" 2> /dev/null
grep -q "^train: 3 rows, 8 tokens; test: 3 rows, 8 tokens; 3 items$" "${TEST_TMPDIR}/stdout7"
grep -q "(1 with count 0)" "${TEST_TMPDIR}/stdout7"
grep -q "^note: different atom priors" "${TEST_TMPDIR}/stdout7"
if grep -q -e "paper's ordering" -e "Vroots" -e "users" "${TEST_TMPDIR}/stdout7"; then
  echo "msweb wording on a UCI corpus" >&2
  exit 1
fi
grep -q "apple\|banana\|cherry" "${out}7/clusters.csv"
test "$(cat "${out}7/allocations_gibbs_seed1.csv" | head -2 | tail -1 | cut -d, -f1)" = 1
echo PASS
