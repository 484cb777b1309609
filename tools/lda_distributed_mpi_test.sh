#!/bin/sh
# //tools:lda_distributed and //tools:lda_distributed_mpi on a generated corpus:
# - the posterior-mean topics (topics.phi) are bit-identical for --ranks=1 (2 threads), 2, 4
#   and for mpirun -np 1, 2, 4 (oversubscribed, loopback);
# - a gzip cut mid-stream, a word id beyond V and a rank that cannot open its file each end
#   the run with a clear error on every rank, printed once, with no summary written;
# - interrupted (--stop_after) and resumed from the per-rank checkpoints under mpirun -np 2,
#   the topics are the uninterrupted run's; a missing or damaged rank file is refused;
# - a bad flag is refused naming it; a rank killed mid-run ends the job, never a hang.
set -eu
dir="${TEST_SRCDIR}/${TEST_WORKSPACE}/tools"
# shellcheck source=tools/mpi_ranks_testing.sh
. "${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/mpi_ranks_testing.sh"
t="${TEST_TMPDIR}"
"${dir}/lda_generate_corpus" --output_dir="${t}/c" --documents=600 --heldout_documents=50 \
  --vocabulary_size=500 --num_topics=8 --mean_document_length=50 --seed=3 > /dev/null
flags="--stream_docword=${t}/c/docword.txt --test_docword=${t}/c/heldout.docword.txt \
--true_topics=${t}/c/topics.phi --num_topics=50 --minibatch_size=60 --passes=5 \
--block_width=64 --gibbs_sweeps=10"
# shellcheck disable=SC2086
"${dir}/lda_distributed" ${flags} --threads=2 --output_dir="${t}/ref" > "${t}/ref.out"
grep -q "^topic recovery: mean Hellinger distance" "${t}/ref/summary.txt"
# No --preset: the settings by density (NNZ 9884 / (K 50 x V 500) = 0.40 entries per cell,
# so SCIR with beta 0.2 x 0.40).
grep -q "^settings (no --preset): 0.39536 document-word entries per topic-word cell .* < 2: scir_fast with beta 0.079072 " "${t}/ref.out"
grep -q "K = 50, scir, alpha 0.1, beta 0.079072," "${t}/ref.out"
# A --beta without --preset replaces the rule's beta, and the settings line says so.
# shellcheck disable=SC2086
"${dir}/lda_distributed" ${flags} --beta=0.05 --max_iterations=1 --output_dir="${t}/beta" \
  > "${t}/beta.out"
grep -q "^settings (no --preset): .* scir_fast with beta 0.079072 .*; --beta replaces its beta: 0.05$" "${t}/beta.out"
grep -q "K = 50, scir, alpha 0.1, beta 0.05," "${t}/beta.out"
# An SGRLD preset where the rule would run SCIR: a note says so; at K = 8 (2.47 entries per
# cell, SGRLD's side) none.
# shellcheck disable=SC2086
"${dir}/lda_distributed" ${flags} --preset=sgrld_fast --max_iterations=1 \
  --output_dir="${t}/sgrld" > "${t}/sgrld.out"
grep -q "^note: --preset=sgrld_fast runs SGRLD at 0.39536 document-word entries per topic-word cell .* < 2: scir_fast with beta 0.079072 .*; without --preset it would run that" "${t}/sgrld.out"
# shellcheck disable=SC2086
"${dir}/lda_distributed" ${flags} --preset=sgrld_fast --num_topics=8 --max_iterations=1 \
  --output_dir="${t}/sgrld8" > "${t}/sgrld8.out"
if grep -q "^note:" "${t}/sgrld8.out"; then exit 1; fi
# Without --preset, alpha follows K (models::DefaultLdaAlpha: 0.05 at K = 200) and says so;
# --alpha replaces it.
"${dir}/lda_distributed" --stream_docword="${t}/c/docword.txt" --num_topics=200 --max_iterations=1 \
  --output_dir="${t}/k200" > "${t}/k200.out"
