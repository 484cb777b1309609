#!/bin/bash
# Smoke test of //tools:lda as the README runs it: the embedded KOS corpus with the default
# run (iterations cut to 20), progress on stderr, every output file, a resume, a config error
# naming the file and field.
set -euo pipefail
tool="$1"
out="${TEST_TMPDIR}/lda"
"${tool}" --iterations=20 --threads=2 --plot=false --output_dir="${out}" \
  > "${TEST_TMPDIR}/stdout" 2> "${TEST_TMPDIR}/stderr"
grep -q "embedded KOS corpus" "${TEST_TMPDIR}/stderr"
# No preset in the config: the default for KOS's long documents, with the reason.
grep -q "\[scir_fast\] preset scir_fast (default for a mean document length of 136.2 tokens, >= 100" \
  "${TEST_TMPDIR}/stderr"
grep -q "\[scir_fast\] iter 20/20 .* docs/s .* tokens/s .* ETA .* perplexity" "${TEST_TMPDIR}/stderr"
[[ "$(head -1 "${out}/trace_scir_fast.csv")" == "iteration,train_seconds,documents,tokens,step_size,perplexity,running_perplexity" ]]
[[ "$(wc -l < "${out}/trace_scir_fast.csv")" -eq 21 ]]
# Perplexities are finite numbers between 1 and V = 6906.
awk -F, 'NR > 1 && !($6 > 1 && $6 < 6906 && $7 > 1 && $7 < 6906) { exit 1 }' \
  "${out}/trace_scir_fast.csv"
[[ "$(wc -l < "${out}/topics_scir_fast.txt")" -eq 50 ]]
[[ "$(wc -l < "${out}/topic_matrix_scir_fast.tsv")" -eq 50 ]]
[[ -s "${out}/checkpoint_scir_fast.pb" ]]
grep -q "scir_fast: held-out perplexity .* (posterior-mean topics over 11 samples, fold-in) after 20 iterations" "${out}/summary.txt"
grep -q "other figures: fold-in perplexity of the last sample" "${out}/summary.txt"
# Resume to 24 iterations (burn-in fixed by the first run's setting of 10: same settings).
printf 'runs { iterations: 24 burn_in: 10 num_topics: 50 }\n' > "${TEST_TMPDIR}/resume.textpb"
"${tool}" --config="${TEST_TMPDIR}/resume.textpb" --plot=false --output_dir="${out}" --resume \
  2> "${TEST_TMPDIR}/stderr2"
grep -q "resumed from .* at iteration 20" "${TEST_TMPDIR}/stderr2"
grep -q "scir_fast: held-out perplexity .* after 24 iterations" "${out}/summary.txt"
# Negative overrides are refused (they were ignored: a full default run).
# SCIR's lazy topic update from the flag; the settings line names it, the time line follows.
"${tool}" --iterations=3 --threads=2 --plot=false --output_dir="${TEST_TMPDIR}/lazy" \
  --topic_update=lazy 2> "${TEST_TMPDIR}/stderr3"
grep -q "topic_update=lazy" "${TEST_TMPDIR}/stderr3"
grep -q "\[scir_fast\] time: 3 steps .* (topic update .* posterior mean .*), evaluations" \
  "${TEST_TMPDIR}/stderr3"
for bad in "--threads=-2" "--threads=1025" "--iterations=-5" "--passes=-1" "--held_out_documents=-3" "--count_estimator=PERSISTENT_JOINT" \
  "--topic_update=fast"; do
  if "${tool}" --plot=false --output_dir="${TEST_TMPDIR}/bad" "${bad}" \
    2> "${TEST_TMPDIR}/err"; then
    echo "expected failure for ${bad}" >&2
    exit 1
  fi
  grep -q -- "^lda: INVALID_ARGUMENT: ${bad%%=*}" "${TEST_TMPDIR}/err"
done
# Config errors name the file and the field.
printf 'runs {\n  alpha: -2\n}\n' > "${TEST_TMPDIR}/bad.textpb"
if "${tool}" --config="${TEST_TMPDIR}/bad.textpb" 2> "${TEST_TMPDIR}/err"; then exit 1; fi
grep -q "bad.textpb: runs\[0\].alpha must be finite and > 0, got -2" "${TEST_TMPDIR}/err"
printf 'runs {\n  alhpa: 2\n}\n' > "${TEST_TMPDIR}/typo.textpb"
if "${tool}" --config="${TEST_TMPDIR}/typo.textpb" 2> "${TEST_TMPDIR}/err"; then exit 1; fi
grep -q "typo.textpb:2:.*alhpa" "${TEST_TMPDIR}/err"
# A stream from standard input (one pass, gzip), held out from a separate file: 40 documents of
# 12 tokens over 6 words, minibatches of 8: 5 iterations; the corpus is never in memory.
stream="${TEST_TMPDIR}/stream"
mkdir -p "${stream}"
printf 'a\nb\nc\nd\ne\nf\n' > "${stream}/vocab.txt"
{ printf '40\n6\n80\n'; for d in $(seq 1 40); do
    printf '%d %d 6\n%d %d 6\n' "${d}" $(( (d % 3) * 2 + 1 )) "${d}" $(( (d % 3) * 2 + 2 )); done; } \
  | gzip > "${stream}/docword.txt.gz"
printf '2\n6\n2\n1 1 5\n2 3 5\n' > "${stream}/test.txt"
printf 'runs { num_topics: 3 minibatch_size: 8 gibbs_sweeps: 4 }\n' > "${stream}/small.textpb"
"${tool}" --config="${stream}/small.textpb" --stream_docword=- --vocab="${stream}/vocab.txt" \
  --test_docword="${stream}/test.txt" --threads=2 --plot=false --output_dir="${stream}/out" \
  < "${stream}/docword.txt.gz" 2> "${stream}/stderr"
grep -q "training: 40 documents streamed per pass (never in memory), V = 6" "${stream}/stderr"
# The default preset follows the stream's density: 80 entries / (3 topics x 6 words) >= 2.
grep -q "sgrld_fast: held-out perplexity .* after 5 iterations" "${stream}/out/summary.txt"
grep -q "preset sgrld_fast (default for a stream of 4.44 document-word entries per topic-word cell" \
  "${stream}/stderr"
# Standard input cannot be read twice.
if "${tool}" --config="${stream}/small.textpb" --stream_docword=- --vocab="${stream}/vocab.txt" \
  --test_docword="${stream}/test.txt" --passes=2 --plot=false --output_dir="${stream}/out2" \
  < "${stream}/docword.txt.gz" 2> "${stream}/err"; then exit 1; fi
grep -q "stream.passes must be 1 for standard input" "${stream}/err"
if "${tool}" --vocab=x --plot=false 2> "${stream}/err"; then exit 1; fi
grep -q "give --stream_docword or --stream_text" "${stream}/err"
echo PASS
