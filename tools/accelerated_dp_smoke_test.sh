#!/bin/sh
# Smoke test of //tools:accelerated_dp on threads: a job killed for real once its checkpoint
# exists and resumed, a job stopped after 2 of its 4 runs and one stopped inside its first run,
# resumed, write the same outputs as the uninterrupted job (the seconds aside); a UCI corpus
# gives feature tables by item name; bad flags name the flag.
set -eu
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/accelerated_dp"
flags="--train_points=400 --test_points=50 --iterations=60 --accelerated_iterations=20
  --initial_clusters=20 --methods=accelerated,collapsed --inits=one,kmeans --workers=2 --noplot"
# shellcheck disable=SC2086
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/whole" > "${TEST_TMPDIR}/whole.out" 2>&1
# The outputs without the seconds: trace.csv's column 4, summary.csv's columns 5-6 and its
# speed-up lines.
strip() {
  cut -d, -f1-3,5- "$1/trace.csv"
  grep -v "^# speedup" "$1/summary.csv" | cut -d, -f1-4,7-
  for f in "$1"/features_*.csv; do
    echo "${f##*/}"
    cat "${f}"
  done
}
strip "${TEST_TMPDIR}/whole" > "${TEST_TMPDIR}/whole.txt"
# Synthetic data are not images: a table of each feature's top items, no PNG.
test -e "${TEST_TMPDIR}/whole/features_collapsed_kmeans.csv"
test ! -e "${TEST_TMPDIR}/whole/features_collapsed_kmeans.png"
grep -q "^feature,size,top_items$" "${TEST_TMPDIR}/whole/features_accelerated_one.csv"
# Killed (SIGKILL) once the checkpoint exists, then resumed.
# shellcheck disable=SC2086
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/killed" > /dev/null 2>&1 &
pid=$!
while [ ! -e "${TEST_TMPDIR}/killed/checkpoint.pb" ] && kill -0 "${pid}" 2> /dev/null; do
  sleep 0.02
done
kill -9 "${pid}" 2> /dev/null || true
wait "${pid}" 2> /dev/null || true
# shellcheck disable=SC2086
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/killed" --resume > /dev/null \
  2> "${TEST_TMPDIR}/killed.err"
# (The first checkpoint is the first run's state at iteration 50, --checkpoint_every's default.)
grep -q "^resumed from ${TEST_TMPDIR}/killed/checkpoint.pb: [0-4] run(s) done" \
  "${TEST_TMPDIR}/killed.err"
strip "${TEST_TMPDIR}/killed" > "${TEST_TMPDIR}/killed.txt"
cmp "${TEST_TMPDIR}/whole.txt" "${TEST_TMPDIR}/killed.txt"
# Stopped after 2 of the 4 runs (no outputs but the checkpoint), then resumed.
# shellcheck disable=SC2086
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/stopped" --stop_after_runs=2 \
  > "${TEST_TMPDIR}/stopped.out" 2> /dev/null
grep -q "^stopped (--stop_after_runs=2, --stop_after=0); checkpoint in ${TEST_TMPDIR}/stopped; " \
  "${TEST_TMPDIR}/stopped.out"
test ! -e "${TEST_TMPDIR}/stopped/trace.csv"
# shellcheck disable=SC2086
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/stopped" --resume > /dev/null \
  2> "${TEST_TMPDIR}/stopped.err"
grep -q "resumed from .*: 2 run(s) done" "${TEST_TMPDIR}/stopped.err"
if grep -q "^\[accelerated one\]" "${TEST_TMPDIR}/stopped.err"; then
  echo "the resumed job ran a finished run again" >&2
  exit 1
fi
strip "${TEST_TMPDIR}/stopped" > "${TEST_TMPDIR}/stopped.txt"
cmp "${TEST_TMPDIR}/whole.txt" "${TEST_TMPDIR}/stopped.txt"
# Stopped inside the first run (the accelerated sampler's synchronisation at 30, states saved
# every 20 iterations), then resumed from its state.
# shellcheck disable=SC2086
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/inside" --stop_after=25 --checkpoint_every=20 \
  > "${TEST_TMPDIR}/inside.out" 2> /dev/null
grep -q "^stopped (--stop_after_runs=0, --stop_after=25)" "${TEST_TMPDIR}/inside.out"
# shellcheck disable=SC2086
"${bin}" ${flags} --output_dir="${TEST_TMPDIR}/inside" --resume > /dev/null \
  2> "${TEST_TMPDIR}/inside.err"
grep -q "resumed from .*: 0 run(s) done; accelerated/one at iteration 30" \
  "${TEST_TMPDIR}/inside.err"
strip "${TEST_TMPDIR}/inside" > "${TEST_TMPDIR}/inside.txt"
cmp "${TEST_TMPDIR}/whole.txt" "${TEST_TMPDIR}/inside.txt"
# Another worker count: refused, naming the checkpoint.
# shellcheck disable=SC2086
if "${bin}" ${flags} --workers=3 --output_dir="${TEST_TMPDIR}/stopped" --resume > /dev/null \
  2> "${TEST_TMPDIR}/err"; then
  echo "expected failure for --resume with another --workers" >&2
  exit 1
fi
grep -q "checkpoint.pb: written with different settings" "${TEST_TMPDIR}/err"
# A UCI corpus: features by item name; the count-0 entry and the empty row are said.
printf '4\n3\n6\n1 1 2\n1 2 1\n2 3 0\n3 3 4\n4 1 1\n4 2 2\n' > "${TEST_TMPDIR}/docword.toy.txt"
printf 'apple\nbanana\ncherry\n' > "${TEST_TMPDIR}/vocab.toy.txt"
"${bin}" --train="${TEST_TMPDIR}/docword.toy.txt" --test="${TEST_TMPDIR}/docword.toy.txt" \
  --vocab="${TEST_TMPDIR}/vocab.toy.txt" --train_points=0 --test_points=0 --iterations=5 \
  --methods=collapsed --inits=random --initial_clusters=2 --output_dir="${TEST_TMPDIR}/uci" \
  --noplot > "${TEST_TMPDIR}/uci.out" 2> "${TEST_TMPDIR}/uci.err"
grep -q "^note: .*docword.toy.txt: 4 documents (1 empty), 3 words, 6 entries (1 with count 0)" \
  "${TEST_TMPDIR}/uci.err"
grep -q "^note: .*docword.toy.txt: 1 of 4 rows without a count dropped" "${TEST_TMPDIR}/uci.err"
grep -q "apple (\|banana (\|cherry (" "${TEST_TMPDIR}/uci/features_collapsed_random.csv"
# Bad flags name the flag.
for bad in "--num_auxiliary=100000000" "--max_count=0" "--resume" "--top_items=0" \
  "--test=x.txt" "--stop_after=5" "--checkpoint_every=-1"; do
  if "${bin}" --iterations=2 "${bad}" > "${TEST_TMPDIR}/bad.out" 2>&1; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  flag="${bad%%=*}"
  grep -q -- "^accelerated_dp: [A-Z_]*: .*${flag}" "${TEST_TMPDIR}/bad.out" || {
    cat "${TEST_TMPDIR}/bad.out" >&2
    exit 1
  }
done
echo PASS