grep -q "^lda_distributed: .* K = 200, scir, alpha 0.05, " "${t}/k200.out"
grep -q "; alpha 0.05 (K alpha = 0.05 K within \[5, 10\]: models::DefaultLdaAlpha)$" "${t}/k200.out"
"${dir}/lda_distributed" --stream_docword="${t}/c/docword.txt" --num_topics=200 --max_iterations=1 \
  --alpha=0.3 --output_dir="${t}/k200a" > "${t}/k200a.out"
grep -q "^lda_distributed: .* K = 200, scir, alpha 0.3, " "${t}/k200a.out"
if grep -q "DefaultLdaAlpha" "${t}/k200a.out"; then exit 1; fi
# Without --test_docword there is no held-out perplexity: said so, and an empty trace field
# (never a 0 that reads as a result).
"${dir}/lda_distributed" --stream_docword="${t}/c/docword.txt" --num_topics=8 --max_iterations=2 \
  --eval_every=1 --output_dir="${t}/notest" > /dev/null
grep -q "^lda_distributed: no held-out perplexity (no --test_docword); posterior-mean topics over" "${t}/notest/summary.txt"
if grep -q "held-out perplexity [0-9]" "${t}/notest/summary.txt"; then exit 1; fi
awk -F, 'NR > 1 && $9 != "" { exit 1 }' "${t}/notest/trace.csv"
test "$(wc -l < "${t}/notest/trace.csv")" -eq 3
test "$(wc -l < "${t}/ref/trace.csv")" -eq 2
for r in 2 4; do
  # shellcheck disable=SC2086
  "${dir}/lda_distributed" ${flags} --ranks="${r}" --output_dir="${t}/ranks${r}" > /dev/null
  cmp "${t}/ref/topics.phi" "${t}/ranks${r}/topics.phi"
done
for np in 1 2 4; do
  # shellcheck disable=SC2086
  mpi -np "${np}" "${dir}/lda_distributed_mpi" ${flags} --output_dir="${t}/np${np}" \
    > "${t}/np${np}.out" 2>&1
  grep -q "^${np} rank(s) x 1 thread(s)" "${t}/np${np}/summary.txt"
  cmp "${t}/ref/topics.phi" "${t}/np${np}/topics.phi"
done
# Interrupted after 13 iterations (checkpoints every 4: at 12) and resumed under mpirun -np 2:
# the topics of the uninterrupted run. A missing or damaged rank file is refused on every rank.
# shellcheck disable=SC2086
mpi -np 2 "${dir}/lda_distributed_mpi" ${flags} --checkpoint_every=4 --stop_after=13 \
  --output_dir="${t}/resumed" > "${t}/stop.out" 2>&1
grep -q "stopped (stop_after) at iteration 13" "${t}/stop.out"
test ! -e "${t}/resumed/topics.phi"
cp "${t}/resumed/checkpoint_rank1_of2.pb" "${t}/rank1.pb"
rm "${t}/resumed/checkpoint_rank1_of2.pb"
# shellcheck disable=SC2086
if mpi -np 2 "${dir}/lda_distributed_mpi" ${flags} --resume --output_dir="${t}/resumed" \
  > "${t}/partial.out" 2>&1; then
  echo "a resume with rank 1's checkpoint missing: expected a failure" >&2; exit 1
fi
test "$(grep -c "found the checkpoints of 1 of 2 ranks (missing: rank 1)" "${t}/partial.out")" -eq 1
cp "${t}/rank1.pb" "${t}/resumed/checkpoint_rank1_of2.pb"
# shellcheck disable=SC2086
mpi -np 2 "${dir}/lda_distributed_mpi" ${flags} --resume --output_dir="${t}/resumed" \
  > "${t}/resume.out" 2>&1
