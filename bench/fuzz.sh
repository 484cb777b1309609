#!/usr/bin/env bash
# Long libFuzzer runs of the fuzz targets of //fuzz under --config=fuzz (clang-14, libFuzzer,
# ASan + UBSan), one target at a time, one process each (the machine is shared).
#
#   bench/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]     # default 180 s, every target
#   bench/fuzz.sh 60 wav_fuzzer ratings_fuzzer
#   FUZZ_RUNS=10000000 bench/fuzz.sh 7200 idx_fuzzer   # stop at 10^7 executions (or 7200 s)
#
# Each target runs on a scratch copy of its seeds (fuzz/corpus/<name>/; the inputs libFuzzer
# adds stay out of the repository, under $FUZZ_WORK, default /tmp/sgmcmc_fuzz). A crash, a
# sanitizer report, a failed contract check, a timeout (-timeout=10 s per input) or memory over
# -rss_limit_mb=2048 stops the target and leaves the input in $FUZZ_WORK/findings/<target>/;
# check it in as a seed (the regression test: the target's _test replays it) once fixed.
# Prints one Markdown row per target: executions, exec/s, coverage (libFuzzer's cov: edges
# and ft: features at the end), corpus size, peak RSS and findings; the rows go to
# docs/FUZZING.md with the date and the load average.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-180}"
shift || true
work="${FUZZ_WORK:-/tmp/sgmcmc_fuzz}"
# The targets write each input to a scratch file (fuzz/fuzz_support.h): on tmpfs, not disk.
export SGMCMC_FUZZ_TMPDIR="${SGMCMC_FUZZ_TMPDIR:-/dev/shm}"
mkdir -p "${work}"

# FUZZ_BIN=dir: run the fuzzers already built there (e.g. a copy of bazel-bin/fuzz made after
# `./bazelw build --config=fuzz //fuzz:all`, so that a rebuild cannot replace them mid-run).
if [[ -n "${FUZZ_BIN:-}" ]]; then
  bin="${FUZZ_BIN}"
else
  ./bazelw build --config=fuzz --jobs=2 //fuzz:all >&2
  bin="$(./bazelw info --config=fuzz bazel-bin 2>/dev/null)/fuzz"
fi

targets=("$@")
if (( ${#targets[@]} == 0 )); then
  targets=($(cd "${bin}" && ls *_fuzzer | sort))
fi

echo "| target | seconds | executions | exec/s | cov | ft | corpus | peak RSS MB | findings |"
echo "|---|---|---|---|---|---|---|---|---|"
for target in "${targets[@]}"; do
  name="${target%_fuzzer}"
  corpus="${work}/corpus/${name}"
  findings="${work}/findings/${target}"
  mkdir -p "${corpus}" "${findings}"
  log="${work}/${target}.log"
  status=0
  limit=(-max_total_time="${seconds}")
  [[ -n "${FUZZ_RUNS:-}" ]] && limit+=(-runs="${FUZZ_RUNS}")
  start="${SECONDS}"
  "${bin}/${target}" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="${findings}/" \
    "${corpus}" "fuzz/corpus/${name}" > "${log}" 2>&1 || status=$?
  elapsed=$(( SECONDS - start ))
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}" | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "${log}" | tail -1)"
  rss="$(sed -n 's/^stat::peak_rss_mb: *//p' "${log}" | tail -1)"
  last="$(grep -E '^#[0-9]+' "${log}" | tail -1)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "${last}")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "${last}")"
  units="$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<< "${last}")"
  if (( status == 0 )); then
    found="none"
  else
    found="exit ${status}: $(ls "${findings}" | head -3 | tr '\n' ' ')(log ${log})"
  fi
  echo "| ${target} | ${elapsed} | ${runs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${units:-?} | ${rss:-?} | ${found} |"
done
