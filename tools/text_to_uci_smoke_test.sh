#!/bin/bash
# Smoke test of //tools:text_to_uci: two one-line documents become a UCI corpus; a missing
# input fails with a message naming it.
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
echo PASS