grep -q "resumed at iteration 12" "${t}/resume.out"
cmp "${t}/ref/topics.phi" "${t}/resumed/topics.phi"
printf 'x' | dd of="${t}/resumed/checkpoint_rank1_of2.pb" bs=1 seek=100 conv=notrunc 2> /dev/null
# shellcheck disable=SC2086
if mpi -np 2 "${dir}/lda_distributed_mpi" ${flags} --resume --output_dir="${t}/resumed" \
  > "${t}/damaged.out" 2>&1; then
  echo "a resume from a damaged checkpoint: expected a failure" >&2; exit 1
fi
test "$(grep -c "rank 1: .*checkpoint_rank1_of2.pb: .*damaged" "${t}/damaged.out")" -eq 1
# The chain learned: recovery below 0.55, where one iteration leaves 0.75 (measured; seeds 1
# and 2 of the chain end at 0.40 and 0.45 after these 5 passes).
awk '/^topic recovery/ { if ($6 + 0 > 0.55) { print "recovery " $6 > "/dev/stderr"; exit 1 } }' \
  "${t}/ref/summary.txt"

expect_error() {  # name, pattern, command...
  name="$1"; pattern="$2"; shift 2
  if "$@" > "${t}/${name}.out" 2>&1; then
    echo "${name}: expected a failure" >&2; exit 1
  fi
  if [ "$(grep -c "${pattern}" "${t}/${name}.out")" -ne 1 ]; then
    echo "${name}: expected one line matching ${pattern}:" >&2; cat "${t}/${name}.out" >&2; exit 1
  fi
  test ! -e "${t}/${name}/summary.txt"
}
# A gzip cut in the middle.
gzip -c "${t}/c/docword.txt" > "${t}/full.gz"
head -c "$(( $(wc -c < "${t}/full.gz") / 2 ))" "${t}/full.gz" > "${t}/cut.txt.gz"
# shellcheck disable=SC2086
expect_error cut "cut.txt.gz: truncated or corrupt input after line" mpi -np 2 "${dir}/lda_distributed_mpi" ${flags} \
  --stream_docword="${t}/cut.txt.gz" --output_dir="${t}/cut"
# A word id beyond V = 500 on line 10.
awk 'NR == 10 { $2 = 501 } { print }' "${t}/c/docword.txt" > "${t}/bad.txt"
# shellcheck disable=SC2086
expect_error badword "bad.txt:10" mpi -np 2 "${dir}/lda_distributed_mpi" ${flags} \
  --stream_docword="${t}/bad.txt" --output_dir="${t}/badword"
# Rank 1 alone cannot open its file: every rank ends with rank 1's error, printed once.
cat > "${t}/rank1_missing.sh" <<SCRIPT
#!/bin/sh
if [ "\${OMPI_COMM_WORLD_RANK}" = 1 ]; then
  exec "${dir}/lda_distributed_mpi" ${flags} --stream_docword="${t}/missing.txt" --output_dir="${t}/missing"
fi
exec "${dir}/lda_distributed_mpi" ${flags} --output_dir="${t}/missing"
SCRIPT
chmod +x "${t}/rank1_missing.sh"
expect_error missing "rank 1: .*missing.txt" mpi -np 3 "${t}/rank1_missing.sh"
# shellcheck disable=SC2086
expect_error flag "block_width must be >= 2" "${dir}/lda_distributed" ${flags} --block_width=1 \
  --output_dir="${t}/flag"
# shellcheck disable=SC2086
expect_error beta_flag "beta must be finite and > 0, got -1" "${dir}/lda_distributed" ${flags} \
  --beta=-1 --output_dir="${t}/beta_flag"
# A rank killed with SIGKILL at a seeded random point (0.3 to 2.3 s in: set-up, sweeps,
# exchanges or a checkpoint write), whichever rank: mpirun ends the job with an error (exit code
# not 0, not 124: a hang), and no result is written.
# shellcheck disable=SC2086
kill_at_seeded_points 29 0.3 2 lda_distributed 3 "${t}/killed.out" \
  mpi -np 3 "${dir}/lda_distributed_mpi" ${flags} --passes=100000 --checkpoint_every=7 \
  --output_dir="${t}/killed"
test "${killed_points}" -eq 3
test ! -e "${t}/killed/summary.txt"
echo PASS
