#!/bin/bash
# Smoke test of //tools:text_to_uci: two one-line documents become a UCI corpus; a missing
# input fails with a message naming it, and so does an input with no document kept.
set -euo pipefail
tool="$1"
printf 'Apples and pears, apples!\nThe ripe pears.\n' > "${TEST_TMPDIR}/in.txt"
"${tool}" --input="${TEST_TMPDIR}/in.txt" --docword="${TEST_TMPDIR}/d.txt" \
  --vocab_out="${TEST_TMPDIR}/v.txt" 2> "${TEST_TMPDIR}/log"
[[ "$(cat "${TEST_TMPDIR}/d.txt")" == "$(printf '2\n3\n4\n1 1 2\n1 2 1\n2 2 1\n2 3 1')" ]]
[[ "$(cat "${TEST_TMPDIR}/v.txt")" == "$(printf 'apples\npears\nripe')" ]]
grep -q "2 stop words" "${TEST_TMPDIR}/log"
if "${tool}" --input=/no/such/file --docword=x --vocab_out=y 2> "${TEST_TMPDIR}/err"; then
  exit 1
fi
grep -q "/no/such/file" "${TEST_TMPDIR}/err"
# An empty input, or one whose every word is dropped, wrote a W = 0 corpus that no UCI reader
# accepts, and exited 0.
: > "${TEST_TMPDIR}/empty.txt"
printf 'the and of\n' > "${TEST_TMPDIR}/stop.txt"
for input in empty.txt stop.txt; do
  if "${tool}" --input="${TEST_TMPDIR}/${input}" --docword="${TEST_TMPDIR}/d0.txt" \
    --vocab_out="${TEST_TMPDIR}/v0.txt" 2> "${TEST_TMPDIR}/err"; then
    echo "expected failure for ${input}" >&2
    exit 1
  fi
  grep -q "^text_to_uci: INVALID_ARGUMENT: .*${input}: no document kept (D = 0, W = 0" \
    "${TEST_TMPDIR}/err"
  [[ ! -e "${TEST_TMPDIR}/d0.txt" ]]
done
echo PASS
