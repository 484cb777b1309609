#!/bin/bash
# Smoke test of //tools:lda_generate_corpus and //tools:lda_topic_recovery: a small corpus is
# bit-identical for the same seed (plain and gzip) and differs for another; its header matches
# its body and the .phi file has K x V values; the true topics score 0 against themselves and
# a permutation of them; bad flags and mismatched matrices fail naming the problem, leaving
# no output.
set -euo pipefail
gen="$1"
score="$2"
t="${TEST_TMPDIR}"
common=(--documents=300 --heldout_documents=20 --vocabulary_size=400 --num_topics=6
        --mean_document_length=40 --alpha=0.2)
"${gen}" "${common[@]}" --output_dir="${t}/a" 2> "${t}/log"
"${gen}" "${common[@]}" --output_dir="${t}/b" 2> /dev/null
"${gen}" "${common[@]}" --output_dir="${t}/c" --seed=2 2> /dev/null
"${gen}" "${common[@]}" --output_dir="${t}/z" --gzip 2> /dev/null
"${gen}" "${common[@]}" --output_dir="${t}/z2" --gzip 2> /dev/null
for f in docword.txt heldout.docword.txt vocab.txt topics.phi generator.txt; do
  cmp "${t}/a/${f}" "${t}/b/${f}"
done
cmp "${t}/z/docword.txt.gz" "${t}/z2/docword.txt.gz"
cmp <(gzip -dc "${t}/z/docword.txt.gz") "${t}/a/docword.txt"
cmp <(gzip -dc "${t}/z/heldout.docword.txt.gz") "${t}/a/heldout.docword.txt"
! cmp -s "${t}/a/docword.txt" "${t}/c/docword.txt"
! cmp -s "${t}/a/topics.phi" "${t}/c/topics.phi"
! cmp -s "${t}/a/docword.txt" "${t}/a/heldout.docword.txt"
# Header D, W, NNZ against the body; the held-out file has its own D.
[[ "$(head -3 "${t}/a/docword.txt" | tr '\n' ' ')" == "300 400 $(( $(wc -l < "${t}/a/docword.txt") - 3 )) " ]]
[[ "$(head -1 "${t}/a/heldout.docword.txt")" == "20" ]]
[[ "$(awk 'NR > 3 { print $1 }' "${t}/a/docword.txt" | sort -n | tail -1)" == "300" ]]
[[ "$(wc -l < "${t}/a/vocab.txt")" == "400" && "$(head -1 "${t}/a/vocab.txt")" == "w1" ]]
[[ "$(stat -c %s "${t}/a/topics.phi")" == "$(( 24 + 8 * 6 * 400 ))" ]]
grep -q "^num_topics = 6$" "${t}/a/generator.txt"
grep -q "docword.txt: D = 300, N = .* documents/s" "${t}/log"
[[ -z "$(ls -A "${t}/a" | grep tmp || true)" ]]

# Recovery: the truth against itself and against a row permutation of it (as .f64 with the
# last row first) scores 0.
"${score}" --true_topics="${t}/a/topics.phi" --topics="${t}/a/topics.phi" > "${t}/self.csv"
[[ "$(sed -n 2p "${t}/self.csv")" == "${t}/a/topics.phi,6,0,0,0,0" ]]
python3 - "${t}/a/topics.phi" "${t}/perm.f64" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()[24:]
row = 8 * 400
rows = [data[i * row:(i + 1) * row] for i in range(6)]
open(sys.argv[2], "wb").write(b"".join(rows[5:] + rows[:5]))
PY
"${score}" --true_topics="${t}/a/topics.phi" --topics="${t}/perm.f64,${t}/c/topics.phi" \
  --output="${t}/perm.csv" --matching_output="${t}/pairs.csv"
[[ "$(sed -n 2p "${t}/perm.csv")" == "${t}/perm.f64,6,0,0,0,0" ]]
grep -q "^${t}/perm.f64,0,1,0$" "${t}/pairs.csv"
grep -q "^${t}/perm.f64,5,0,0$" "${t}/pairs.csv"
# Another seed's topics are far from these (Hellinger distance well above 0.3).
awk -F, 'NR == 3 { exit !($3 > 0.3) }' "${t}/perm.csv"

# Errors.
if "${gen}" --output_dir="${t}/bad" --num_topics=0 2> "${t}/err"; then exit 1; fi
grep -q "INVALID_ARGUMENT: --num_topics must be >= 1, got 0" "${t}/err"
[[ ! -e "${t}/bad/topics.phi" ]]
if "${gen}" --output_dir="${t}/bad" --document_length=uniform 2> "${t}/err"; then exit 1; fi
grep -q "document_length must be 'poisson' or 'fixed', got 'uniform'" "${t}/err"
if "${gen}" --output_dir="${t}/bad" --document_length=fixed --mean_document_length=2.5 \
  2> "${t}/err"; then exit 1; fi
grep -q -- "--mean_document_length must be an integer" "${t}/err"
# Options that pass the checks but fail while drawing the topics leave no file behind.
if "${gen}" --output_dir="${t}/under" --vocabulary_size=100000 --zipf_exponent=100 \
  2> "${t}/err"; then exit 1; fi
grep -q "underflows to 0 at word" "${t}/err"
[[ -z "$(ls -A "${t}/under")" ]]
"${gen}" --documents=5 --vocabulary_size=401 --num_topics=6 --output_dir="${t}/v401" 2> /dev/null
if "${score}" --true_topics="${t}/a/topics.phi" --topics="${t}/v401/topics.phi" \
  2> "${t}/err"; then exit 1; fi
grep -q "v401/topics.phi" "${t}/err"
grep -q "401" "${t}/err"
printf '0.5\t0.5\n-1\t2\n' > "${t}/neg.tsv"
"${gen}" --documents=5 --vocabulary_size=2 --num_topics=2 --output_dir="${t}/v2" 2> /dev/null
if "${score}" --true_topics="${t}/v2/topics.phi" --topics="${t}/neg.tsv" 2> "${t}/err"; then
  exit 1
fi
grep -q "neg.tsv" "${t}/err"
echo PASS
